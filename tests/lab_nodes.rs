//! The scripts lab/<show>.clab.yml binds into its nodes: each stand-in's
//! `lab/nodes/<switch>.sh` is the twin's emulation of the switch (the very commands
//! `democ twin up` runs, with the container's interface names), it is shellcheck clean,
//! and run in a network namespace it builds the switch's bridges, ports and ruleset.

#[path = "fixtures/render/support.rs"]
mod support;

#[path = "fixtures/twin_state.rs"]
mod twin_state;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use twin_state::twin_state;

use serde_json::Value;
use support::{build, example};

/// democ itself, without the arguments the build helpers add.
fn democ(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(args)
        .output()
        .expect("democ runs")
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn sc16() -> (tempfile::TempDir, PathBuf, Value) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let text = std::fs::read_to_string(out.join("lab/sc16.clab.yml")).expect("topology");
    let doc: Value = serde_saphyr::from_str(&text).expect("YAML");
    (tmp, out, doc)
}

fn nodes_with_role<'a>(doc: &'a Value, role: &str) -> BTreeMap<&'a str, &'a Value> {
    doc["topology"]["nodes"]
        .as_object()
        .expect("nodes")
        .iter()
        .filter(|(_, n)| n["labels"]["democ.role"] == role)
        .map(|(k, n)| (k.as_str(), n))
        .collect()
}

#[test]
fn every_stand_in_binds_and_runs_its_script() {
    let (_tmp, out, doc) = sc16();
    let standins = nodes_with_role(&doc, "stand-in");
    assert_eq!(standins.len(), 12, "sc16's stand-ins");
    let scripts: BTreeSet<String> = std::fs::read_dir(out.join("lab/nodes"))
        .expect("lab/nodes")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let expected: BTreeSet<String> = standins.keys().map(|n| format!("{n}.sh")).collect();
    assert_eq!(scripts, expected);
    for (name, node) in &nodes_with_role(&doc, "stand-in") {
        let binds: Vec<&str> = node["binds"]
            .as_array()
            .expect("binds")
            .iter()
            .map(|b| b.as_str().expect("string"))
            .collect();
        assert!(
            binds.contains(&format!("nodes/{name}.sh:/democ/switch.sh:ro").as_str()),
            "{name}: {binds:?}"
        );
        assert_eq!(node["exec"][0], "sh /democ/switch.sh", "{name}");
    }
    // Every bound file is in the build, relative to the topology.
    for (name, node) in doc["topology"]["nodes"].as_object().expect("nodes") {
        for b in node["binds"].as_array().into_iter().flatten() {
            let src = b
                .as_str()
                .expect("string")
                .split(':')
                .next()
                .expect("source");
            // A file, or a folder (the controller binds openflow/).
            assert!(out.join("lab").join(src).exists(), "{name} binds {src}");
        }
    }
}

