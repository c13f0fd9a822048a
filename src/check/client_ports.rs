//! The ports of every routed test pair, found once so the prediction and the host
//! scripts see the same ones: the server port the pair's test listens on (counted per
//! receiving host from `first_port`, templates/linux/tuning.yaml), the addresses its
//! client binds and connects to, and, where the flow lets democ pick them (`pick_ports`)
//! and the pair leaves its host by a bond, the client port and the streams each bond
//! member then carries as the kernel hashes them (`bond_hash`). The hash reads the
//! addresses and both ports, so the members' loads are only known once all of them are.

use std::collections::HashMap;
use std::net::Ipv4Addr;

use super::CheckInput;
use crate::derive::paths::{PairRoute, host_ports};
use crate::resolve::model::{HostId, LagId, Model};
use crate::spec::flow::Protocol;

/// What runs for one routed pair.
#[derive(Debug)]
pub(crate) enum PairPorts {
    /// The pair joins the NVMe-oF fabric numbered here: the kernel's initiator picks its
    /// ports.
    Fabric(usize),
    /// No test runs: the receiver has no server port left (E0228), or an end has no
    /// address.
    Untested,
    Test(TestPorts),
}

#[derive(Debug)]
pub(crate) struct TestPorts {
    /// The port the pair's server listens on.
    pub(crate) server: u16,
    /// The host ports the pair leaves and enters by (a bond's first member).
    pub(crate) ends: (usize, usize),
    /// The client's and the server's address.
    pub(crate) addrs: (Ipv4Addr, Ipv4Addr),
    /// The client ports democ picked, where it did.
    pub(crate) picked: Option<Picked>,
}

#[derive(Debug)]
pub(crate) struct Picked {
    /// The bond the pair leaves by.
    pub(crate) lag: LagId,
    /// The first client port: the streams use it and the ports after it.
    pub(crate) cport: u16,
    /// Streams on each member of the bond, in its enslaving order.
    pub(crate) members: Vec<u32>,
}

/// Per flow, per routed pair (in route order): its ports.
pub(crate) type Ports = Vec<Vec<PairPorts>>;

/// The streams each pair of flow `fi` runs, as the prediction counts them (the sending
/// CPU's per-stream rate and the window).
pub(crate) fn pair_streams(cx: &CheckInput, fi: usize) -> u32 {
    let m = cx.m;
    let f = &m.flows[fi];
    let per_stream_gbps = f
        .pairs
        .first()
        .and_then(|p| cx.db.cpus.get(&m.hosts[p.0].cpu))
        .map_or(f64::INFINITY, |c| c.tcp_stream_gbps);
    super::predict::streams_per_pair(cx, f, &cx.routes.flows[fi], per_stream_gbps)
}

/// Every pair's ports, in flow order. Server ports are counted per receiving host over
/// the pairs that run a test (a fabric's pairs run none); client ports are picked per
/// sending host so no two transfers share one, each pair's streams spread over what the
/// host's earlier pairs already put on the same bond.
pub(crate) fn assign(cx: &CheckInput) -> Ports {
    let m = cx.m;
    let first = crate::host_tuning::first_server_port().ok();
    let mut carried: Vec<Vec<usize>> = vec![Vec::new(); m.flows.len()];
    for (i, fab) in m.fabrics.iter().enumerate() {
        for fi in super::fabrics::carriers(m, fab) {
            carried[fi].push(i);
        }
    }
    let bond_of = bonds(m);
    // None once a host's ports are used up (E0228 refuses such a show): never a wrap or
    // a port given twice.
    let mut next_port = vec![first; m.hosts.len()];
    let mut taken: Vec<Vec<(u16, u16)>> = vec![Vec::new(); m.hosts.len()];
    let mut on_bond: HashMap<(HostId, LagId), Vec<u32>> = HashMap::new();
    let mut out = Vec::with_capacity(m.flows.len());
    for (fi, f) in m.flows.iter().enumerate() {
        let picks = f.pick_ports && f.protocol.value != Protocol::Rdma;
        let streams = if picks { pair_streams(cx, fi) } else { 0 };
        let pairs = &cx.routes.flows[fi].pairs;
        let mut flow = Vec::with_capacity(pairs.len());
        for pr in pairs {
            let fabric = carried[fi].iter().find(|&&i| {
                let fab = &m.fabrics[i];
                (fab.target == pr.src && fab.initiators.contains(&pr.dst))
                    || (fab.target == pr.dst && fab.initiators.contains(&pr.src))
            });
            if let Some(&i) = fabric {
                flow.push(PairPorts::Fabric(i));
                continue;
            }
            let Some(server) = next_port[pr.dst] else {
                flow.push(PairPorts::Untested);
                continue;
            };
            next_port[pr.dst] = server.checked_add(1);
            let Some(test) = test(m, pr, server) else {
                flow.push(PairPorts::Untested);
                continue;
            };
            let picked = if picks {
                pick(m, pr, &test, streams, &bond_of, &mut taken, &mut on_bond)
            } else {
                None
            };
            flow.push(PairPorts::Test(TestPorts { picked, ..test }));
        }
        out.push(flow);
    }
    out
}

/// The bond (LAG) each link is a member of.
fn bonds(m: &Model) -> Vec<Option<LagId>> {
    let mut of = vec![None; m.links.len()];
    for (g, lag) in m.lags.iter().enumerate() {
        for &l in &lag.members {
            of[l] = Some(g);
        }
    }
    of
}

/// The pair's ends and addresses (a bonded host's address is its bond's, which is its
/// first member's); None when an end has no address.
fn test(m: &Model, pr: &PairRoute, server: u16) -> Option<TestPorts> {
    let end = |first| host_ports(m, pr, first).next().map(|(_, p)| p);
    let (sp, dp) = (end(true)?, end(false)?);
    let addr = |h: HostId, p: usize| m.hosts[h].ports[p].address.map(|a| a.addr);
    Some(TestPorts {
        server,
        ends: (sp, dp),
        addrs: (addr(pr.src, sp)?, addr(pr.dst, dp)?),
        picked: None,
    })
}

/// The client ports of a pair that leaves its host by a bond; None when it leaves by a
/// single port (no hash to steer) or no free range is left.
fn pick(
    m: &Model,
    pr: &PairRoute,
    t: &TestPorts,
    streams: u32,
    bond_of: &[Option<LagId>],
    taken: &mut [Vec<(u16, u16)>],
    on_bond: &mut HashMap<(HostId, LagId), Vec<u32>>,
) -> Option<Picked> {
    let lag = m.hosts[pr.src].ports[t.ends.0]
        .link
        .and_then(|l| bond_of[l])?;
    let base = on_bond
        .entry((pr.src, lag))
        .or_insert_with(|| vec![0; m.lags[lag].members.len()]);
    let (src, dst) = t.addrs;
    let held = &mut taken[pr.src];
    let (cport, members) = super::bond_hash::pick_cport(src, dst, t.server, streams, base, held)?;
    held.push((cport, cport + (streams.max(1) as u16 - 1)));
    for (b, x) in base.iter_mut().zip(&members) {
        *b += x;
    }
    Some(Picked {
        lag,
        cport,
        members,
    })
}
