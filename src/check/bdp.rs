//! TCP windows: the bandwidth-delay product of every TCP flow pair (rate x RTT / 8, RTT
//! twice the route's one-way latency) against the largest Linux socket buffer (the
//! catalog's `physics.max_socket_buffer_bytes`), which caps each stream's window. Warns
//! when a flow declares fewer streams than its BDP needs, and when the buffers a host
//! needs take more than half its memory.

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes, plural};
use crate::spec::flow::Protocol;

/// Share of a host's memory its TCP buffers may take before a warning: a policy choice
/// (the rest is for the page cache, the application and the kernel), not a hardware figure.
const BUFFER_SHARE: f64 = 0.5;

/// Bandwidth-delay product, bytes.
pub(crate) fn bdp_bytes(rate_bps: f64, rtt_ms: f64) -> f64 {
    rate_bps * rtt_ms / 1000.0 / 8.0
}

fn window_limit(ceiling_bytes: f64, rtt_ms: f64, streams: u32) -> f64 {
    if rtt_ms <= 0.0 {
        return f64::INFINITY;
    }
    f64::from(streams.max(1)) * ceiling_bytes * 8.0 / (rtt_ms / 1000.0)
}

fn streams_needed(ceiling_bytes: f64, rate_bps: f64, rtt_ms: f64) -> u32 {
    let n = (bdp_bytes(rate_bps, rtt_ms) / ceiling_bytes).ceil();
    if n.is_finite() && n >= 1.0 {
        n.min(f64::from(u32::MAX)) as u32
    } else {
        1
    }
}

/// The highest rate a TCP flow of `streams` streams reaches at `rtt_ms` when every
/// stream's window is the largest socket buffer, bits/s (infinite at zero RTT).
pub(crate) fn window_limit_bps(cx: &CheckInput, rtt_ms: f64, streams: u32) -> f64 {
    window_limit(cx.physics.max_socket_buffer_bytes, rtt_ms, streams)
}

/// The fewest streams whose windows hold the BDP of `rate_bps` at `rtt_ms` (at least 1).
pub(crate) fn streams_needed_for_window(cx: &CheckInput, rate_bps: f64, rtt_ms: f64) -> u32 {
    streams_needed(cx.physics.max_socket_buffer_bytes, rate_bps, rtt_ms)
}

/// Bytes for messages: `125 MB`, `1.25 GB`.
fn bytes(b: f64) -> String {
    let (v, unit) = if b >= 1e9 {
        (b / 1e9, "GB")
    } else if b >= 1e6 {
        (b / 1e6, "MB")
    } else {
        (b / 1e3, "kB")
    };
    let s = format!("{v:.2}");
    format!("{} {unit}", s.trim_end_matches('0').trim_end_matches('.'))
}