#[test]
fn lab_scripts_are_shellcheck_clean() {
    if Command::new("shellcheck")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("skipped: shellcheck is not installed");
        return;
    }
    let (_tmp, out, _) = sc16();
    let mut files: Vec<PathBuf> = std::fs::read_dir(out.join("lab/nodes"))
        .expect("lab/nodes")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 12);
    let o = Command::new("shellcheck")
        .args(&files)
        .output()
        .expect("shellcheck runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

/// `#   <local> = <name> (<port>)` lines of a script's header: local name by the rest.
fn port_names(script: &str) -> BTreeMap<String, String> {
    script
        .lines()
        .filter_map(|l| l.strip_prefix("#   "))
        .filter_map(|l| l.split_once(" = "))
        .map(|(local, rest)| (rest.to_owned(), local.to_owned()))
        .collect()
}

/// The lab's script is the twin's: `democ twin script` (what `twin up` runs for the
/// switch) with the twin's names for ports, bridges, folders, ruleset and FRR pathspace
/// swapped for the container's gives the lab's script line for line, but for where the
/// two differ by design: a container starts an Open vSwitch of its own (the twin's one
/// is started once for every switch), the twin runs each command in its namespace and
/// opens the control channel from the switch's management address, and a container's
/// SVI is an internal port (the twin's a veth into the switch's namespace).
#[test]
fn each_stand_in_script_is_the_twins_emulation() {
    let (_tmp, out, doc) = sc16();
    let state = twin_state(&out);
    for name in nodes_with_role(&doc, "stand-in").keys() {
        let lab = std::fs::read_to_string(out.join(format!("lab/nodes/{name}.sh"))).expect("lab");
        let o = democ(&["twin", "script", out.to_str().expect("utf-8"), name]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let twin = String::from_utf8_lossy(&o.stdout).into_owned();
        let (twin_ports, lab_ports) = (port_names(&twin), port_names(&lab));
        assert_eq!(
            twin_ports.keys().collect::<Vec<_>>(),
            lab_ports.keys().collect::<Vec<_>>(),
            "{name}: the same ports"
        );
        assert!(!twin_ports.is_empty(), "{name} has ports");
        // The switch's key in the twin's Open vSwitch: its bridges and ports start with it.
        let key: String = twin
            .lines()
            .find_map(|l| l.split_once(" add-br s").map(|(_, r)| r))
            .map(|r| {
                r.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .map(|digits| format!("s{digits}"))
            .expect("the switch has a bridge");
        let mut rename: BTreeMap<String, String> = twin_ports
            .iter()
            .map(|(k, local)| (local.clone(), lab_ports[k].clone()))
            .collect();
        for br in ["of", "l2"] {
            rename.insert(format!("{key}{br}"), br.to_owned());
        }
        let svi = |w: &str| {
            w.strip_prefix(&format!("{key}v"))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        let rules = out
            .join(format!("openflow/{name}.flows"))
            .display()
            .to_string();
        let ovs = state.join("ovs").display().to_string();
        let frr = state.join("switches").join(name).display().to_string();
        let translated: Vec<String> = twin
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter(|l| !l.contains(" ip link add vlan") && !l.contains(" ethtool -K vlan"))
            .map(|l| {
                let l = match l.strip_prefix("ip netns exec ") {
                    Some(rest) => rest.split_once(' ').map_or(rest, |x| x.1),
                    None => l,
                };
                l.replace(&ovs, "/run/democ")
                    .replace(&frr, "/run/democ")
                    .replace(&rules, "/democ/switch.flows")
                    .replace(&format!("-N sc16-{name} "), "-N democ ")
                    .replace(&format!("peer={key}lag"), "peer=lag")
                    .split(' ')
                    .filter(|w| !w.starts_with("local_ip="))
                    .map(|w| {
                        w.strip_prefix(&key)
                            .filter(|r| r.starts_with("lag"))
                            .map_or_else(
                                || rename.get(w).cloned().unwrap_or(w.to_owned()),
                                str::to_owned,
                            )
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|l| !l.split(' ').any(svi))
            .collect();
        let own_daemons = [
            " mkdir -p ",
            "ovsdb-tool create",
            "ovsdb-server ",
            " --no-wait init",
            "ovs-vswitchd ",
        ];
        let lab_lines: Vec<&str> = lab
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter(|l| !own_daemons.iter().any(|d| l.contains(d)) || l.contains("/frr"))
            .filter(|l| !l.contains("type=internal"))
            .collect();
        assert!(lab_lines.len() > 5, "{name}: {lab}");
        assert_eq!(translated, lab_lines, "{name}");
    }
}

fn sh(args: &[&str]) -> (bool, String) {
    let o = Command::new(args[0])
        .args(&args[1..])
        .output()
        .expect("runs");
    (
        o.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

/// Why the stand-in cannot run here (not root, no OVS), if it cannot.
fn cannot_run() -> Option<String> {
    let (code, _, err) = {
        let o = democ(&["twin", "up", "/nonexistent-democ-build"]);
        (o.status.code(), (), stderr(&o))
    };
    (code == Some(2) && err.contains("cannot run here")).then_some(err)
}

/// Kills the daemons a script started (pidfiles under `run`) and deletes the namespace.
struct Cleanup {
    ns: String,
    run: PathBuf,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        for f in ["ovs-vswitchd.pid", "ovsdb-server.pid"] {
            if let Ok(pid) = std::fs::read_to_string(self.run.join(f)) {
                let _ = sh(&["kill", pid.trim()]);
            }
        }
        let _ = sh(&["ip", "netns", "del", &self.ns]);
    }
}

/// A stand-in's lab script run in a namespace holding the ports its container has
/// (`e1-1`...), with the container's paths pointed into the test's folder; the
/// namespace and daemons go with the returned guard. Returns `ovs-vsctl` on its
/// database, and the namespace.
fn run_stand_in(
    tmp: &Path,
    out: &Path,
    name: &str,
) -> (Cleanup, impl Fn(&[&str]) -> String, String, PathBuf) {
    let lab = std::fs::read_to_string(out.join(format!("lab/nodes/{name}.sh"))).expect("lab");
    // The container's paths, pointed into this test's folder: the daemons' folders
    // (the container's /run/democ) and the bound ruleset.
    let state = tmp.join(format!("s-{name}"));
    let rules = out.join(format!("openflow/{name}.flows"));
    let script = lab
        .replace("/run/democ", &state.display().to_string())
        .replace("/democ/switch.flows", &rules.display().to_string());
    let file = tmp.join(format!("{name}.sh"));
    std::fs::write(&file, &script).expect("write");
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let ns = format!("lab{}-{k}", std::process::id());
    let clean = Cleanup {
        ns: ns.clone(),
        run: state.join("run"),
    };
    assert!(sh(&["ip", "netns", "add", &ns]).0);
    let ports = port_names(&lab);
    for (k, local) in ports.values().enumerate() {
        let peer = format!("q{k}");
        let (ok, msg) = sh(&[
            "ip", "-n", &ns, "link", "add", local, "type", "veth", "peer", "name", &peer,
        ]);
        assert!(ok, "{msg}");
        assert!(sh(&["ip", "-n", &ns, "link", "set", &peer, "up"]).0);
    }
    let (ok, msg) = sh(&[
        "ip",
        "netns",
        "exec",
        &ns,
        "sh",
        file.to_str().expect("utf-8"),
    ]);
    assert!(ok, "the script fails:\n{msg}");
    let db = format!("--db=unix:{}", state.join("run/db.sock").display());
    let vsctl = move |args: &[&str]| {
        let mut a = vec!["ovs-vsctl", db.as_str()];
        a.extend_from_slice(args);
        let (ok, text) = sh(&a);
        assert!(ok, "{args:?}: {text}");
        text.trim().to_owned()
    };
    (clean, vsctl, ns, state)
}

/// cit-a-sn2700 (Onyx: a stand-in) run from its lab script: its OpenFlow ports on `of`
/// at the numbers of its port map with its ruleset loaded; vu-campus-sw (Onyx, legacy):
/// its circuit's trunk on `l2` with its VLAN, its DTN's port an access port.
#[test]
fn a_stand_in_script_builds_the_switch_in_a_namespace() {
    if let Some(why) = cannot_run() {
        println!("skipped: {why}");
        return;
    }
    let (tmp, out, _) = sc16();
    let name = "cit-a-sn2700";
    let (_clean, vsctl, _, state) = run_stand_in(tmp.path(), &out, name);
    assert_eq!(vsctl(&["list-ports", "of"]), "e1-1\ne1-2\ne1-29");
    assert_eq!(vsctl(&["get", "interface", "e1-2", "ofport"]), "5");
    let env = format!("OVS_RUNDIR={}", state.join("run").display());
    let (ok, flows) = sh(&[
        "env",
        &env,
        "ovs-ofctl",
        "-O",
        "OpenFlow13",
        "dump-flows",
        "of",
    ]);
    assert!(ok, "{flows}");
    let rules = out.join(format!("openflow/{name}.flows"));
    let wanted = std::fs::read_to_string(&rules)
        .expect("ruleset")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    let loaded = flows.lines().filter(|l| l.contains("cookie=")).count();
    assert!(wanted > 0 && loaded == wanted, "{loaded} of {wanted} rules");
    assert!(Path::new(&state.join("run/ovs-vswitchd.pid")).is_file());

    let (_clean, vsctl, _, _) = run_stand_in(tmp.path(), &out, "vu-campus-sw");
    assert_eq!(vsctl(&["list-ports", "l2"]), "e1-1\ne1-32");
    assert_eq!(vsctl(&["get", "port", "e1-32", "trunks"]), "[3615]");
    assert_eq!(vsctl(&["get", "port", "e1-1", "tag"]), "3615");
}

/// The packages `apt-get install` names in the node image's Dockerfile.
fn image_packages() -> BTreeSet<String> {
    let text = std::fs::read_to_string("lab/containerlab/node/Dockerfile").expect("Dockerfile");
    let run = text
        .split("apt-get install")
        .nth(1)
        .expect("an apt-get install")
        .split("&&")
        .next()
        .expect("its packages")
        .to_owned();
    run.split_whitespace()
        .filter(|w| !w.starts_with('-') && *w != "\\")
        .map(str::to_owned)
        .collect()
}

/// The Debian package of each command democ's host and stand-in scripts run; None for
/// those the scripts only run when present (`command -v`) or outside the lab.
fn package_of(cmd: &str) -> Option<Option<&'static str>> {
    Some(match cmd {
        "ip" | "tc" => Some("iproute2"),
        "ethtool" => Some("ethtool"),
        "sysctl" => Some("procps"),
        "numactl" => Some("numactl"),
        "iperf3" => Some("iperf3"),
        "ib_write_bw" | "ib_read_bw" | "ib_send_bw" => Some("perftest"),
        "fio" => Some("fio"),
        "nvme" => Some("nvme-cli"),
        "ovs-vsctl" | "ovs-ofctl" | "ovsdb-tool" | "ovsdb-server" | "ovs-vswitchd" => {
            Some("openvswitch-switch")
        }
        "/usr/lib/frr/zebra" | "/usr/lib/frr/bgpd" => Some("frr"),
        "bash" => Some("bash"),
        // coreutils, in every Debian image.
        "env" | "mkdir" | "chown" | "cat" | "sh" => None,
        // Guarded by `command -v` (MLNX_OFED, systemd) or skipped in the lab (DEMOC_LAB=1).
        "mlnx_qos" | "cma_roce_tos" | "systemctl" | "modprobe" => None,
        _ => return None,
    })
}

/// Every command the host scripts (`run`, `run_bg`, and what `numactl` runs) and the
/// stand-in scripts call comes from a package the node image installs, with the tools
/// issue 16 names (iperf3, numactl, ethtool, fio, perftest, nvme-cli) and OVS and FRR.
#[test]
fn the_node_image_installs_every_tool_the_scripts_call() {
    let packages = image_packages();
    for p in [
        "iperf3",
        "numactl",
        "ethtool",
        "fio",
        "perftest",
        "nvme-cli",
        "openvswitch-switch",
        "frr",
        "iproute2",
        "bash",
    ] {
        assert!(packages.contains(p), "the image lacks {p}: {packages:?}");
    }
    let (_tmp, out, _) = sc16();
    let mut commands = BTreeSet::new();
    for (path, bytes) in support::tree(&out) {
        let text = String::from_utf8(bytes).expect("utf-8");
        if path.starts_with("hosts/") {
            for line in text.lines().map(str::trim) {
                let Some(rest) = line
                    .strip_prefix("run ")
                    .or_else(|| line.strip_prefix("run_bg "))
                else {
                    continue;
                };
                let mut words: Vec<&str> = rest.split_whitespace().collect();
                if words[0] == "\"$@\"" {
                    continue; // run_bg's own `run "$@"`
                }
                if words[0] == "keep" && words.len() > 2 {
                    // keep FILE COMMAND ...: the script's own wrapper that saves a report
                    words.drain(..2);
                }
                commands.insert(words[0].to_owned());
                if words[0] == "numactl" {
                    // numactl -N <node> -m <node> <command> ...
                    commands.insert(words[5].to_owned());
                }
            }
        } else if path.starts_with("lab/nodes/") {
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let mut words = line.split_whitespace();
                let mut first = words.next().unwrap_or_default();
                if first == "env" {
                    first = words.find(|w| !w.contains('=')).unwrap_or_default();
                }
                if !first.is_empty() && !first.starts_with("DEMOC_EOF") && first != "set" {
                    commands.insert(first.to_owned());
                }
            }
        }
    }
    for must in ["iperf3", "numactl", "ib_write_bw", "ovs-vsctl"] {
        assert!(commands.contains(must), "{must} not found in {commands:?}");
    }
    for c in &commands {
        let Some(package) = package_of(c) else {
            panic!("the scripts call `{c}`: name its Debian package in package_of");
        };
        if let Some(p) = package {
            assert!(
                packages.contains(p),
                "`{c}` needs {p}, which the image lacks"
            );
        }
    }
}

/// Each host node binds its script and runs `tune` in lab mode: the container's own
/// interfaces and per-namespace TCP settings, not the lab machine's kernel.
#[test]
fn host_nodes_run_their_scripts_tune_in_lab_mode() {
    let (_tmp, out, doc) = sc16();
    let hosts = nodes_with_role(&doc, "host");
    assert!(hosts.len() > 40);
    for (name, node) in hosts {
        assert_eq!(
            node["binds"][0],
            format!("../hosts/{name}.sh:/democ/host.sh:ro"),
            "{name}"
        );
        let exec = node["exec"][0].as_str().expect("exec");
        assert!(
            exec.starts_with("env DEMOC_LAB=1 IF_") && exec.ends_with(" bash /democ/host.sh tune"),
            "{name}: {exec}"
        );
        // The same command, dry, on the build's copy of the script.
        let script = out.join(format!("hosts/{name}.sh"));
        let words: Vec<&str> = exec.split_whitespace().collect();
        let o = Command::new("env")
            .args(&words[1..words.len() - 3])
            .arg("bash")
            .arg(&script)
            .args(["--dry-run", "tune"])
            .output()
            .expect("bash runs");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.contains("ip link set dev p0 mtu"), "{name}: {text}");
        assert!(text.contains("net.ipv4.tcp_rmem"), "{name}: {text}");
        for outside in [
            "modprobe",
            "net.core.",
            "systemctl",
            "scaling_governor",
            "smp_affinity",
        ] {
            assert!(
                !text.contains(outside),
                "{name} changes the lab machine: {text}"
            );
        }
    }
}

/// Every WAN port's one-way delay in the IR (`wan_delay_us`, half the link's RTT) is
/// applied by its node's `exec` with netem on a cabled interface of that node, and
/// nothing else is delayed.
#[test]
fn wan_delays_are_applied_on_both_ends() {
    let (_tmp, out, doc) = sc16();
    let mut want: Vec<(String, u64)> = Vec::new();
    for path in support::switch_ir_files(&out) {
        let ir: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("ir")).expect("json");
        for i in ir["interfaces"].as_array().into_iter().flatten() {
            if let Some(us) = i["wan_delay_us"].as_u64() {
                want.push((ir["hostname"].as_str().expect("name").to_owned(), us));
            }
        }
    }
    let wired: BTreeSet<&str> = doc["topology"]["links"]
        .as_array()
        .expect("links")
        .iter()
        .flat_map(|l| l["endpoints"].as_array().expect("ends"))
        .map(|e| e.as_str().expect("string"))
        .collect();
    let mut got: Vec<(String, u64)> = Vec::new();
    for (name, node) in doc["topology"]["nodes"].as_object().expect("nodes") {
        for c in node["exec"].as_array().into_iter().flatten() {
            let words: Vec<&str> = c.as_str().expect("string").split_whitespace().collect();
            if !words.contains(&"netem") {
                continue;
            }
            assert_eq!(words[..4], ["tc", "qdisc", "replace", "dev"], "{c}");
            assert_eq!(words[5..8], ["root", "netem", "delay"], "{c}");
            assert!(
                wired.contains(format!("{name}:{}", words[4]).as_str()),
                "{name}: {c}"
            );
            let us = words[8]
                .strip_suffix("us")
                .expect("us")
                .parse()
                .expect("number");
            got.push((name.clone(), us));
        }
    }
    want.sort();
    got.sort();
    assert!(want.len() >= 20, "sc16's WAN ends: {want:?}");
    // The circuit to StarLight: 35 ms RTT, 17.5 ms each way.
    assert!(got.contains(&("sl-chi-sw".to_owned(), 17_500)), "{got:?}");
    assert_eq!(got, want);
}
