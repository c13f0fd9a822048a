//! What one transfer measured, from the file its host script kept: iperf3's JSON report
//! (`--json`: `start`, `intervals`, `end`; iperf3's own output, as iperf3 3.12 writes
//! it here and the esnet/iperf documentation describes), ib_write_bw's text report
//! (perftest: a `#bytes #iterations BW peak[..] BW average[..] MsgRate[Mpps]` table,
//! in Gb/sec with `--report_gbits`, MB/sec without), fio's JSON (`--output-format=json`:
//! `jobs[].read|write.bw_bytes`, bytes per second).

use serde_json::Value;

use super::located::Bad;
use super::located::{Text, amount};

/// One transfer's measurement.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Measured {
    /// What reached the receiver, Gbit/s (fio: what the drives moved).
    pub(crate) gbps: f64,
    pub(crate) seconds: f64,
    /// TCP segments retransmitted by the sender (iperf3).
    pub(crate) retransmits: Option<u64>,
    /// Datagrams lost, percent (iperf3 UDP).
    pub(crate) lost_pct: Option<f64>,
    /// Mean of the streams' smoothed RTTs, ms (iperf3 on Linux).
    pub(crate) rtt_ms: Option<f64>,
    /// Processor use of the sending and receiving iperf3, percent of one core.
    pub(crate) cpu_send_pct: Option<f64>,
    pub(crate) cpu_recv_pct: Option<f64>,
    pub(crate) streams: Option<u64>,
    /// iperf3 before 3.16 runs every stream on one thread.
    pub(crate) one_thread: bool,
    /// The TCP maximum segment size the connection settled on.
    pub(crate) mss: Option<u64>,
}

const IPERF3_HELP: &str = "give the report `iperf3 --json` wrote (the host scripts keep it as <flow>+<source>+<sink>+<host>+<time>.iperf3.json); rerun the transfer if it failed";

pub(crate) fn iperf3(t: &Text) -> Result<Measured, Bad> {
    let v = t.json("iperf3 JSON")?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(t.bad(
            t.at_key("error"),
            format!("iperf3 failed: {e}"),
            IPERF3_HELP,
        ));
    }
    let end = v.get("end").filter(|e| e.is_object());
    let Some(end) = end else {
        return Err(t.bad(
            t.at_key("start"),
            "no `end` object: not an iperf3 report, or one cut short",
            IPERF3_HELP,
        ));
    };
    // TCP: what the receiver got; UDP: the sum with its loss (older iperf3 has only `sum`).
    let sum = ["sum_received", "sum"]
        .iter()
        .find_map(|k| end.get(*k).filter(|s| s.is_object()).map(|s| (*k, s)));
    let Some((key, sum)) = sum else {
        return Err(t.bad(
            t.at_key("end"),
            "`end` has neither `sum_received` nor `sum`",
            IPERF3_HELP,
        ));
    };
    let field = |name: &str| -> Result<f64, Bad> {
        amount(&sum[name]).ok_or_else(|| {
            t.bad(
                t.at_key(key),
                format!("`end.{key}.{name}` is missing or not a non-negative number"),
                IPERF3_HELP,
            )
        })
    };
    let bps = field("bits_per_second")?;
    let seconds = field("seconds")?;
    let lost_pct = amount(&sum["lost_percent"]);
    let retransmits = end["sum_sent"]["retransmits"].as_u64();
    let rtts: Vec<f64> = end["streams"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| amount(&s["sender"]["mean_rtt"]))
        .collect();
    // iperf3 gives RTTs in microseconds.
    let rtt_ms = (!rtts.is_empty()).then(|| rtts.iter().sum::<f64>() / rtts.len() as f64 / 1000.0);
    let cpu = &end["cpu_utilization_percent"];
    let version = v["start"]["version"].as_str().unwrap_or("");
    Ok(Measured {
        gbps: bps / 1e9,
        seconds,
        retransmits,
        lost_pct,
        rtt_ms,
        cpu_send_pct: amount(&cpu["host_total"]),
        cpu_recv_pct: amount(&cpu["remote_total"]),
        streams: v["start"]["test_start"]["num_streams"].as_u64(),
        one_thread: before_threads(version),
        mss: v["start"]["tcp_mss_default"].as_u64(),
    })
}

/// Whether an iperf3 version (`iperf 3.12`) runs every stream on one thread (before 3.16).
fn before_threads(version: &str) -> bool {
    let num = version.trim_start_matches("iperf").trim();
    let mut parts = num
        .split(['.', ' ', '+', '-'])
        .map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) < (3, 16),
        _ => false,
    }
}

