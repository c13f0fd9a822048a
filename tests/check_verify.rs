//! `democ verify BUILD RESULTS...`: results named as the host scripts name them (read
//! from the scripts' own dry runs) and shaped as the tools print them
//! (tests/fixtures/verify: iperf3 and fio recorded here, EOS and ovs-ofctl as their
//! documentation shows them), judged against the build's plan. A clean run passes; a
//! shortfall names its cause (retransmits, a link above its predicted load, a
//! port-channel member full, rules that matched nothing, discards); optics, LLDP and
//! MTU are compared; every bad result file gets a located diagnostic with its code and
//! help line (E0601-E0604), and no input makes verify panic.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/verify");

fn fixture(name: &str) -> String {
    std::fs::read_to_string(Path::new(FIXTURES).join(name)).expect("fixture")
}

fn fixture_json(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).expect("fixture JSON")
}

/// An example built once per test binary (`democ build --hosts`).
fn built(show: &'static str) -> &'static Path {
    static BUILDS: OnceLock<std::sync::Mutex<BTreeMap<&'static str, &'static Path>>> =
        OnceLock::new();
    let mut map = BUILDS.get_or_init(Default::default).lock().expect("lock");
    map.entry(show).or_insert_with(|| {
        let dir: &'static tempfile::TempDir =
            Box::leak(Box::new(tempfile::tempdir().expect("tempdir")));
        let out = dir.path().join("build");
        let spec = format!("{}/examples/{show}/show.yaml", env!("CARGO_MANIFEST_DIR"));
        let run = common::democ_in(
            None,
            &[
                "build",
                &spec,
                "-o",
                out.to_str().expect("utf-8"),
                "--hosts",
            ],
            Duration::from_secs(120),
        );
        assert_eq!(run.code, 0, "build {show}: {}", run.stderr);
        Box::leak(out.into_boxed_path())
    })
}

/// The result files every host script's `send` writes, from its dry run.
fn result_names(build: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for e in std::fs::read_dir(build.join("hosts")).expect("hosts/") {
        let path = e.expect("entry").path();
        let o = Command::new("bash")
            .arg(&path)
            .args(["--dry-run", "send"])
            .env("DEMOC_LOG", "/R")
            .env("DEMOC_STAMP", "T")
            .output()
            .expect("bash");
        for w in String::from_utf8_lossy(&o.stdout).split_whitespace() {
            if let Some(i) = w.find("/R/") {
                names.push(w[i + 3..].to_owned());
            }
        }
    }
    names.sort();
    names
}

fn plan(build: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(build.join("plan.json")).expect("plan"))
        .expect("plan JSON")
}

/// Each pair's share of its flow's prediction, Gbit/s.
fn shares(build: &Path) -> BTreeMap<String, f64> {
    plan(build)["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .map(|f| {
            let pairs = f["pairs"].as_f64().unwrap_or(1.0).max(1.0);
            (
                f["name"].as_str().unwrap_or("").to_owned(),
                f["predicted_gbps"].as_f64().unwrap_or(0.0) / pairs,
            )
        })
        .collect()
}

fn iperf3(gbps: f64, retransmits: u64) -> String {
    let mut v = fixture_json("iperf3-tcp.json");
    v["end"]["sum_received"]["bits_per_second"] = json!(gbps * 1e9);
    v["end"]["sum_received"]["seconds"] = json!(60.0);
    v["end"]["sum_sent"]["retransmits"] = json!(retransmits);
    // Recorded over loopback (MTU 65536); a 9000-byte path gives this.
    v["start"]["tcp_mss_default"] = json!(8948);
    serde_json::to_string_pretty(&v).expect("JSON")
}

fn fio(rw: &str, gbps: f64) -> String {
    let mut v = fixture_json("fio-write.json");
    let job = &mut v["jobs"][0];
    job[rw] = job["write"].clone();
    job[rw]["bw_bytes"] = json!((gbps * 1e9 / 8.0).round());
    serde_json::to_string_pretty(&v).expect("JSON")
}

