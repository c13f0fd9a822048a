//! The prediction: for each flow, what it will really reach and why. Each pair has a
//! ceiling of its own (its demand, CPU streams, TCP window, LAG hashing); every shared
//! resource (link direction, LAG, NIC PCIe link, PCIe switch uplink, drives) is split
//! among the pairs that use it max-min fair (`share`). What stopped a flow's slowest
//! pair names its bottleneck.

use serde::Serialize;

use super::Ctx;
use super::hashing::lag_hashed;
use super::load::{Loads, PairUse, Res, Space, host_nics, resources};
use super::pcie::{Usable, Use, nic_link, usable_gbps};
use super::share::Stop;
use super::storage::{Io, host_io};
use crate::derive::paths::PairRoute;
use crate::resolve::model::{Flow, HostId, Model};
use crate::spec::flow::{CongestionControl, Protocol, Store};

mod ties;
mod words;

use std::sync::Arc;

/// What bounds a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum LimitKind {
    Demand,
    Link,
    Lag,
    Pcie,
    Storage,
    Cpu,
    Window,
    Loss,
    Mtu,
    /// The pacing the host script sets on a sender whose kernel paces (`pacing`).
    Pacing,
}

impl LimitKind {
    /// The kind as plans and reports print it (its serde name), without formatting
    /// `Debug` and lowercasing it for every limit.
    pub(crate) fn name(self) -> &'static str {
        match self {
            LimitKind::Demand => "demand",
            LimitKind::Link => "link",
            LimitKind::Lag => "lag",
            LimitKind::Pcie => "pcie",
            LimitKind::Storage => "storage",
            LimitKind::Cpu => "cpu",
            LimitKind::Window => "window",
            LimitKind::Loss => "loss",
            LimitKind::Mtu => "mtu",
            LimitKind::Pacing => "pacing",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Limit {
    pub(crate) kind: LimitKind,
    pub(crate) gbps: f64,
    /// Shared: the limits of many flows name one resource in the same words (`words`).
    #[serde(serialize_with = "as_str")]
    pub(crate) why: Arc<str>,
    /// What would lift this limit, where democ can say (the help line of W0247).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) fix: Option<String>,
}

/// A shared text as a JSON string (serde's `rc` feature would rebuild every crate
/// that uses serde for this one field).
fn is_one(n: &usize) -> bool {
    *n == 1
}

fn as_str<S: serde::Serializer>(s: &Arc<str>, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s)
}

/// Shared texts as a JSON array of strings.
fn as_strs<S: serde::Serializer>(v: &[Arc<str>], ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_seq(v.iter().map(|s| &**s))
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct FlowPrediction {
    pub(crate) name: String,
    pub(crate) protocol: &'static str,
    /// The TCP congestion control the prediction assumes and the host scripts ask for
    /// (`reno`, `cubic`, `htcp`, `bbr`); absent for RDMA and UDP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) congestion_control: Option<&'static str>,
    /// The model of that congestion control under loss (`check::congestion::model`),
    /// for a TCP flow whose path loses packets; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) loss_model: Option<&'static str>,
    pub(crate) pairs: usize,
    /// Stripes per host pair (`stripe:`): each of `pairs` is one stripe, bound to one
    /// of the sender's ports.
    #[serde(skip_serializing_if = "is_one")]
    pub(crate) stripes: usize,
    pub(crate) streams_per_pair: u32,
    pub(crate) demand_gbps: f64,
    pub(crate) predicted_gbps: f64,
    /// At least `SHORTFALL` of the demand.
    pub(crate) feasible: bool,
    /// The flow says `expect: infeasible`: falling short is what it demonstrates.
    pub(crate) expect_infeasible: bool,
    pub(crate) bottleneck: Limit,
    /// Every limit on the worst pair's path, smallest first (`Detail::Full` only).
    pub(crate) limits: Vec<Limit>,
    pub(crate) rtt_ms: f64,
    /// Switch names, shared by the flows (`words::Words::switch`): a String
    /// each was 400,000 allocations at 100,000 flows.
    #[serde(serialize_with = "as_strs")]
    pub(crate) path: Vec<Arc<str>>,
    /// What crosses sockets, when something does.
    pub(crate) numa_remote: Option<&'static str>,
    /// Switches (by name) where this flow is forwarded only by OpenFlow rules, which
    /// democ does not write: the prediction holds once the controller installs them.
    pub(crate) needs_rules: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct LinkUse {
    pub(crate) link: String,
    pub(crate) direction: String,
    pub(crate) load_gbps: f64,
    pub(crate) capacity_gbps: f64,
    pub(crate) utilization_pct: f64,
    /// Indices of the flows loading this direction (into `Plan::flows`).
    #[serde(skip)]
    pub(crate) flows: Vec<usize>,
}

/// What a host's drives can do.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct HostStorage {
    pub(crate) host: String,
    pub(crate) drives: u32,
    pub(crate) read_gbps: f64,
    pub(crate) write_gbps: f64,
    pub(crate) read_bound: String,
    pub(crate) write_bound: String,
}

/// A site and what stands there.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SiteSummary {
    pub(crate) name: String,
    pub(crate) kind: &'static str,
    pub(crate) booth: Option<String>,
    pub(crate) location: Option<String>,
    pub(crate) switches: usize,
    pub(crate) hosts: usize,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    pub(crate) show: String,
    pub(crate) title: String,
    pub(crate) venue: String,
    pub(crate) sites: Vec<SiteSummary>,
    pub(crate) storage: Vec<HostStorage>,
    pub(crate) flows: Vec<FlowPrediction>,
    /// NVMe-oF fabrics, in the spec's order.
    pub(crate) fabrics: Vec<super::fabrics::FabricPrediction>,
    /// Network resources with their use, sorted.
    pub(crate) links: Vec<(Res, LinkUse)>,
    /// Switches owned by others (`external: true`): modelled, no config written.
    pub(crate) external: Vec<String>,
    /// Devices with no switch OS (`os: none`): hops democ writes no config for (not
    /// in plan.json: `external` there lists what democ writes no config for).
    pub(crate) no_os: Vec<String>,
    /// Per LAG direction of `links`, its members' loads (check/lag_members.rs).
    pub(crate) lag_members: Vec<super::lag_members::LagMembers>,
}

/// Payload share of the wire for a protocol at an MTU.
pub(crate) fn goodput(cx: &Ctx, protocol: Protocol, mtu: u32) -> f64 {
    let p = cx.physics;
    let header = match protocol {
        Protocol::Tcp => p.tcp_ip_header_bytes,
        Protocol::Udp => p.udp_ip_header_bytes,
        Protocol::Rdma => p.roce_header_bytes,
    };
    let mtu = f64::from(mtu);
    ((mtu - header) / (mtu + p.ethernet_wire_overhead_bytes)).clamp(0.0, 1.0)
}

/// Per-host figures computed once.
pub(crate) struct HostFacts {
    pub(crate) io: Io,
    /// Socket of each NIC.
    pub(crate) nic_socket: Vec<Option<u8>>,
    /// PCIe switches between each NIC and its socket, as indices into the chassis' switches.
    pub(crate) nic_switches: Vec<Vec<u16>>,
    /// What each NIC's PCIe link carries sending (the NIC reads host memory) and
    /// receiving (it writes host memory), Gbit/s.
    pub(crate) nic_send: Vec<Option<f64>>,
    pub(crate) nic_receive: Vec<Option<f64>>,
    /// The CPU's per-stream figure (Gbit/s) and cores over all sockets.
    pub(crate) cpu: Option<(f64, u32)>,
}

/// Index of a chassis PCIe switch by name.
fn switch_index(cx: &Ctx, h: &crate::resolve::model::Host, name: &str) -> Option<u16> {
    let ch = cx.db.chassis.get(&h.chassis)?;
    let pos = ch
        .switches
        .as_ref()?
        .entries
        .iter()
        .position(|(k, _)| k.value == name)?;
    u16::try_from(pos).ok()
}

/// Name of a chassis PCIe switch by index.
fn switch_name<'a>(cx: &Ctx<'a>, h: HostId, i: u16) -> &'a str {
    cx.db
        .chassis
        .get(&cx.m.hosts[h].chassis)
        .and_then(|c| c.switches.as_ref())
        .and_then(|s| s.entries.get(usize::from(i)))
        .map_or("?", |(k, _)| k.value.as_str())
}