const FIO_HELP: &str = "give the report `fio --output-format=json` wrote (the host scripts keep it as <flow>+<source>+<sink>+<host>+<time>.fio-read.json or .fio-write.json)";

/// What fio moved in one direction over every job, and for how long.
pub(crate) fn fio(t: &Text, rw: &str) -> Result<Measured, Bad> {
    let v = t.json("fio JSON")?;
    let Some(jobs) = v.get("jobs").and_then(Value::as_array) else {
        return Err(t.bad(t.at("{"), "no `jobs` list: not a fio JSON report", FIO_HELP));
    };
    if jobs.is_empty() {
        return Err(t.bad(t.at_key("jobs"), "fio ran no job", FIO_HELP));
    }
    let mut bytes_per_s = 0.0;
    let mut seconds: f64 = 0.0;
    for j in jobs {
        if j["error"].as_i64().is_some_and(|e| e != 0) {
            let name = j["jobname"].as_str().unwrap_or("?");
            return Err(t.bad(
                t.at_key("error"),
                format!("fio job `{name}` failed (error {})", j["error"]),
                FIO_HELP,
            ));
        }
        let Some(bw) = amount(&j[rw]["bw_bytes"]) else {
            return Err(t.bad(
                t.at_key(rw),
                format!("a job has no `{rw}.bw_bytes`: was it a {rw} test?"),
                FIO_HELP,
            ));
        };
        bytes_per_s += bw;
        seconds = seconds.max(amount(&j[rw]["runtime"]).unwrap_or(0.0) / 1000.0);
    }
    Ok(Measured {
        gbps: bytes_per_s * 8.0 / 1e9,
        seconds,
        ..Measured::default()
    })
}

const IB_HELP: &str = "give ib_write_bw's output whole, as the host scripts keep it (<flow>+<source>+<sink>+<host>+<time>.ib_write_bw.txt): its `#bytes ... BW average` table and the row under it";

/// ib_write_bw's average bandwidth: the row of numbers under its `#bytes` header (other
/// lines, such as perftest's CPU frequency warning, may come between).
pub(crate) fn ib_write_bw(t: &Text) -> Result<Measured, Bad> {
    let lines: Vec<&str> = t.text().lines().collect();
    let Some(head) = lines
        .iter()
        .position(|l| l.trim_start().starts_with("#bytes"))
    else {
        return Err(t.syntax(
            "no `#bytes ... BW average` table: not ib_write_bw's report",
            IB_HELP,
        ));
    };
    // Columns: words of the header, `BW` joined to the word after it.
    let mut cols: Vec<String> = Vec::new();
    let mut words = lines[head].split_whitespace();
    while let Some(w) = words.next() {
        if w == "BW" {
            cols.push(format!("BW {}", words.next().unwrap_or("")));
        } else {
            cols.push(w.to_owned());
        }
    }
    let Some(col) = cols.iter().position(|c| c.starts_with("BW average")) else {
        return Err(t.bad(
            t.line(head),
            "the table has no `BW average` column",
            IB_HELP,
        ));
    };
    let unit = &cols[col];
    let scale = if unit.contains("[Gb/sec]") {
        1.0
    } else if unit.contains("[MB/sec]") {
        // perftest's MB are 2^20 bytes.
        8.0 * 1_048_576.0 / 1e9
    } else {
        return Err(t.bad(t.line(head), format!("unknown unit in `{unit}`"), IB_HELP));
    };
    let row = lines[head + 1..].iter().enumerate().find(|(_, l)| {
        l.split_whitespace()
            .next()
            .is_some_and(|w| w.parse::<u64>().is_ok())
    });
    let Some((i, row)) = row else {
        return Err(t.bad(
            t.line(head),
            "no result row under the table's header (the test did not finish)",
            IB_HELP,
        ));
    };
    let value = row
        .split_whitespace()
        .nth(col)
        .and_then(|w| w.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0);
    let Some(value) = value else {
        return Err(t.bad(
            t.line(head + 1 + i),
            "the row has no number under `BW average`",
            IB_HELP,
        ));
    };
    Ok(Measured {
        gbps: value * scale,
        ..Measured::default()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn iperf3_versions_before_3_16_run_one_thread() {
        assert!(super::before_threads("iperf 3.12"));
        assert!(!super::before_threads("iperf 3.16"));
        assert!(!super::before_threads("iperf 3.17.1"));
        assert!(!super::before_threads(""));
    }
}
