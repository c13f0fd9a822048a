//! OpenFlow: which ports the controller manages (their roles come from `derive::roles`),
//! and the switch's OpenFlow section. Pure and OVS: LAGs become OpenFlow LAG ports.

use std::collections::BTreeSet;

use super::Lx;
use crate::diag::{Diagnostic, codes};
use crate::ir::interface::{Interface, Lacp, PortChannel, Role};
use crate::ir::openflow::{Controller, Mode, OfLag, Openflow};
use crate::resolve::model::{End, NodeId};
use crate::spec::switch::OfMode;
use crate::vendor::{DpidRule, OfForbid};

/// Port indices under the controller (roles come from `derive::roles`); reports a routed
/// port on a switch whose ports all belong to the controller.
pub(crate) fn managed_ports(lx: &mut Lx) -> BTreeSet<usize> {
    let s = lx.switch();
    let Some(of) = &s.openflow else {
        return BTreeSet::new();
    };
    let mut out = BTreeSet::new();
    let mut routed = Vec::new();
    for (i, p) in s.ports.iter().enumerate() {
        if !p.openflow {
            continue;
        }
        out.insert(i);
        if let (Some(l), true, Some(_)) = (p.link, of.mode != OfMode::Hybrid, p.address) {
            routed.push((
                lx.m.links[l].span,
                lx.m.end_name(End {
                    node: NodeId::Switch(lx.sw),
                    port: i,
                }),
            ));
        }
    }
    let mode = of.mode.as_str();
    for (span, end) in routed {
        lx.report(
            "of-routed",
            Diagnostic::new(codes::VENDOR_UNSUPPORTED, span, format!("`{end}` is routed, but its switch runs `{mode}` OpenFlow"))
                .label("a routed link on a switch whose ports all belong to the controller")
                .help("use `openflow: { mode: hybrid }` to keep routed ports outside OpenFlow, or drop the address"),
        );
    }
    out
}

/// The OS forbids this feature on OpenFlow ports.
pub(crate) fn forbids(lx: &Lx, f: OfForbid) -> bool {
    lx.f.openflow.as_ref().is_some_and(|c| c.forbids(f))
}

fn mode(m: OfMode) -> Mode {
    match m {
        OfMode::Pure => Mode::Pure,
        OfMode::Ovs => Mode::Ovs,
        OfMode::Hybrid | OfMode::Off => Mode::Hybrid,
    }
}

/// Checks the OS can do what the spec asks; returns the caps when it can.
fn capable<'f>(lx: &mut Lx<'f>) -> Option<&'f crate::vendor::OfCaps> {
    let s = lx.switch();
    let of = s.openflow.as_ref()?;
    let (os, name, span, m) = (lx.os(), s.name.value.clone(), of.span, of.mode.as_str());
    let Some(caps) = lx.f.openflow.as_ref() else {
        lx.unsupported("of", span, format!("democ has no OpenFlow syntax for `{os}` (switch `{name}`)"), "set `openflow: { mode: off }` on this switch, or use an OS democ programs for OpenFlow (ftos9, os10, picos, onyx)");
        return None;
    };
    if !caps.modes.iter().any(|x| x == m) {
        let modes: Vec<&str> = caps.modes.iter().map(String::as_str).collect();
        lx.unsupported(
            "of",
            span,
            format!("`{os}` does not run `{m}` OpenFlow (switch `{name}`)"),
            format!("`{os}` runs {}", crate::diag::list(&modes)),
        );
        return None;
    }
    if !caps.versions.contains_key(&of.version) && !caps.version_knob {
        let v: Vec<&str> = caps.versions.keys().map(String::as_str).collect();
        lx.manual(
            "of",
            span,
            format!(
                "`{os}` documents OpenFlow {} only and has no version setting; the show asks `{name}` for {}",
                crate::diag::list(&v),
                of.version
            ),
            format!(
                "democ writes `{name}`'s rules in OpenFlow {}: make the controller speak it to `{name}`, and set `version:` to it to silence this",
                crate::diag::list(&v)
            ),
        );
    } else if !caps.versions.contains_key(&of.version) {
        let v: Vec<&str> = caps.versions.keys().map(String::as_str).collect();
        lx.unsupported(
            "of",
            span,
            format!(
                "democ cannot set OpenFlow {} on `{os}` (switch `{name}`)",
                of.version
            ),
            format!("use {}", crate::diag::list(&v)),
        );
        return None;
    }
    Some(caps)
}