pub(crate) fn host_facts(cx: &Ctx) -> Vec<HostFacts> {
    host_facts_of(cx, &cx.m.hosts)
}

fn host_facts_of(cx: &Ctx, hosts: &[crate::resolve::model::Host]) -> Vec<HostFacts> {
    // What the PCIe links carry, remembered per run of hosts (the same few kinds recur).
    let mut usable = Usable::default();
    hosts
        .iter()
        .map(|h| {
            let links: Vec<_> = (0..h.nics.len()).map(|i| nic_link(cx, h, i)).collect();
            HostFacts {
                io: if !h.nvme.is_empty() {
                    host_io(cx, h)
                } else if !h.raid.is_empty() {
                    super::raid::raid_io(cx, h)
                } else {
                    Io::default()
                },
                nic_socket: links
                    .iter()
                    .map(|l| l.as_ref().and_then(|(_, a)| a.socket))
                    .collect(),
                nic_switches: links
                    .iter()
                    .map(|l| {
                        let names = l
                            .as_ref()
                            .map(|(_, a)| a.switches.as_slice())
                            .unwrap_or_default();
                        names
                            .iter()
                            .filter_map(|n| switch_index(cx, h, n))
                            .collect()
                    })
                    .collect(),
                nic_send: links
                    .iter()
                    .map(|l| usable.gbps(cx, h, l.as_ref()?.0, Use::NicSend).ok())
                    .collect(),
                nic_receive: links
                    .iter()
                    .map(|l| usable.gbps(cx, h, l.as_ref()?.0, Use::NicReceive).ok())
                    .collect(),
                cpu: cx
                    .db
                    .cpus
                    .get(&h.cpu)
                    .map(|c| (c.tcp_stream_gbps, c.cores * u32::from(h.sockets))),
            }
        })
        .collect()
}

/// Streams per pair: declared, else enough for the demand at the per-stream figure.
pub(crate) fn streams(f: &Flow, per_stream_gbps: f64) -> u32 {
    match (&f.streams, f.protocol.value) {
        (Some(s), _) => s.value.max(1),
        (None, Protocol::Rdma) => 1,
        (None, _) => (f.pair_rate().gbps() / per_stream_gbps.max(0.001))
            .ceil()
            .max(1.0) as u32,
    }
}

fn res_name(m: &Model, r: &Res) -> String {
    let dir = |fwd: bool| if fwd { "->" } else { "<-" };
    match r {
        Res::Link(l, f) => {
            let link = &m.links[*l];
            let name = match link.kind {
                crate::resolve::model::LinkKind::Wan(w) => {
                    format!("WAN `{}` ", m.wans[w].name.value)
                }
                crate::resolve::model::LinkKind::Lan => String::new(),
            };
            let through = m
                .boxes_on(*l)
                .map_or(String::new(), |b| format!(" through {b}"));
            if let Some(g) = link.lag.filter(|&g| m.pinned(g)) {
                return format!(
                    "LAG {} {} {} {}, pinned by the OpenFlow ruleset to member {} {} {}{through}",
                    m.lags[g].id,
                    m.node_name(link.a.node),
                    dir(*f),
                    m.node_name(link.b.node),
                    m.end_name(link.a),
                    dir(*f),
                    m.end_name(link.b)
                );
            }
            format!(
                "{name}{} {} {}{through}",
                m.end_name(link.a),
                dir(*f),
                m.end_name(link.b)
            )
        }
        Res::Lag(g, f) => {
            let lag = &m.lags[*g];
            let first = lag.members.first().map(|&l| &m.links[l]);
            let ends = first.map_or(String::new(), |l| {
                format!(
                    " {} {} {}",
                    m.node_name(l.a.node),
                    dir(*f),
                    m.node_name(l.b.node)
                )
            });
            format!("port-channel {}{ends}", lag.id)
        }
        Res::Nic(h, n, tx) => format!(
            "`{}` NIC in slot {} ({})",
            m.hosts[*h].name.value,
            m.hosts[*h].nics[*n].slot.value,
            if *tx { "send" } else { "receive" }
        ),
        Res::Uplink(h, _, _) => format!("`{}` PCIe switch uplink", m.hosts[*h].name.value),
        Res::Read(h) => format!("`{}` NVMe read", m.hosts[*h].name.value),
        Res::Write(h) => format!("`{}` NVMe write", m.hosts[*h].name.value),
    }
}

