//! `democ twin test --measure --scale N`: the twin as a measuring instrument. Every
//! cable's two ends are shaped to its capacity / N (`shape`), every flow runs at once
//! with its streams and congestion control (a flow limited by its demand paced at
//! demand / N), and what each flow received and each link carried is set against the
//! plan's prediction / N (`predicted` says which flows that comparison means something
//! for). Writes `twin/measure.json`, and `twin/results/` for `democ verify` (`results`);
//! the shapers are removed again afterwards.

mod links;
pub(crate) mod predicted;
pub(crate) mod report;
mod results;
mod shape;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use super::cmd::Cmd;
use super::load::{self, Meter};
use super::net::{self, End};
use super::pace::Pace;
use super::report::{Machine, Verdict};
use crate::build_dir::BuildDir;
use links::Links;
pub(crate) use links::Throttle;
use predicted::{Predicted, Score};
use report::{FlowMeasure, LinkMeasure, Measurement};
use shape::Sent;

/// What `--measure` was asked for.
pub(crate) struct Options {
    /// Every link carries its capacity / `scale`.
    pub(crate) scale: f64,
    pub(crate) throttles: Vec<Throttle>,
    /// Seconds the counters are read over (after `OMIT` seconds of start).
    pub(crate) seconds: u64,
}

/// Seconds of each transfer's start left out (slow start, the shapers' first burst).
const OMIT: u64 = 2;

/// A shaper at this share of its rate or more is the flow's bottleneck.
const BUSY: f64 = 0.85;

/// One pair's transfer as it runs.
struct Transfer<'a> {
    flow: usize,
    src: &'a str,
    dst: &'a str,
    dst_address: String,
    port: u16,
    streams: u32,
    congestion_control: Option<String>,
    /// Per stream, bit/s (`iperf3 -b`); None: unpaced.
    pace_bps: Option<f64>,
    links: Vec<String>,
}

