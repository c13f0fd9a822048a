//! `hosts/<name>.sh`: every script democ writes for the SC16 DTNs is valid bash, runs
//! `--dry-run` without touching the machine, prints the tuning and the transfers the
//! show implies, and quotes what it prints.

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::Path;
use std::process::Command;

use support::{build, example, tree};

fn bash(script: &Path, args: &[&str]) -> (i32, String, String) {
    bash_env(script, args, &[])
}

/// `bash SCRIPT ARGS` with `env` set (and no IF_p0 from the caller's environment).
fn bash_env(script: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let o = Command::new("bash")
        .arg(script)
        .args(args)
        .env_remove("IF_p0")
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_script_parses_and_dry_runs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let scripts: Vec<String> = tree(&out)
        .into_keys()
        .filter(|p| p.starts_with("hosts/"))
        .collect();
    assert!(scripts.len() > 40, "{} host scripts", scripts.len());
    for s in &scripts {
        let path = out.join(s);
        let syntax = Command::new("bash")
            .arg("-n")
            .arg(&path)
            .output()
            .expect("bash -n");
        assert!(
            syntax.status.success(),
            "{s}: {}",
            String::from_utf8_lossy(&syntax.stderr)
        );
        for step in ["tune", "serve", "send"] {
            let (code, stdout, stderr) = bash(&path, &["--dry-run", step]);
            assert_eq!(code, 0, "{s} --dry-run {step}: {stderr}");
            if step == "tune" {
                assert!(
                    stdout.contains("sysctl -q -w net.core.rmem_max=2147483647"),
                    "{s}"
                );
            }
        }
        let (code, _, stderr) = bash(&path, &["bogus"]);
        assert_eq!(code, 2, "{s}: {stderr}");
    }
}

#[test]
fn a_pair_is_served_on_one_host_and_sent_from_the_other() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    // `cit-ab-tcp-1t`: cit-tcp-[1-10] to cit-b-dtn-[1-10], 1T over ten pairs, two
    // streams a pair (the prediction's count), each paced at half the pair's 100G.
    let (_, send, _) = bash(&out.join("hosts/cit-tcp-1.sh"), &["--dry-run", "send"]);
    let client = send
        .lines()
        .find(|l| l.contains("iperf3 -c"))
        .unwrap_or_else(|| panic!("no client in:\n{send}"));
    assert!(
        client.starts_with("numactl -N 0 -m 0 iperf3 -c "),
        "{client}"
    );
    assert!(client.contains(" -P 2 --fq-rate 50000M -t 60 "), "{client}");
    // Its JSON report is kept, named for the flow, the pair, the host and the start.
    assert!(
        client
            .contains(" --json --logfile /var/tmp/cit-ab-tcp-1t+cit-tcp-1+cit-b-dtn-1+cit-tcp-1+")
            && client.ends_with(".iperf3.json "),
        "{client}"
    );
    let words: Vec<&str> = client.split_whitespace().collect();
    let at = |flag: &str| words[words.iter().position(|w| *w == flag).expect(flag) + 1];
    let (peer, port) = (at("-c"), at("-p"));
    let (_, serve, _) = bash(&out.join("hosts/cit-b-dtn-1.sh"), &["--dry-run", "serve"]);
    let server = format!("iperf3 -s -D -p {port} -B {peer}");
    assert!(serve.contains(&server), "`{server}` not in:\n{serve}");
}

#[test]
fn the_kernel_interface_name_comes_from_the_environment() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let path = out.join("hosts/cit-tcp-1.sh");
    let (_, stdout, _) = bash_env(
        &path,
        &["--dry-run", "tune"],
        &[("IF_p0", "ens1f0 np0; reboot")],
    );
    // The name stays one quoted word: it cannot run a command.
    assert!(
        stdout.contains(r"ip link set dev ens1f0\ np0\;\ reboot mtu 9000 up"),
        "{stdout}"
    );
}

