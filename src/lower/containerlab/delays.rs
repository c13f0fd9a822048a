//! Every WAN link's delay applied in the lab: half its RTT (its one-way latency, as the
//! IR's `wan_delay_us`) on each end's egress, with the twin's own `tc ... netem` command
//! (`twin up --delay`), run by the node's `exec` after what else it runs.

use std::collections::BTreeMap;

use super::Ifaces;
use crate::derive::topology::link_latency_us;
use crate::ir::lab::Node;
use crate::resolve::model::{LinkKind, Model};

/// Appends each WAN end's netem command to its node's `exec`.
pub(crate) fn apply(
    m: &Model,
    us_per_km: Option<f64>,
    ifaces: &Ifaces,
    nodes: &mut BTreeMap<String, Node>,
) {
    let Some(km) = us_per_km else { return };
    for (id, l) in m.links.iter().enumerate() {
        if !matches!(l.kind, LinkKind::Wan(_)) {
            continue;
        }
        // As the IR rounds it (`wan_delay_us`): a span with none has no delay.
        let us = link_latency_us(m, id, km).round() as u64;
        if us == 0 {
            continue;
        }
        for e in [l.a, l.b] {
            let (Some(node), Some(dev)) = (
                nodes.get_mut(m.node_name(e.node)),
                ifaces.get(&(e.node, e.port)),
            ) else {
                continue;
            };
            node.exec.push(crate::twin::netem_command(dev, us));
        }
    }
}

/// Whether an `exec` command is a delay of this module's (kept when a host's exec is
/// replaced by its script's).
pub(crate) fn is_delay(cmd: &str) -> bool {
    cmd.starts_with("tc qdisc replace dev ") && cmd.contains(" root netem delay ")
}
