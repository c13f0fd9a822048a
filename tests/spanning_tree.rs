//! Loop safety where the OS runs no spanning tree (vendor review, FTOS 9: "RSTP is
//! disabled by default"). sc16's `cit-a-z9100-1` has eleven layer-2 links toward other
//! switches in VLAN 1000 (1/20 to scinet-core, ten over the OTN to sl-inventec-1); only
//! the far ends' OpenFlow rules kept them from looping. Every FTOS switch with a layer-2
//! port toward another switch now runs RSTP, with edge ports exactly toward hosts, and
//! switches whose OS runs a spanning tree by default get no spanning-tree lines.

#[path = "fixtures/render/support.rs"]
mod support;

use std::collections::BTreeSet;
use std::path::Path;

use support::{build, example};

fn ir(out: &Path, switch: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join(format!("ir/{switch}.json"))).expect("IR");
    serde_json::from_str(&text).expect("IR is JSON")
}

/// The show's host names (the IR has one file per host).
fn hosts(out: &Path) -> BTreeSet<String> {
    std::fs::read_dir(out.join("ir/hosts"))
        .expect("ir/hosts")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".json").map(str::to_owned)
        })
        .collect()
}

#[test]
fn ftos_switches_with_switch_facing_layer2_ports_run_rstp_with_host_edge_ports() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for show in ["sc16", "sc15"] {
        let out = tmp.path().join(show);
        build(&example(show), &out);
        let hosts = hosts(&out);
        let mut with_rstp = 0;
        for entry in std::fs::read_dir(out.join("switches")).expect("switches") {
            let path = entry.expect("entry").path();
            let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let ir = ir(&out, name);
            let cfg = std::fs::read_to_string(&path).expect("config");
            if ir["os"] != "ftos9" {
                assert!(
                    !cfg.contains("spanning-tree"),
                    "{show} {name}: its OS runs one by default"
                );
                continue;
            }
            let bridged = |i: &serde_json::Value| {
                i["enabled"] == true && matches!(i["mode"].as_str(), Some("access" | "trunk"))
            };
            let toward_switch = ir["interfaces"]
                .as_array()
                .expect("interfaces")
                .iter()
                .any(|i| {
                    bridged(i)
                        && i["peer"]["device"]
                            .as_str()
                            .is_some_and(|d| !hosts.contains(d))
                })
                || ir["port_channels"]
                    .as_array()
                    .expect("port-channels")
                    .iter()
                    .any(|pc| {
                        matches!(pc["mode"].as_str(), Some("access" | "trunk"))
                            && pc["peer"].as_str().is_some_and(|d| !hosts.contains(d))
                    });
            let edge: BTreeSet<&str> = ir["interfaces"]
                .as_array()
                .expect("interfaces")
                .iter()
                .filter(|i| {
                    bridged(i)
                        && i["lag"].is_null()
                        && i["peer"]["device"]
                            .as_str()
                            .is_some_and(|d| hosts.contains(d))
                })
                .filter_map(|i| i["name"].as_str())
                .collect();
            if !toward_switch {
                assert!(
                    ir.get("spanning_tree").is_none(),
                    "{show} {name}: no loop possible"
                );
                continue;
            }
            with_rstp += 1;
            assert!(
                cfg.contains("\nprotocol spanning-tree rstp\n no disable\n"),
                "{show} {name}:\n{cfg}"
            );
            // Edge ports: exactly the bridged ports toward hosts (no port-channels
            // toward hosts in these shows).
            let stanzas: Vec<&str> = cfg.split("\n!\n").collect();
            for s in &stanzas {
                let Some(port) = s.strip_prefix("interface ").and_then(|s| s.lines().next()) else {
                    continue;
                };
                let is_edge = s.contains("\n spanning-tree rstp edge-port");
                assert_eq!(is_edge, edge.contains(port), "{show} {name} `{port}`:\n{s}");
            }
        }
        assert!(
            with_rstp > 0,
            "{show}: some FTOS switch bridges toward another switch"
        );
    }
}

/// The review's case: `cit-a-z9100-1`'s eleven layer-2 uplinks are not edge ports, its
/// DTN and controller ports are.
#[test]
fn cit_a_z9100_1_runs_rstp_on_its_parallel_uplinks() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc16"), &out);
    let st = &ir(&out, "cit-a-z9100-1")["spanning_tree"];
    assert_eq!(st["protocol"], "rstp");
    let edge: Vec<&str> = st["edge_ports"]
        .as_array()
        .expect("edge ports")
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    assert!(
        edge.contains(&"hundredGigE 1/1") && edge.contains(&"TenGigabitEthernet 1/33"),
        "{edge:?}"
    );
    for uplink in (20..=30).map(|n| format!("hundredGigE 1/{n}")) {
        assert!(!edge.contains(&uplink.as_str()), "{uplink} faces a switch");
    }
}
