//! The shared resources a flow crosses (link and LAG directions, NIC PCIe links, PCIe
//! switch uplinks, drives): what each carries, and the load on each link against it.

use super::explain::res_name;
use super::facts::switch_name;
use super::{CheckInput, HostFacts, LimitKind, LinkUse};
use crate::check::hashing::lag_hashed;
use crate::check::load::{Loads, Res};
use crate::check::pcie::{Use, usable_gbps};
use crate::resolve::model::{HostId, Model};

/// Capacity of a shared resource in Gbit/s (None: it bounds nothing).
pub(super) fn capacity(
    cx: &CheckInput,
    facts: &[HostFacts],
    loads: &Loads,
    r: &Res,
) -> Option<(f64, LimitKind)> {
    let m = cx.m;
    Some(match r {
        Res::Link(l, _) => (m.links[*l].capacity.gbps(), LimitKind::Link),
        Res::Lag(g, _) => (lag_hashed(cx, loads, r, *g).capacity, LimitKind::Lag),
        Res::Nic(h, n, tx) => {
            let v = if *tx {
                &facts[*h].nic_send
            } else {
                &facts[*h].nic_receive
            };
            ((*v.get(*n)?)?, LimitKind::Pcie)
        }
        Res::Uplink(h, i, tx) => (uplink(cx, *h, *i, *tx)?.1, LimitKind::Pcie),
        Res::Read(h) => (facts[*h].io.read_gbps, LimitKind::Storage),
        Res::Write(h) => (facts[*h].io.write_gbps, LimitKind::Storage),
    })
}

pub(crate) fn lag_gbps(m: &Model, g: usize) -> f64 {
    m.lags[g]
        .members
        .iter()
        .map(|&l| m.links[l].capacity.gbps())
        .sum()
}

/// A PCIe switch's uplink and what it carries of NIC traffic sent (`tx`: the NICs read
/// host memory through it) or received, Gbit/s.
pub(super) fn uplink(
    cx: &CheckInput,
    h: HostId,
    i: u16,
    tx: bool,
) -> Option<(crate::check::pcie::Lanes, f64)> {
    let host = &cx.m.hosts[h];
    let ch = cx.db.chassis.get(&host.chassis)?;
    let up = crate::check::pcie::uplink(ch, switch_name(cx, h, i))?;
    let u = if tx { Use::NicSend } else { Use::NicReceive };
    Some((up, usable_gbps(cx, host, up, u).ok()?))
}

/// A link or LAG direction's load and capacity, Gbit/s (None: it bounds nothing).
pub(super) fn link_load(
    cx: &CheckInput,
    facts: &[HostFacts],
    loads: &Loads,
    r: &Res,
) -> Option<(f64, f64)> {
    // The table shows what the links are, hashing aside (W0248 tells what it costs).
    let cap = match r {
        Res::Lag(g, _) => lag_gbps(cx.m, *g),
        _ => capacity(cx, facts, loads, r)?.0,
    };
    Some((loads.demand(r) / 1e9, cap))
}

pub(super) fn utilization_pct(load: f64, cap: f64) -> f64 {
    100.0 * load / cap.max(1e-9)
}

/// Whether `check` reports a link or LAG direction as full (`findings::capacity`): only
/// those need their names and flows when the plan itself is not shown.
pub(super) fn link_reported(cx: &CheckInput, facts: &[HostFacts], loads: &Loads, r: &Res) -> bool {
    link_load(cx, facts, loads, r).is_some_and(|(load, cap)| {
        let pct = utilization_pct(load, cap);
        pct > 100.0 + 1e-6 || pct > cx.m.settings.warn_utilization
    })
}

/// Load against capacity of one link or LAG direction.
pub(super) fn link_use(
    cx: &CheckInput,
    facts: &[HostFacts],
    loads: &Loads,
    r: &Res,
) -> Option<LinkUse> {
    let (load, cap) = link_load(cx, facts, loads, r)?;
    let direction = match r {
        Res::Link(_, f) | Res::Lag(_, f) => if *f { "a->b" } else { "b->a" }.to_string(),
        _ => return None,
    };
    let flows = loads.flows(r).to_vec();
    Some(LinkUse {
        link: res_name(cx.m, r),
        direction,
        load_gbps: load,
        capacity_gbps: cap,
        utilization_pct: utilization_pct(load, cap),
        flows,
    })
}
