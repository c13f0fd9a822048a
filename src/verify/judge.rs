//! Measured against planned. A flow is within tolerance when its pairs together reached
//! the plan's prediction less the tolerance; short of it, every cause the results show
//! is named, each beside the plan's own figure for it, and when they show none, the
//! plan's bottleneck and what to collect to find one.

use std::collections::BTreeMap;

use serde::Serialize;

use super::planned::{PlanFlow, Planned};
use super::state::{PairSeen, Seen, SwitchSeen};
use super::twin_run::{TwinRun, not_comparable};
use crate::verify::inputs::Rw;

/// A core counts as saturated at this share of it, percent.
const CORE_BUSY_PCT: f64 = 90.0;

/// IPv4 and TCP headers and the timestamp option: an MSS this much below the MTU.
const TCP_OVERHEAD: u64 = 52;

/// A port-channel member this full counts as saturated (share of its capacity).
const FULL: f64 = 0.95;

/// Below this, a receiver sees no light (EOS prints -30 or -40 dBm for none).
const NO_LIGHT_DBM: f64 = -30.0;

/// A link carrying this share of what it could carry is full (the twin's shapers count
/// line overhead the counters do not).
const BUSY: f64 = 0.85;

#[derive(Debug, Serialize)]
pub(crate) struct FlowVerdict {
    pub(crate) flow: String,
    pub(crate) demand_gbps: f64,
    pub(crate) predicted_gbps: f64,
    pub(crate) measured_gbps: Option<f64>,
    pub(crate) pairs: usize,
    pub(crate) pairs_measured: usize,
    /// `ok`, `short`, `unmeasured`, `incomplete` (some pairs have no result), or, in a
    /// twin's results, `not comparable` (its limit does not scale with the links).
    pub(crate) status: &'static str,
    pub(crate) causes: Vec<String>,
    /// Why a twin's measurement of it says nothing about the plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) not_comparable: Option<String>,
    /// The plan's bottleneck, in its words.
    pub(crate) planned_bottleneck: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct LinkVerdict {
    pub(crate) link: String,
    pub(crate) predicted_gbps: f64,
    pub(crate) capacity_gbps: f64,
    pub(crate) measured_gbps: Option<f64>,
    /// Frames dropped on the link's ends during the results' snapshots.
    pub(crate) discards: Option<f64>,
    /// `ok`, `above` (more than predicted), `discards`, or `unmeasured`; in a twin's
    /// results also `below` (every flow runs at once there, so a link carries its
    /// planned load) and `not comparable` (a flow over it is).
    pub(crate) status: &'static str,
    /// What the twin run throttled the link to, Gbit/s before the scale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) throttled_gbps: Option<f64>,
}

#[derive(Debug, Serialize)]
pub(crate) struct OpticVerdict {
    pub(crate) switch: String,
    pub(crate) port: String,
    pub(crate) optic: String,
    pub(crate) rx_dbm: f64,
    /// The least the receiver takes: the catalog's sensitivity, or launch less the
    /// channel's maximum loss.
    pub(crate) floor_dbm: Option<f64>,
    /// The most the receiver takes (its overload), when the catalog gives it.
    pub(crate) ceiling_dbm: Option<f64>,
    /// `ok`, `low` (below the floor), `high` (above the ceiling: the receiver
    /// overloads), `dark` (no light), `unknown` (no floor).
    pub(crate) status: &'static str,
}

#[derive(Debug, Serialize)]
pub(crate) struct LldpVerdict {
    pub(crate) switch: String,
    pub(crate) port: String,
    /// `device:port` as the build cabled it, with the cable's id.
    pub(crate) planned: Option<String>,
    pub(crate) cable: Option<String>,
    pub(crate) seen: Option<String>,
    /// `ok`, `wrong`, `missing`, `unplanned`.
    pub(crate) status: &'static str,
}

#[derive(Debug, Serialize)]
pub(crate) struct MtuVerdict {
    pub(crate) flow: String,
    pub(crate) src: String,
    pub(crate) dst: String,
    pub(crate) planned: u32,
    /// The path MTU the connection's segment size implies.
    pub(crate) implied: u64,
    pub(crate) status: &'static str,
}

#[derive(Debug, Serialize)]
pub(crate) struct Report {
    pub(crate) show: String,
    pub(crate) tolerance_pct: f64,
    pub(crate) files: usize,
    pub(crate) skipped: usize,
    pub(crate) flows: Vec<FlowVerdict>,
    pub(crate) links: Vec<LinkVerdict>,
    pub(crate) optics: Vec<OpticVerdict>,
    pub(crate) lldp: Vec<LldpVerdict>,
    pub(crate) mtu: Vec<MtuVerdict>,
    /// The twin run the results are from: measured rates are multiplied by its scale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) twin: Option<TwinRun>,
}

impl Report {
    /// Whether every flow reached its prediction within the tolerance.
    pub(crate) fn passed(&self) -> bool {
        self.flows
            .iter()
            .all(|f| f.status == "ok" || f.status == "not comparable")
    }

