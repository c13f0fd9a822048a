//! Schema descriptions say what the code does (issue 41): the OTN `client` description
//! names every client signal the catalog's `otn` table carries, and a flow's `source:`
//! is described as the flow's data source, not with the catalog's "where each figure
//! comes from".

use std::process::Command;

fn schema() -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_democ"))
        .arg("schema")
        .output()
        .expect("democ runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_otn_client_description_names_every_catalog_client() {
    let physics = std::fs::read_to_string("catalog/physics.yaml").unwrap();
    let otn = physics
        .split("\notn:")
        .nth(1)
        .unwrap()
        .split("\nphysics:")
        .next()
        .unwrap();
    let clients: Vec<&str> = otn
        .lines()
        .filter_map(|l| l.trim().strip_prefix("client: "))
        .collect();
    assert!(clients.contains(&"400GE"), "{clients:?}");
    let schema = schema();
    let described = schema
        .lines()
        .find(|l| l.contains("OTN client signal per port"))
        .expect("the client description");
    for c in clients {
        assert!(described.contains(c), "{c} missing from {described}");
    }
}

#[test]
fn a_flows_source_is_described_as_its_data_source() {
    let v: serde_json::Value = serde_json::from_str(&schema()).unwrap();
    let text = v.to_string();
    assert!(
        text.contains("Where the sender reads"),
        "no flow source description"
    );
    let flow = serde_json::to_string(&v["$defs"]["Flow"]).unwrap_or_default();
    assert!(!flow.contains("Where each figure comes from"), "{flow}");
}
