//! BGP over routed WAN connections that name a `peer_asn`. The remote AS is the peer
//! switch's own `asn` when it has one, else the WAN's `peer_asn`. The router id is the
//! switch's `router_id`, else its first BGP-facing address.

use super::Lx;
use crate::diag::{Diagnostic, codes};
use crate::ir::interface::{Interface, Vlan};
use crate::ir::routing::{Bgp, BgpNeighbor, Policy};
use crate::resolve::model::{LinkKind, NodeId};

pub(crate) fn bgp(lx: &mut Lx, interfaces: &[Interface], vlans: &[Vlan]) -> Option<Bgp> {
    let s = lx.switch();
    let mut neighbors = Vec::new();
    let mut missing_asn = None;
    for (i, p) in s.ports.iter().enumerate() {
        let Some(l) = p.link else { continue };
        let link = &lx.m.links[l];
        let LinkKind::Wan(w) = link.kind else {
            continue;
        };
        let wan = &lx.m.wans[w];
        let Some(peer_asn) = wan.peer_asn else {
            continue;
        };
        let (Some((_, other)), Some(mine)) = (lx.ends(l), p.address) else {
            continue;
        };
        let Some(theirs) = lx.m.port(other).address else {
            continue;
        };
        if s.asn.is_none() {
            missing_asn.get_or_insert(wan.span);
        }
        let remote_as = match other.node {
            NodeId::Switch(o) => lx.m.switches[o].asn.unwrap_or(peer_asn),
            NodeId::Host(_) => peer_asn,
        };
        // The address may sit on a VLAN interface (a circuit's VLAN, the PicOS SVI quirk).
        let here = mine.addr.to_string();
        let on_vlan = vlans
            .iter()
            .filter_map(|v| v.l3.as_ref())
            .find(|l3| l3.ipv4.address == here)
            .map(|l3| l3.name.clone());
        let interface = on_vlan
            .or_else(|| interfaces.get(i).map(|x| x.name.clone()))
            .unwrap_or_default();
        let policy =
            |dir: &str, set: &crate::fxhash::FxMap<_, std::collections::BTreeSet<_>>| Policy {
                name: format!("democ-{}-{dir}", wan.name.value),
                prefixes: set
                    .get(&(lx.sw, l))
                    .into_iter()
                    .flatten()
                    .map(|p: &crate::spec::addr::Prefix| p.to_string())
                    .collect(),
            };
        neighbors.push((
            mine.addr,
            BgpNeighbor {
                address: theirs.addr.to_string(),
                remote_as,
                interface,
                description: wan.name.value.clone(),
                import: policy("in", &lx.plan.import),
                export: policy("out", &lx.plan.export),
            },
        ));
    }
    if let Some(span) = missing_asn {
        lx.report(
            "bgp-asn",
            Diagnostic::new(
                codes::CONFIG_INCOMPLETE,
                span,
                format!("`{}` peers over BGP here but has no `asn`", s.name.value),
            )
            .label("WAN connection with `peer_asn`")
            .also(s.name.span, "switch declared here")
            .help(format!("add `asn: <number>` to switch `{}`", s.name.value)),
        );
        return None;
    }
    let asn = s.asn?;
    if !lx.f.bgp && !neighbors.is_empty() {
        let span = s.name.span;
        let os = lx.os();
        lx.unsupported(
            "bgp",
            span,
            format!(
                "democ has no BGP syntax for `{os}` (switch `{}`)",
                s.name.value
            ),
            "drop `peer_asn` from its WAN connections, or use another OS",
        );
        return None;
    }
    let first = neighbors.iter().map(|(a, _)| *a).min();
    let router_id = s.router_id.or(first)?;
    neighbors.sort_by(|a, b| a.1.address.cmp(&b.1.address));
    let neighbors: Vec<BgpNeighbor> = neighbors.into_iter().map(|(_, n)| n).collect();
    let networks: Vec<crate::ir::switch::Ipv4> = lx.plan.networks[lx.sw]
        .iter()
        .map(|p| crate::ir::switch::Ipv4::new(p.addr, p.len))
        .collect();
    let policies = neighbors
        .iter()
        .any(|n| !n.import.prefixes.is_empty() || !n.export.prefixes.is_empty());
    let unsaid = match (
        lx.f.bgp_network || networks.is_empty(),
        lx.f.bgp_policy || !policies,
    ) {
        (true, true) => None,
        (false, true) => Some("BGP origination (`network`)"),
        (true, false) => Some("per-neighbor BGP prefix-list policy"),
        (false, false) => Some("BGP origination (`network`) and per-neighbor prefix-list policy"),
    };
    if let Some(what) = unsaid {
        let span = s.name.span;
        let os = lx.os();
        lx.manual(
            "bgp-policy",
            span,
            format!(
                "democ has no confirmed `{os}` syntax for {what} (switch `{}`)",
                s.name.value
            ),
            format!(
                "on `{}`, originate {} and filter each neighbor to the prefixes the IR lists (ir/switches/{}.json `bgp`)",
                s.name.value,
                if networks.is_empty() {
                    "nothing".to_string()
                } else {
                    networks.iter().map(|n| n.cidr.as_str()).collect::<Vec<_>>().join(", ")
                },
                s.name.value
            ),
        );
    }
    Some(Bgp {
        asn,
        router_id: router_id.to_string(),
        networks,
        neighbors,
    })
}