/// Capacity of a shared resource in Gbit/s (None: it bounds nothing).
fn capacity(cx: &Ctx, facts: &[HostFacts], loads: &Loads, r: &Res) -> Option<(f64, LimitKind)> {
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
fn uplink(cx: &Ctx, h: HostId, i: u16, tx: bool) -> Option<(super::pcie::Lanes, f64)> {
    let host = &cx.m.hosts[h];
    let ch = cx.db.chassis.get(&host.chassis)?;
    let up = super::pcie::uplink(ch, switch_name(cx, h, i))?;
    let u = if tx { Use::NicSend } else { Use::NicReceive };
    Some((up, usable_gbps(cx, host, up, u).ok()?))
}

/// What a resource's capacity is, in words (only for the bottlenecks reported).
fn capacity_why(cx: &Ctx, facts: &[HostFacts], loads: &Loads, r: &Res) -> String {
    let m = cx.m;
    match r {
        Res::Link(l, _) => format!("{} carries {}", res_name(m, r), m.links[*l].capacity),
        Res::Lag(g, _) => {
            let h = lag_hashed(cx, loads, r, *g);
            if h.capacity < lag_gbps(m, *g) {
                h.why(&res_name(m, r), lag_gbps(m, *g))
            } else {
                format!("{} carries {:.0} Gbit/s", res_name(m, r), lag_gbps(m, *g))
            }
        }
        Res::Nic(h, n, tx) => {
            let host = &m.hosts[*h];
            let u = if *tx { Use::NicSend } else { Use::NicReceive };
            match nic_link(cx, host, *n) {
                Some((lanes, _)) => {
                    let g = usable_gbps(cx, host, lanes, u).unwrap_or(0.0);
                    format!(
                        "`{}` slot {}: {lanes} gives {g:.1} Gbit/s usable",
                        host.name.value, host.nics[*n].slot.value
                    )
                }
                None => String::new(),
            }
        }
        Res::Uplink(h, i, tx) => match uplink(cx, *h, *i, *tx) {
            Some((up, g)) => {
                let name = switch_name(cx, *h, *i);
                let word = cx
                    .db
                    .chassis
                    .get(&m.hosts[*h].chassis)
                    .map_or("PCIe switch", |ch| super::pcie::hub_word(ch, name));
                format!(
                    "`{}`: {word} `{name}` {up} uplink gives {g:.1} Gbit/s usable",
                    m.hosts[*h].name.value,
                )
            }
            None => String::new(),
        },
        Res::Read(h) => facts[*h].io.read_why.clone(),
        Res::Write(h) => facts[*h].io.write_why.clone(),
    }
}

/// A link or LAG direction's load and capacity, Gbit/s (None: it bounds nothing).
fn link_load(cx: &Ctx, facts: &[HostFacts], loads: &Loads, r: &Res) -> Option<(f64, f64)> {
    // The table shows what the links are, hashing aside (W0248 tells what it costs).
    let cap = match r {
        Res::Lag(g, _) => lag_gbps(cx.m, *g),
        _ => capacity(cx, facts, loads, r)?.0,
    };
    Some((loads.demand(r) / 1e9, cap))
}

fn utilization_pct(load: f64, cap: f64) -> f64 {
    100.0 * load / cap.max(1e-9)
}

/// Whether `check` reports a link or LAG direction as full (`findings::capacity`): only
/// those need their names and flows when the plan itself is not shown.
fn link_reported(cx: &Ctx, facts: &[HostFacts], loads: &Loads, r: &Res) -> bool {
    link_load(cx, facts, loads, r).is_some_and(|(load, cap)| {
        let pct = utilization_pct(load, cap);
        pct > 100.0 + 1e-6 || pct > cx.m.settings.warn_utilization
    })
}

/// Load against capacity of one link or LAG direction.
fn link_use(cx: &Ctx, facts: &[HostFacts], loads: &Loads, r: &Res) -> Option<LinkUse> {
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

/// How much a prediction explains.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// Every flow's path and bottleneck in words (`democ plan`).
    Full,
    /// Words only for the flows that fall short, the ones `check` reports; the others
    /// keep an empty path and bottleneck text.
    Shortfalls,
}

/// Computes loads and predictions, fully explained. Linear in the total number of hops.
pub(crate) fn plan(cx: &Ctx) -> (Plan, Loads) {
    let (plan, loads, _) = analyse(cx, Detail::Full);
    (plan, loads)
}

/// Every routed pair's resources, and the loads they add up to.
fn loads(cx: &Ctx, facts: &[HostFacts], streams: &[u32]) -> (PairUse, Loads) {
    let m = cx.m;
    let switches_of =
        |h: HostId, n: usize| facts[h].nic_switches.get(n).map_or(&[][..], Vec::as_slice);
    let space = Space::new(m, |h| {
        facts[h]
            .nic_switches
            .iter()
            .flatten()
            .map(|&s| usize::from(s) + 1)
            .max()
            .unwrap_or(0)
    });
    let mut used = PairUse::default();
    let (mut nics, mut res) = (Vec::new(), Vec::new());
    for (fi, f) in m.flows.iter().enumerate() {
        used.flows.push(used.pairs.len());
        for pr in &cx.routes.flows[fi].pairs {
            used.pairs.push(used.items.len());
            res.clear();
            resources(
                m,
                pr,
                (f.source, f.sink),
                (&cx.routes.pins, &switches_of),
                &cx.host_ends,
                &mut nics,
                &mut res,
            );
            used.items
                .extend(res.iter().map(|&(r, w)| (space.index(r) as u32, w)));
        }
    }
    used.flows.push(used.pairs.len());
    used.pairs.push(used.items.len());
    let loads = Loads::new(
        space,
        &used,
        |f| m.flows[f].pair_rate().bps(),
        |fi| streams[fi],
    );
    (used, loads)
}

/// The plan, the loads behind it and the per-host facts it used.
pub(crate) fn analyse(cx: &Ctx, detail: Detail) -> (Plan, Loads, Vec<HostFacts>) {
    let m = cx.m;
    let facts = host_facts(cx);
    // Streams per pair of each flow, found once for the loads and the ceilings.
    let streams: Vec<u32> = (0..m.flows.len())
        .map(|fi| stream_count(cx, &facts, fi))
        .collect();
    let (used, loads) = loads(cx, &facts, &streams);
    // Capacity of each resource, found once (None: not a limit).
    let caps: Vec<Option<(f64, LimitKind)>> = (0..loads.space.len())
        .map(|i| {
            loads
                .is_used(i)
                .then(|| capacity(cx, &facts, &loads, &loads.space.res(i)))
                .flatten()
        })
        .collect();
    let inputs = Inputs {
        cx,
        facts: &facts,
        loads: &loads,
        caps: &caps,
        used: &used,
        streams: &streams,
        detail,
    };
    let mut flows = predict_flows(&inputs);
    for (f, sw) in flows.iter_mut().zip(super::boundary::rule_bound(cx)) {
        f.needs_rules = sw;
    }
    let links: Vec<(Res, LinkUse)> = loads
        .used()
        .filter(|(r, _)| matches!(r, Res::Link(..) | Res::Lag(..)))
        .filter(|(r, _)| detail == Detail::Full || link_reported(cx, &facts, &loads, r))
        .filter_map(|(r, _)| link_use(cx, &facts, &loads, &r).map(|u| (r, u)))
        .collect();
    let storage = m
        .hosts
        .iter()
        .zip(&facts)
        .filter(|(_, f)| f.io.drives > 0)
        .map(|(h, f)| HostStorage {
            host: h.name.value.clone(),
            drives: f.io.drives,
            read_gbps: f.io.read_gbps,
            write_gbps: f.io.write_gbps,
            read_bound: f.io.read_why.clone(),
            write_bound: f.io.write_why.clone(),
        })
        .collect();
    let mut sites: Vec<SiteSummary> = m
        .sites
        .iter()
        .map(|s| SiteSummary {
            name: s.name.value.clone(),
            kind: s.kind.as_str(),
            booth: s.booth.clone(),
            location: s.location.clone(),
            switches: 0,
            hosts: 0,
        })
        .collect();
    for s in &m.switches {
        if let Some(x) = sites.get_mut(s.site) {
            x.switches += 1;
        }
    }
    for h in &m.hosts {
        if let Some(x) = sites.get_mut(h.site) {
            x.hosts += 1;
        }
    }
    let fabrics = super::fabrics::predict(cx, &facts, &flows, detail);
    let lag_members = super::lag_members::of(cx, &loads, &links);
    let plan = Plan {
        show: m.settings.name.clone(),
        title: m.settings.title.clone(),
        venue: m.settings.venue.clone(),
        sites,
        storage,
        flows,
        fabrics,
        links,
        external: m
            .switches
            .iter()
            .filter(|s| s.external && s.os != crate::spec::switch::Os::None)
            .map(|s| s.name.value.clone())
            .collect(),
        no_os: m
            .switches
            .iter()
            .filter(|s| s.os == crate::spec::switch::Os::None)
            .map(|s| s.name.value.clone())
            .collect(),
        lag_members,
    };
    (plan, loads, facts)
}

/// Where a candidate limit comes from; turned into words only for the bottleneck, so
/// the hot loop formats nothing.
#[derive(Clone, Copy)]
enum Why {
    Demand,
    /// A full resource, by number (`Space`); its demand and whether it is a wire
    /// follow from it.
    Shared {
        res: usize,
        eff: f64,
        mtu: u32,
    },
    LagHash {
        lag: usize,
        streams: u32,
        used: usize,
        /// The sending switch hashes on addresses only (catalog `lag_hash: l3`).
        by_address: bool,
    },
    Cpu {
        host: HostId,
        streams: u32,
        per_stream: f64,
        numa: bool,
        /// The per-stream gain of the sender's declared kernel (1: none).
        gain: f64,
    },
    Window {
        streams: u32,
        rtt_ms: f64,
    },
    /// Packets of the hosts' MTU that the path does not carry.
    BlackHole {
        host_mtu: u32,
        path_mtu: u32,
    },
    /// The sender paces the pair at its share of its port (`pacing`): the pair, by
    /// flow and its number there.
    Pacing {
        flow: usize,
        pair: usize,
    },
    /// The loss bound of the flow's congestion control on a lossy path.
    Loss {
        cc: CongestionControl,
        streams: u32,
        per_stream: f64,
        loss: f64,
        rtt_ms: f64,
        mss: f64,
    },
}

/// A limit in words. Many pairs share each text: a resource's through `Words::shared`,
/// a pair's own limits (its demand, CPU, window) memoised by what they say.
fn explain(i: &Inputs, w: &words::Words, why: Why, rate: f64) -> Arc<str> {
    match why {
        Why::Shared { .. } => words(i, w, why, rate),
        own => w.said(own, rate, || words(i, w, own, rate)),
    }
}

fn words(i: &Inputs, w: &words::Words, why: Why, rate: f64) -> Arc<str> {
    let (cx, m) = (i.cx, i.cx.m);
    match why {
        Why::Demand => format!(
            "the flow asks for {}",
            crate::spec::units::Rate::from_gbps(rate)
        )
        .into(),
        Why::Shared { res, eff, mtu } => w.shared(i, res, eff, mtu),
        Why::LagHash {
            lag,
            streams,
            used,
            by_address,
        } => {
            let lag = &m.lags[lag];
            if by_address {
                return format!(
                    "port-channel {} hashes on the addresses only: the pair's {streams} stream(s) share one of its {} members",
                    lag.id,
                    lag.members.len()
                )
                .into();
            }
            format!(
                "port-channel {} hashes {streams} stream(s) onto at most {used} of its {} members",
                lag.id,
                lag.members.len()
            )
            .into()
        }
        Why::Cpu {
            host,
            streams,
            per_stream,
            numa,
            gain,
        } => {
            let h = &m.hosts[host];
            let mut note = String::new();
            if gain != 1.0 {
                if let Some(k) = h.kernel {
                    note = format!(
                        ", x{gain:.2} for kernel {k} (SC24 INDIS: {} over 5.15)",
                        cx.physics.kernel_gain.since
                    );
                }
            }
            if numa {
                note.push_str(", reduced for the share crossing sockets");
            }
            note.push_str(&zerocopy_words(h));
            format!(
                "`{}` (`{}`): {streams} stream(s) x {per_stream:.1} Gbit/s per stream{note}",
                h.name.value, h.cpu.value
            )
            .into()
        }
        Why::Window { streams, rtt_ms } => {
            format!("{streams} stream(s) x 2 GiB window over {rtt_ms:.1} ms RTT").into()
        }
        Why::Pacing { flow, pair } => {
            let pr = &cx.routes.flows[flow].pairs[pair];
            let paced = cx
                .paced()
                .get(flow)
                .and_then(|f| f.get(pair).copied().flatten())
                .unwrap_or(0.0);
            let kernel = m.hosts[pr.src]
                .kernel
                .map_or(String::new(), |k| format!("; kernel {k} paces without fq"));
            format!(
                "paced to {:.1} Gbit/s, the pair's share by demand of {:.0} % of {} (fasterdata DTN tuning: pace to 80-90 % of the NIC speed{kernel})",
                paced / 1e9,
                super::pacing::share_pct(),
                super::pacing::port_words(cx, pr)
            )
            .into()
        }
        Why::BlackHole { host_mtu, path_mtu } => format!(
            "path-MTU black hole: the hosts send {host_mtu}-byte packets with DF set, the path carries {path_mtu}; they are dropped, and the transfer stalls after its handshake unless ICMP \"fragmentation needed\" reaches the sender (PMTUD) or `net.ipv4.tcp_mtu_probing` is on"
        )
        .into(),
        Why::Loss {
            cc,
            streams,
            per_stream,
            loss,
            rtt_ms,
            mss: _,
        } => format!(
            "{streams} {} stream(s) x {per_stream:.2} Gbit/s at {} loss over {rtt_ms:.1} ms RTT ({}); {}",
            cc.as_str(),
            // Rounded so that a product of (1 - p) over the hops prints as written.
            (loss * 1e12).round() / 1e12,
            super::congestion::model(cc),
            loss_fix(cx, why, rate).unwrap_or_default()
        )
        .into(),
    }
}

/// What a sender whose declared kernel has MSG_ZEROCOPY for TCP is launched with, for
/// the CPU limit's words: the option where its iperf3 takes it, and that the prediction
/// does not count the gain (templates/linux/tuning.yaml, `zerocopy`).
fn zerocopy_words(h: &crate::resolve::model::Host) -> String {
    let Ok(t) = crate::host_tuning::tuning() else {
        return String::new();
    };
    let zc = &t.transfers.zerocopy;
    match h.kernel {
        Some(k) if k.at_least(zc.since) => format!(
            "; MSG_ZEROCOPY sends where the host's iperf3 takes `{}` (no release through 3.21 does), not counted (SC24 INDIS: up to +35 % with pacing)",
            zc.option
        ),
        _ => String::new(),
    }
}

/// What reaches a pair's demand on a lossy path: enough streams of its congestion
/// control, or another that carries it with the streams it has.
fn loss_fix(cx: &Ctx, why: Why, rate: f64) -> Option<String> {
    let Why::Loss {
        cc,
        streams,
        per_stream,
        loss,
        rtt_ms,
        mss,
    } = why
    else {
        return None;
    };
    let path = super::congestion::Lossy {
        mss,
        rtt_ms,
        p: loss,
    };
    let other = super::congestion::reaches(cx.physics, cc, path, streams, rate)
        .map_or(String::new(), |o| {
            format!(", or `congestion_control: {}`", o.as_str())
        });
    Some(format!(
        "{} {} stream(s) per pair{other}, reach {}",
        super::loss::streams_for(rate, per_stream),
        cc.as_str(),
        crate::spec::units::Rate::from_gbps(rate)
    ))
}

/// What predicting a flow reads.
struct Inputs<'a, 'c> {
    cx: &'a Ctx<'c>,
    facts: &'a [HostFacts],
    loads: &'a Loads,
    caps: &'a [Option<(f64, LimitKind)>],
    used: &'a PairUse,
    /// Streams per pair, per flow (`stream_count`).
    streams: &'a [u32],
    detail: Detail,
}

/// Buffers reused from flow to flow.
#[derive(Default)]
struct Scratch {
    nics: Vec<(HostId, usize)>,
    sockets: Vec<u8>,
}

/// Streams per pair: declared, else as many as the CPU's per-stream figure and the TCP
/// window over the flow's longest RTT both need.
pub(crate) fn streams_per_pair(
    cx: &Ctx,
    f: &Flow,
    routes: &crate::derive::paths::FlowRoutes,
    per_stream_gbps: f64,
) -> u32 {
    let worst_rtt = routes.pairs.iter().map(|p| p.rtt_ms()).fold(0.0, f64::max);
    match (&f.streams, f.protocol.value) {
        (None, Protocol::Tcp) => streams(f, per_stream_gbps).max(
            super::bdp::streams_needed_for_window(cx, f.pair_rate().bps(), worst_rtt),
        ),
        _ => streams(f, per_stream_gbps),
    }
}

/// What one pair can reach on its own, shared resources aside: its demand, each LAG's
/// hashing, the sender's CPU streams, the TCP window. Each candidate goes to `consider`;
/// returns the pair's payload share of the wire, its path MTU and what crosses sockets.
/// `wire`: that share and MTU when found before (by [`pair_ceilings`]), else found here.
fn ceiling(
    i: &Inputs,
    f: &Flow,
    (fi, pr, p, wire): (usize, &PairRoute, usize, Option<(f64, u32)>),
    (nstreams, cpu): (u32, Option<(f64, u32)>),
    scratch: &mut Scratch,
    consider: &mut dyn FnMut(f64, LimitKind, Why),
) -> (f64, u32, Option<&'static str>) {
    let (cx, facts) = (i.cx, i.facts);
    let m = cx.m;
    let (eff, mtu) = wire.unwrap_or_else(|| {
        let mtu = cx.path_mtu(pr);
        (goodput(cx, f.protocol.value, mtu), mtu)
    });
    consider(f.pair_rate().gbps(), LimitKind::Demand, Why::Demand);
    // The script paces the pair below its demand (a sender whose kernel paces).
    let pair = p - i.used.flows[fi];
    if let Some(&Some(bps)) = cx.paced().get(fi).and_then(|f| f.get(pair))
        && bps < f.pair_rate().bps() * (1.0 - 1e-9)
    {
        consider(bps / 1e9, LimitKind::Pacing, Why::Pacing { flow: fi, pair });
    }
    // The hosts send packets the path cannot carry (E0225): with DF set, the Linux
    // default for TCP and UDP, and RoCE never fragmenting, they are dropped; nothing
    // moves unless an ICMP "fragmentation needed" reaches the sender.
    let host_mtu = m.hosts[pr.src].mtu.value;
    if mtu < host_mtu {
        consider(
            0.0,
            LimitKind::Mtu,
            Why::BlackHole {
                host_mtu,
                path_mtu: mtu,
            },
        );
    }
    for &(r, _) in i.used.of(p) {
        // Static LAG hashing: one stream never spreads over more members than it has.
        if let Some((g, forward)) = i.loads.space.lag(r as usize) {
            let lag = &m.lags[g];
            let member = lag
                .members
                .first()
                .map_or(0.0, |&l| m.links[l].capacity.gbps());
            // A hash on the addresses only puts all of a pair's streams on one member.
            let by_address =
                super::hashing::fields(cx, g, forward) == crate::catalog::types::HashFields::L3;
            let used = if by_address {
                1.min(lag.members.len())
            } else {
                (nstreams as usize).min(lag.members.len())
            };
            consider(
                used as f64 * member * eff,
                LimitKind::Lag,
                Why::LagHash {
                    lag: g,
                    streams: nstreams,
                    used,
                    by_address,
                },
            );
        }
    }
    let mut numa_remote = None;
    if f.protocol.value != Protocol::Rdma {
        let (cross, factor) = numa_factor(cx, facts, f, pr, scratch);
        numa_remote = cross;
        let gain = super::kernel_gain::stream_gain(&cx.physics.kernel_gain, m, pr);
        let ps = cpu.map_or(f64::INFINITY, |c| c.0) * factor * gain;
        let usable = nstreams.min(cpu.map_or(u32::MAX, |c| c.1));
        consider(
            f64::from(usable) * ps,
            LimitKind::Cpu,
            Why::Cpu {
                host: pr.src,
                streams: usable,
                per_stream: ps,
                numa: cross.is_some(),
                gain,
            },
        );
        if f.protocol.value == Protocol::Tcp && pr.rtt_ms() > 0.0 {
            let w = super::bdp::window_limit_bps(cx, pr.rtt_ms(), nstreams) / 1e9;
            consider(
                w,
                LimitKind::Window,
                Why::Window {
                    streams: nstreams,
                    rtt_ms: pr.rtt_ms(),
                },
            );
        }
        if f.protocol.value == Protocol::Tcp {
            let path = super::congestion::Lossy {
                mss: f64::from(mtu) - cx.physics.tcp_ip_header_bytes,
                rtt_ms: pr.rtt_ms(),
                p: super::loss::path_loss(m, pr),
            };
            if let Some(per) = super::congestion::stream_gbps(cx.physics, f.cc, path) {
                consider(
                    f64::from(nstreams) * per,
                    LimitKind::Loss,
                    Why::Loss {
                        cc: f.cc,
                        streams: nstreams,
                        per_stream: per,
                        loss: path.p,
                        rtt_ms: path.rtt_ms,
                        mss: path.mss,
                    },
                );
            }
        }
    }
    (eff, mtu, numa_remote)
}

/// A pair's ceiling before sharing and what sets it, with its wire figures.
struct PairCeiling {
    best: (f64, LimitKind, Why),
    eff: f64,
    mtu: u32,
}

/// Streams per pair and the sender's CPU figures, per flow.
fn flow_streams(i: &Inputs, fi: usize) -> (u32, Option<(f64, u32)>) {
    let f = &i.cx.m.flows[fi];
    let cpu = i.facts.get(f.pairs[0].0).and_then(|h| h.cpu);
    (i.streams[fi], cpu)
}

/// Streams per pair of flow `fi`.
fn stream_count(cx: &Ctx, facts: &[HostFacts], fi: usize) -> u32 {
    let f = &cx.m.flows[fi];
    let cpu = facts.get(f.pairs[0].0).and_then(|h| h.cpu);
    let per_stream = cpu.map_or(f64::INFINITY, |c| c.0);
    streams_per_pair(cx, f, &cx.routes.flows[fi], per_stream)
}

/// Every flow's prediction: each pair's ceiling, then the resources shared max-min fair
/// among the pairs (`share`), then per flow the sum of its pairs and its worst pair's
/// bottleneck.
fn predict_flows(i: &Inputs) -> Vec<FlowPrediction> {
    let m = i.cx.m;
    let ids: Vec<usize> = (0..m.flows.len()).collect();
    // Streams and CPU figures per flow, found once for the ceilings, the words and the
    // worst pair's limits.
    let streams: Vec<(u32, Option<(f64, u32)>)> =
        (0..m.flows.len()).map(|fi| flow_streams(i, fi)).collect();
    let Ceilings {
        ceilings,
        pairs,
        coef,
        numa,
    } = pair_ceilings(i, &ids, &streams);
    let capacity: Vec<Option<f64>> = i.caps.iter().map(|c| c.map(|c| c.0)).collect();
    let shares = super::share::max_min(&super::share::Problem {
        ceilings: &ceilings,
        pairs: &i.used.pairs,
        items: &coef,
        capacity: &capacity,
    });
    let sat = ties::Saturation::new(&i.used.pairs, &coef, &capacity, &shares);
    let settled = Settled {
        pairs: &pairs,
        shares: &shares,
        sat: &sat,
        numa: &numa,
        streams: &streams,
    };
    let w = words::Words::new(i.loads.space.len());
    let mut scratch = Scratch::default();
    let mut own = Vec::new();
    (0..m.flows.len())
        .map(|fi| settle(i, &w, &settled, fi, (&mut scratch, &mut own)))
        .collect()
}

/// The pairs' ceilings before sharing, for a run of consecutive flows: `ceilings` and
/// `pairs` per pair, `coef` per pair item, `numa` per flow.
struct Ceilings {
    ceilings: Vec<f64>,
    pairs: Vec<PairCeiling>,
    // Each pair's items again, weighted by what its rate costs there: a wire carries
    // headers too, so a payload rate counts 1/efficiency of its bits.
    coef: Vec<(u32, f64)>,
    numa: Vec<Option<&'static str>>,
}

fn pair_ceilings(i: &Inputs, run: &[usize], streams: &[(u32, Option<(f64, u32)>)]) -> Ceilings {
    let m = i.cx.m;
    let mut scratch = Scratch::default();
    let (Some(&first), Some(&last)) = (run.first(), run.last()) else {
        return Ceilings {
            ceilings: Vec::new(),
            pairs: Vec::new(),
            coef: Vec::new(),
            numa: Vec::new(),
        };
    };
    let (p0, p1) = (i.used.flows[first], i.used.flows[last + 1]);
    let mut out = Ceilings {
        ceilings: Vec::with_capacity(p1 - p0),
        pairs: Vec::with_capacity(p1 - p0),
        coef: Vec::with_capacity(i.used.pairs[p1] - i.used.pairs[p0]),
        numa: Vec::with_capacity(run.len()),
    };
    for &fi in run {
        let f = &m.flows[fi];
        let mut numa = None;
        for (pi, pr) in i.cx.routes.flows[fi].pairs.iter().enumerate() {
            let p = i.used.flows[fi] + pi;
            let mut best = (f64::INFINITY, LimitKind::Demand, Why::Demand);
            let (eff, mtu, cross) = ceiling(
                i,
                f,
                (fi, pr, p, None),
                streams[fi],
                &mut scratch,
                &mut |g, k, w| {
                    if g < best.0 - 1e-9 {
                        best = (g, k, w);
                    }
                },
            );
            numa = numa.or(cross);
            out.coef.extend(i.used.of(p).iter().map(|&(r, w)| {
                let wire = i.loads.space.is_wire(r as usize);
                (r, if wire { w / eff.max(1e-9) } else { w })
            }));
            out.ceilings.push(best.0);
            out.pairs.push(PairCeiling { best, eff, mtu });
        }
        out.numa.push(numa);
    }
    out
}

/// What the sharing settled, for the per-flow pass after it.
struct Settled<'s> {
    pairs: &'s [PairCeiling],
    shares: &'s [(f64, Stop)],
    sat: &'s ties::Saturation,
    numa: &'s [Option<&'static str>],
    streams: &'s [(u32, Option<(f64, u32)>)],
}

