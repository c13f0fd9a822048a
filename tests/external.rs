//! Equipment owned by others (issue 13 §4): `external: true` on a switch keeps it in the
//! model (ports, speeds, LAGs, MTU, routing: the flows through it are planned and
//! checked, the twin emulates it from its IR) but democ writes no config for it, and
//! the plan and the report say so. Before, every switch got a config to push.

#[path = "fixtures/render/support.rs"]
mod support;

use support::{build, democ};

/// The twin fixture with sw2 (the remote site's first switch) owned by the carrier.
fn spec(dir: &std::path::Path) -> String {
    std::fs::copy("tests/fixtures/twin/catalog.yaml", dir.join("catalog.yaml")).expect("copy");
    let text = std::fs::read_to_string("tests/fixtures/twin/show.yaml").expect("fixture");
    let text = text.replace(
        "sw2: { site: remote, model: t-sw32 }",
        "sw2: { site: remote, model: t-sw32, external: true }",
    );
    assert!(text.contains("external: true"), "the fixture changed");
    let path = dir.join("show.yaml");
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

#[test]
fn an_external_switch_gets_its_ir_and_no_config() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spec = spec(tmp.path());
    let out = tmp.path().join("out");
    build(&spec, &out);
    assert!(out.join("switches/sw1.cfg").exists() || out.join("switches/sw1.sh").exists());
    assert!(
        !out.join("switches/sw2.cfg").exists(),
        "no config for the carrier's switch"
    );
    let ir: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ir/sw2.json")).expect("ir"))
            .expect("json");
    assert_eq!(ir["external"], true);
    // What democ assumes the carrier does is still there: its ports and its LAG.
    assert!(
        ir["port_channels"]
            .as_array()
            .is_some_and(|p| !p.is_empty()),
        "{ir}"
    );
    let manifest = std::fs::read_to_string(out.join("manifest.json")).expect("manifest");
    assert!(!manifest.contains("switches/sw2.cfg"), "{manifest}");
    // The lab does not point a node at a config that is not there.
    let lab = std::fs::read_dir(out.join("lab"))
        .expect("lab")
        .flatten()
        .find(|e| e.path().extension().is_some_and(|x| x == "yml"))
        .expect("topology");
    let topo = std::fs::read_to_string(lab.path()).expect("topology");
    assert!(!topo.contains("switches/sw2.cfg"), "{topo}");
}

#[test]
fn the_plan_lists_external_switches_and_still_plans_through_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let spec = spec(tmp.path());
    let o = democ(&["plan", &spec, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["external"], serde_json::json!(["sw2"]));
    let f3 = v["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .find(|f| f["name"] == "f3")
        .expect("f3");
    assert!(
        f3["path"]
            .as_array()
            .is_some_and(|p| p.iter().any(|s| s == "sw2")),
        "{f3}"
    );
    let text = democ(&["plan", &spec]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("note: external (owned by others"), "{text}");
}