    /// What the show report prints beside its predictions.
    pub(crate) fn measured(&self) -> crate::report::Measured {
        let row = |gbps, status: &str, causes: &[String]| crate::report::MeasuredRow {
            gbps,
            status: status.to_owned(),
            causes: causes.to_vec(),
        };
        crate::report::Measured {
            flows: self
                .flows
                .iter()
                .map(|f| (f.flow.clone(), row(f.measured_gbps, f.status, &f.causes)))
                .collect(),
            links: self
                .links
                .iter()
                .map(|l| (l.link.clone(), row(l.measured_gbps, l.status, &[])))
                .collect(),
        }
    }
}

/// One port's rate and drops over the results' snapshots.
#[derive(Clone, Debug, Default)]
struct PortUse {
    in_gbps: Option<f64>,
    out_gbps: Option<f64>,
    in_drops: Option<f64>,
    out_drops: Option<f64>,
}

/// Per switch and port: the rates file's reading, else the rate between the first and
/// last counter snapshot that carry times; drops between the first and last snapshot.
/// Rates are multiplied by `k` (a twin's scale).
fn port_use(seen: &SwitchSeen, k: f64) -> BTreeMap<String, PortUse> {
    let mut out: BTreeMap<String, PortUse> = BTreeMap::new();
    if let (Some(first), Some(last)) = (seen.counters.first(), seen.counters.last()) {
        if seen.counters.len() > 1 {
            for (port, b) in &last.1 {
                let Some(a) = first.1.get(port) else { continue };
                let u = out.entry(port.clone()).or_default();
                let delta = |x: Option<f64>, y: Option<f64>| Some(y? - x?).filter(|d| *d >= 0.0);
                u.in_drops = delta(a.in_discards, b.in_discards);
                u.out_drops = delta(a.out_discards, b.out_discards);
                if let Some(dt) = delta(a.at, b.at).filter(|d| *d > 0.0) {
                    u.in_gbps = delta(a.in_octets, b.in_octets).map(|o| o * 8.0 / dt / 1e9 * k);
                    u.out_gbps = delta(a.out_octets, b.out_octets).map(|o| o * 8.0 / dt / 1e9 * k);
                }
            }
        }
    }
    if let Some((_, rates)) = &seen.rates {
        for (port, r) in rates {
            let u = out.entry(port.clone()).or_default();
            u.in_gbps = Some(r.in_bps / 1e9 * k);
            u.out_gbps = Some(r.out_bps / 1e9 * k);
        }
    }
    out
}

fn g(v: f64) -> String {
    format!("{v:.1}")
}

/// The plan's tightest limit of a kind on a flow.
fn limit<'a>(f: &'a PlanFlow, kind: &str) -> Option<&'a super::planned::Limit> {
    f.limits
        .iter()
        .filter(|l| l.kind == kind)
        .min_by(|a, b| a.gbps.total_cmp(&b.gbps))
}

/// The catalog's receive window for an optic, dBm: its floor and its ceiling.
fn window(db: Option<&crate::catalog::Catalog>, optic: &str) -> (Option<f64>, Option<f64>) {
    match db.and_then(|d| d.optics.get(optic)) {
        Some(o) => (o.rx_floor_dbm(), o.rx_max_dbm),
        None => (None, None),
    }
}

struct Judging<'a> {
    plan: &'a Planned,
    seen: &'a Seen,
    uses: BTreeMap<&'a str, BTreeMap<String, PortUse>>,
    /// Planned load and capacity leaving each (device, port), Gbit/s, and the link's words.
    loads: BTreeMap<(String, String), (f64, f64, &'a str)>,
    optics: Vec<OpticVerdict>,
    tol: f64,
    twin: Option<&'a TwinRun>,
    /// Measured rates are multiplied by this (a twin's scale; 1 at the show).
    k: f64,
}

