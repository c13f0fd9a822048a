//! What the IR must say, asserted rather than pinned as golden files (vendor configs keep
//! theirs in tests/render_snapshots.rs; the IR's shape is held by its JSON Schema in
//! tests/ir_schema.rs): every cable is described from both of its ends alike, every file
//! the IR names is written, the per-switch files are the document's own entries, and a
//! handful of facts about sc16 that a planner would check by eye.

#[path = "fixtures/render/support.rs"]
mod support;

use std::collections::BTreeMap;

use serde_json::Value;
use support::{FIXTURE, build, democ, example, stderr};

const SPECS: [&str; 4] = [
    FIXTURE,
    "examples/sc16/show.yaml",
    "examples/sc15/show.yaml",
    "examples/sc25-400g/show.yaml",
];

fn ir(spec: &str) -> Value {
    let o = democ(&["ir", spec]);
    assert_eq!(o.status.code(), Some(0), "democ ir {spec}:\n{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("IR is JSON")
}

fn switches(doc: &Value) -> &Vec<Value> {
    doc["switches"].as_array().expect("switches")
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is text in {v}"))
}

/// Each switch interface by (switch, port).
fn ports(doc: &Value) -> BTreeMap<(String, String), &Value> {
    let mut out = BTreeMap::new();
    for sw in switches(doc) {
        for i in sw["interfaces"].as_array().expect("interfaces") {
            let key = (text(sw, "hostname").to_owned(), text(i, "port").to_owned());
            assert!(out.insert(key.clone(), i).is_none(), "{key:?} twice");
        }
    }
    out
}

#[test]
fn every_cable_between_switches_is_described_from_both_ends() {
    for spec in SPECS {
        let doc = ir(spec);
        let ports = ports(&doc);
        let mut cables = 0;
        for ((host, port), i) in &ports {
            let Some(peer) = i["peer"].as_object() else {
                continue;
            };
            let far = (
                peer["device"].as_str().expect("peer device").to_owned(),
                peer["port"].as_str().expect("peer port").to_owned(),
            );
            // A host or a transponder is not a switch of the IR.
            let Some(back) = ports.get(&far) else {
                continue;
            };
            cables += 1;
            assert_eq!(
                (
                    back["peer"]["device"].as_str(),
                    back["peer"]["port"].as_str()
                ),
                (Some(host.as_str()), Some(port.as_str())),
                "{spec}: {host}:{port} names {far:?} as its peer, which does not name it back"
            );
            assert_eq!(
                i["speed_mbps"], back["speed_mbps"],
                "{spec}: the two ends of {host}:{port} - {far:?} run at different speeds"
            );
        }
        assert!(cables > 0, "{spec} has switch-to-switch cables");
    }
}

#[test]
fn the_per_switch_files_are_the_documents_entries_and_every_named_file_is_written() {
    for spec in SPECS {
        let doc = ir(spec);
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = tmp.path().join("out");
        build(spec, &out);
        for sw in switches(&doc) {
            let name = text(sw, "hostname");
            let file = out.join("ir").join(format!("{name}.json"));
            let written: Value =
                serde_json::from_slice(&std::fs::read(&file).expect("per-switch IR"))
                    .expect("JSON");
            assert_eq!(
                &written, sw,
                "{spec}: ir/{name}.json differs from `democ ir`"
            );
            let config = text(sw, "config_file");
            assert!(
                out.join(config).is_file(),
                "{spec}: {name}'s IR names {config}, which the build did not write"
            );
        }
        for host in doc["hosts"].as_array().expect("hosts") {
            let script = text(host, "script_file");
            assert!(
                out.join(script).is_file(),
                "{spec}: host {} names {script}, not written",
                text(host, "name")
            );
        }
    }
}

#[test]
fn sc16_facts_a_planner_checks_by_eye() {
    let doc = ir(&example("sc16"));
    let by_name: BTreeMap<&str, &Value> = switches(&doc)
        .iter()
        .map(|s| (text(s, "hostname"), s))
        .collect();

    let core = by_name["scinet-core"];
    assert_eq!(text(core, "os"), "ftos9");
    assert_eq!(
        text(&core["management"]["address"], "cidr"),
        "192.168.16.2/24"
    );
    let first = &core["interfaces"][0];
    assert_eq!(text(first, "name"), "hundredGigE 1/1");
    assert_eq!(text(first, "role"), "openflow");
    assert_eq!(text(&first["peer"], "device"), "cit-a-arista");
    assert_eq!(text(&first["peer"], "port"), "1/41");
    assert_eq!(first["mtu"]["frame"], 9216);

    // The terabit TCP LAG between the Caltech booths: ten 100G members, LACP active.
    let arista = by_name["cit-a-arista"];
    let lag = arista["port_channels"]
        .as_array()
        .expect("port channels")
        .iter()
        .find(|p| p["id"] == 10)
        .expect("port-channel 10");
    assert_eq!(lag["members"].as_array().map(Vec::len), Some(10));
    assert_eq!(text(lag, "lacp"), "active");
    assert_eq!(text(lag, "peer"), "cit-b-z9100");

    // Every flow of the spec is in the IR, with a distinct OpenFlow cookie.
    let flows = doc["flows"].as_array().expect("flows");
    assert_eq!(flows.len(), 10);
    let mut cookies: Vec<&Value> = flows.iter().map(|f| &f["cookie"]).collect();
    cookies.sort_by_key(|c| c.to_string());
    cookies.dedup();
    assert_eq!(cookies.len(), flows.len(), "cookies are distinct");
}
