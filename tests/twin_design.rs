//! What the twin showed about democ's own output, checked without running it (no root
//! needed): the flows' cookies are the rulesets' cookies, the twin numbers OpenFlow ports
//! as the ruleset does, and a legacy port facing a port under the controller carries the
//! VLAN untagged (the rules push and pop no tag).

#[path = "fixtures/render/support.rs"]
mod support;

use std::path::{Path, PathBuf};

fn build(tmp: &Path) -> PathBuf {
    let out = tmp.join("out");
    support::build("tests/fixtures/twin/show.yaml", &out);
    out
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("democ wrote it")).expect("JSON")
}

fn hex(v: &serde_json::Value) -> u64 {
    u64::from_str_radix(v.as_str().expect("a string").trim_start_matches("0x"), 16).expect("hex")
}

#[test]
fn each_flows_cookie_selects_exactly_its_rules() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = build(tmp.path());
    let flows = json(&out.join("ir/flows/flows.json"));
    let sw1 = json(&out.join("ir/sw1.json"));
    let rules = sw1["openflow"]["ruleset"]["rules"]
        .as_array()
        .expect("rules");
    for f in flows.as_array().expect("flows") {
        let (cookie, mask) = (hex(&f["cookie"]), hex(&f["cookie_mask"]));
        let theirs: Vec<&str> = rules
            .iter()
            .filter(|r| hex(&r["cookie"]) & mask == cookie)
            .map(|r| r["flow"].as_str().unwrap_or(""))
            .collect();
        let name = f["name"].as_str().unwrap_or("");
        let crosses_sw1 = f["pairs"][0]["path"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|h| h["switch"] == "sw1");
        // IPv4 in both directions on sw1 for f1 and f2 (sw1 runs EOS at OpenFlow 1.0: no
        // ARP rules, the hosts hold static neighbours); none for f3.
        let want = if crosses_sw1 { 2 } else { 0 };
        assert_eq!(theirs.len(), want, "{name}: {theirs:?}");
        assert!(theirs.iter().all(|n| *n == name), "{name}: {theirs:?}");
    }
}

#[test]
fn the_twin_numbers_openflow_ports_as_the_ruleset_does() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = build(tmp.path());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(["twin", "script", &out.display().to_string(), "sw1"])
        .output()
        .expect("democ runs");
    assert_eq!(o.status.code(), Some(0), "{}", support::stderr(&o));
    let script = String::from_utf8_lossy(&o.stdout);
    // t-sw32 breaks out 4 ways: 1/1 is port 1, 1/2 port 5, 1/32 port 125 (the numbers
    // openflow/sw1.flows uses), not the interface's index + 1.
    for n in [1, 5, 125] {
        assert!(
            script.contains(&format!("ofport_request={n}")),
            "no port {n}:\n{script}"
        );
    }
    let rules = std::fs::read_to_string(out.join("openflow/sw1.flows")).expect("rules");
    assert!(
        rules.contains("in_port=125,") && rules.contains("output:125"),
        "{rules}"
    );
    // sw1 runs EOS, whose agent speaks OpenFlow 1.0 only: so do its bridge and rules.
    assert!(script.contains("protocols=OpenFlow10"), "{script}");
    assert!(!script.contains("OpenFlow13"), "{script}");
    assert!(
        rules.contains("(PicOS, the twin): ovs-ofctl -O OpenFlow10 "),
        "{rules}"
    );
    assert!(!rules.contains("table="), "1.0 has no table id:\n{rules}");
}

#[test]
fn a_legacy_port_facing_an_openflow_port_is_untagged() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = build(tmp.path());
    let sw2 = json(&out.join("ir/sw2.json"));
    let wan = sw2["interfaces"]
        .as_array()
        .expect("interfaces")
        .iter()
        .find(|i| i["port"] == "1/32")
        .expect("sw2 1/32");
    assert_eq!(wan["mode"], "access", "{wan:#}");
    assert_eq!(wan["access_vlan"], 1000, "{wan:#}");
    // Between legacy switches a link still trunks the DTN VLAN.
    let lag = &sw2["port_channels"][0];
    assert_eq!(lag["mode"], "trunk", "{lag:#}");
}
