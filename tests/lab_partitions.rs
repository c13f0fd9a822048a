//! A split lab deployed side by side: examples/gaps/cross-socket (a show-floor switch
//! with two DTNs, a remote site's switch and DTN behind a WAN) split over two lab hosts,
//! each part its own containerlab lab in a namespace of its own, the cut cable a VXLAN
//! tunnel between them. `lab test` passes every row, the flow between the parts among
//! them, the cut cable's ends are VXLAN devices with the split's VNI, and `lab down`
//! leaves no container, network, namespace or veth. A small show: the machine's Docker
//! stores each container as a full copy (vfs), so sc15's 33 nodes would take about 19 GB.
//! Needs root, Docker and containerlab (../shared/tools/lab-engine); skips with the
//! reason otherwise.

#![cfg(unix)]

mod common;

use std::path::Path;

/// democ with the saturation limit pinned off, as tests/lab.rs runs it.
use common::{lab_democ as democ, lab_skip as skip, root_veths as veths};

use common::stdout_of as sh;

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("file")).expect("JSON")
}

#[test]
fn a_split_show_runs_side_by_side_across_vxlan() {
    if let Some(why) = skip() {
        eprintln!("skipped: {why}");
        return;
    }
    let t = tempfile::tempdir().expect("tempdir");
    let build = t.path().join("cross");
    let b = build.display().to_string();
    let r = democ(&[
        "build",
        "--hosts",
        "examples/gaps/cross-socket.yaml",
        "-o",
        &b,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = democ(&[
        "lab",
        "split",
        &b,
        "--lab-hosts",
        "a=10.255.0.1,b=10.255.0.2",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let split = json(&build.join("lab/split/partition.json"));
    let host_of = |node: &str| {
        split["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["nodes"].as_array().unwrap().iter().any(|n| n == node))
            .map(|h| h["host"].as_str().unwrap().to_owned())
            .expect("every node has a host")
    };
    let cut = split["cut"].as_array().expect("cut").clone();
    assert!(!cut.is_empty(), "the split cuts a cable");
    let before = veths();

    let r = democ(&["lab", "up", &b, "--side-by-side"]);
    assert_eq!(r.code, 0, "lab up failed:\n{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("in 2 parts (a, b)"), "{}", r.stdout);
    let id = r
        .stdout
        .split('`')
        .nth(1)
        .expect("lab up names the lab")
        .to_owned();
    eprintln!("{}", r.stdout);

    let result = std::panic::catch_unwind(|| {
        // The cut cable's ends are VXLAN devices carrying its VNI.
        for c in &cut {
            for (end, host) in c["ends"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (e[0].as_str().unwrap(), e[1].as_str().unwrap()))
            {
                let (node, iface) = end.split_once(':').unwrap();
                let container = format!("clab-{id}-{host}-{node}");
                let link = sh(&[
                    "docker", "exec", &container, "ip", "-d", "link", "show", iface,
                ]);
                assert!(
                    link.contains(&format!("vxlan id {}", c["vni"])),
                    "{end} on {host}: {link}"
                );
            }
        }
        let r = democ(&["lab", "test", &b]);
        eprint!("{}{}", r.stdout, r.stderr);
        assert_eq!(r.code, 0, "lab test failed");
        let report = json(&build.join("lab/report.json"));
        let rows = report["flows"].as_array().expect("flows");
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|f| f["passed"] == true), "{rows:?}");
        let across: Vec<_> = rows
            .iter()
            .filter(|f| host_of(f["src"].as_str().unwrap()) != host_of(f["dst"].as_str().unwrap()))
            .collect();
        assert!(!across.is_empty(), "no flow between the parts: {rows:?}");
    });

    let r = democ(&["lab", "down", &b]);
    assert_eq!(r.code, 0, "lab down failed:\n{}\n{}", r.stdout, r.stderr);
    for part in ["a", "b"] {
        let label = format!("label=containerlab={id}-{part}");
        let left = sh(&["docker", "ps", "-a", "-q", "--filter", &label]);
        assert!(left.trim().is_empty(), "containers left: {left}");
    }
    let networks = sh(&["docker", "network", "ls", "--format", "{{.Name}}"]);
    assert!(
        !networks.lines().any(|n| n.contains(&id)),
        "networks left: {networks}"
    );
    // The underlay's namespaces are named with the lab's nonce (`democ-vx-<nonce>-0`).
    let nonce = id.rsplit('-').next().unwrap();
    let netns: Vec<String> = std::fs::read_dir("/run/netns")
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(&id) || n.contains(nonce))
                .collect()
        })
        .unwrap_or_default();
    assert!(netns.is_empty(), "namespaces left: {netns:?}");
    assert_eq!(veths(), before, "veths left in the root namespace");
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}