/// The congestion controls this kernel offers (its namespaces share them).
fn kernel_algorithms() -> Vec<String> {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

pub(crate) fn measure(
    build: &Path,
    state: Option<&Path>,
    opts: &Options,
    table: &mut dyn Write,
) -> Result<(String, Verdict), (String, i32)> {
    let t0 = Instant::now();
    let (b, names, st) = super::test::running(build, state)?;
    let switches = results::Switches::of(&b, &names, &st);
    let limit = load::limit().map_err(|e| (e, 2))?;
    let dir = BuildDir::open(build).map_err(|e| (e.to_string(), 2))?;
    let plan: BTreeMap<String, Predicted> = predicted::read(&dir)
        .map_err(|e| (e, 2))?
        .into_iter()
        .map(|p| (p.name.clone(), p))
        .collect();
    let (cables, mut notes) = net::cables(&b, &names);
    let shaped = links::shaped(&cables, opts.scale, &opts.throttles).map_err(|e| (e, 2))?;
    let ends: Vec<&End> = shaped.iter().map(|(s, _)| &s.end).collect();
    shape::no_netem(&ends).map_err(|e| (e, 2))?;
    let algorithms = kernel_algorithms();
    let mut links = Links::new(&shaped, &cables);
    let mut transfers = Vec::new();
    let mut scores = Vec::new();
    for (fi, flow) in b.flows.iter().enumerate() {
        let pred = plan.get(&flow.name);
        let score = pred.map_or_else(
            || Score::Listed("not in the build's plan.json".into()),
            predicted::score,
        );
        let cc = pred.and_then(|p| p.congestion_control.clone());
        let cc = match cc {
            Some(c) if !algorithms.contains(&c) => {
                notes.push(format!(
                    "`{}`: this kernel has no `{c}` congestion control (it offers {}): its senders ran the kernel's default",
                    flow.name,
                    algorithms.join(", ")
                ));
                None
            }
            c => c,
        };
        let streams = pred.map_or(1, |p| p.streams_per_pair.max(1));
        let pace_bps = (score == Score::Demand).then(|| {
            let p = pred.map_or(0.0, |p| p.predicted_gbps);
            p * 1e9 / flow.pairs.len().max(1) as f64 / opts.scale / f64::from(streams)
        });
        for pair in &flow.pairs {
            let Some(dst_address) = pair.dst_address.clone() else {
                notes.push(format!(
                    "`{}` {} -> {}: the destination has no address",
                    flow.name, pair.src, pair.dst
                ));
                continue;
            };
            let route = match links.of_pair(&b, pair) {
                Ok(l) => l,
                Err(e) => {
                    notes.push(format!("`{}` {} -> {}: {e}", flow.name, pair.src, pair.dst));
                    Vec::new()
                }
            };
            transfers.push(Transfer {
                flow: fi,
                src: &pair.src,
                dst: &pair.dst,
                dst_address,
                port: 5201 + (transfers.len() % 4000) as u16,
                streams,
                congestion_control: cc.clone(),
                pace_bps,
                links: route,
            });
        }
        scores.push((pred, score));
    }
    // Shape every cable end; whatever happens next, take the shapers off again.
    let mut shaping = Vec::new();
    for (s, _) in &shaped {
        match shape::tbf(s).run() {
            Ok(_) => shaping.push(&s.end),
            Err(e) => {
                unshape(&shaping);
                return Err((format!("shaping the twin's links: {e}"), 2));
            }
        }
    }
    let meter = Meter::start();
    std::thread::sleep(Duration::from_secs(1));
    let before = meter.since(Instant::now() - Duration::from_secs(1));
    let pace = Pace::of(before.as_ref());
    let run_from = Instant::now();
    let used: Vec<&End> = links
        .by_name
        .values()
        .flat_map(|l| l.members.iter().map(|m| &m.end))
        .collect();
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (reports, window, snaps) = run(&names, &transfers, &used, &switches, opts.seconds, pace);
    let got: Vec<Option<f64>> = reports
        .iter()
        .map(|r| {
            r.as_deref()
                .and_then(|out| serde_json::from_str::<serde_json::Value>(out).ok())
                .and_then(|v| v["end"]["sum_received"]["bits_per_second"].as_f64())
                .map(|bps| bps / 1e6)
        })
        .collect();
    unshape(&shaping);
    let over = meter.since(run_from).filter(|f| f.saturated(limit));
    let during = meter.since(run_from);
    // Per link: what its members sent over the window, in seconds between the reads.
    let delta = |e: &End| {
        let key = (e.ns.clone(), e.dev.clone());
        match (window.1.get(&key), window.2.get(&key)) {
            (Some((a, ta)), Some((z, tz))) => (
                Sent {
                    bytes: z.bytes.saturating_sub(a.bytes),
                    packets: z.packets.saturating_sub(a.packets),
                },
                (*tz - *ta).as_secs_f64().max(1e-3),
            ),
            _ => (Sent::default(), 1.0),
        }
    };
    let mut link_rows: BTreeMap<String, LinkMeasure> = BTreeMap::new();
    for (name, l) in &links.by_name {
        let (mut payload, mut wire, mut members) = (0.0, 0.0, Vec::new());
        for m in &l.members {
            let (d, secs) = delta(&m.end);
            let p = d.bytes.saturating_sub(d.packets * shape::HEADERS) as f64 * 8.0 / secs / 1e6;
            payload += p;
            wire += (d.bytes + d.packets * shape::LINE_OVERHEAD) as f64 * 8.0 / secs / 1e6;
            members.push(p);
        }
        let shaped_mbps = l.shaped_bps() / 1e6;
        link_rows.insert(
            name.clone(),
            LinkMeasure {
                link: name.clone(),
                flows: Vec::new(),
                shaped_mbps,
                throttled: l.throttled.clone(),
                predicted_mbps: 0.0,
                measured_mbps: payload,
                utilization_pct: 100.0 * wire / shaped_mbps.max(1e-9),
                members_mbps: members,
                scored: true,
                passed: false,
            },
        );
    }
    for t in &transfers {
        let flow = &b.flows[t.flow];
        let (pred, score) = &scores[t.flow];
        let share = pred.map_or(0.0, |p| p.predicted_gbps) * 1e3
            / flow.pairs.len().max(1) as f64
            / opts.scale;
        for name in &t.links {
            if let Some(r) = link_rows.get_mut(name) {
                r.predicted_mbps += share;
                if !r.flows.contains(&flow.name) {
                    r.flows.push(flow.name.clone());
                }
                r.scored &= score.scored();
            }
        }
    }
    for r in link_rows.values_mut() {
        r.passed = !r.scored || report::within(r.predicted_mbps, r.measured_mbps);
    }
    let mut flows = Vec::new();
    for (fi, flow) in b.flows.iter().enumerate() {
        let (pred, score) = &scores[fi];
        let mine: Vec<usize> = (0..transfers.len())
            .filter(|&k| transfers[k].flow == fi)
            .collect();
        let measured = mine
            .iter()
            .map(|&k| got[k])
            .sum::<Option<f64>>()
            .filter(|_| !mine.is_empty());
        let predicted_gbps = pred.map_or(0.0, |p| p.predicted_gbps);
        let predicted_mbps = predicted_gbps * 1e3 / opts.scale;
        let busiest = mine
            .iter()
            .flat_map(|&k| &transfers[k].links)
            .filter_map(|n| link_rows.get(n))
            .max_by(|a, z| a.utilization_pct.total_cmp(&z.utilization_pct));
        let bottleneck = busiest.filter(|l| l.utilization_pct >= 100.0 * BUSY);
        let scored = score.scored();
        let passed = scored && measured.is_some_and(|m| report::within(predicted_mbps, m));
        let mut detail = Vec::new();
        if measured.is_none() {
            detail.push("iperf3: a pair's transfer failed".into());
        }
        if let Some(t) = mine.first().map(|&k| &transfers[k])
            && let Some(bps) = t.pace_bps
        {
            detail.push(format!(
                "paced at its demand / {}: {} per stream",
                opts.scale,
                report::mbit(bps / 1e6)
            ));
        }
        flows.push(FlowMeasure {
            flow: flow.name.clone(),
            pairs: flow.pairs.len(),
            streams_per_pair: mine.first().map_or(1, |&k| transfers[k].streams),
            congestion_control: mine
                .first()
                .and_then(|&k| transfers[k].congestion_control.clone()),
            limit: pred.map_or("-".into(), |p| p.bottleneck.kind.clone()),
            limit_why: pred.map_or(String::new(), |p| p.bottleneck.why.clone()),
            predicted_gbps,
            predicted_mbps,
            measured_mbps: measured,
            error_pct: measured
                .filter(|_| predicted_mbps > 0.0)
                .map(|m| 100.0 * (m - predicted_mbps) / predicted_mbps),
            scored,
            not_scored: match score {
                Score::Listed(why) => Some(why.clone()),
                _ => None,
            },
            passed,
            bottleneck: bottleneck.map(|l| {
                l.throttled
                    .as_ref()
                    .map_or(l.link.clone(), |t| format!("{} [throttled to {t}]", l.link))
            }),
            bottleneck_pct: busiest.map(|l| (l.utilization_pct * 10.0).round() / 10.0),
            // A shaper at its rate says the network held the flow back, however busy
            // the CPUs were; without one, a shortfall on a saturated machine says nothing.
            overloaded: (scored && !passed && bottleneck.is_none())
                .then_some(over)
                .flatten(),
            detail,
        });
    }
    let links: Vec<LinkMeasure> = link_rows.into_values().collect();
    let failed = flows
        .iter()
        .any(|f| f.scored && !f.passed && f.overloaded.is_none())
        || (over.is_none() && links.iter().any(|l| !l.passed));
    let untested = flows.iter().any(|f| f.overloaded.is_some());
    let m = Measurement {
        show: b.show.clone(),
        scale: opts.scale,
        seconds: (window.0 * 10.0).round() / 10.0,
        throttles: opts
            .throttles
            .iter()
            .map(|t| format!("{}:{}={}", t.device, t.port, t.text))
            .collect(),
        passed: !failed && !untested,
        tolerance_pct: 100.0 * report::TOLERANCE,
        flows,
        links,
        machine: Machine {
            before,
            during,
            saturated_at_pct: limit,
        },
        notes,
    };
    m.print(table);
    for n in &m.notes {
        eprintln!("twin: note: {n}");
    }
    let out = build.join("twin");
    std::fs::create_dir_all(&out).map_err(|e| (format!("{}: {e}", out.display()), 2))?;
    let text = serde_json::to_string_pretty(&m).unwrap_or_default() + "\n";
    crate::write::file(&out.join("measure.json"), text.as_bytes()).map_err(|e| (e.into(), 2))?;
    let run = crate::verify::TwinRun {
        show: b.show.clone(),
        scale: opts.scale,
        started: crate::verify::stamp::format(started),
        seconds: opts.seconds,
        throttles: opts
            .throttles
            .iter()
            .map(|t| crate::verify::Throttled {
                device: t.device.clone(),
                port: t.port.clone(),
                gbps: t.bps / 1e9,
            })
            .collect(),
    };
    let left = results::Left {
        run: &run,
        reports: transfers
            .iter()
            .zip(&reports)
            .filter_map(|(t, r)| Some((b.flows[t.flow].name.as_str(), t.src, t.dst, r.as_deref()?)))
            .collect(),
        before: snaps.0,
        after: snaps.1,
    };
    let left_in = out.join(results::FOLDER);
    results::write(&left_in, &left).map_err(|e| (e, 2))?;
    let scored = m.flows.iter().filter(|f| f.scored).count();
    let passed = m.flows.iter().filter(|f| f.passed).count();
    let verdict = if failed {
        Verdict::Failed
    } else if untested {
        Verdict::Overloaded
    } else {
        Verdict::Passed
    };
    Ok((
        format!(
            "twin measure at 1/{}: {passed} of {scored} scored flows within {:.0} % of the prediction, {} listed, not scored, in {:.1} s ({}; results for `democ verify` in {})",
            opts.scale,
            100.0 * report::TOLERANCE,
            m.flows.len() - scored,
            t0.elapsed().as_secs_f64(),
            out.join("measure.json").display(),
            left_in.display()
        ),
        verdict,
    ))
}

/// The write size (`iperf3 -l`) of a sender paced at `bps` per stream: iperf3 paces whole
/// writes (128 KiB by default), so a stream paced at 0.8 Mbit/s moved about four writes in
/// five seconds and its rate came out in steps of a fifth; at least 200 writes over the
/// measured seconds, between 1 KiB and the default.
fn paced_block(bps: f64, seconds: u64) -> u64 {
    let bytes = bps / 8.0 * seconds as f64 / 200.0;
    (bytes as u64).clamp(1024, 128 * 1024)
}

fn unshape(ends: &[&End]) {
    for e in ends {
        let _ = shape::unshape(e).try_run();
    }
}

/// The counters read before and after a window: (its seconds, before, after).
type Counters = BTreeMap<(String, String), (Sent, Instant)>;
type Window = (f64, Counters, Counters);

/// Each switch's `dump-ports` at the start and the end of the window.
type Snapshots = (Vec<(String, String)>, Vec<(String, String)>);

/// Runs every transfer at once; per transfer its sender's iperf3 JSON (None: it
/// failed), the counters of `ends` over the middle of the run, and the switches'.
fn run(
    names: &net::Names,
    transfers: &[Transfer],
    ends: &[&End],
    switches: &results::Switches,
    seconds: u64,
    pace: Pace,
) -> (Vec<Option<String>>, Window, Snapshots) {
    let total = OMIT + seconds;
    std::thread::scope(|sc| {
        let servers: Vec<_> = transfers
            .iter()
            .map(|t| {
                let c = Cmd::new(&["timeout"])
                    .arg(pace.secs(total + 20).to_string())
                    .args(["iperf3", "-s", "-1", "-p"])
                    .arg(t.port.to_string())
                    .arg("-B")
                    .arg(t.dst_address.clone())
                    .in_ns(&names.host(t.dst));
                sc.spawn(move || c.try_run())
            })
            .collect();
        std::thread::sleep(Duration::from_millis(500 * pace.secs(1)));
        let clients: Vec<_> = transfers
            .iter()
            .map(|t| {
                let mut c = Cmd::new(&["timeout"])
                    .arg(pace.secs(total + 15).to_string())
                    .args(["iperf3", "-J", "-c"])
                    .arg(t.dst_address.clone())
                    .arg("-p")
                    .arg(t.port.to_string())
                    .arg("-t")
                    .arg(total.to_string())
                    .arg("-O")
                    .arg(OMIT.to_string())
                    .arg("-P")
                    .arg(t.streams.to_string());
                if let Some(cc) = &t.congestion_control {
                    c = c.arg("-C").arg(cc.clone());
                }
                if let Some(bps) = t.pace_bps {
                    c = c
                        .arg("-b")
                        .arg(format!("{}", bps.round() as u64))
                        .arg("-l")
                        .arg(paced_block(bps, seconds).to_string());
                }
                let c = c.in_ns(&names.host(t.src));
                sc.spawn(move || c.try_run())
            })
            .collect();
        // The counters over the middle of the run: after the start left out, before the
        // last half second.
        let start = Instant::now();
        std::thread::sleep(Duration::from_millis(OMIT * 1000 + 500));
        let (t1, a) = (Instant::now(), shape::counters(ends));
        let first = switches.read();
        let end = start + Duration::from_millis(total * 1000 - 500);
        std::thread::sleep(end.saturating_duration_since(Instant::now()));
        let (t2, z) = (Instant::now(), shape::counters(ends));
        let last = switches.read();
        let got = clients
            .into_iter()
            .map(|h| {
                let (ok, out) = h.join().unwrap_or((false, String::new()));
                ok.then_some(out)
            })
            .collect();
        for s in servers {
            let _ = s.join();
        }
        (got, ((t2 - t1).as_secs_f64(), a, z), (first, last))
    })
}

#[cfg(test)]
mod tests {
    use super::paced_block;

    #[test]
    fn a_slow_paced_stream_writes_small_blocks() {
        // sc15's nsi-rnp at 1/10000: 0.8 Mbit/s for 5 s is 500 kB, 2500-byte writes.
        assert_eq!(paced_block(0.8e6, 5), 2500);
        assert_eq!(paced_block(1e3, 5), 1024);
        assert_eq!(paced_block(10e9, 5), 128 * 1024);
    }
}
