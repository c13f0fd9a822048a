//! A disk-to-disk flow in the twin: the host scripts `democ build --hosts` writes run
//! their `serve` and `send` in the DTNs' namespaces, fio reading the sender's drive and
//! writing the receiver's (folders in a temporary directory) while iperf3 carries the
//! pair over the twin's switches. Proves the script's lines work, not the drives' speed.
//! Needs root, the twin's tools, fio and numactl (.ci/run installs them); skips with a
//! printed reason otherwise.

#[path = "fixtures/twin_state.rs"]
mod twin_state;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use twin_state::{twin_id, twin_state};

fn democ(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(args)
        .output()
        .expect("democ runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Unique to this process, so the twin's names never meet another test's.
fn show_id() -> String {
    format!("td{:06}", std::process::id() % 1_000_000)
}

fn skip() -> Option<String> {
    let (code, _, err) = democ(&["twin", "up", "/nonexistent-democ-build"]);
    if code == 2 && err.contains("cannot run here") {
        return Some(err);
    }
    for tool in ["fio", "numactl"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            return Some(format!("{tool} is not installed"));
        }
    }
    None
}

/// The twin fixture with an NVMe drive in dtn3 and dtn4, and f3 between them disk to disk.
fn spec() -> String {
    let src = std::fs::read_to_string("tests/fixtures/twin/show.yaml").expect("fixture");
    let drive = r#", nvme: [{ model: intel-p3700, slot: s2 }] }"#;
    let mut s = src.replace("name: twinmini", &format!("name: {}", show_id()));
    for h in ["dtn3", "dtn4"] {
        let line = s
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{h}:")))
            .expect("host line")
            .to_owned();
        let with = format!(
            "{}{drive}",
            line.trim_end().trim_end_matches('}').trim_end()
        );
        s = s.replace(&line, &with);
    }
    s.replace(
        "{ name: f3, from: dtn3, to: dtn4, rate: 10G, protocol: tcp }",
        "{ name: f3, from: dtn3, to: dtn4, rate: 10G, protocol: tcp, source: nvme, sink: nvme }",
    )
}

/// Runs one subcommand of a host's script inside its namespace.
fn script(ns: &str, out: &Path, host: &str, what: &str, dir: &Path) -> (bool, String) {
    let drive = dir.join(host);
    std::fs::create_dir_all(&drive).expect("drive folder");
    let o = Command::new("ip")
        .args(["netns", "exec", ns, "bash"])
        .arg(out.join(format!("hosts/{host}.sh")))
        .args([what, "f3"])
        .env("IF_p0", "eth0")
        .env("DRIVE_1", &drive)
        .env("DEMOC_SECONDS", "3")
        .env("DEMOC_DISK_SIZE", "16m")
        .env("DEMOC_LOG", dir)
        .env("DEMOC_STAMP", "T")
        .output()
        .expect("bash runs");
    (
        o.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

/// The bytes fio moved in one direction, over every job of a report.
fn fio_bytes(report: &Path, rw: &str) -> u64 {
    let text = std::fs::read_to_string(report).unwrap_or_default();
    // fio prints notes before the JSON when a file is laid out.
    let json = text.find('{').map_or("", |i| &text[i..]);
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    v["jobs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|j| j[rw]["io_bytes"].as_u64())
        .sum()
}

/// Every process left in a namespace (the receiver's iperf3 server and fio) is stopped.
fn stop_all(ns: &str) {
    let pids = Command::new("ip")
        .args(["netns", "pids", ns])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    for p in pids.split_whitespace() {
        let _ = Command::new("kill").arg(p).status();
    }
}

#[test]
fn a_disk_flow_reads_and_writes_the_drives_while_the_pair_runs() {
    if let Some(why) = skip() {
        println!("skipped: {why}");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::copy(
        "tests/fixtures/twin/catalog.yaml",
        tmp.path().join("catalog.yaml"),
    )
    .expect("copy");
    std::fs::write(tmp.path().join("show.yaml"), spec()).expect("write");
    let out = tmp.path().join("out");
    let (o, s) = (out.display().to_string(), tmp.path().join("show.yaml"));
    let (code, _, err) = democ(&["build", "--hosts", &s.display().to_string(), "-o", &o]);
    assert_eq!(code, 0, "{err}");
    let (code, msg, err) = democ(&["twin", "up", &o]);
    assert_eq!(code, 0, "up: {msg}{err}");
    let id = twin_id(&twin_state(&out));
    let (rx, tx) = (format!("{id}-h-dtn4"), format!("{id}-h-dtn3"));
    let logs = tmp.path().join("logs");
    let (served, serve_out) = script(&rx, &out, "dtn4", "serve", &logs);
    std::thread::sleep(Duration::from_millis(500));
    let (sent, send_out) = script(&tx, &out, "dtn3", "send", &logs);
    // The receiver's writes run the test's length plus the lead they start with.
    let written = logs.join("f3+dtn3+dtn4+dtn4+T.fio-write.json");
    let t = Instant::now();
    while fio_bytes(&written, "write") == 0 && t.elapsed() < Duration::from_secs(40) {
        std::thread::sleep(Duration::from_millis(500));
    }
    stop_all(&rx);
    stop_all(&tx);
    let (down, msg, err) = democ(&["twin", "down", &o]);
    assert!(served, "serve:\n{serve_out}");
    assert!(sent, "send:\n{send_out}");
    assert_eq!(down, 0, "down: {msg}{err}");
    let read = fio_bytes(&logs.join("f3+dtn3+dtn4+dtn3+T.fio-read.json"), "read");
    assert!(read > 0, "the sender's drive was not read:\n{send_out}");
    assert!(
        fio_bytes(&written, "write") > 0,
        "the receiver's drive was not written:\n{serve_out}"
    );
    // The sender keeps iperf3's JSON report beside fio's (`democ verify` reads them).
    let iperf3 =
        std::fs::read_to_string(logs.join("f3+dtn3+dtn4+dtn3+T.iperf3.json")).unwrap_or_default();
    assert!(
        iperf3.contains("\"sum_received\""),
        "iperf3 did not finish the pair:\n{send_out}"
    );
}