/// A host whose ports are members of one port-channel gets a Linux bond holding the
/// address the flows use (the first member's), with LACP where the switch runs it; its
/// transfers bind that address. It used to be left to the operator ("build its bond by
/// hand") with nothing bound, and the twin's `net-400g` failed on it.
#[test]
fn a_bonded_host_gets_its_bond_and_binds_its_address() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build("tests/fixtures/hosts/bond.yaml", &out);
    let a = out.join("hosts/a.sh");
    let (code, tune, warn) = bash(&a, &["--dry-run", "tune"]);
    assert_eq!(code, 0, "{warn}");
    assert!(!warn.contains("by hand"), "{warn}");
    let lines: Vec<&str> = tune.lines().filter(|l| l.contains("ip ")).collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no `{needle}` in:\n{tune}"))
    };
    let add = at("ip link add bond5 type bond mode 802.3ad");
    let p0 = at("ip link set dev p0 master bond5");
    let p1 = at("ip link set dev p1 master bond5");
    let addr = at("ip addr replace 10.2.2.1/24 dev bond5");
    assert!(add < p0 && p0 < p1 && p1 < addr, "{tune}");
    assert_eq!(
        lines.iter().filter(|l| l.contains("ip addr")).count(),
        1,
        "only the bond is addressed:\n{tune}"
    );
    let (_, send, _) = bash(&a, &["--dry-run", "send"]);
    assert!(
        send.contains("iperf3 -c 10.2.2.3 -p 5201 -B 10.2.2.1 -P 1 "),
        "{send}"
    );
    let (_, serve, _) = bash(&a, &["--dry-run", "serve"]);
    assert!(
        serve
            .trim_end()
            .ends_with("iperf3 -s -D -p 5201 -B 10.2.2.1"),
        "{serve}"
    );
}

/// A test's length comes from DEMOC_SECONDS when set (the twin's disk test runs a
/// three-second pair), else the build's; a flow's pairs can be run alone.
#[test]
fn the_test_length_and_the_flow_come_from_the_caller() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let path = out.join("hosts/cit-tcp-1.sh");
    let (_, stdout, _) = bash_env(&path, &["--dry-run", "send"], &[("DEMOC_SECONDS", "3")]);
    assert!(
        stdout.contains("iperf3 -c ") && stdout.contains(" -t 3 "),
        "{stdout}"
    );
    let (_, none, _) = bash(&path, &["--dry-run", "send", "no-such-flow"]);
    assert!(!none.contains("iperf3"), "{none}");
    let (_, one, _) = bash(&path, &["--dry-run", "send", "cit-ab-tcp-1t"]);
    assert!(one.contains("iperf3 -c "), "{one}");
}

/// A disk flow's sender reads its drives and its receiver writes its own with fio, one
/// direct-I/O job per drive paced at its share of the pair's rate, pinned like the
/// transfer; the script names what it needs. Before, the transfer ran memory to memory
/// and a comment said so.
#[test]
fn a_disk_flow_runs_fio_on_the_drives_of_both_ends() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    // umich-disk: umich-dtn-[1-2] to umich-campus-dtn-1, 60G, nvme to nvme.
    let (code, send, err) = bash(
        &out.join("hosts/umich-dtn-1.sh"),
        &["--dry-run", "send", "umich-disk"],
    );
    assert_eq!(code, 0, "{err}");
    let fio = send
        .lines()
        .find(|l| l.contains(" fio "))
        .unwrap_or_else(|| panic!("no fio in:\n{send}"));
    for want in [
        "--direct=1",
        "--rw=read",
        "--rate=1875000000",
        "--time_based",
        "--runtime=60",
        "--name=DRIVE_1",
    ] {
        assert!(fio.contains(want), "`{want}` not in {fio}");
    }
    assert!(fio.starts_with("numactl -N "), "{fio}");
    let (code, serve, err) = bash(
        &out.join("hosts/umich-campus-dtn-1.sh"),
        &["--dry-run", "serve", "umich-disk"],
    );
    assert_eq!(code, 0, "{err}");
    let fio = serve
        .lines()
        .find(|l| l.contains(" fio "))
        .unwrap_or_else(|| panic!("no fio in:\n{serve}"));
    // The receiver starts first: its writes run the lead longer.
    assert!(
        fio.contains("--rw=write") && fio.contains("--runtime=75"),
        "{fio}"
    );
    let text = std::fs::read_to_string(out.join("hosts/umich-campus-dtn-1.sh")).expect("script");
    assert!(
        text.contains("fio 3 or newer"),
        "the script states what it needs"
    );
    assert!(
        !text.contains("memory to memory"),
        "no disk flow runs memory to memory any more"
    );
}

