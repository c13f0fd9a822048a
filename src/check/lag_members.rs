//! The plan's per-member loads: for every direction of a port-channel that carries
//! flows, how its streams fall on its members and how that is known. Computed where the
//! sender's hash is documented to the bit and democ picks the client ports (a DTN's
//! Linux bond, `pick_ports`: `hashing::computed`); elsewhere the random model's expected
//! share per member, with the reason: the switch OS's manual names its function at most
//! (vendor.yaml `lag_hash`), or iperf3 picks ephemeral client ports.

use serde::Serialize;

use super::CheckInput;
use super::hashing::{Hashed, lag_hashed};
use super::load::{Loads, Res};
use super::predict::LinkUse;
use crate::resolve::model::NodeId;

#[derive(Clone, Debug, Serialize)]
pub(crate) struct LagMembers {
    /// The direction, as the link table names it.
    pub(crate) lag: String,
    /// `computed` or `random`.
    pub(crate) model: &'static str,
    /// How the members are chosen, and why the model is the one it is.
    pub(crate) hash: String,
    /// Units hashed (streams, or pairs under an address-only hash).
    pub(crate) units: u32,
    /// Gbit/s each member carries (computed: busiest first; random: the expected share,
    /// the same for each).
    pub(crate) members_gbps: Vec<f64>,
}

/// The per-member loads of every LAG direction among `links` (the plan's link table).
pub(crate) fn of(cx: &CheckInput, loads: &Loads, links: &[(Res, LinkUse)]) -> Vec<LagMembers> {
    links
        .iter()
        .filter_map(|(r, u)| {
            let Res::Lag(g, _) = *r else {
                return None;
            };
            let h = lag_hashed(cx, loads, r, g);
            Some(LagMembers {
                lag: u.link.clone(),
                model: if h.computed.is_some() {
                    "computed"
                } else {
                    "random"
                },
                hash: how(cx, loads, r, &h),
                units: h.streams,
                members_gbps: members(&h),
            })
        })
        .collect()
}

fn members(h: &Hashed) -> Vec<f64> {
    match &h.computed {
        Some(c) => c.gbps.iter().map(|&x| x.min(h.member_gbps)).collect(),
        None => vec![h.expected / h.members.max(1) as f64; h.members],
    }
}

/// How the sender picks a member, in words.
fn how(cx: &CheckInput, loads: &Loads, r: &Res, h: &Hashed) -> String {
    let m = cx.m;
    let Res::Lag(g, forward) = *r else {
        return String::new();
    };
    let Some(&first) = m.lags[g].members.first() else {
        return String::new();
    };
    let link = &m.links[first];
    let sender = if forward { link.a } else { link.b };
    match sender.node {
        NodeId::Host(host) => {
            let name = &m.hosts[host].name.value;
            if h.computed.is_some() {
                format!(
                    "`{name}`'s bond: Linux layer3+4 (bonding.rst; the hash modulo its {} members, bond_main.c), computed with the client ports democ picks (`pick_ports`)",
                    h.members
                )
            } else {
                let why = super::hashing::bond_loads(cx, loads, r, g)
                    .err()
                    .unwrap_or_default();
                format!("`{name}`'s bond: Linux layer3+4 (bonding.rst); random model: {why}")
            }
        }
        NodeId::Switch(s) => {
            let sw = &m.switches[s];
            let doc = crate::vendor::vendors()
                .ok()
                .and_then(|v| v.flavour(&sw.vendor, sw.os.as_str()))
                .map(|(_, f)| &f.lag_hash);
            match doc {
                Some(d) => format!(
                    "`{}` ({}): fields {}; function {}; random model: {} ({})",
                    sw.name.value,
                    sw.os.as_str(),
                    d.fields,
                    d.function,
                    if d.exact {
                        "documented to the bit, not yet computed by democ"
                    } else {
                        "the manual does not give the function to the bit"
                    },
                    d.source
                ),
                None => format!("`{}`: hash unconfirmed; random model", sw.name.value),
            }
        }
    }
}
