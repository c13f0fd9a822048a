//! `router bgp`, `router policy` and `vrf <name> router` (BGP neighbors and networks,
//! static routes), the management VRF's routes included.

use super::tree::{
    BgpFamilies, BgpUnicast, Config, Empty, Neighbor, NeighborFamilies, NeighborPolicy,
    NeighborUnicast, ON, Policy, PrefixList, PrefixMatch, PrefixRule, RouteMap, RouteMapAction,
    RouteMapMatch, RouteMapRef, RouteMapRule, Router, RouterBgp, StaticRoute, Via, Vrf, VrfBgp,
};
use crate::ir::Switch;
use crate::ir::routing::{Policy as IrPolicy, StaticRoute as IrRoute};

/// Cumulus Linux's management VRF (UG "Management VRF": the name is fixed).
pub(super) const MGMT_VRF: &str = "mgmt";

/// The BGP router id, where no port of the switch holds it already: the loopback
/// takes it, so the switch owns the address it names itself by.
pub(super) fn loopback(sw: &Switch) -> Option<&str> {
    let bgp = sw.bgp.as_ref()?;
    let id = bgp.router_id.as_str();
    let ports = sw.interfaces.iter().map(|i| &i.switching);
    let bonds = sw.port_channels.iter().map(|p| &p.switching);
    let held = ports
        .chain(bonds)
        .any(|s| s.ipv4.as_ref().is_some_and(|ip| ip.address == id))
        || sw
            .vlans
            .iter()
            .any(|v| v.l3.as_ref().is_some_and(|l| l.ipv4.address == id));
    (!held).then_some(id)
}

fn statics<'a>(
    routes: impl IntoIterator<Item = &'a IrRoute>,
) -> indexmap::IndexMap<String, StaticRoute> {
    routes
        .into_iter()
        .map(|r| {
            (
                r.prefix.clone(),
                StaticRoute {
                    address_family: "ipv4-unicast",
                    via: [(
                        r.next_hop.clone(),
                        Via {
                            kind: "ipv4-address",
                        },
                    )]
                    .into_iter()
                    .collect(),
                },
            )
        })
        .collect()
}

/// A prefix list permitting exactly the policy's prefixes (none: it denies all), and
/// the route map that applies it, as FRR's `ip prefix-list` / `route-map` pair.
fn policy(p: &IrPolicy, out: &mut Policy) {
    let mut rule: indexmap::IndexMap<String, PrefixRule> = p
        .prefixes
        .iter()
        .enumerate()
        .map(|(n, prefix)| {
            (
                ((n + 1) * 10).to_string(),
                PrefixRule {
                    matches: [(prefix.clone(), PrefixMatch::default())]
                        .into_iter()
                        .collect(),
                    action: "permit",
                },
            )
        })
        .collect();
    rule.insert(
        "1000".into(),
        PrefixRule {
            matches: [(
                "0.0.0.0/0".to_owned(),
                PrefixMatch {
                    max_prefix_len: Some(32),
                },
            )]
            .into_iter()
            .collect(),
            action: "deny",
        },
    );
    out.prefix_list
        .insert(p.name.clone(), PrefixList { kind: "ipv4", rule });
    out.route_map.insert(
        p.name.clone(),
        RouteMap {
            rule: [(
                "10".to_owned(),
                RouteMapRule {
                    matches: RouteMapMatch {
                        ip_prefix_list: p.name.clone(),
                    },
                    action: RouteMapAction { permit: Empty {} },
                },
            )]
            .into_iter()
            .collect(),
        },
    );
}

pub(super) fn write(sw: &Switch, c: &mut Config) {
    let mut default = Vrf::default();
    default.router.statics = statics(&sw.static_routes);
    if let Some(bgp) = &sw.bgp {
        let mut pol = Policy::default();
        let mut neighbor = indexmap::IndexMap::new();
        for n in &bgp.neighbors {
            policy(&n.import, &mut pol);
            policy(&n.export, &mut pol);
            neighbor.insert(
                n.address.clone(),
                Neighbor {
                    kind: "numbered",
                    remote_as: n.remote_as,
                    description: n.description.clone(),
                    address_family: NeighborFamilies {
                        ipv4_unicast: NeighborUnicast {
                            enable: ON,
                            policy: NeighborPolicy {
                                inbound: RouteMapRef {
                                    route_map: n.import.name.clone(),
                                },
                                outbound: RouteMapRef {
                                    route_map: n.export.name.clone(),
                                },
                            },
                        },
                    },
                },
            );
        }
        c.router = Some(Router {
            bgp: Some(RouterBgp {
                enable: ON,
                autonomous_system: bgp.asn,
                router_id: bgp.router_id.clone(),
            }),
            policy: (!pol.prefix_list.is_empty()).then_some(pol),
        });
        default.router.bgp = Some(VrfBgp {
            enable: ON,
            neighbor,
            address_family: BgpFamilies {
                ipv4_unicast: BgpUnicast {
                    enable: ON,
                    network: bgp
                        .networks
                        .iter()
                        .map(|p| (p.cidr.clone(), Empty {}))
                        .collect(),
                },
            },
        });
    }
    if default.router.bgp.is_some() || !default.router.statics.is_empty() {
        c.vrf.insert("default".into(), default);
    }
    if let Some(m) = &sw.management {
        // The default route through the gateway is eth0's `ip gateway` already.
        let routes: Vec<&IrRoute> = m
            .routes
            .iter()
            .filter(|r| !(r.prefix == "0.0.0.0/0" && m.gateway.as_ref() == Some(&r.next_hop)))
            .collect();
        if !routes.is_empty() {
            let mut mgmt = Vrf::default();
            mgmt.router.statics = statics(routes);
            c.vrf.insert(MGMT_VRF.into(), mgmt);
        }
    }
}
