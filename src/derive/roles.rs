//! Which switch ports the OpenFlow controller forwards and which the switch's own L2/L3
//! forwards: every port gets one role, stated in the IR (`role: openflow | legacy`) so the
//! checks, the templates and a twin read the same answer.
//!
//! Hybrid mode with `openflow.ports`: exactly the ports named (a breakout parent covers its
//! subports; a LAG is OpenFlow when all its members are named). Hybrid without it: the
//! cabled ports whose link has no explicit L2/L3 mode, no address, no circuit VLAN and no
//! LAG (DTN ports and plain inter-switch links). Pure and OVS: every cabled port.

use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{End, LinkKind, Model, NodeId};
use crate::spec::switch::OfMode;

/// Sets `Port::openflow` on every switch port.
pub(crate) fn assign(m: &mut Model, diags: &mut Diags) {
    for sw in 0..m.switches.len() {
        let Some(of) = &m.switches[sw].openflow else {
            continue;
        };
        let (mode, listed) = (of.mode, of.ports.as_ref());
        let explicit = listed.is_some();
        let roles: Vec<bool> = m.switches[sw]
            .ports
            .iter()
            .map(|p| {
                let Some(l) = p.link else { return false };
                let link = &m.links[l];
                match (mode, listed) {
                    (OfMode::Pure | OfMode::Ovs, _) => true,
                    (_, Some(list)) => list
                        .iter()
                        .any(|(n, _)| *n == p.name || p.parent.as_deref() == Some(n.as_str())),
                    _ => {
                        let circuit = matches!(link.kind, LinkKind::Wan(_)) && link.vlan.is_some();
                        link.mode.is_none() && p.address.is_none() && !circuit && link.lag.is_none()
                    }
                }
            })
            .collect();
        for (p, r) in m.switches[sw].ports.iter_mut().zip(roles) {
            p.openflow = r;
        }
        if explicit {
            legacy_settings(m, sw, diags);
        }
    }
    mixed_lags(m, diags);
}

/// E0267 for each named OpenFlow port whose link carries legacy-only settings.
fn legacy_settings(m: &Model, sw: usize, diags: &mut Diags) {
    let s = &m.switches[sw];
    let Some(list) = s.openflow.as_ref().and_then(|o| o.ports.as_ref()) else {
        return;
    };
    for p in s.ports.iter().filter(|p| p.openflow) {
        let Some(l) = p.link else { continue };
        let link = &m.links[l];
        let what = if link.mode.is_some() {
            "an L2/L3 `mode`"
        } else if !link.vlans.is_empty() || link.vlan.is_some() {
            "VLANs"
        } else if p.address.is_some() {
            "an address"
        } else {
            continue;
        };
        let span = list
            .iter()
            .find(|(n, _)| *n == p.name || p.parent.as_deref() == Some(n.as_str()))
            .map_or(link.span, |(_, sp)| *sp);
        diags.push(
            Diagnostic::new(
                codes::OPENFLOW_PORT_CONFIG,
                span,
                format!(
                    "`{}:{}` is named an OpenFlow port, but its link sets {what}",
                    s.name.value, p.name
                ),
            )
            .label("under the controller")
            .also(link.span, format!("this link sets {what}"))
            .help("an OpenFlow port forwards by the controller's rules alone: drop those settings from the link, or leave the port out of `openflow.ports`"),
        );
    }
}

/// E0266 for each LAG end whose members were named only in part (one pass over the LAGs).
fn mixed_lags(m: &Model, diags: &mut Diags) {
    for lag in &m.lags {
        let Some(&first) = lag.members.first() else {
            continue;
        };
        let l = &m.links[first];
        for me in [l.a.node, l.b.node] {
            let NodeId::Switch(sw) = me else { continue };
            mixed_lag(m, lag, sw, diags);
        }
    }
}

fn mixed_lag(m: &Model, lag: &crate::resolve::model::Lag, sw: usize, diags: &mut Diags) {
    let me = NodeId::Switch(sw);
    let ends: Vec<End> = lag
        .members
        .iter()
        .filter_map(|&l| {
            let link = &m.links[l];
            [link.a, link.b].into_iter().find(|e| e.node == me)
        })
        .collect();
    let on = ends.iter().filter(|e| m.port(**e).openflow).count();
    if on == 0 || on == ends.len() {
        return;
    }
    let (Some(yes), Some(no)) = (
        ends.iter().find(|e| m.port(**e).openflow),
        ends.iter().find(|e| !m.port(**e).openflow),
    ) else {
        return;
    };
    let span = m.switches[sw]
        .openflow
        .as_ref()
        .and_then(|o| o.ports.as_ref())
        .and_then(|l| l.iter().find(|(n, _)| *n == m.port(*yes).name))
        .map_or(lag.span, |(_, s)| *s);
    diags.push(
        Diagnostic::new(
            codes::OPENFLOW_LAG,
            span,
            format!(
                "`{}` is named an OpenFlow port, but `{}` of the same LAG is not",
                m.end_name(*yes),
                m.end_name(*no)
            ),
        )
        .label("part of a LAG")
        .also(lag.span, "the LAG")
        .help("a LAG is forwarded as one port: name all its members in `openflow.ports`, or none"),
    );
}

/// Whether a port of switch `s` is under the controller (forwards nothing until the
/// controller installs flows): the role `derive::roles` gave it, the one answer the
/// checks, the lowering and the IR share.
pub(crate) fn under_openflow(
    m: &crate::resolve::model::Model,
    s: crate::resolve::model::SwitchId,
    port: usize,
) -> bool {
    m.switches[s].ports.get(port).is_some_and(|p| p.openflow)
}
