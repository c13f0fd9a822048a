//! Congestion control per flow (issue 39 item 1) and the kernel a host declares (item
//! 5): the plan predicts with each algorithm's model and names it, the sender's script
//! asks for the same algorithm and falls back, saying so, where the kernel lacks it;
//! BIG TCP and the per-stream gain follow the declared kernel.

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{build, democ};

const SPEC: &str = "tests/fixtures/hosts/congestion.yaml";

fn bash(script: &Path, args: &[&str], env: &[(&str, String)]) -> (i32, String, String) {
    let o = Command::new("bash")
        .arg(script)
        .args(args)
        .env_remove("IF_p0")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .expect("bash runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn plan_json(spec: &str) -> serde_json::Value {
    let o = democ(&["plan", spec, "--format", "json"]);
    serde_json::from_slice(&o.stdout).expect("plan JSON")
}

/// The algorithm the sender's iperf3 line asks for (`-C`), else the host default.
fn asked(send: &str, flow: &str) -> String {
    let line = send
        .lines()
        .find(|l| l.contains(&format!("/{flow}+")))
        .unwrap_or_else(|| panic!("no transfer of {flow} in:\n{send}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "-C")
        .map_or("cubic".into(), |w| w[1].to_owned())
}

/// What the plan assumes for each flow is what its sender's script runs: `-C` for every
/// algorithm but the default `tune` sets (cubic), with the module loaded where it is one.
#[test]
fn the_plan_and_the_scripts_agree_on_each_flows_algorithm() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(SPEC, &out);
    let v = plan_json(SPEC);
    let flows = v["flows"].as_array().expect("flows");
    let mut seen = Vec::new();
    for f in flows {
        let name = f["name"].as_str().unwrap();
        let cc = f["congestion_control"]
            .as_str()
            .expect("a TCP flow names it");
        let sender = if name == "d" { "b" } else { "a" };
        let (code, send, err) = bash(
            &out.join(format!("hosts/{sender}.sh")),
            &["--dry-run", "send", name],
            &[],
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(asked(&send, name), cc, "flow {name}");
        seen.push(cc.to_owned());
    }
    assert_eq!(seen, ["reno", "cubic", "htcp", "bbr", "cubic"]);
    let (_, tune, _) = bash(&out.join("hosts/a.sh"), &["--dry-run", "tune"], &[]);
    assert!(tune.contains("modprobe tcp_htcp"), "{tune}");
    assert!(tune.contains("modprobe tcp_bbr"), "{tune}");
    assert!(
        tune.contains("net.ipv4.tcp_congestion_control=cubic"),
        "{tune}"
    );
    let text = String::from_utf8_lossy(&democ(&["plan", SPEC]).stdout).into_owned();
    for cc in ["reno", "cubic", "htcp", "bbr"] {
        assert!(text.contains(&format!("(1 stream, {cc})")), "{text}");
    }
}

/// A show-wide `defaults.congestion_control` applies to every flow that names none.
#[test]
fn the_show_default_applies_to_flows_that_name_none() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(SPEC).unwrap().replace(
        "  name: congestion\n",
        "  name: congestion\n  defaults: { congestion_control: bbr }\n",
    );
    let spec = tmp.path().join("show.yaml");
    std::fs::write(&spec, text).unwrap();
    let v = plan_json(spec.to_str().unwrap());
    assert_eq!(v["flows"][4]["name"], "d");
    assert_eq!(v["flows"][4]["congestion_control"], "bbr");
    assert_eq!(v["flows"][1]["congestion_control"], "cubic");
}

/// `SPEC` built into a temporary folder: the folder, the build, an empty `bin` for
/// stand-ins, and the file they record their arguments in.
fn sandbox() -> (tempfile::TempDir, PathBuf, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(SPEC, &out);
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let args = tmp.path().join("args");
    (tmp, out, bin, args)
}

/// Stand-ins in `bin` for numactl (runs its command) and iperf3 (runs `iperf3`, a shell
/// body); the PATH that finds them first.
fn stand_ins(bin: &Path, iperf3: &str) -> String {
    for (tool, body) in [("numactl", "shift 4\nexec \"$@\"\n"), ("iperf3", iperf3)] {
        let p = bin.join(tool);
        std::fs::write(&p, format!("#!/bin/sh\n{body}")).unwrap();
        Command::new("chmod").arg("+x").arg(&p).status().unwrap();
    }
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

/// On a kernel without H-TCP (this machine's has reno, cubic and bbr built in and no
/// modules), `send` does not stop: the transfer runs the default and says the plan
/// predicted htcp. iperf3 and numactl are stand-ins that record their arguments.
#[test]
fn a_missing_algorithm_falls_back_and_says_so() {
    let (tmp, out, bin, args) = sandbox();
    let path = stand_ins(&bin, &format!("echo \"$*\" >> {}\n", args.display()));
    let log = tmp.path().display().to_string();
    let (code, _, err) = bash(
        &out.join("hosts/a.sh"),
        &["send", "h"],
        &[
            ("PATH", path),
            ("DEMOC_LOG", log),
            ("DEMOC_SECONDS", "1".into()),
        ],
    );
    assert_eq!(code, 0, "{err}");
    let ran = std::fs::read_to_string(&args).expect("iperf3 ran");
    let available = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .unwrap_or_default();
    if available.split_whitespace().any(|a| a == "htcp") {
        assert!(ran.contains("-C htcp"), "{ran}");
    } else {
        assert!(ran.contains("-C cubic"), "{ran}");
        assert!(
            err.contains("this kernel has no htcp congestion control")
                && err.contains("the plan predicted htcp"),
            "{err}"
        );
    }
}

/// BIG TCP follows the declared kernel: 6.8 has IPv6's (5.19) and IPv4's (6.3), 6.1 only
/// IPv6's; a host that declares no kernel gets neither.
#[test]
fn big_tcp_follows_the_declared_kernel() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(SPEC, &out);
    let tune = |h: &str| {
        bash(
            &out.join(format!("hosts/{h}.sh")),
            &["--dry-run", "tune"],
            &[],
        )
        .1
    };
    let a = tune("a");
    assert!(
        a.contains("ip link set dev p0 gso_max_size 196608 gro_max_size 196608"),
        "{a}"
    );
    assert!(
        a.contains("gso_ipv4_max_size 196608 gro_ipv4_max_size 196608"),
        "{a}"
    );
    let b = tune("b");
    assert!(b.contains("gso_max_size 196608"), "{b}");
    assert!(!b.contains("gso_ipv4_max_size"), "{b}");
    let none = tmp.path().join("none");
    build("tests/fixtures/hosts/bbr.yaml", &none);
    let (_, c, _) = bash(&none.join("hosts/a.sh"), &["--dry-run", "tune"], &[]);
    assert!(!c.contains("gso_max_size"), "{c}");
}

/// SC24 INDIS: kernel 6.8 carries one stream 30 % faster than 5.15 on a LAN path. A
/// single-stream flow bound by the sender's CPU (68 Gbit/s per stream on the E5-2697 v3)
/// reaches 88.4 from `a` (6.8) and 68 from `b` (6.1, before the gain).
#[test]
fn a_declared_kernel_raises_the_per_stream_ceiling() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let full = std::fs::read_to_string(SPEC).unwrap();
    let text = format!(
        "{}flows:\n{}\n{}\n",
        &full[..full.find("flows:").unwrap()],
        "  - { name: c, from: a, to: b, rate: 100G, protocol: tcp, streams: 1 }",
        "  - { name: d, from: b, to: a, rate: 100G, protocol: tcp, streams: 1 }",
    );
    let spec = tmp.path().join("show.yaml");
    std::fs::write(&spec, text).unwrap();
    let v = plan_json(spec.to_str().unwrap());
    let flow = |n: &str| {
        v["flows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == n)
            .unwrap()
            .clone()
    };
    let (c, d) = (flow("c"), flow("d"));
    let got = c["predicted_gbps"].as_f64().unwrap();
    assert!((got - 68.0 * 1.30).abs() < 0.5, "{c}");
    assert_eq!(c["bottleneck"]["kind"], "cpu");
    assert!(
        c["bottleneck"]["why"]
            .as_str()
            .unwrap()
            .contains("kernel 6.8"),
        "{c}"
    );
    let got = d["predicted_gbps"].as_f64().unwrap();
    assert!((got - 68.0).abs() < 0.5, "{d}");
}

/// `SPEC`'s hosts and link with `flows` in place of its own; `kernels: false` drops the
/// hosts' `kernel:` lines.
fn with_flows(dir: &Path, flows: &[&str], kernels: bool) -> String {
    let full = std::fs::read_to_string(SPEC).unwrap();
    let mut text = format!(
        "{}flows:\n{}\n",
        &full[..full.find("flows:").unwrap()],
        flows.join("\n")
    );
    if !kernels {
        text = text
            .replace("    kernel: \"6.8\"\n", "")
            .replace("    kernel: 6.1.0-27-amd64\n", "");
    }
    let spec = dir.join("show.yaml");
    std::fs::write(&spec, text).unwrap();
    spec.display().to_string()
}

/// The value after `flag` on `flow`'s iperf3 line in a dry run of `send`.
fn launched(out: &Path, host: &str, flow: &str, flag: &str) -> Option<String> {
    let (code, send, err) = bash(
        &out.join(format!("hosts/{host}.sh")),
        &["--dry-run", "send", flow],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let line = send.lines().find(|l| l.contains(&format!("/{flow}+")))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == flag)
        .map(|w| w[1].to_owned())
}

/// fasterdata paces a DTN's traffic to 80-90 % of its NIC speed. On a sender whose
/// declared kernel paces (4.13 and later), two flows asking 50G each from one 100G port
/// share 90 % of it by demand: each stream paced at 45 / 2 Gbit/s, and the plan predicts
/// the 45 the pacing lets through, below the 49-odd the link's max-min share would give.
/// Without a declared kernel the streams are paced at the demand, as before.
#[test]
fn a_declared_kernel_paces_each_pair_at_its_share_of_the_port() {
    let flows = [
        "  - { name: x, from: a, to: b, rate: 50G, protocol: tcp, streams: 2 }",
        "  - { name: y, from: a, to: b, rate: 50G, protocol: tcp, streams: 2 }",
    ];
    let tmp = tempfile::tempdir().expect("tempdir");
    let spec = with_flows(tmp.path(), &flows, true);
    let out = tmp.path().join("out");
    build(&spec, &out);
    for f in ["x", "y"] {
        assert_eq!(
            launched(&out, "a", f, "--fq-rate").as_deref(),
            Some("22500M")
        );
    }
    let v = plan_json(&spec);
    let x = &v["flows"][0];
    assert_eq!(x["bottleneck"]["kind"], "pacing", "{x}");
    assert!(
        (x["predicted_gbps"].as_f64().unwrap() - 45.0).abs() < 1e-6,
        "{x}"
    );
    let why = x["bottleneck"]["why"].as_str().unwrap();
    assert!(
        why.contains("paced to 45.0 Gbit/s") && why.contains("90 % of `a:p0` (100 Gbit/s)"),
        "{why}"
    );
    let fix = x["bottleneck"]["fix"].as_str().unwrap_or_default();
    assert!(fix.contains("lower the rates that leave by it"), "{fix}");
    // No kernel declared: paced at the demand, and the link shares them.
    let plain = tempfile::tempdir().expect("tempdir");
    let spec = with_flows(plain.path(), &flows, false);
    let out = plain.path().join("out");
    build(&spec, &out);
    assert_eq!(
        launched(&out, "a", "x", "--fq-rate").as_deref(),
        Some("25000M")
    );
    let v = plan_json(&spec);
    assert_eq!(
        v["flows"][0]["bottleneck"]["kind"], "link",
        "{}",
        v["flows"][0]
    );
}

/// MSG_ZEROCOPY (kernel 4.14 and later): the sender asks its iperf3 for `--zerocopy=z`
/// and sends with it where it takes it; this machine's iperf3 (3.12, like every release
/// through 3.21) does not, so the transfer copies and the script says so. The plan names
/// it and does not count the paper's "up to 35 %".
#[test]
fn msg_zerocopy_is_asked_for_where_the_kernel_has_it_and_the_iperf3_takes_it() {
    let (tmp, out, bin, args) = sandbox();
    let run = |iperf3: &str| {
        let path = stand_ins(&bin, &iperf3.replace("ARGS", &args.display().to_string()));
        let _ = std::fs::remove_file(&args);
        let (code, _, err) = bash(
            &out.join("hosts/a.sh"),
            &["send", "c"],
            &[
                ("PATH", path),
                ("DEMOC_LOG", tmp.path().display().to_string()),
                ("DEMOC_SECONDS", "1".into()),
            ],
        );
        assert_eq!(code, 0, "{err}");
        let ran = std::fs::read_to_string(&args).expect("iperf3 ran");
        let line = ran
            .lines()
            .find(|l| l.contains("--fq-rate"))
            .unwrap_or_default()
            .to_owned();
        (line, err)
    };
    // An iperf3 with the option (esnet/iperf pull request 1720).
    let (line, _) = run("echo \"$*\" >> ARGS\n");
    assert!(line.contains("--zerocopy=z"), "{line}");
    // One without it, as released: the probe fails, the transfer runs without.
    let (line, err) = run("case \"$1\" in --zerocopy=z) exit 1;; esac\necho \"$*\" >> ARGS\n");
    assert!(!line.contains("zerocopy"), "{line}");
    assert!(err.contains("has no --zerocopy=z"), "{err}");
    // The plan names it beside the CPU's per-stream figure, uncounted.
    let v = plan_json(SPEC);
    let c = &v["flows"][1];
    let limits = c["limits"].as_array().expect("limits");
    let cpu = limits
        .iter()
        .find(|l| l["kind"] == "cpu")
        .expect("a CPU limit");
    let why = cpu["why"].as_str().unwrap();
    assert!(
        why.contains("MSG_ZEROCOPY") && why.contains("not counted"),
        "{why}"
    );
    // `b` declares 6.1 (after 4.14) too; a host without a kernel is not asked.
    let plain = tempfile::tempdir().expect("tempdir");
    let spec = with_flows(
        plain.path(),
        &["  - { name: c, from: a, to: b, rate: 10G, protocol: tcp }"],
        false,
    );
    let out = plain.path().join("out");
    build(&spec, &out);
    let (_, send, _) = bash(&out.join("hosts/a.sh"), &["--dry-run", "send", "c"], &[]);
    assert!(!send.contains("zerocopy"), "{send}");
}