/// Flow `fi`'s prediction from its pairs' shares; `own` holds its worst pair's own
/// ceilings, found once for its ties and (in full) its limits.
fn settle(
    i: &Inputs,
    w: &words::Words,
    s: &Settled,
    fi: usize,
    (scratch, own): (&mut Scratch, &mut Vec<(f64, LimitKind, Why)>),
) -> FlowPrediction {
    let f = &i.cx.m.flows[fi];
    let (pairs, shares) = (s.pairs, s.shares);
    let range = i.used.flows[fi]..i.used.flows[fi + 1];
    let worst = range
        .clone()
        .min_by(|&a, &b| shares[a].0.total_cmp(&shares[b].0));
    let bound = worst.map(|p| bound_of(i, &pairs[p], shares[p]));
    let total = shares[range].iter().map(|s| s.0).sum();
    let mut fp = flow_prediction(i, w, fi, total, bound, s.streams[fi].0);
    let tied = worst.filter(|_| !fp.bottleneck.why.is_empty());
    let listed = worst.filter(|_| i.detail == Detail::Full);
    if let Some(p) = tied.or(listed) {
        let pr = &i.cx.routes.flows[fi].pairs[p - i.used.flows[fi]];
        own.clear();
        // The pair's wire figures as its ceiling found them: the path MTU walks every
        // hop, and doing it again for each flow of a full plan was 1 % of a large build.
        let wire = Some((pairs[p].eff, pairs[p].mtu));
        ceiling(
            i,
            f,
            (fi, pr, p, wire),
            s.streams[fi],
            scratch,
            &mut |g, k, why| {
                own.push((g, k, why));
            },
        );
    }
    if let Some(p) = tied {
        let also = ties::also_binding(i, p, &pairs[p], shares[p].0, s.sat, own);
        name_ties(i, w, f, &mut fp.bottleneck, also);
    }
    fp.numa_remote = s.numa[fi];
    if let Some(p) = listed {
        fp.limits = limits(i, w, f, (p, &pairs[p]), shares[p], own);
    }
    fp
}