pub(crate) fn judge(
    plan: &Planned,
    seen: &Seen,
    tolerance_pct: f64,
    twin: Option<&TwinRun>,
) -> Report {
    let tol = tolerance_pct / 100.0;
    let k = twin.map_or(1.0, |t| t.scale);
    let uses = seen
        .switches
        .iter()
        .map(|(n, s)| (n.as_str(), port_use(s, k)))
        .collect();
    let loads = plan
        .links
        .iter()
        .filter_map(|l| {
            let ((d, p), _) = l.ends()?;
            Some((
                (d.to_owned(), p),
                (l.load_gbps, l.capacity_gbps, l.link.as_str()),
            ))
        })
        .collect();
    let db = crate::catalog::owned();
    let optics = optics(plan, seen, db.as_ref());
    let cx = Judging {
        plan,
        seen,
        uses,
        loads,
        optics,
        tol,
        twin,
        k,
    };
    let flows = plan.flows.iter().map(|f| flow(&cx, f)).collect();
    let links = links(&cx);
    let Judging { optics, .. } = cx;
    Report {
        show: plan.show.clone(),
        tolerance_pct,
        files: 0,
        skipped: 0,
        flows,
        links,
        optics,
        lldp: lldp(plan, seen),
        mtu: mtu(plan, seen),
        twin: twin.cloned(),
    }
}

/// Why a twin's measurement of `f` says nothing about the plan (None at the show).
fn incomparable(cx: &Judging, f: &PlanFlow) -> Option<String> {
    cx.twin?;
    not_comparable(
        &f.protocol,
        f.predicted_gbps,
        &f.bottleneck.kind,
        f.bottleneck.gbps,
        f.rtt_ms,
    )
}

fn flow(cx: &Judging, f: &PlanFlow) -> FlowVerdict {
    let pairs = cx.plan.pairs.get(&f.name).map_or(&[][..], |p| &p.pairs[..]);
    let none = PairSeen::default();
    let seen_of = |src: &str, dst: &str| {
        cx.seen
            .pairs
            .get(&(f.name.clone(), src.to_owned(), dst.to_owned()))
            .unwrap_or(&none)
    };
    let mut measured = 0.0;
    let mut count = 0;
    for p in pairs {
        let s = seen_of(&p.src, &p.dst);
        if let Some(r) = s.fabric().or_else(|| s.net(&p.src)) {
            measured += r.m.gbps * cx.k;
            count += 1;
        }
    }
    let mut v = FlowVerdict {
        flow: f.name.clone(),
        demand_gbps: f.demand_gbps,
        predicted_gbps: f.predicted_gbps,
        measured_gbps: (count > 0).then_some(measured),
        pairs: pairs.len(),
        pairs_measured: count,
        status: "ok",
        causes: Vec::new(),
        not_comparable: incomparable(cx, f),
        planned_bottleneck: format!("{}: {}", f.bottleneck.kind, f.bottleneck.why),
    };
    if v.not_comparable.is_some() {
        v.status = "not comparable";
        return v;
    }
    if count == 0 {
        v.status = "unmeasured";
        return v;
    }
    if count < pairs.len() {
        v.status = "incomplete";
    }
    // The prediction for the pairs measured (the plan's is the flow's, over its pairs).
    let expected = f.predicted_gbps * count as f64 / pairs.len().max(1) as f64;
    if measured >= expected * (1.0 - cx.tol) {
        return v;
    }
    if v.status == "ok" {
        v.status = "short";
    }
    v.causes = causes(cx, f, pairs, &seen_of);
    if v.causes.is_empty() {
        v.causes.push(format!(
            "no cause in the results given; the plan's bottleneck is {}: collect switch state along the path (counters before and after the test, transceivers, LLDP; `ovs-ofctl dump-ports`/`dump-flows` on OpenFlow switches) to find one",
            v.planned_bottleneck
        ));
    }
    v
}

