//! NVMe over Fabrics: what each fabric can move from its target's drives to its
//! initiators, bounded by the exported drives, the target's PCIe link and port, the
//! initiators' ports and the network as predicted for the flow that carries it; and what
//! a planner must hear before the show: the exported drives and the target's NIC on
//! different sockets (W0290, with what crossing costs), a fabric no declared flow
//! carries (W0291: nothing routes it, writes its rules or makes its path lossless), a
//! fabric exporting more drives than its target has (E0114).

use serde::Serialize;

use super::CheckInput;
use super::predict::{Detail, FlowPrediction, HostFacts, Limit, LimitKind, goodput};
use crate::derive::paths::host_ports;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{Fabric, HostId, Model};
use crate::spec::fabric::Transport;
use crate::spec::flow::Protocol;

#[derive(Clone, Debug, Serialize)]
pub(crate) struct FabricPrediction {
    pub(crate) name: String,
    pub(crate) transport: &'static str,
    pub(crate) target: String,
    pub(crate) initiators: Vec<String>,
    /// Drives exported (namespaces).
    pub(crate) drives: u32,
    /// What the initiators can read from the target together, Gbit/s.
    pub(crate) predicted_gbps: f64,
    pub(crate) bottleneck: Limit,
    /// Every limit, smallest first.
    pub(crate) limits: Vec<Limit>,
    /// Declared flows that carry the fabric's traffic (target to initiators, same protocol).
    pub(crate) carried_by: Vec<String>,
    /// Share of the exported drives on another socket than the target's NIC.
    pub(crate) numa_crossing: f64,
}

/// The protocol a fabric's transport rides on.
pub(crate) fn protocol(t: Transport) -> Protocol {
    match t {
        Transport::Rdma => Protocol::Rdma,
        Transport::Tcp => Protocol::Tcp,
    }
}

/// Whether a flow joins the fabric's target and one of its initiators, either way.
fn joins(fab: &Fabric, pairs: &[(HostId, HostId)]) -> bool {
    pairs.iter().any(|&(a, b)| {
        (a == fab.target && fab.initiators.contains(&b))
            || (b == fab.target && fab.initiators.contains(&a))
    })
}

/// Flows joining target and initiators over the fabric's protocol, by index.
pub(crate) fn carriers(m: &Model, fab: &Fabric) -> Vec<usize> {
    let p = protocol(fab.transport);
    m.flows
        .iter()
        .enumerate()
        .filter(|(_, f)| f.protocol.value == p && joins(fab, &f.pairs))
        .map(|(i, _)| i)
        .collect()
}

/// Drives exported: `drives:`, else every drive of the target.
pub(crate) fn exported(m: &Model, fab: &Fabric) -> u32 {
    let total: u32 = m.hosts[fab.target].nvme.iter().map(|g| g.count).sum();
    fab.drives.as_ref().map_or(total, |d| d.value.min(total))
}

/// The port a host uses toward a peer: the one a carrying flow's route leaves or enters
/// it by, else its first cabled port.
pub(crate) fn port_toward(cx: &CheckInput, fab: &Fabric, host: HostId) -> Option<usize> {
    let m = cx.m;
    for fi in carriers(m, fab) {
        for pr in &cx.routes.flows[fi].pairs {
            for first in [true, false] {
                if let Some((h, p)) = host_ports(m, pr, first).next()
                    && h == host
                {
                    return Some(p);
                }
            }
        }
    }
    m.hosts[host].ports.iter().position(|p| p.link.is_some())
}

/// The socket of each exported drive, in namespace order (groups in declaration order).
pub(crate) fn drive_sockets(cx: &CheckInput, host: HostId, n: u32) -> Vec<Option<u8>> {
    let h = &cx.m.hosts[host];
    let ch = cx.db.chassis.get(&h.chassis);
    h.nvme
        .iter()
        .flat_map(|g| {
            let s = ch
                .and_then(|c| super::storage::group_attach(c, g))
                .and_then(|a| a.socket);
            std::iter::repeat_n(s, g.count as usize)
        })
        .take(n as usize)
        .collect()
}

/// A host port's rate on the wire for the fabric's protocol, and its NIC's PCIe bound
/// sending (`tx`: the target serving reads) or receiving (an initiator reading).
fn port_limits(
    cx: &CheckInput,
    facts: &[HostFacts],
    host: HostId,
    port: usize,
    p: Protocol,
    tx: bool,
) -> (f64, Option<f64>) {
    let m = cx.m;
    let h = &m.hosts[host];
    let wire = h.ports[port].link.map_or(0.0, |l| {
        m.links[l].capacity.gbps() * goodput(cx, p, h.mtu.value)
    });
    let usable = if tx {
        &facts[host].nic_send
    } else {
        &facts[host].nic_receive
    };
    let pcie = h.ports[port]
        .nic
        .and_then(|n| usable.get(n).copied().flatten());
    (wire, pcie)
}