/// The OpenFlow section, or None (with a diagnostic when the spec asked for one).
pub(crate) fn lower(
    lx: &mut Lx,
    dpid: Option<u64>,
    interfaces: &[Interface],
    lags: &[PortChannel],
) -> Option<Openflow> {
    let caps = capable(lx)?;
    let s = lx.switch();
    let of = s.openflow.as_ref()?;
    let (name, span, os) = (s.name.value.clone(), of.span, lx.os());
    let Some(controller) = of.controller else {
        lx.report(
            "of-controller",
            Diagnostic::new(codes::CONFIG_INCOMPLETE, span, format!("OpenFlow switch `{name}` has no controller"))
                .label("OpenFlow without a controller")
                .help("set `show.defaults.openflow.controller` or `openflow: { controller: ip:port }` on the switch"),
        );
        return None;
    };
    if !caps.controller && of.mode != OfMode::Ovs {
        // The datapath id and version are the OVS bridge's settings; without the
        // controller syntax democ applies neither (PicOS CrossFlow).
        let dpid = dpid
            .map(|d| format!(", datapath id {d:016x}"))
            .unwrap_or_default();
        lx.manual(
            "of-controller-syntax",
            span,
            format!("`{os}` sets the `{}` controller connection, datapath id and OpenFlow version in the switch's shell, not in its config (switch `{name}`)", of.mode.as_str()),
            format!("after loading the config, run the `ovs-vsctl` lines at its end in the switch's shell (tcp:{}:{}, OpenFlow {}{dpid}); only the controller line is confirmed for CrossFlow", controller.addr, controller.port, of.version),
        );
    }
    let explicit = of.dpid.is_some();
    let datapath_id = match caps.dpid {
        DpidRule::None => {
            if explicit {
                lx.manual(
                    "of-dpid",
                    span,
                    format!(
                        "`{os}` derives its datapath id itself; `dpid` is not applied on `{name}`"
                    ),
                    "drop `dpid:` or read the switch's datapath id from the controller",
                );
            }
            None
        }
        DpidRule::InstancePrefixed => {
            let d = dpid?;
            if d >> 48 != u64::from(of.instance) {
                lx.unsupported("of-dpid", span, format!("on `{os}` the datapath id starts with the instance number; {d:016x} does not start with {:04x}", of.instance), format!("use a dpid of the form {:04x}xxxxxxxxxxxx", of.instance));
            }
            Some(d)
        }
        DpidRule::Settable => dpid,
    };
    let datapath_mac = (caps.dpid == DpidRule::InstancePrefixed)
        .then_some(())
        .and(datapath_id)
        .map(mac);
    let ports = interfaces
        .iter()
        .filter(|i| i.role == Role::Openflow && i.lag.is_none())
        .map(|i| i.name.clone())
        .collect();
    let of_lags: Vec<OfLag> = lags
        .iter()
        .filter(|c| c.role == Role::Openflow)
        .map(|c| OfLag {
            name: c.name.clone(),
            members: c.members.clone(),
            lacp: c.lacp,
        })
        .collect();
    if of.mode == OfMode::Ovs && of_lags.iter().any(|g| g.lacp != Lacp::Static) {
        lx.unsupported(
            "of-lacp",
            span,
            format!("democ has no confirmed LACP syntax for PicOS OVS mode (switch `{name}`)"),
            "set `lag: { lacp: static }` on the links, or run the switch in `hybrid` mode",
        );
    }
    if of.agent_unconfirmed {
        let model = &lx.switch().model.value;
        lx.unconfirmed.insert(format!(
            "`openflow` on `{model}` (no source read names this platform)"
        ));
    }
    // Without a version setting the switch speaks what its manual documents (`capable`
    // warned), so its rules are written in that version's terms.
    let version = caps.version(&of.version);
    Some(Openflow {
        mode: mode(of.mode),
        version_cli: caps.versions.get(&version).cloned().unwrap_or_default(),
        version,
        instance: of.instance,
        name: caps.name.replace("{instance}", &of.instance.to_string()),
        controller: Controller {
            address: controller.addr.to_string(),
            port: controller.port,
            via: lx.m.settings.management.controller_via.as_str().to_owned(),
        },
        datapath_id: datapath_id.map(|d| format!("{d:016x}")),
        datapath_mac,
        preconditions: caps.preconditions.clone(),
        ports,
        lags: of_lags,
        // Filled by `rules` once every switch is lowered: a flow's rules depend on the
        // switches along its path.
        port_numbers: Vec::new(),
        ruleset: crate::ir::rules::Ruleset::default(),
    })
}

/// The low 48 bits as `aa:bb:cc:dd:ee:ff`.
fn mac(d: u64) -> String {
    let b = d.to_be_bytes();
    b[2..]
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}