fn ib_write_bw(gbps: f64) -> String {
    fixture("ib_write_bw.txt").replace("98.02", &format!("{gbps:.2}"))
}

/// What a result file holds for a pair that reached `gbps`.
fn result(name: &str, gbps: f64) -> String {
    let rw = if name.contains("-read.") {
        "read"
    } else {
        "write"
    };
    if name.ends_with(".iperf3.json") {
        iperf3(gbps, 0)
    } else if name.ends_with(".ib_write_bw.txt") {
        ib_write_bw(gbps)
    } else {
        fio(rw, gbps)
    }
}

/// A result folder in which every pair reached its share of the prediction.
fn clean(build: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let shares = shares(build);
    for name in result_names(build) {
        let flow = name.split('+').next().unwrap_or("");
        std::fs::write(dir.path().join(&name), result(&name, shares[flow])).expect("write");
    }
    // What else a DEMOC_LOG holds is skipped.
    std::fs::write(dir.path().join("systemd-private.log"), "not a result").expect("write");
    dir
}

fn verify(build: &Path, args: &[&str]) -> common::Run {
    let mut all = vec!["verify", build.to_str().expect("utf-8")];
    all.extend_from_slice(args);
    common::democ_in(None, &all, Duration::from_secs(60))
}

fn name_of(build: &Path, flow: &str, src: &str) -> String {
    result_names(build)
        .into_iter()
        .find(|n| n.starts_with(&format!("{flow}+{src}+")) && n.ends_with(".iperf3.json"))
        .unwrap_or_else(|| panic!("no iperf3 result of {flow} from {src}"))
}

