//! The prediction engine: for each flow, what it will really reach and why. Each pair
//! has a ceiling of its own (its demand, CPU streams, TCP window, LAG hashing); every
//! shared resource (link direction, LAG, NIC PCIe link, PCIe switch uplink, drives) is
//! split among the pairs that use it max-min fair (`share`). What stopped a flow's
//! slowest pair names its bottleneck. What a prediction says is in `model`, the words
//! for it in `explain`; `src/plan.rs` presents it.

use super::CheckInput;
use super::load::{Loads, PairUse, Res, Space, host_nics, resources};
use super::share::Stop;
use crate::derive::paths::PairRoute;
use crate::resolve::model::{Flow, HostId};
use crate::spec::flow::{Protocol, Store};

mod explain;
mod facts;
mod model;
mod phrases;
mod resources;
mod ties;

use explain::{Why, explain, loss_fix, name_ties};
pub(crate) use facts::{HostFacts, goodput, host_facts};
pub(crate) use model::{
    FlowPrediction, HostStorage, Limit, LimitKind, LinkUse, Plan, SHORTFALL, SiteSummary,
};
pub(crate) use resources::lag_gbps;
use resources::{capacity, link_reported, link_use};

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
pub(crate) fn plan(cx: &CheckInput) -> (Plan, Loads) {
    let (plan, loads, _) = analyse(cx, Detail::Full);
    (plan, loads)
}

/// Every routed pair's resources, and the loads they add up to.
fn loads(cx: &CheckInput, facts: &[HostFacts], streams: &[u32]) -> (PairUse, Loads) {
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
pub(crate) fn analyse(cx: &CheckInput, detail: Detail) -> (Plan, Loads, Vec<HostFacts>) {
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

/// What predicting a flow reads.
struct Inputs<'a, 'c> {
    cx: &'a CheckInput<'c>,
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
    cx: &CheckInput,
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
                super::hashing::fields(cx, g, forward) == crate::spec::catalog_file::HashFields::L3;
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
fn stream_count(cx: &CheckInput, facts: &[HostFacts], fi: usize) -> u32 {
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
    let w = phrases::Phrases::new(i.loads.space.len());
    let mut scratch = Scratch::default();
    let mut own = Vec::new();
    (0..m.flows.len())
        .map(|fi| flow_from_shares(i, &w, &settled, fi, (&mut scratch, &mut own)))
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
fn flow_from_shares(
    i: &Inputs,
    w: &phrases::Phrases,
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
        // hop, once per pair is enough.
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
    w: &phrases::Phrases,
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
    w: &phrases::Phrases,
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

/// Whether the data crosses sockets (and between what), and the per-stream factor: the
/// share of the traffic that crosses pays `numa_remote_factor`, the rest does not.
fn numa_factor(
    cx: &CheckInput,
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