/// A flow's `congestion_control: bbr` reaches its sender's iperf3 (`-C bbr`, with the
/// module loaded); the host default `tune` sets is cubic, what the plan assumes and
/// names for every TCP flow that does not say otherwise (issue 34 item 7: the scripts set
/// htcp and dropped the flow's bbr).
#[test]
fn a_flows_congestion_control_reaches_its_script_and_the_plan_names_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let spec = "tests/fixtures/hosts/bbr.yaml";
    build(spec, &out);
    let (code, tune, err) = bash(&out.join("hosts/a.sh"), &["--dry-run", "tune"]);
    assert_eq!(code, 0, "{err}");
    assert!(tune.contains("modprobe tcp_bbr"), "{tune}");
    assert!(
        tune.contains("net.ipv4.tcp_congestion_control=cubic"),
        "{tune}"
    );
    assert!(!tune.contains("htcp"), "{tune}");
    let (_, send, _) = bash(&out.join("hosts/a.sh"), &["--dry-run", "send"]);
    assert!(send.contains(" -C bbr "), "{send}");
    let (_, tune_b, _) = bash(&out.join("hosts/b.sh"), &["--dry-run", "tune"]);
    assert!(
        !tune_b.contains("modprobe"),
        "cubic needs no module:\n{tune_b}"
    );
    let (_, send_b, _) = bash(&out.join("hosts/b.sh"), &["--dry-run", "send"]);
    assert!(!send_b.contains(" -C "), "{send_b}");
    let plan = support::democ(&["plan", spec]);
    let text = String::from_utf8_lossy(&plan.stdout);
    assert!(text.contains("tcp x1 (1 stream, bbr)"), "{text}");
    assert!(text.contains("tcp x1 (1 stream, cubic)"), "{text}");
    let json = support::democ(&["plan", spec, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("plan JSON");
    let cc: Vec<&str> = v["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .map(|f| f["congestion_control"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(cc, ["bbr", "cubic"]);
}

/// fasterdata's 100G items: rings on 100G ports, clamped to the NIC's maximum; pause
/// frames only where the switch port facing the NIC honours them (OS10 writes
/// `flowcontrol receive on`; PicOS writes no flow control).
#[test]
fn fast_ports_get_rings_and_pause_only_where_the_switch_honours_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build("tests/fixtures/hosts/bbr.yaml", &out);
    let (_, a, _) = bash(&out.join("hosts/a.sh"), &["--dry-run", "tune"]);
    assert!(a.contains("ethtool -G p0 rx 8192 tx 8192"), "{a}");
    assert!(a.contains("ethtool -A p0 rx on tx on"), "{a}");
    let (_, b, _) = bash(&out.join("hosts/b.sh"), &["--dry-run", "tune"]);
    assert!(b.contains("ethtool -G p0 rx 8192 tx 8192"), "{b}");
    assert!(!b.contains("ethtool -A"), "PicOS sends no pause: {b}");
}

/// sc25-400g `sl-dtn-2` has two ports in one /16: each answers ARP for its own address
/// only and its traffic leaves by its own port (a policy-routing table each), so returns
/// are not dropped; a host with one port gets none of it.
#[test]
fn ports_sharing_a_subnet_keep_to_their_own_addresses() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc25-400g"), &out);
    let (code, tune, err) = bash(&out.join("hosts/sl-dtn-2.sh"), &["--dry-run", "tune"]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "net.ipv4.conf.all.arp_ignore=1",
        "net.ipv4.conf.all.arp_announce=2",
        "ip rule add from 10.25.0.8 table 101",
        "ip route replace 10.25.0.0/16 dev p0 src 10.25.0.8 table 101",
        "ip rule add from 10.25.0.9 table 102",
        "ip route replace 10.25.0.0/16 dev p1 src 10.25.0.9 table 102",
    ] {
        assert!(tune.contains(want), "no `{want}` in:\n{tune}");
    }
    let (_, one, _) = bash(&out.join("hosts/sl-dtn-1.sh"), &["--dry-run", "tune"]);
    assert!(
        !one.contains("arp_ignore") && !one.contains("ip rule"),
        "{one}"
    );
}