#[test]
fn a_clean_run_passes_in_every_format() {
    let b = built("sc16");
    let r = clean(b);
    let d = r.path().to_str().expect("utf-8");
    let run = verify(b, &[d]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("10 of 10 flows within 10% of the plan"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("(1 other files skipped)"),
        "{}",
        run.stdout
    );
    let json = verify(b, &[d, "--format", "json"]);
    let v: Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(v["flows"].as_array().map(Vec::len), Some(10));
    assert!(
        v["flows"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|f| f["status"] == "ok")
    );
    let md = verify(b, &[d, "--format", "markdown"]);
    assert!(md.stdout.starts_with("# Verify: sc16"), "{}", md.stdout);
}

#[test]
fn a_lossy_pair_names_its_retransmits() {
    let b = built("sc16");
    let r = clean(b);
    let name = name_of(b, "dell-to-caltech", "dell-dtn-1");
    std::fs::write(r.path().join(&name), iperf3(12.5, 4123)).expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("flow dell-to-caltech is short:"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("loss: 4123 TCP retransmits on dell-dtn-1 -> cit-tcp-1 in 60 s"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("9 of 10 flows within 10%"),
        "{}",
        run.stdout
    );
}

/// Clean results but `dell-to-caltech`'s first pair (`first`), with EOS rates in which
/// the port toward its receiver carries 99.1 Gbit/s, more than the plan's 40.
fn crowded(build: &Path, first: String) -> tempfile::TempDir {
    let r = clean(build);
    let name = name_of(build, "dell-to-caltech", "dell-dtn-1");
    std::fs::write(r.path().join(name), first).expect("write");
    let mut rates = fixture_json("eos-rates.json");
    rates["interfaces"]["Ethernet1/1"]["outBpsRate"] = json!(99.1e9);
    std::fs::write(
        r.path().join("cit-a-arista+rates+T.json"),
        rates.to_string(),
    )
    .expect("write");
    r
}

/// EOS rates: the port toward the receiver carries more than the plan put there.
#[test]
fn a_link_above_its_predicted_load_is_named() {
    let b = built("sc16");
    let r = crowded(b, iperf3(20.0, 0));
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("link: `cit-a-arista` link cit-tcp-1:p0 <- cit-a-arista:1/1 carried 99.1 Gbit/s against 40.0 predicted"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("cit-tcp-1:p0 <- cit-a-arista:1/1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("ABOVE"), "{}", run.stdout);
}

/// sc16's clean results but one of `cit-ab-tcp-1t`'s ten pairs at 30 Gbit/s (the flow
/// crosses port-channel 10, cit-a-arista -> cit-b-z9100, whose members include 1/21).
fn short_bundle(build: &Path) -> tempfile::TempDir {
    let r = clean(build);
    let name = name_of(build, "cit-ab-tcp-1t", "cit-tcp-1");
    std::fs::write(r.path().join(name), iperf3(30.0, 0)).expect("write");
    r
}

/// A port-channel member full while the bundle's flow is short: the hash, not the plan.
#[test]
fn a_full_port_channel_member_is_named() {
    let b = built("sc16");
    let r = short_bundle(b);
    let mut rates = fixture_json("eos-rates.json");
    rates["interfaces"]["Ethernet21/1"]["outBpsRate"] = json!(99.6e9);
    std::fs::write(
        r.path().join("cit-a-arista+rates+T.json"),
        rates.to_string(),
    )
    .expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8"), "--tolerance", "2"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("lag: `cit-a-arista` port-channel member Ethernet21/1 (1/21) of port-channel 10 cit-a-arista -> cit-b-z9100 is full (99.6 of its 100.0 Gbit/s)"),
        "{}",
        run.stdout
    );
}

/// Transceivers and LLDP against the catalog and the cabling plan.
#[test]
fn optics_and_neighbours_are_compared() {
    let b = built("sc16");
    let r = clean(b);
    let mut x = fixture_json("eos-transceiver.json");
    x["interfaces"]["Ethernet22/1"]["rxPower"] = json!(-40.0);
    std::fs::write(
        r.path().join("cit-a-arista+transceiver+T.json"),
        x.to_string(),
    )
    .expect("write");
    let mut l = fixture_json("eos-lldp.json");
    l["lldpNeighbors"][1]["neighborPort"] = json!("hundredGigE 1/23");
    std::fs::write(r.path().join("cit-a-arista+lldp+T.json"), l.to_string()).expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(out.contains("optic: cit-a-arista 1/21 (100gbase-lr4): rx -2.5 dBm, floor -10.6 dBm, overload 4.5 dBm: OK"), "{out}");
    assert!(
        out.contains("optic: cit-a-arista 1/22 (100gbase-lr4): rx -40.0 dBm"),
        "{out}"
    );
    assert!(out.contains(": DARK"), "{out}");
    assert!(
        out.contains("lldp: cit-a-arista 1/21: planned cit-b-z9100:1/21 (cable sc16-"),
        "{out}"
    );
    assert!(
        out.contains("seen cit-b-z9100.sc16.example:hundredGigE 1/21: OK"),
        "{out}"
    );
    assert!(
        out.contains("seen cit-b-z9100.sc16.example:hundredGigE 1/23: WRONG"),
        "{out}"
    );
    assert!(
        out.contains("lldp: cit-a-arista 1/23: planned cit-b-z9100:1/23"),
        "{out}"
    );
    assert!(out.contains("seen nothing: MISSING"), "{out}");
    assert!(
        out.contains("mtu: 24 pairs' segments fit the planned MTU"),
        "{out}"
    );
}

/// The catalog's receive window (100GBASE-LR4: -10.6 to 4.5 dBm per lane): a port-channel
/// member receiving too much light (no attenuator) is HIGH and a cause of its short flow;
/// one receiving too little is LOW.
#[test]
fn optics_outside_their_receive_window_are_low_or_high() {
    let b = built("sc16");
    let r = short_bundle(b);
    let mut x = fixture_json("eos-transceiver.json");
    x["interfaces"]["Ethernet21/1"]["rxPower"] = json!(5.2);
    x["interfaces"]["Ethernet22/1"]["rxPower"] = json!(-11.5);
    std::fs::write(
        r.path().join("cit-a-arista+transceiver+T.json"),
        x.to_string(),
    )
    .expect("write");
    // One pair of ten at 30 Gbit/s leaves the flow 6% short.
    let run = verify(b, &[r.path().to_str().expect("utf-8"), "--tolerance", "2"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(out.contains("optic: cit-a-arista 1/21 (100gbase-lr4): rx 5.2 dBm, floor -10.6 dBm, overload 4.5 dBm: HIGH"), "{out}");
    assert!(out.contains("optic: cit-a-arista 1/22 (100gbase-lr4): rx -11.5 dBm, floor -10.6 dBm, overload 4.5 dBm: LOW"), "{out}");
    assert!(out.contains("optic: `cit-a-arista` 1/21 receives 5.2 dBm, above the 100gbase-lr4 overload of 4.5 dBm: an attenuator is missing"), "{out}");
    let json = verify(b, &[r.path().to_str().expect("utf-8"), "--format", "json"]);
    let v: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let high = v["optics"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|o| o["port"] == "1/21")
        .expect("the optic of 1/21");
    assert_eq!(high["status"], "high");
    assert_eq!(high["ceiling_dbm"], 4.5);
}

/// OpenFlow (sc15's switches run in the twin as Open vSwitch): the flow's rules matched
/// nothing, and the port dropped frames between two `dump-ports` snapshots.
#[test]
fn openflow_rules_and_port_drops_are_causes() {
    let b = built("sc15");
    let r = clean(b);
    std::fs::write(
        r.path().join(name_of(b, "net-100g", "sc100G-1")),
        iperf3(41.0, 0),
    )
    .expect("write");
    let flows = fixture("ovs-dump-flows.txt")
        .replace(
            "n_packets=1180212, n_bytes=10625000000",
            "n_packets=0, n_bytes=0",
        )
        .replace("n_packets=40312, n_bytes=2660592", "n_packets=0, n_bytes=0");
    std::fs::write(r.path().join("cit-z9100-1+dump-flows+T.txt"), flows).expect("write");
    let ports = fixture("ovs-dump-ports.txt");
    std::fs::write(r.path().join("cit-z9100-1+dump-ports+T1.txt"), &ports).expect("write");
    let later = ports
        .replace(
            "tx pkts=1180212, bytes=10625000000, drop=0",
            "tx pkts=2360424, bytes=21250000000, drop=5120",
        )
        .replace("duration=8.934s", "duration=18.934s");
    std::fs::write(r.path().join("cit-z9100-1+dump-ports+T2.txt"), later).expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains("rules: none of the flow's 2 rules on `cit-z9100-1` matched a packet"),
        "{out}"
    );
    assert!(out.contains("loss: `cit-z9100-1` hundredGigE 1/2 (1/2) discarded 5120 frames sent between the counter snapshots"), "{out}");
    // 10.625 GB more in 10 s: 8.5 Gbit/s out of port 2 toward sc100G-2.
    let row = out
        .lines()
        .find(|l| l.starts_with("sc100G-2:p0 <- cit-z9100-1:1/2 "))
        .unwrap_or_else(|| panic!("no row for the link:\n{out}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[3..], ["100.0", "8.5", "5120", "DISCARDS"], "{row}");
}

/// A bad result: exit 2, the code and a help line on stderr, the rest still judged.
fn bad(build: &Path, files: &[(&str, &str)], code: &str, said: &str) {
    let r = clean(build);
    let mut args = vec![r.path().to_str().expect("utf-8").to_owned()];
    for (name, text) in files {
        let p = r.path().join(name);
        std::fs::write(&p, text).expect("write");
        if !name.contains('+') {
            args.push(p.to_str().expect("utf-8").to_owned());
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = verify(build, &args);
    assert_eq!(run.code, 2, "{code}: {}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!("error[{code}]")),
        "{code}: {}",
        run.stderr
    );
    assert!(run.stderr.contains("= help: "), "{code}: {}", run.stderr);
    assert!(run.stderr.contains(said), "{code}: {}", run.stderr);
    assert!(
        run.stdout.contains("flows within"),
        "the good files are still judged: {}",
        run.stdout
    );
}

#[test]
fn a_missing_result_path_is_e0601() {
    let b = built("sc16");
    let r = clean(b);
    let missing = r.path().join("nowhere");
    let run = verify(
        b,
        &[
            r.path().to_str().expect("utf-8"),
            missing.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let code = "E0601";
    assert!(
        run.stderr.contains(&format!("error[{code}]")) && run.stderr.contains("= help: "),
        "{}",
        run.stderr
    );
}

#[test]
fn a_fifo_named_as_a_result_is_e0601_without_hanging() {
    let b = built("sc16");
    let r = clean(b);
    let fifo = r.path().join("f+a+b+c+T.iperf3.json");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skipped: no mkfifo here");
        return;
    }
    let run = verify(b, &[fifo.to_str().expect("utf-8")]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("error[E0601]") && run.stderr.contains("not a regular file"),
        "{}",
        run.stderr
    );
}

#[test]
fn result_names_that_say_nothing_of_the_build_are_e0602() {
    let b = built("sc16");
    bad(
        b,
        &[("results.json", "{}")],
        "E0602",
        "is not named as a result file",
    );
    bad(
        b,
        &[("no-such-flow+a+b+a+T.iperf3.json", &iperf3(1.0, 0))],
        "E0602",
        "the build has no flow `no-such-flow`",
    );
    bad(
        b,
        &[(
            "dell-to-caltech+dell-dtn-1+nobody+dell-dtn-1+T.iperf3.json",
            &iperf3(1.0, 0),
        )],
        "E0602",
        "has no pair `dell-dtn-1` -> `nobody`",
    );
    bad(
        b,
        &[("no-switch+rates+T.json", &fixture("eos-rates.json"))],
        "E0602",
        "the build has no switch `no-switch`",
    );
}

#[test]
fn results_not_in_their_tools_format_are_e0603() {
    let b = built("sc16");
    let name = name_of(b, "dell-to-caltech", "dell-dtn-1");
    let cut = &iperf3(40.0, 0)[..700];
    bad(b, &[(name.as_str(), cut)], "E0603", "not iperf3 JSON");
    let ib = result_names(b)
        .into_iter()
        .find(|n| n.ends_with(".ib_write_bw.txt"))
        .expect("an RDMA pair");
    bad(
        b,
        &[(
            ib.as_str(),
            "ib_write_bw: Couldn't connect to 10.16.0.38:5201\n",
        )],
        "E0603",
        "not ib_write_bw's report",
    );
    bad(
        b,
        &[(
            "cit-a-z9100-1+dump-ports+T.txt",
            "ovs-ofctl: br0 is not a bridge or a socket\n",
        )],
        "E0603",
        "not the output of `ovs-ofctl dump-ports`",
    );
}

#[test]
fn results_that_lack_what_verify_reads_are_e0604() {
    let b = built("sc16");
    let name = name_of(b, "dell-to-caltech", "dell-dtn-1");
    bad(
        b,
        &[(name.as_str(), &fixture("iperf3-refused.json"))],
        "E0604",
        "iperf3 failed: unable to connect to server: Connection refused",
    );
    let mut rates = fixture_json("eos-rates.json");
    rates["interfaces"]["Ethernet1/1"]["outBpsRate"] = json!("fast");
    bad(
        b,
        &[("cit-a-arista+rates+T.json", &rates.to_string())],
        "E0604",
        "`Ethernet1/1` lacks `inBpsRate` or `outBpsRate`",
    );
    bad(
        b,
        &[(
            "cit-a-arista+lldp+T.json",
            "{\"lldpNeighbors\": [{\"port\": \"Ethernet1/1\"}]}",
        )],
        "E0604",
        "a neighbour lacks",
    );
}

/// A result folder is input: every fixture cut at many lengths, and bytes that are no
/// text, under every kind of name, end in an exit code, never a panic.
#[test]
fn no_result_makes_verify_panic() {
    let b = built("sc16");
    let dir = tempfile::tempdir().expect("tempdir");
    let name = name_of(b, "dell-to-caltech", "dell-dtn-1");
    let suffixes = [
        name.clone(),
        name.replace(".iperf3.json", ".fio-read.json"),
        name.replace(".iperf3.json", ".ib_write_bw.txt"),
        "cit-a-arista+counters+T.json".into(),
        "cit-a-arista+rates+T.json".into(),
        "cit-a-arista+transceiver+T.json".into(),
        "cit-a-arista+lldp+T.json".into(),
        "cit-a-arista+dump-ports+T.txt".into(),
        "cit-a-arista+dump-flows+T.txt".into(),
    ];
    let mut i = 0;
    for f in std::fs::read_dir(FIXTURES).expect("fixtures") {
        let path = f.expect("entry").path();
        // Folders hold whole runs (tests/verify_twin_results.rs reads those).
        if path.is_dir() {
            continue;
        }
        let text = std::fs::read(path).expect("read");
        for cut in [
            0,
            1,
            text.len() / 3,
            text.len() / 2,
            text.len().saturating_sub(2),
        ] {
            let sub = dir.path().join(i.to_string());
            std::fs::create_dir(&sub).expect("mkdir");
            for s in &suffixes {
                std::fs::write(sub.join(s), &text[..cut]).expect("write");
            }
            i += 1;
        }
    }
    let sub = dir.path().join("binary");
    std::fs::create_dir(&sub).expect("mkdir");
    for s in &suffixes {
        std::fs::write(sub.join(s), [0xff, 0xfe, 0x00, b'{', 0x80]).expect("write");
    }
    let run = verify(b, &[dir.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

#[test]
fn a_build_that_is_not_one_is_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = common::democ_in(
        None,
        &[
            "verify",
            dir.path().to_str().expect("utf-8"),
            dir.path().to_str().expect("utf-8"),
        ],
        Duration::from_secs(30),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("plan.json"), "{}", run.stderr);
    let bad_tol = common::democ_in(
        None,
        &["verify", ".", ".", "--tolerance", "150"],
        Duration::from_secs(30),
    );
    assert_eq!(bad_tol.code, 2, "{}", bad_tol.stderr);
}

/// Where a result's parser stopped is where the diagnostic points.
#[test]
fn diagnostics_point_into_the_file() {
    let b = built("sc16");
    let r = clean(b);
    let name = name_of(b, "dell-to-caltech", "dell-dtn-1");
    std::fs::write(
        r.path().join(&name),
        "{\n  \"start\": {},\n  \"end\": [1,\n",
    )
    .expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert!(run.stderr.contains(&format!("{name}:4:")), "{}", run.stderr);
}

/// `democ report --results`: measured beside predicted on every flow and link row, and
/// a short flow's causes under its limits.
#[test]
fn the_report_shows_what_was_measured() {
    let b = built("sc16");
    let r = crowded(b, iperf3(12.5, 4123));
    let out = tempfile::tempdir().expect("tempdir");
    let spec = format!("{}/examples/sc16/show.yaml", env!("CARGO_MANIFEST_DIR"));
    let o = out.path().to_str().expect("utf-8");
    let run = common::democ_in(
        None,
        &[
            "report",
            &spec,
            "-o",
            o,
            "--results",
            r.path().to_str().expect("utf-8"),
        ],
        Duration::from_secs(120),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(out.path().join("index.html")).expect("report");
    assert_eq!(
        html.matches("<th>measured Gbit/s</th>").count(),
        2,
        "flows and links"
    );
    // 12.5 and 40.0 Gbit/s: the pairs summed.
    assert!(html.contains("<td>52.5</td>"), "the flow's measured sum");
    assert!(html.contains("<strong class=\"bad\">short</strong>"));
    assert!(html.contains("loss: 4123 TCP retransmits on dell-dtn-1 -&gt; cit-tcp-1"));
    assert!(html.contains("<td>99.1</td><td><strong class=\"bad\">above</strong></td>"));
    let plain = tempfile::tempdir().expect("tempdir");
    let p = plain.path().to_str().expect("utf-8");
    let run = common::democ_in(None, &["report", &spec, "-o", p], Duration::from_secs(120));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let html = std::fs::read_to_string(plain.path().join("index.html")).expect("report");
    assert!(!html.contains("measured Gbit/s"));
}

/// sc25-400g's clean results but `caltech-to-starlight-400g` at 120 of its 300 Gbit/s
/// (its path: cit-7060, scinet-core (SONiC), sl-z9432 (OS10)).
fn short_400g(build: &Path) -> tempfile::TempDir {
    let r = clean(build);
    let name = name_of(build, "caltech-to-starlight-400g", "cit-dtn-1");
    std::fs::write(r.path().join(name), iperf3(120.0, 0)).expect("write");
    r
}

/// Dell OS10 (sc25-400g's `sl-z9432`): two RESTCONF snapshots of its interfaces, timed by
/// their names, give the rate and the discards toward the receiver.
#[test]
fn os10_restconf_counters_give_rates_and_discards() {
    let b = built("sc25-400g");
    let r = short_400g(b);
    let before = fixture("os10-counters.json");
    // 10 s later: 375 GB more sent toward sl-dtn-1 (300 Gbit/s), 2048 frames discarded.
    let mut after = fixture_json("os10-counters.json");
    let stats = &mut after["ietf-interfaces:interfaces-state"]["interface"][1]["statistics"];
    stats["out-octets"] = json!((1_637_184_120_000u64 + 375_000_000_000).to_string());
    stats["out-discards"] = json!(2048);
    std::fs::write(
        r.path().join("sl-z9432+counters+20261129T023100Z.json"),
        before,
    )
    .expect("write");
    std::fs::write(
        r.path().join("sl-z9432+counters+20261129T023110Z.json"),
        after.to_string(),
    )
    .expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(out.contains("loss: `sl-z9432` ethernet1/1/2 (1/2) discarded 2048 frames sent between the counter snapshots"), "{out}");
    let row = out
        .lines()
        .find(|l| l.starts_with("sl-dtn-1:p0 <- sl-z9432:1/2 "))
        .unwrap_or_else(|| panic!("no row for the link:\n{out}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[3..], ["300.0", "300.0", "2048", "DISCARDS"], "{row}");
}

/// SONiC (sc25-400g's `scinet-core`): `show interfaces counters --json` gives drops and
/// SONiC's own rates; lldpd's JSON gives the neighbours.
#[test]
fn sonic_counters_and_lldpd_neighbours_are_read() {
    let b = built("sc25-400g");
    let r = short_400g(b);
    std::fs::write(
        r.path().join("scinet-core+counters+1.json"),
        fixture("sonic-counters.json"),
    )
    .expect("write");
    // Ethernet4 toward sl-z9432 sent 49,000 MB/s (392 Gbit/s) against the plan's 300.
    let mut later = fixture_json("sonic-counters.json");
    later["Ethernet4"]["TX_BPS"] = json!("49000.00 MB/s");
    later["Ethernet4"]["TX_DRP"] = json!("1,024");
    std::fs::write(
        r.path().join("scinet-core+counters+2.json"),
        later.to_string(),
    )
    .expect("write");
    let mut l = fixture_json("lldpctl.json");
    let seen = l["lldp"]["interface"]["Ethernet0"].clone();
    let mut wrong = seen.clone();
    wrong["chassis"] = json!({ "sl-z9432": seen["chassis"]["cit-7060.sc25.example"].clone() });
    wrong["port"]["id"]["value"] = json!("ethernet1/1/2");
    // Two neighbours: lldpd's `json` lists one object per interface.
    l["lldp"]["interface"] = json!([{ "Ethernet0": seen }, { "Ethernet4": wrong }]);
    std::fs::write(r.path().join("scinet-core+lldp+T.json"), l.to_string()).expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let out = &run.stdout;
    assert!(out.contains("link: `scinet-core` link scinet-core:1/1:2 -> sl-z9432:1/1 carried 392.0 Gbit/s against 300.0 predicted"), "{out}");
    assert!(out.contains("loss: `scinet-core` Ethernet4 (1/1:2) discarded 1024 frames sent between the counter snapshots"), "{out}");
    assert!(
        out.contains("seen cit-7060.sc25.example:Ethernet1/1: OK"),
        "{out}"
    );
    assert!(out.contains("seen sl-z9432:ethernet1/1/2: WRONG"), "{out}");
    // lldpd's `json0` reads the same.
    std::fs::write(
        r.path().join("scinet-core+lldp+T.json"),
        fixture("lldpctl-json0.json"),
    )
    .expect("write");
    let run = verify(b, &[r.path().to_str().expect("utf-8")]);
    assert!(
        run.stdout
            .contains("seen cit-7060.sc25.example:Ethernet1/1: OK"),
        "{}",
        run.stdout
    );
}

/// State an OS prints no JSON for, and a reply that is not the OS's: located, with help.
#[test]
fn os10_and_sonic_state_verify_cannot_read_is_refused() {
    let b = built("sc25-400g");
    bad(
        b,
        &[(
            "sl-z9432+transceiver+T.json",
            &fixture("eos-transceiver.json"),
        )],
        "E0603",
        "verify reads no `transceiver` state of OS10 switches",
    );
    bad(
        b,
        &[("scinet-core+transceiver+T.json", "{}")],
        "E0603",
        "SONiC prints none as JSON",
    );
    bad(
        b,
        &[("sl-z9432+counters+T.json", &fixture("eos-counters.json"))],
        "E0604",
        "no `ietf-interfaces:interfaces-state`",
    );
    bad(
        b,
        &[("scinet-core+counters+T.json", &fixture("eos-counters.json"))],
        "E0604",
        "not SONiC's `show interfaces counters --json`",
    );
    bad(
        b,
        &[("scinet-core+lldp+T.json", &fixture("eos-lldp.json"))],
        "E0604",
        "not lldpd's `lldpctl -f json`",
    );
}

/// Every fixture cut short under the OS10 and SONiC names: an exit code, never a panic.
#[test]
fn no_os10_or_sonic_state_makes_verify_panic() {
    let b = built("sc25-400g");
    let dir = tempfile::tempdir().expect("tempdir");
    let names = [
        "sl-z9432+counters+20261129T023100Z.json",
        "sl-z9432+lldp+T.json",
        "scinet-core+counters+T.json",
        "scinet-core+rates+T.json",
        "scinet-core+lldp+T.json",
    ];
    let mut i = 0;
    for f in std::fs::read_dir(FIXTURES).expect("fixtures") {
        let path = f.expect("entry").path();
        // Folders hold whole runs (tests/verify_twin_results.rs reads those).
        if path.is_dir() {
            continue;
        }
        let text = std::fs::read(path).expect("read");
        for cut in [
            0,
            1,
            text.len() / 2,
            text.len().saturating_sub(2),
            text.len(),
        ] {
            let sub = dir.path().join(i.to_string());
            std::fs::create_dir(&sub).expect("mkdir");
            for n in names {
                std::fs::write(sub.join(n), &text[..cut]).expect("write");
            }
            i += 1;
        }
    }
    let run = verify(b, &[dir.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}
