//! The shapers and counters of a measurement: a token bucket (`tc tbf`; this kernel has
//! no netem or fq) on every cable end's egress, so each way of a link carries its
//! capacity / N, counted as a line counts (`overhead 24`: preamble, gap and FCS, which
//! a veth never sends); and the ends' byte and packet counters.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use super::super::cmd::Cmd;
use super::super::net::End;
use super::links::Sender;

/// Bytes a line spends per frame beyond what a veth counts: preamble and start (8),
/// inter-frame gap (12), FCS (4).
pub(crate) const LINE_OVERHEAD: u64 = 24;

/// Bytes of Ethernet, IPv4 and TCP headers (with timestamps) in every frame: what the
/// counters count beyond a TCP transfer's payload.
pub(crate) const HEADERS: u64 = 14 + 20 + 32;

/// `tc` shaping what `s` sends to its rate. The bucket holds 5 ms at the rate and at
/// least 64 KiB (a GSO burst, and several jumbo frames), the queue 20 ms.
pub(crate) fn tbf(s: &Sender) -> Cmd {
    let bps = s.bps.max(8_000.0).round() as u64;
    let burst = (bps / 8 / 200).max(64 * 1024);
    Cmd::new(&[
        "tc", "qdisc", "replace", "dev", &s.end.dev, "root", "tbf", "rate",
    ])
    .arg(format!("{bps}bit"))
    .arg("burst")
    .arg(burst.to_string())
    .args(["latency", "20ms", "overhead"])
    .arg(LINE_OVERHEAD.to_string())
    .in_ns(&s.end.ns)
}

/// `tc` removing what [`tbf`] put on `e` (the veth's default queue again).
pub(crate) fn unshape(e: &End) -> Cmd {
    Cmd::new(&["tc", "qdisc", "del", "dev", &e.dev, "root"]).in_ns(&e.ns)
}

/// Err naming a port whose root queue is netem (`twin up --delay`): a token bucket in
/// its place would drop the WAN's delay, and the measurement would not say so.
pub(crate) fn no_netem(ends: &[&End]) -> Result<(), String> {
    let namespaces: BTreeSet<&str> = ends.iter().map(|e| e.ns.as_str()).collect();
    for ns in namespaces {
        let (_, out) = Cmd::new(&["tc", "qdisc", "show"]).in_ns(ns).try_run();
        if let Some(line) = out.lines().find(|l| l.contains(" netem ")) {
            return Err(format!(
                "a WAN delay is on ({}: `{}`): `--measure` shapes every port's root queue and would drop it; run it on a twin brought up without `--delay`",
                ns,
                line.trim()
            ));
        }
    }
    Ok(())
}

/// Bytes and packets an interface has sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sent {
    pub(crate) bytes: u64,
    pub(crate) packets: u64,
}

/// The send counters of every interface in the namespaces of `ends`, by (namespace,
/// interface), each with when its namespace was read (the middle of the read: on a
/// busy machine reading every namespace takes a while, and a rate is bytes over the
/// time between two reads of the same counter).
pub(crate) fn counters(ends: &[&End]) -> BTreeMap<(String, String), (Sent, Instant)> {
    let namespaces: BTreeSet<&str> = ends.iter().map(|e| e.ns.as_str()).collect();
    let mut out = BTreeMap::new();
    for ns in namespaces {
        let t = Instant::now();
        let (_, text) = Cmd::new(&["ip", "-j", "-s", "link", "show"])
            .in_ns(ns)
            .try_run();
        let at = t + t.elapsed() / 2;
        for (dev, sent) in parse_counters(&text) {
            out.insert((ns.to_owned(), dev), (sent, at));
        }
    }
    out
}

/// `ip -j -s link show`'s send counters per interface.
fn parse_counters(text: &str) -> Vec<(String, Sent)> {
    let Ok(serde_json::Value::Array(links)) = serde_json::from_str(text) else {
        return Vec::new();
    };
    links
        .iter()
        .filter_map(|l| {
            let tx = &l["stats64"]["tx"];
            Some((
                l["ifname"].as_str()?.to_owned(),
                Sent {
                    bytes: tx["bytes"].as_u64()?,
                    packets: tx["packets"].as_u64()?,
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_holds_a_burst_and_counts_line_overhead() {
        let s = Sender {
            end: End {
                device: "sw".into(),
                port: "1/1".into(),
                ns: "t-ovs".into(),
                dev: "s0p0".into(),
                mtu: 9000,
                speed_mbps: Some(100_000),
            },
            bps: 100e6,
        };
        assert_eq!(
            tbf(&s).shell(),
            "ip netns exec t-ovs tc qdisc replace dev s0p0 root tbf rate 100000000bit burst 65536 latency 20ms overhead 24"
        );
    }

    #[test]
    fn reads_the_send_counters() {
        let text = r#"[{"ifname":"lo","stats64":{"tx":{"bytes":0,"packets":0}}},
            {"ifname":"s0p1","stats64":{"rx":{"bytes":5},"tx":{"bytes":9000,"packets":1}}}]"#;
        assert_eq!(
            parse_counters(text)[1],
            (
                "s0p1".to_owned(),
                Sent {
                    bytes: 9000,
                    packets: 1
                }
            )
        );
    }
}
