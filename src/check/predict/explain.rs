//! A prediction in words: what each limit is (a resource by its name and what it
//! carries, a pair's own ceiling by its figures), and what would lift a loss-bound flow.
//! The engine keeps limits as [`Why`] values and turns only the ones it reports into
//! text.

use std::sync::Arc;

use super::facts::switch_name;
use super::phrases::Phrases;
use super::resources::uplink;
use super::{CheckInput, HostFacts, Inputs, Limit, LimitKind, lag_gbps};
use crate::check::hashing::lag_hashed;
use crate::check::load::{Loads, Res};
use crate::check::pcie::{Use, nic_link, usable_gbps};
use crate::resolve::model::{Flow, HostId, Model};
use crate::spec::flow::CongestionControl;

pub(super) fn res_name(m: &Model, r: &Res) -> String {
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

/// What a resource's capacity is, in words (only for the bottlenecks reported).
pub(super) fn capacity_why(cx: &CheckInput, facts: &[HostFacts], loads: &Loads, r: &Res) -> String {
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
                    .map_or("PCIe switch", |ch| crate::check::pcie::hub_word(ch, name));
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

/// Where a candidate limit comes from; turned into words only for the bottleneck, so
/// the hot loop formats nothing.
#[derive(Clone, Copy)]
pub(super) enum Why {
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

/// A limit in words. Many pairs share each text: a resource's through `Phrases::shared`,
/// a pair's own limits (its demand, CPU, window) memoised by what they say.
pub(super) fn explain(i: &Inputs, w: &Phrases, why: Why, rate: f64) -> Arc<str> {
    match why {
        Why::Shared { .. } => words(i, w, why, rate),
        own => w.said(own, rate, || words(i, w, own, rate)),
    }
}

pub(super) fn words(i: &Inputs, w: &Phrases, why: Why, rate: f64) -> Arc<str> {
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
                crate::check::pacing::share_pct(),
                crate::check::pacing::port_words(cx, pr)
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
            crate::check::congestion::model(cc),
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
pub(super) fn loss_fix(cx: &CheckInput, why: Why, rate: f64) -> Option<String> {
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
    let path = crate::check::congestion::Lossy {
        mss,
        rtt_ms,
        p: loss,
    };
    let other = crate::check::congestion::reaches(cx.physics, cc, path, streams, rate)
        .map_or(String::new(), |o| {
            format!(", or `congestion_control: {}`", o.as_str())
        });
    Some(format!(
        "{} {} stream(s) per pair{other}, reach {}",
        crate::check::loss::streams_for(rate, per_stream),
        cc.as_str(),
        crate::spec::units::Rate::from_gbps(rate)
    ))
}

/// Adds to a bottleneck's words every other limit that binds as tightly.
pub(super) fn name_ties(
    i: &Inputs,
    w: &Phrases,
    f: &Flow,
    b: &mut Limit,
    also: Vec<(LimitKind, Why)>,
) {
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