fn limit(kind: LimitKind, gbps: f64, why: String) -> Limit {
    Limit {
        kind,
        gbps,
        why: why.into(),
        fix: None,
    }
}

/// One prediction per fabric, in the spec's order, from the flows predicted at `detail`
/// (`Shortfalls`: the flows' limits, though known, are not used; as `check` alone sees
/// them, whose findings must not depend on how much else was predicted).
pub(crate) fn predict(
    cx: &CheckInput,
    facts: &[HostFacts],
    flows: &[FlowPrediction],
    detail: Detail,
) -> Vec<FabricPrediction> {
    cx.m.fabrics
        .iter()
        .map(|fab| one(cx, facts, (flows, detail), fab))
        .collect()
}

fn one(
    cx: &CheckInput,
    facts: &[HostFacts],
    (flows, detail): (&[FlowPrediction], Detail),
    fab: &Fabric,
) -> FabricPrediction {
    let m = cx.m;
    let p = protocol(fab.transport);
    let t = &m.hosts[fab.target];
    let io = &facts[fab.target].io;
    let n = exported(m, fab);
    let mut limits = Vec::new();
    let port = port_toward(cx, fab, fab.target);
    let nic_socket = port
        .and_then(|p| t.ports[p].nic)
        .and_then(|nic| facts[fab.target].nic_socket.get(nic).copied().flatten());
    let sockets = drive_sockets(cx, fab.target, n);
    let crossing = match nic_socket {
        Some(s) if n > 0 => {
            sockets.iter().filter(|d| d.is_some_and(|d| d != s)).count() as f64 / f64::from(n)
        }
        _ => 0.0,
    };
    if io.drives > 0 {
        let share = f64::from(n) / f64::from(io.drives);
        let factor = 1.0 - crossing * (1.0 - cx.physics.numa_remote_factor);
        let mut why = format!(
            "{n} of {} drives on `{}` read {:.1} Gbit/s ({})",
            io.drives,
            t.name.value,
            io.read_gbps * share,
            io.read_why
        );
        if crossing > 0.0 {
            why += &format!(
                "; {:.0} % of them on another socket than the NIC, at the cross-socket factor {}",
                crossing * 100.0,
                cx.physics.numa_remote_factor
            );
        }
        limits.push(limit(
            LimitKind::Storage,
            io.read_gbps * share * factor,
            why,
        ));
    }
    if let Some(port) = port {
        let (wire, pcie) = port_limits(cx, facts, fab.target, port, p, true);
        let name = &t.ports[port].name;
        limits.push(limit(
            LimitKind::Link,
            wire,
            format!("target port `{}:{name}`", t.name.value),
        ));
        if let Some(g) = pcie {
            limits.push(limit(
                LimitKind::Pcie,
                g,
                format!("PCIe link of the NIC behind `{}:{name}`", t.name.value),
            ));
        }
    }
    let mut reach = 0.0;
    for &i in &fab.initiators {
        if let Some(port) = port_toward(cx, fab, i) {
            let (wire, pcie) = port_limits(cx, facts, i, port, p, false);
            reach += pcie.map_or(wire, |g| wire.min(g));
        }
    }
    if !fab.initiators.is_empty() {
        limits.push(limit(
            LimitKind::Link,
            reach,
            format!(
                "the {} initiators' ports and PCIe links together",
                fab.initiators.len()
            ),
        ));
    }
    let carried = carriers(m, fab);
    if !carried.is_empty() {
        let net: f64 = carried
            .iter()
            .filter_map(|&fi| flows.get(fi))
            .map(|f| network_gbps(f, detail))
            .sum();
        let names: Vec<String> = carried
            .iter()
            .map(|&fi| format!("`{}`", m.flows[fi].name.value))
            .collect();
        limits.push(limit(
            LimitKind::Link,
            net,
            format!("the network, as predicted for flow {}", names.join(", ")),
        ));
    }
    limits.sort_by(|a, b| a.gbps.total_cmp(&b.gbps));
    let bottleneck = limits
        .first()
        .cloned()
        .unwrap_or_else(|| limit(LimitKind::Storage, 0.0, "no drives".into()));
    FabricPrediction {
        name: fab.name.value.clone(),
        transport: match fab.transport {
            Transport::Rdma => "rdma",
            Transport::Tcp => "tcp",
        },
        target: t.name.value.clone(),
        initiators: fab
            .initiators
            .iter()
            .map(|&i| m.hosts[i].name.value.clone())
            .collect(),
        drives: n,
        predicted_gbps: bottleneck.gbps,
        bottleneck,
        limits,
        carried_by: carried
            .iter()
            .map(|&fi| m.flows[fi].name.value.clone())
            .collect(),
        numa_crossing: crossing,
    }
}