fn ms(x: f64) -> String {
    let s = format!("{x:.1}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// What one host's buffers hold, and the flow that needs the most of it.
#[derive(Default)]
struct Buffers {
    bytes: f64,
    largest: Option<(f64, usize)>,
}

fn flow(cx: &CheckInput, i: usize, per_host: &mut [Buffers], diags: &mut Diags) {
    let f = &cx.m.flows[i];
    let ceiling = cx.physics.max_socket_buffer_bytes;
    let rate = f.pair_rate().bps();
    let mut worst: Option<(u32, f64)> = None;
    for pr in &cx.routes.flows[i].pairs {
        let rtt = pr.rtt_ms();
        let need = streams_needed_for_window(cx, rate, rtt);
        if worst.is_none_or(|(n, r)| need > n || need == n && rtt > r) {
            worst = Some((need, rtt));
        }
        let streams = f.streams.as_ref().map_or(need, |s| s.value.max(1));
        let held = bdp_bytes(rate, rtt).min(f64::from(streams) * ceiling);
        for h in [pr.src, pr.dst] {
            let b = &mut per_host[h];
            b.bytes += held;
            if b.largest.is_none_or(|(x, _)| held > x) {
                b.largest = Some((held, i));
            }
        }
    }
    let (Some(s), Some((need, rtt))) = (&f.streams, worst) else {
        return;
    };
    if s.value >= need {
        return;
    }
    let limit = window_limit_bps(cx, rtt, s.value) / 1e9;
    diags.push(
        Diagnostic::new(
            codes::TCP_STREAMS,
            s.span,
            format!(
                "flow `{}` runs {} per pair but needs {need} to hold its bandwidth-delay product",
                f.name.value,
                plural(s.value as usize, "stream")
            ),
        )
        .label(format!("{} at most {:.1} Gbit/s at {} ms RTT", if s.value == 1 { "1 stream reaches" } else { "these streams reach" }, limit, ms(rtt)))
        .also(f.rate.span, format!("{} per pair over {} ms RTT: a {} bandwidth-delay product", f.pair_rate(), ms(rtt), bytes(bdp_bytes(rate, rtt))))
        .help(format!(
            "set `streams: {need}` or more: a stream's window is capped at {} (`net.core.rmem_max`)",
            bytes(ceiling)
        )),
    );
}

/// `per_host` by host number: a host no flow touches holds nothing, which never warns.
fn memory(cx: &CheckInput, per_host: &[Buffers], diags: &mut Diags) {
    for (h, b) in per_host.iter().enumerate() {
        let host = &cx.m.hosts[h];
        let Some(mem) = &host.memory_gb else { continue };
        let total = f64::from(mem.value) * f64::from(1u32 << 30);
        if b.bytes <= total * BUFFER_SHARE {
            continue;
        }
        let mut d = Diagnostic::new(
            codes::BUFFER_MEMORY,
            mem.span,
            format!(
                "the TCP buffers of {} need {}, more than half of its {} GB of memory",
                host.shown(),
                bytes(b.bytes),
                mem.value
            ),
        )
        .label(format!("{} GB", mem.value));
        if let Some((held, i)) = b.largest {
            let f = &cx.m.flows[i];
            d = d.also(
                f.name.span,
                format!("flow `{}` alone needs {}", f.name.value, bytes(held)),
            );
        }
        diags.push(d.help(format!(
            "give {} more memory, or spread its flows over more hosts",
            host.shown()
        )));
    }
}

/// Checks the TCP windows and buffer memory of every TCP flow.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    // By host number, not hashed: every host of a large show carries flows.
    let mut per_host: Vec<Buffers> = (0..cx.m.hosts.len()).map(|_| Buffers::default()).collect();
    for (i, f) in cx.m.flows.iter().enumerate() {
        if f.protocol.value == Protocol::Tcp && i < cx.routes.flows.len() {
            flow(cx, i, &mut per_host, diags);
        }
    }
    memory(cx, &per_host, diags);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::checks;

    const CEILING: f64 = 2_147_483_647.0;

    #[test]
    fn bdp_matches_the_domain_table() {
        assert!((bdp_bytes(10e9, 100.0) - 125e6).abs() < 1.0);
        assert!((bdp_bytes(100e9, 150.0) - 1.875e9).abs() < 1.0);
        assert_eq!(
            streams_needed(CEILING, 100e9, 100.0),
            1,
            "1.25 GB fits one 2 GiB window"
        );
        assert_eq!(streams_needed(CEILING, 400e9, 50.0), 2, "2.5 GB needs two");
        assert_eq!(streams_needed(CEILING, 1e9, 0.0), 1);
        let one = window_limit(CEILING, 100.0, 1);
        assert!((one - CEILING * 80.0).abs() < 1.0, "2 GiB x 8 / 0.1 s");
        assert!((window_limit(CEILING, 100.0, 3) - 3.0 * one).abs() < 1.0);
        assert!(window_limit(CEILING, 0.0, 1).is_infinite());
        assert_eq!(bytes(1.875e9), "1.88 GB");
        assert_eq!(bytes(125e6), "125 MB");
    }

    /// 400G between the sites over a circuit of 80 ms RTT: a 4 GB bandwidth-delay product.
    fn far(flow: &str, memory: u32) -> String {
        checks::two_sites("capacity: 100G, rtt_ms: 80", flow)
            .replace("kind: dark-fiber", "kind: circuit")
            .replace("rate: 80G", "rate: 400G")
            .replace("memory_gb: 256", &format!("memory_gb: {memory}"))
    }

    #[test]
    fn enough_streams_is_clean() {
        assert!(checks::run(&far("streams: 2", 256), check).is_empty());
        assert!(
            checks::run(&far("", 256), check).is_empty(),
            "no declared streams: as many as needed"
        );
    }

    #[test]
    fn too_few_streams_and_too_little_memory() {
        assert_eq!(checks::run(&far("streams: 1", 256), check), ["W0230"]);
        assert_eq!(
            checks::run(&far("streams: 2", 4), check),
            ["W0231", "W0231"],
            "4 GB at each end"
        );
        let f = checks::front(&far("streams: 2", 256));
        let cx = CheckInput::new(&f).expect("physics");
        let rtt = f.routes.flows[0].pairs[0].rtt_ms();
        assert!(
            rtt > 80.0 && rtt < 80.1,
            "80 ms circuit + switch hops: {rtt}"
        );
        assert_eq!(streams_needed_for_window(&cx, 400e9, rtt), 2);
        assert!(window_limit_bps(&cx, rtt, 2) >= 400e9 && window_limit_bps(&cx, rtt, 1) < 400e9);
    }
}
