//! Each NVMe-oF fabric's target and initiator setup (`ir::fabric`): the fixed part from
//! templates/linux/nvmeof.yaml, the rest from the show: the target's address on the
//! port toward its initiators, one namespace per exported drive, the initiators' host
//! NQNs on the allow list, and per initiator the I/O queues its NIC's socket can serve
//! and the queue depth the path's bandwidth-delay product needs.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::check::CheckInput;
use crate::check::fabrics::{FabricPrediction, carriers, exported, port_toward};
use crate::check::predict::Plan;
use crate::derive::ShowModel;
use crate::ir::fabric::{Fabric, Initiator, Namespace, Target};
use crate::resolve::model::{Fabric as Spec, HostId};
use crate::spec::fabric::Transport;
use crate::yaml::error::EmbeddedError;

const DATA: &str = "linux/nvmeof.yaml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    #[allow(dead_code)] // documentation of the figures
    sources: Vec<String>,
    nqn_prefix: String,
    modules: Modules,
    queues: Queues,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Modules {
    target: String,
    target_transport: ByTransport<String>,
    initiator_transport: ByTransport<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ByTransport<T> {
    rdma: T,
    tcp: T,
}

impl<T> ByTransport<T> {
    fn of(&self, t: Transport) -> &T {
        match t {
            Transport::Rdma => &self.rdma,
            Transport::Tcp => &self.tcp,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Queues {
    io_bytes: u32,
    default_size: u32,
    max_size: ByTransport<u32>,
}

fn data() -> Result<&'static Data, EmbeddedError> {
    static CELL: OnceLock<Result<Data, EmbeddedError>> = OnceLock::new();
    CELL.get_or_init(|| crate::yaml::embedded::data(&format!("templates/{DATA}")))
        .as_ref()
        .map_err(Clone::clone)
}

/// A fabric's subsystem NQN. `Err` is a bug in templates/.
pub(crate) fn subsystem_nqn(show: &str, fabric: &str) -> Result<String, EmbeddedError> {
    Ok(nqn(data()?, show, fabric))
}

fn nqn(d: &Data, show: &str, fabric: &str) -> String {
    format!("{}:{show}:{fabric}", d.nqn_prefix)
}

/// Every fabric's setup, in the spec's order, from `plan` when the checks made it
/// (else predicted here). `Err` is a bug in templates/.
pub(crate) fn lower(front: &ShowModel, plan: Option<&Plan>) -> Result<Vec<Fabric>, EmbeddedError> {
    let Some(cx) = CheckInput::new(front) else {
        return Ok(Vec::new());
    };
    if cx.m.fabrics.is_empty() {
        return Ok(Vec::new());
    }
    let d = data()?;
    let own;
    let plan = match plan {
        Some(p) => p,
        None => {
            own = crate::check::predict::plan(&cx).0;
            &own
        }
    };
    let show = crate::lower::safe_text::name_like(&cx.m.settings.name);
    Ok(cx
        .m
        .fabrics
        .iter()
        .zip(&plan.fabrics)
        .enumerate()
        .map(|(i, (fab, p))| one(&cx, d, &show, i, fab, p))
        .collect())
}

fn transport(t: Transport) -> &'static str {
    match t {
        Transport::Rdma => "rdma",
        Transport::Tcp => "tcp",
    }
}

fn one(
    cx: &CheckInput,
    d: &Data,
    show: &str,
    index: usize,
    fab: &Spec,
    p: &FabricPrediction,
) -> Fabric {
    let m = cx.m;
    let name = &fab.name.value;
    let host_nqn = |h: HostId| format!("{}:{show}:host:{}", d.nqn_prefix, m.hosts[h].name.value);
    let t = &m.hosts[fab.target];
    let address = port_toward(cx, fab, fab.target)
        .and_then(|port| t.ports[port].address)
        .map(|a| a.addr.to_string());
    // Each drive of the target in declaration order: its model and its serial if given.
    let drives: Vec<(&str, Option<&str>)> = t
        .nvme
        .iter()
        .flat_map(|g| {
            (0..g.count as usize)
                .map(move |i| (g.model.value.as_str(), g.serials.get(i).map(String::as_str)))
        })
        .collect();
    let namespaces = (1..=exported(m, fab))
        .map(|nsid| Namespace {
            nsid,
            var: format!("NS_{nsid}"),
            serial: drives
                .get(nsid as usize - 1)
                .and_then(|(_, s)| s.map(str::to_owned)),
            model: drives
                .get(nsid as usize - 1)
                .map_or(String::new(), |(m, _)| (*m).to_owned()),
        })
        .collect();
    let target = Target {
        host: t.name.value.clone(),
        script_file: format!("nvmeof/{name}/target-{}.sh", t.name.value),
        template: "linux/nvmet-target.sh.j2".into(),
        modules: vec![
            d.modules.target.clone(),
            d.modules.target_transport.of(fab.transport).clone(),
        ],
        port_id: u16::try_from(index + 1).unwrap_or(u16::MAX),
        adrfam: "ipv4".into(),
        address,
        trsvcid: fab.port,
        namespaces,
        allowed_hosts: fab.initiators.iter().map(|&i| host_nqn(i)).collect(),
    };
    let per_initiator = p.predicted_gbps / fab.initiators.len().max(1) as f64;
    let initiators = fab
        .initiators
        .iter()
        .map(|&i| initiator(cx, d, fab, i, host_nqn(i), per_initiator))
        .collect();
    Fabric {
        name: name.clone(),
        transport: transport(fab.transport).into(),
        nqn: nqn(d, show, name),
        target,
        initiators,
        roce: fab.transport == Transport::Rdma,
    }
}

/// The RTT between the target and an initiator over a carrying flow's route, ms.
fn rtt_ms(cx: &CheckInput, fab: &Spec, host: HostId) -> Option<f64> {
    carriers(cx.m, fab)
        .into_iter()
        .flat_map(|fi| &cx.routes.flows[fi].pairs)
        .find(|pr| {
            (pr.src == fab.target && pr.dst == host) || (pr.dst == fab.target && pr.src == host)
        })
        .map(|pr| pr.rtt_ms())
}

fn initiator(
    cx: &CheckInput,
    d: &Data,
    fab: &Spec,
    host: HostId,
    hostnqn: String,
    gbps: f64,
) -> Initiator {
    let m = cx.m;
    let h = &m.hosts[host];
    let numa_node = port_toward(cx, fab, host)
        .and_then(|p| h.ports[p].nic)
        .and_then(|n| crate::check::pcie::nic_link(cx, h, n))
        .and_then(|(_, a)| a.socket);
    let cores = cx.db.cpus.get(&h.cpu).map_or(1, |c| c.cores);
    // Queues on the NIC's socket only: a queue per core there keeps each I/O's
    // completion on the cores next to the NIC.
    let nr_io_queues = match numa_node {
        Some(_) => cores,
        None => cores * u32::from(h.sockets.max(1)),
    };
    let rtt = rtt_ms(cx, fab, host).unwrap_or(0.0);
    let max = *d.queues.max_size.of(fab.transport);
    let (queue_size, need) = queue_size(
        gbps,
        rtt,
        d.queues.io_bytes,
        nr_io_queues,
        d.queues.default_size,
        max,
    );
    let queues_why = format!(
        "{nr_io_queues} I/O queues: one per core of {}; queue size {queue_size}: {:.1} Gbit/s x {rtt:.3} ms RTT in {} KiB reads over {nr_io_queues} queues needs {need}, kept within {}..{max}",
        numa_node.map_or("the host".to_owned(), |n| format!(
            "NUMA node {n} (the NIC's)"
        )),
        gbps,
        d.queues.io_bytes / 1024,
        d.queues.default_size.min(max),
    );
    Initiator {
        host: h.name.value.clone(),
        script_file: format!("nvmeof/{}/initiator-{}.sh", fab.name.value, h.name.value),
        template: "linux/nvme-initiator.sh.j2".into(),
        modules: vec![d.modules.initiator_transport.of(fab.transport).clone()],
        hostnqn,
        nr_io_queues,
        queue_size,
        numa_node,
        queues_why,
    }
}

/// Entries per I/O queue so that `queues` queues of `io_bytes` reads keep `gbps` in
/// flight over `rtt_ms` (Little's law), within `min..=max` (`min` at most `max`); and the
/// unclamped need.
fn queue_size(
    gbps: f64,
    rtt_ms: f64,
    io_bytes: u32,
    queues: u32,
    min: u32,
    max: u32,
) -> (u32, u64) {
    let in_flight = gbps * 1e9 / 8.0 * rtt_ms / 1e3;
    let need = (in_flight / (f64::from(io_bytes) * f64::from(queues.max(1)))).ceil();
    let need = if need.is_finite() && need > 0.0 {
        need as u64
    } else {
        0
    };
    let min = min.min(max);
    (
        u32::try_from(need).unwrap_or(u32::MAX).clamp(min, max),
        need,
    )
}

/// The fabrics' scripts by path, for the renderer (`BTreeMap`: sorted, deterministic).
pub(crate) fn scripts(fabrics: &[Fabric]) -> BTreeMap<String, (&Fabric, Option<&Initiator>)> {
    let mut out = BTreeMap::new();
    for f in fabrics {
        out.insert(f.target.script_file.clone(), (f, None));
        for i in &f.initiators {
            out.insert(i.script_file.clone(), (f, Some(i)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::queue_size;

    /// On a show floor the kernel's default depth is plenty.
    #[test]
    fn a_short_path_keeps_the_default_depth() {
        assert_eq!(queue_size(100.0, 0.01, 131_072, 16, 128, 256), (128, 1));
    }

    /// 100 Gbit/s over 60 ms is 750 MB in flight: 5,722 reads of 128 KiB, 358 per queue
    /// over 16 queues; RDMA clamps it to 256, TCP takes it.
    #[test]
    fn a_long_path_needs_a_deeper_queue_within_the_transport() {
        assert_eq!(queue_size(100.0, 60.0, 131_072, 16, 128, 256), (256, 358));
        assert_eq!(queue_size(100.0, 60.0, 131_072, 16, 128, 1024), (358, 358));
    }

    #[test]
    fn nothing_in_flight_is_not_a_panic() {
        assert_eq!(queue_size(f64::NAN, 0.0, 131_072, 0, 128, 256), (128, 0));
    }
}