/// Adds to a bottleneck's words every other limit that binds as tightly.
fn name_ties(i: &Inputs, w: &words::Words, f: &Flow, b: &mut Limit, also: Vec<(LimitKind, Why)>) {
    let rate = f.pair_rate().gbps();
    let mut words: Vec<String> = Vec::new();
    for (kind, why) in also {
        let text = explain(i, w, why, rate);
        let named = format!("{}: {text}", kind.name());
        if text != b.why && !text.is_empty() && !words.contains(&named) {
            words.push(named);
        }
    }
    if !words.is_empty() {
        b.why = format!("{}; as tight: {}", b.why, words.join("; ")).into();
    }
}

/// What stopped a pair, as a candidate limit.
fn bound_of(i: &Inputs, c: &PairCeiling, (gbps, stop): (f64, Stop)) -> (f64, LimitKind, Why) {
    match stop {
        Stop::Ceiling => c.best,
        Stop::Full(r) => {
            let r = r as usize;
            let kind = i.caps[r].map_or(LimitKind::Link, |c| c.1);
            (
                gbps,
                kind,
                Why::Shared {
                    res: r,
                    eff: c.eff,
                    mtu: c.mtu,
                },
            )
        }
    }
}

/// Every limit on pair `p`'s path (`plan --detail`), smallest first: its own ceilings
/// (`own`, as `ceiling` found them), then each resource it crosses, alone or at the
/// share it got there.
fn limits(
    i: &Inputs,
    w: &words::Words,
    f: &Flow,
    (p, c): (usize, &PairCeiling),
    (got, stop): (f64, Stop),
    own: &[(f64, LimitKind, Why)],
) -> Vec<Limit> {
    let rate = f.pair_rate().gbps();
    let (eff, mtu) = (c.eff, c.mtu);
    let mut out = own.to_vec();
    for &(r, share) in i.used.of(p) {
        let r = r as usize;
        let Some((cap, kind)) = i.caps[r] else {
            continue;
        };
        let wire = i.loads.space.is_wire(r);
        let alone = if wire { cap * eff } else { cap } / share.max(1e-9);
        let gbps = if stop == Stop::Full(r as u32) {
            got
        } else {
            alone
        };
        let why = Why::Shared { res: r, eff, mtu };
        out.push((gbps, kind, why));
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Not collected in place from `out`: a limit is larger than its candidate, and
    // reusing the buffer cost a reallocation per flow (a quarter of a full prediction).
    let mut limits = Vec::with_capacity(out.len());
    limits.extend(out.iter().map(|&(gbps, kind, why)| Limit {
        kind,
        gbps,
        why: explain(i, w, why, rate),
        fix: None,
    }));
    limits
}

/// A flow's prediction from its total and its worst pair's bound.
fn flow_prediction(
    i: &Inputs,
    w: &words::Words,
    fi: usize,
    total: f64,
    worst: Option<(f64, LimitKind, Why)>,
    streams_per_pair: u32,
) -> FlowPrediction {
    let cx = i.cx;
    let m = cx.m;
    let f = &m.flows[fi];
    let routes = &cx.routes.flows[fi];
    let rate = f.pair_rate().gbps();
    let rtt_ms = routes.pairs.iter().map(|p| p.rtt_ms()).fold(0.0, f64::max);
    let demand_gbps = f.rate.gbps() * if f.bidirectional { 2.0 } else { 1.0 };
    // `check` reports a flow below 95% of its demand; only those need their words.
    let explained = i.detail == Detail::Full || total < SHORTFALL * demand_gbps;
    let path = match routes.pairs.first() {
        Some(p) if i.detail == Detail::Full => p.switches().map(|s| w.switch(m, s)).collect(),
        _ => Vec::new(),
    };
    let bottleneck = match worst {
        Some((gbps, kind, _)) if !explained => Limit {
            kind,
            gbps,
            why: w.empty(),
            fix: None,
        },
        Some((gbps, kind, Why::Demand)) if routes.pairs.len() > 1 => Limit {
            kind,
            gbps,
            why: format!(
                "each of its {} pairs asks for {}",
                routes.pairs.len(),
                crate::spec::units::Rate::from_gbps(rate)
            )
            .into(),
            fix: None,
        },
        Some((gbps, kind, why)) => Limit {
            kind,
            gbps,
            why: explain(i, w, why, rate),
            fix: match why {
                Why::Loss { .. } => loss_fix(cx, why, rate),
                Why::BlackHole { path_mtu, .. } => Some(format!(
                    "lower the hosts' MTU to {path_mtu} or less, or raise the MTU of the narrow hop (the MTU error names it)"
                )),
                Why::Pacing { flow, pair } => Some(format!(
                    "the sender paces what leaves {} to {:.0} % of it, shared by demand (fasterdata: pace to 80-90 % of the NIC speed, fewer losses): lower the rates that leave by it, or add a port or bond member",
                    super::pacing::port_words(cx, &cx.routes.flows[flow].pairs[pair]),
                    super::pacing::share_pct()
                )),
                _ => None,
            },
        },
        None => Limit {
            kind: LimitKind::Demand,
            gbps: 0.0,
            why: "no routed pair".into(),
            fix: None,
        },
    };
    FlowPrediction {
        name: f.name.value.clone(),
        protocol: f.protocol.value.as_str(),
        congestion_control: f.congestion_control().map(|c| c.as_str()),
        loss_model: f
            .congestion_control()
            .filter(|_| {
                routes
                    .pairs
                    .iter()
                    .any(|p| super::loss::path_loss(m, p) > 0.0)
            })
            .map(super::congestion::model),
        pairs: routes.pairs.len(),
        stripes: f.stripe_width,
        streams_per_pair,
        demand_gbps,
        predicted_gbps: total,
        feasible: total >= SHORTFALL * demand_gbps,
        expect_infeasible: f.expect_infeasible,
        bottleneck,
        limits: Vec::new(),
        rtt_ms,
        path,
        numa_remote: None,
        needs_rules: Vec::new(),
    }
}

/// A flow predicted below this share of its demand falls short (W0247).
pub(crate) const SHORTFALL: f64 = 0.95;

/// Whether the data crosses sockets (and between what), and the per-stream factor: the
/// share of the traffic that crosses pays `numa_remote_factor`, the rest does not.
fn numa_factor(
    cx: &Ctx,
    facts: &[HostFacts],
    f: &Flow,
    pr: &PairRoute,
    scratch: &mut Scratch,
) -> (Option<&'static str>, f64) {
    let m = cx.m;
    let mut remote = None;
    let mut crossing: f64 = 0.0;
    for (first, store, host) in [(true, f.source, pr.src), (false, f.sink, pr.dst)] {
        host_nics(m, &cx.host_ends, pr, first, &mut scratch.nics);
        let sockets = &mut scratch.sockets;
        sockets.clear();
        sockets.extend(
            scratch
                .nics
                .iter()
                .filter_map(|&(h, n)| facts[h].nic_socket.get(n).copied().flatten()),
        );
        if sockets.is_empty() {
            continue;
        }
        let n = sockets.len() as f64;
        // A `pin:` puts the process on its socket whatever the NICs': what reaches a
        // NIC on another socket crosses.
        if let Some(p) = if first { f.pin.0 } else { f.pin.1 } {
            let away = sockets.iter().filter(|&&s| s != p).count() as f64 / n;
            if away > 0.0 {
                remote = remote.or(Some("a pinned socket and its NIC"));
                crossing = crossing.max(away);
            }
            continue;
        }
        let drives = &facts[host].io.sockets;
        if store != Store::Memory
            && !drives.is_empty()
            && sockets.iter().any(|s| !drives.contains(s))
        {
            remote = Some("drives and a NIC");
            crossing =
                crossing.max(sockets.iter().filter(|s| !drives.contains(s)).count() as f64 / n);
        } else if sockets.windows(2).any(|w| w[0] != w[1]) {
            // A bond over NICs of two sockets: the application sits on one of them, the
            // traffic of the other socket's NICs crosses.
            let most = sockets
                .iter()
                .map(|s| sockets.iter().filter(|t| *t == s).count())
                .max()
                .unwrap_or(0);
            remote = remote.or(Some("the NICs of a host bond"));
            crossing = crossing.max(1.0 - most as f64 / n);
        }
    }
    (
        remote,
        1.0 - crossing * (1.0 - cx.physics.numa_remote_factor),
    )
}