fn causes<'a>(
    cx: &Judging,
    f: &PlanFlow,
    pairs: &[super::planned::Pair],
    seen_of: &dyn Fn(&str, &str) -> &'a PairSeen,
) -> Vec<String> {
    let mut out = Vec::new();
    let loss = limit(f, "loss");
    let loss_words = loss.map_or(String::from("the plan counts on no loss"), |l| {
        format!(
            "the plan's loss model allowed {} Gbit/s: {}",
            g(l.gbps),
            l.why
        )
    });
    let per_pair = f.predicted_gbps / pairs.len().max(1) as f64;
    for p in pairs {
        let s = seen_of(&p.src, &p.dst);
        let pair = format!("{} -> {}", p.src, p.dst);
        if let Some(r) = s.net(&p.src) {
            let m = &r.m;
            if let Some(n) = m.retransmits.filter(|n| *n > 0) {
                out.push(format!(
                    "loss: {n} TCP retransmits on {pair} in {:.0} s ({loss_words})",
                    m.seconds
                ));
            }
            if let Some(l) = m.lost_pct.filter(|l| *l > 0.0) {
                out.push(format!(
                    "loss: {l:.3}% of datagrams lost on {pair} ({loss_words})"
                ));
            }
            if let (Some(rtt), Some(w)) = (m.rtt_ms, limit(f, "window")) {
                // The window's rate scales with the RTT it is spread over.
                if rtt > p.rtt_ms.max(f.rtt_ms) * 2.0 && rtt > 0.0 {
                    let at = w.gbps * f.rtt_ms.max(1e-6) / rtt;
                    if at < per_pair * (1.0 - cx.tol) {
                        out.push(format!(
                            "RTT and window: {pair} measured {rtt:.2} ms against {:.3} ms planned; its window ({}) then carries {} Gbit/s",
                            p.rtt_ms,
                            w.why,
                            g(at)
                        ));
                    }
                }
            }
            let threads = if m.one_thread {
                1.0
            } else {
                m.streams.unwrap_or(1) as f64
            };
            for (side, host, pct) in [
                ("sending", &p.src, m.cpu_send_pct),
                ("receiving", &p.dst, m.cpu_recv_pct),
            ] {
                if pct.is_some_and(|c| c >= CORE_BUSY_PCT * threads) {
                    let plan_cpu = limit(f, "cpu").map_or(String::new(), |l| {
                        format!(" (the plan allowed {} Gbit/s: {})", g(l.gbps), l.why)
                    });
                    out.push(format!(
                        "cpu: the {side} iperf3 on `{host}` used {:.0}% of a core{}{plan_cpu}",
                        pct.unwrap_or(0.0) / threads,
                        if m.one_thread {
                            ", all streams on one thread (iperf3 before 3.16)"
                        } else {
                            " per stream"
                        }
                    ));
                }
            }
            if let Some(mss) = m.mss {
                let implied = mss + TCP_OVERHEAD;
                if implied + 64 < u64::from(p.mtu) {
                    out.push(format!(
                        "mtu: {pair}'s segments ({mss} bytes) mean a path MTU near {implied}, the plan's is {}: a smaller MTU somewhere on the path",
                        p.mtu
                    ));
                }
            }
        }
        for (rw, r) in &s.drives {
            if r.m.gbps < per_pair * (1.0 - cx.tol) {
                let what = if *rw == Rw::Read { "read" } else { "wrote" };
                let plan_drive = limit(f, "storage").map_or(String::new(), |l| {
                    format!(" (the plan's drive limit: {} Gbit/s, {})", g(l.gbps), l.why)
                });
                out.push(format!(
                    "drive: fio on `{}` {what} {} Gbit/s, below the pair's {}{plan_drive}",
                    r.host,
                    g(r.m.gbps),
                    g(per_pair)
                ));
            }
        }
        for h in &p.path {
            path_causes(cx, f, h, &mut out);
        }
    }
    // Once each, the likely cause first.
    let mut once: Vec<String> = Vec::new();
    for c in out {
        if !once.contains(&c) {
            once.push(c);
        }
    }
    once.sort_by_key(|c| !c.ends_with(LIKELY));
    once
}

/// How a cause the results single out ends.
const LIKELY: &str = "the likely cause";

