//! Devices with no switch OS (`os: none`): a P4/FPGA board or packet broker that is a hop
//! with its own ports. democ writes no config for one, so a control-plane setting on it
//! would be applied by nothing (E0275).

use super::Rx;
use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::spec::switch::{OfMode, Switch};

pub(super) fn check(rx: &mut Rx, name: &str, s: &Switch) {
    let of = s
        .openflow
        .as_ref()
        .filter(|o| o.mode.value != OfMode::Off)
        .map(|o| ("openflow", o.mode.span));
    let set: [Option<(&str, Span)>; 4] = [
        of,
        s.asn.as_ref().map(|a| ("asn", a.span)),
        s.router_id.as_ref().map(|a| ("router_id", a.span)),
        s.gateway.as_ref().map(|g| ("gateway", g.span)),
    ];
    for (key, span) in set.into_iter().flatten() {
        rx.diags.push(
            Diagnostic::new(
                codes::NO_OS_CONFIG,
                span,
                format!("`{name}` runs no switch OS: nothing applies its `{key}`"),
            )
            .label("set on a device with `os: none`")
            .help("program the device with its own tools and remove the setting, or move it to a switch beside the device"),
        );
    }
}

/// A link's capacity with the forwarding rate of a device at either end (`throughput:`).
pub(crate) fn device_cap(
    m: &super::model::Model,
    ends: [super::model::End; 2],
    speed: crate::spec::units::Rate,
) -> crate::spec::units::Rate {
    use super::model::NodeId;
    ends.iter()
        .filter_map(|e| match e.node {
            NodeId::Switch(s) => m.switches[s].throughput,
            NodeId::Host(_) => None,
        })
        .fold(speed, |c, t| crate::spec::units::Rate(c.bps().min(t.bps())))
}
