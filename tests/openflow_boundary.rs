//! Issue 9 section 4: the OpenFlow/legacy boundary. Today's hybrid default put DTN ports
//! under OpenFlow while LAGs stayed legacy, and FTOS forwards nothing between the two:
//! tests/bad/E0265-openflow-boundary.yaml is that design, now refused. Here, the same
//! switches with their OpenFlow ports named: the IR states each port's role, FTOS keeps
//! port-channel members out of the of-instance and writes no DCB or LLDP on OpenFlow
//! ports, and `democ plan` does not promise a rate that rests on rules nobody writes.

#[path = "fixtures/render/support.rs"]
mod support;

use support::{build, democ, stderr};

const SPEC: &str = "tests/fixtures/boundary/ftos-hybrid.yaml";

fn snap(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "fixtures/boundary/snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn named_ports_build_with_roles_and_ftos_exclusions() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(SPEC, &out);
    let cfg = std::fs::read_to_string(out.join("switches/sw1.cfg")).expect("sw1.cfg");
    // Cabled interfaces and port-channels only: the shut ports say nothing here.
    let blocks: Vec<&str> = cfg
        .split("\n!\n")
        .filter(|b| b.starts_with("interface ") && !b.contains("\n shutdown"))
        .collect();
    snap("sw1-interfaces", &blocks.join("\n!\n"));
    assert!(
        !cfg.contains("dcb-map democ-roce\n priority"),
        "no DCB map: no port may use it:\n{cfg}"
    );

    let ir = democ(&["ir", SPEC]);
    assert_eq!(ir.status.code(), Some(0), "{}", stderr(&ir));
    let ir: serde_json::Value = serde_json::from_slice(&ir.stdout).expect("IR JSON");
    let sw1 = ir["switches"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["hostname"] == "sw1"))
        .expect("sw1 in the IR");
    let roles: Vec<String> = sw1["interfaces"]
        .as_array()
        .expect("interfaces")
        .iter()
        .filter(|i| i["enabled"] == true)
        .map(|i| format!("{} {} lldp={}", i["name"], i["role"], i["lldp"]))
        .chain(
            sw1["port_channels"]
                .as_array()
                .expect("port_channels")
                .iter()
                .map(|c| format!("{} {}", c["name"], c["role"])),
        )
        .collect();
    snap("sw1-roles", &roles.join("\n"));
}

#[test]
fn plan_says_which_flows_need_controller_rules() {
    let o = democ(&["plan", SPEC]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(text.contains("needs rules"), "{text}");
    snap("plan", &text);
}