/// What the switch state shows on one hop of a pair's path.
fn path_causes(cx: &Judging, f: &PlanFlow, h: &super::planned::Hop, out: &mut Vec<String>) {
    let Some(sw) = cx.plan.switches.get(&h.switch) else {
        return;
    };
    let uses = cx.uses.get(h.switch.as_str());
    let outs = sw.hop_ports(&h.out_port);
    let lag = outs.len() > 1;
    throttled(cx, &h.switch, sw, &h.in_port, true, out);
    throttled(cx, &h.switch, sw, &h.out_port, false, out);
    for p in sw
        .hop_ports(&h.in_port)
        .into_iter()
        .chain(outs.iter().copied())
    {
        let Some(u) = uses.and_then(|u| u.get(&p.port)) else {
            continue;
        };
        for (dir, d) in [("received", u.in_drops), ("sent", u.out_drops)] {
            if let Some(n) = d.filter(|n| *n > 0.0) {
                out.push(format!("loss: `{}` {} ({}) discarded {n:.0} frames {dir} between the counter snapshots", h.switch, p.name, p.port));
            }
        }
    }
    // The plan's load on the hop's way out, spread evenly over a port-channel's members.
    let n = outs.len().max(1) as f64;
    let planned = cx
        .loads
        .get(&(h.switch.clone(), h.out_port.clone()))
        .map(|(load, cap, words)| (load / n, cap / n, *words));
    for p in &outs {
        let Some(u) = uses.and_then(|u| u.get(&p.port)) else {
            continue;
        };
        let (Some(m), Some((load, cap, words))) = (u.out_gbps, planned) else {
            continue;
        };
        if m > load * (1.0 + cx.tol) + 0.1 {
            let what = if lag {
                format!("port-channel member {} ({}) of {words}", p.name, p.port)
            } else {
                format!("link {words}")
            };
            out.push(format!(
                "{}: `{}` {what} carried {} Gbit/s against {} predicted: traffic the plan does not have shares it",
                if lag { "lag" } else { "link" },
                h.switch,
                g(m),
                g(load),
            ));
        } else if lag && m >= FULL * cap {
            out.push(format!(
                "lag: `{}` port-channel member {} ({}) of {words} is full ({} of its {} Gbit/s) while the flow is short: the hash put more streams on it than the plan's even share",
                h.switch,
                p.name,
                p.port,
                g(m),
                g(cap),
            ));
        }
    }
    for o in cx
        .optics
        .iter()
        .filter(|o| o.switch == h.switch && o.status != "ok" && o.status != "unknown")
    {
        if sw
            .hop_ports(&h.in_port)
            .iter()
            .chain(outs.iter())
            .any(|p| p.port == o.port)
        {
            let against = match (o.status, o.floor_dbm, o.ceiling_dbm) {
                ("high", _, Some(c)) => format!(
                    ", above the {} overload of {c:.1} dBm: an attenuator is missing",
                    o.optic
                ),
                (_, Some(fl), _) => format!(", below the {} floor of {fl:.1} dBm", o.optic),
                _ => String::new(),
            };
            out.push(format!(
                "optic: `{}` {} receives {:.1} dBm{against}",
                o.switch, o.port, o.rx_dbm,
            ));
        }
    }
    rules(cx, f, &h.switch, out);
}

/// A cable of the hop that the twin run throttled below its speed, full (or without
/// counters to say): the likely cause of a short flow over it. `into`: the way into
/// `switch` at `port` (sent by its peer), else the way out.
fn throttled(
    cx: &Judging,
    switch: &str,
    sw: &super::planned::Switch,
    port: &str,
    into: bool,
    out: &mut Vec<String>,
) {
    let Some(twin) = cx.twin else { return };
    let uses = cx.uses.get(switch);
    for p in sw.hop_ports(port) {
        let peer = p.peer.as_ref().map(|(d, pp)| (d.as_str(), pp.as_str()));
        let Some(t) = twin.throttle((switch, &p.port), peer) else {
            continue;
        };
        // The plan's link this way: keyed by the end that sends.
        let sender = if into {
            peer.map(|(d, pp)| (d.to_owned(), pp.to_owned()))
        } else {
            Some((switch.to_owned(), port.to_owned()))
        };
        let Some((load, cap, words)) = sender.and_then(|k| cx.loads.get(&k)) else {
            continue;
        };
        let members = sw.hop_ports(port).len().max(1) as f64;
        if t >= cap / members {
            continue;
        }
        let m = uses
            .and_then(|u| u.get(&p.port))
            .and_then(|u| if into { u.in_gbps } else { u.out_gbps });
        let ran = format!(
            "the twin run throttled it to {} Gbit/s, below its {} and the {} the plan puts on it",
            g(t),
            g(cap / members),
            g(load / members)
        );
        match m {
            Some(m) if m >= BUSY * t => out.push(format!(
                "link {words}: carried {} Gbit/s, full: {ran}; {LIKELY}",
                g(m)
            )),
            Some(_) => {}
            None => out.push(format!(
                "link {words}: {ran} (no counters of `{switch}` {} in the results to show it full)",
                p.port
            )),
        }
    }
}