/// What the network gives a flow, without the cap of its own declared rate: its
/// smallest limit other than the demand (all limits are known with `Detail::Full`),
/// else its prediction.
fn network_gbps(f: &FlowPrediction, detail: Detail) -> f64 {
    let known = if detail == Detail::Full {
        &f.limits[..]
    } else {
        &[]
    };
    known
        .iter()
        .filter(|l| !matches!(l.kind, LimitKind::Demand | LimitKind::Storage))
        .map(|l| l.gbps * f.pairs as f64)
        .reduce(f64::min)
        .unwrap_or(f.predicted_gbps)
}

/// The fabric findings.
pub(crate) fn check(cx: &CheckInput, preds: &[FabricPrediction], diags: &mut Diags) {
    let m = cx.m;
    for (fab, p) in m.fabrics.iter().zip(preds) {
        let target = &m.hosts[fab.target];
        let total: u32 = target.nvme.iter().map(|g| g.count).sum();
        if let Some(d) = fab.drives.as_ref().filter(|d| d.value > total) {
            diags.push(
                Diagnostic::new(
                    codes::OUT_OF_RANGE,
                    d.span,
                    format!(
                        "fabric `{}` exports {} drives, but `{}` has {total}",
                        fab.name.value, d.value, target.name.value
                    ),
                )
                .label("more drives than the target holds")
                .help(format!(
                    "export at most {}, or add drives to `{}`",
                    crate::diag::plural(total as usize, "drive"),
                    target.name.value
                )),
            );
        }
        if p.numa_crossing > 0.0 {
            let full = p
                .limits
                .iter()
                .find(|l| l.kind == LimitKind::Storage)
                .map_or(0.0, |l| {
                    l.gbps / (1.0 - p.numa_crossing * (1.0 - cx.physics.numa_remote_factor))
                });
            diags.push(
                Diagnostic::new(
                    codes::FABRIC_NUMA,
                    fab.target_span,
                    format!(
                        "{:.0} % of the drives fabric `{}` exports sit on another socket than `{}`'s NIC",
                        p.numa_crossing * 100.0,
                        fab.name.value,
                        target.name.value
                    ),
                )
                .label("their reads cross the socket interconnect")
                .help(format!(
                    "crossing costs up to half of those drives' rate (the drives predict {:.1} instead of {full:.1} Gbit/s): put the NIC on the drives' socket, add a NIC on the other socket, or export only the NIC socket's drives with `drives:`",
                    p.limits.iter().find(|l| l.kind == LimitKind::Storage).map_or(0.0, |l| l.gbps)
                )),
            );
        }
        // Once per fabric, not per initiator: each call scans every flow's pairs.
        let carried = carriers(m, fab);
        let missing: Vec<&str> =
            fab.initiators
                .iter()
                .filter(|&&i| {
                    !carried.iter().any(|&fi| {
                        m.flows[fi].pairs.iter().any(|&(a, b)| {
                            (a == fab.target && b == i) || (b == fab.target && a == i)
                        })
                    })
                })
                .map(|&i| m.hosts[i].name.value.as_str())
                .collect();
        if !missing.is_empty() {
            let proto = protocol(fab.transport);
            diags.push(
                Diagnostic::new(
                    codes::FABRIC_UNCARRIED,
                    fab.name.span,
                    format!(
                        "no `{}` flow carries fabric `{}` from `{}` to {}",
                        proto.as_str(),
                        fab.name.value,
                        target.name.value,
                        missing.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                    ),
                )
                .label("not routed, not ruled, not predicted over the network")
                .help(format!(
                    "declare a flow from `{}` to the initiators with `protocol: {}` and `source: nvme`: democ routes only declared flows, writes OpenFlow rules{} for them and predicts their path",
                    target.name.value,
                    proto.as_str(),
                    if proto == Protocol::Rdma { " and lossless settings" } else { "" }
                )),
            );
        }
    }
}
