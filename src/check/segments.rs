//! VLANs end to end (derive::segments): E0255 where a flow's legacy-switched run admits
//! no common VLAN, E0256 where one DTN-facing access port would need two VLANs.

use super::CheckInput;
use crate::derive::segments::{Mixed, TwoAccess};
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::Model;

/// The link's span and a label naming it with the VLANs it admits.
fn vlan_words(v: &[u16]) -> String {
    match v {
        [] => "no VLAN".to_owned(),
        [one] => format!("VLAN {one}"),
        many => format!(
            "VLANs {}",
            many.iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn mixed(m: &Model, x: &Mixed) -> Diagnostic {
    let f = &m.flows[x.flow];
    let sw = &m.switches[x.at];
    let (a, b) = (&m.links[x.before.0], &m.links[x.after.0]);
    Diagnostic::new(
        codes::SEGMENT_VLANS,
        f.name.span,
        format!(
            "flow `{}` would have to be bridged by `{}` from {} into {}, and a legacy switch does not translate VLANs",
            f.name.value,
            sw.name.value,
            vlan_words(&x.before.1),
            vlan_words(&x.after.1)
        ),
    )
    .label(format!("its frames cannot cross `{}`", sw.name.value))
    .also(
        a.span,
        format!("{}: {}", m.link_name(x.before.0), vlan_words(&x.before.1)),
    )
    .also(
        b.span,
        format!("{}: {}", m.link_name(x.after.0), vlan_words(&x.after.1)),
    )
    .help(format!(
        "provision both on one VLAN, add it to the trunk's `vlans`, or route the flow through a router or an OpenFlow switch instead of bridging it on `{}`",
        sw.name.value
    ))
}

fn two_access(m: &Model, x: &TwoAccess) -> Diagnostic {
    let link = &m.links[x.link];
    let (f1, f2) = (&m.flows[x.first.1], &m.flows[x.second.1]);
    let mut d = Diagnostic::new(
        codes::ACCESS_PORT_VLANS,
        link.span,
        format!(
            "{} faces a DTN, so it is one access port, but flow `{}` needs it in VLAN {} and flow `{}` in VLAN {}",
            m.link_name(x.link),
            f1.name.value,
            x.first.0,
            f2.name.value,
            x.second.0
        ),
    )
    .label("one untagged port, two VLANs");
    d = d.also(f1.name.span, format!("rides VLAN {}", x.first.0));
    if x.first.1 != x.second.1 {
        d = d.also(f2.name.span, format!("rides VLAN {}", x.second.0));
    }
    d.help(format!(
        "give the links of the VLAN {} flow `vlan: {}`, route one of the flows, or cable the DTN with a second port",
        x.second.0, x.first.0
    ))
}

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let s = cx.segments;
    let mut seen = crate::fxhash::FxSet::default();
    for x in &s.mixed {
        // Once per flow and switch: every pair of a flow meets the same switch.
        if seen.insert((x.flow, x.at)) {
            diags.push(mixed(cx.m, x));
        }
    }
    for x in &s.two_access {
        diags.push(two_access(cx.m, x));
    }
}