/// A flow's OpenFlow rules on a switch that matched nothing.
fn rules(cx: &Judging, f: &PlanFlow, switch: &str, out: &mut Vec<String>) {
    let Some((_, rules)) = cx.seen.switches.get(switch).and_then(|s| s.rules.as_ref()) else {
        return;
    };
    let Some(fp) = cx.plan.pairs.get(&f.name) else {
        return;
    };
    let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    let (Some(cookie), Some(mask)) = (hex(&fp.cookie), hex(&fp.cookie_mask)) else {
        return;
    };
    let mine: Vec<_> = rules.iter().filter(|r| r.cookie & mask == cookie).collect();
    if mine.is_empty() {
        out.push(format!("rules: `{switch}` has no rule with the flow's cookie {}/{}: load its `openflow/{switch}` rules", fp.cookie, fp.cookie_mask));
    } else if mine.iter().all(|r| r.packets == 0) {
        out.push(format!("rules: none of the flow's {} rules on `{switch}` matched a packet: the traffic took another path or another rule won", mine.len()));
    }
}

fn links(cx: &Judging) -> Vec<LinkVerdict> {
    cx.plan
        .links
        .iter()
        .map(|l| {
            let mut v = LinkVerdict {
                link: l.link.clone(),
                predicted_gbps: l.load_gbps,
                capacity_gbps: l.capacity_gbps,
                measured_gbps: None,
                discards: None,
                status: "unmeasured",
                throttled_gbps: None,
            };
            let Some(((fd, fp), (td, tp))) = l.ends() else {
                return v;
            };
            let twin_flows = cx.twin.map(|_| {
                l.flows.iter().any(|n| {
                    cx.plan
                        .flows
                        .iter()
                        .any(|f| &f.name == n && incomparable(cx, f).is_some())
                })
            });
            // Summed over a port-channel's members; None unless every member has it.
            let sum = |d: &str, port: &str, toward: &str, get: &dyn Fn(&PortUse) -> Option<f64>| {
                let (sw, uses) = (cx.plan.switches.get(d)?, cx.uses.get(d)?);
                let ports = sw.hop_ports_toward(port, toward);
                if ports.is_empty() {
                    return None;
                }
                ports
                    .iter()
                    .map(|p| uses.get(&p.port).and_then(get))
                    .sum::<Option<f64>>()
            };
            v.measured_gbps =
                sum(fd, &fp, td, &|u| u.out_gbps).or_else(|| sum(td, &tp, fd, &|u| u.in_gbps));
            let drops = [
                sum(fd, &fp, td, &|u| u.out_drops),
                sum(td, &tp, fd, &|u| u.in_drops),
            ];
            if drops.iter().any(Option::is_some) {
                v.discards = Some(drops.iter().flatten().sum());
            }
            v.throttled_gbps = cx.twin.and_then(|t| {
                let at = |d: &str, p: &str| -> Option<(String, String)> {
                    let port = cx.plan.switches.get(d)?.port(p)?;
                    Some((port.port.clone(), d.to_owned()))
                };
                let (port, dev) = at(fd, &fp).or_else(|| at(td, &tp))?;
                let peer = cx
                    .plan
                    .switches
                    .get(&dev)?
                    .port(&port)?
                    .peer
                    .as_ref()
                    .map(|(d, p)| (d.as_str(), p.as_str()));
                t.throttle((&dev, &port), peer)
            });
            v.status = match (v.measured_gbps, v.discards) {
                _ if twin_flows == Some(true) => "not comparable",
                (_, Some(d)) if d > 0.0 => "discards",
                (Some(m), _) if m > l.load_gbps * (1.0 + cx.tol) + 0.1 => "above",
                // Every flow runs at once in the twin: a link short of its load held
                // them back (or one before it did).
                (Some(m), _) if twin_flows.is_some() && m < l.load_gbps * (1.0 - cx.tol) => "below",
                (Some(_), _) | (None, Some(_)) => "ok",
                (None, None) => "unmeasured",
            };
            v
        })
        .collect()
}

fn optics(plan: &Planned, seen: &Seen, db: Option<&crate::catalog::Catalog>) -> Vec<OpticVerdict> {
    let mut out = Vec::new();
    for (name, s) in &seen.switches {
        let (Some(sw), Some((_, rx))) = (plan.switches.get(name), &s.optics) else {
            continue;
        };
        for (port, dbm) in rx {
            let Some(optic) = sw
                .ports
                .iter()
                .find(|p| &p.port == port)
                .and_then(|p| p.optic.clone())
            else {
                continue;
            };
            let (fl, ceiling) = window(db, &optic);
            let status = if *dbm <= NO_LIGHT_DBM {
                "dark"
            } else {
                match (fl, ceiling) {
                    (Some(f), _) if *dbm < f => "low",
                    (_, Some(c)) if *dbm > c => "high",
                    (Some(_), _) => "ok",
                    (None, _) => "unknown",
                }
            };
            out.push(OpticVerdict {
                switch: name.clone(),
                port: port.clone(),
                optic,
                rx_dbm: *dbm,
                floor_dbm: fl,
                ceiling_dbm: ceiling,
                status,
            });
        }
    }
    out
}

/// Whether LLDP's device name is the planned one (a switch may add its domain).
fn same_device(seen: &str, planned: &str) -> bool {
    seen == planned
        || seen
            .strip_prefix(planned)
            .is_some_and(|r| r.starts_with('.'))
}

fn lldp(plan: &Planned, seen: &Seen) -> Vec<LldpVerdict> {
    let mut out = Vec::new();
    for (name, s) in &seen.switches {
        let (Some(sw), Some((_, neighbors))) = (plan.switches.get(name), &s.lldp) else {
            continue;
        };
        for p in &sw.ports {
            let n = neighbors.get(&p.port);
            let planned = p.peer.as_ref();
            let peer_switch = planned.and_then(|(d, _)| plan.switches.get(d));
            let status = match (planned, n) {
                (Some((d, pp)), Some(n)) => {
                    let port_ok = match peer_switch {
                        Some(ps) => ps.port(&n.remote_port).is_some_and(|x| &x.port == pp),
                        // A host's port is named by its kernel, which the build does not know.
                        None => true,
                    };
                    if same_device(&n.device, d) && port_ok {
                        "ok"
                    } else {
                        "wrong"
                    }
                }
                // Hosts may run no LLDP agent: only switch-facing ports must show one.
                (Some(_), None) if peer_switch.is_some() && p.lldp => "missing",
                (Some(_), None) => continue,
                (None, Some(_)) => "unplanned",
                (None, None) => continue,
            };
            out.push(LldpVerdict {
                switch: name.clone(),
                port: p.port.clone(),
                planned: planned.map(|(d, pp)| format!("{d}:{pp}")),
                cable: cable_of(plan, name, &p.port),
                seen: n.map(|n| format!("{}:{}", n.device, n.remote_port)),
                status,
            });
        }
    }
    out
}

fn cable_of(plan: &Planned, device: &str, port: &str) -> Option<String> {
    plan.cables
        .iter()
        .find(|c| [&c.a, &c.b].iter().any(|(d, p)| d == device && p == port))
        .map(|c| c.id.clone())
}

fn mtu(plan: &Planned, seen: &Seen) -> Vec<MtuVerdict> {
    let mut out = Vec::new();
    for fp in plan.pairs.values() {
        for p in &fp.pairs {
            let Some(s) = seen
                .pairs
                .get(&(fp.name.clone(), p.src.clone(), p.dst.clone()))
            else {
                continue;
            };
            let Some(mss) = s.net(&p.src).and_then(|r| r.m.mss) else {
                continue;
            };
            let implied = mss + TCP_OVERHEAD;
            out.push(MtuVerdict {
                flow: fp.name.clone(),
                src: p.src.clone(),
                dst: p.dst.clone(),
                planned: p.mtu,
                implied,
                status: if implied + 64 < u64::from(p.mtu) {
                    "smaller"
                } else {
                    "ok"
                },
            });
        }
    }
    out
}
