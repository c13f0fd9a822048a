//! LAGs placed by OpenFlow rules (`lag: { placement: openflow }`, issue 13 §2): the same
//! show hashed and pinned. Hashed, ten single-stream pairs over ten members lose a third
//! to collisions (W0248); pinned, democ's rules put one pair on each member, the
//! prediction counts each member shared by its pairs only and says so, the LAG is no
//! port-channel, and every rule that leaves through the LAG outputs to a member port.

use std::collections::BTreeMap;

use serde_json::Value;

mod common;

const FIXTURE: &str = "tests/fixtures/feasibility/lag-pinned.yaml";

/// The fixture with its placement, written to a temporary folder.
fn spec(placement: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let text = std::fs::read_to_string(FIXTURE)
        .expect("fixture")
        .replace("PLACEMENT", placement);
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("show.yaml");
    std::fs::write(&file, text).expect("write");
    (dir, file)
}

fn democ(args: &[&str]) -> (i32, String, String) {
    let run = common::democ_in(None, args, common::HANG);
    (run.code, run.stdout, run.stderr)
}

fn plan(file: &std::path::Path) -> (Value, String) {
    let path = file.to_str().expect("utf-8");
    let (_, json, err) = democ(&["plan", path, "--format", "json"]);
    (serde_json::from_str(&json).expect("plan json"), err)
}

fn predicted(plan: &Value) -> f64 {
    plan["flows"][0]["predicted_gbps"]
        .as_f64()
        .expect("prediction")
}

#[test]
fn hashing_loses_what_pinning_keeps() {
    let (_d, hashed) = spec("");
    let (p, err) = plan(&hashed);
    assert!((predicted(&p) - 645.4).abs() < 0.1, "{}", predicted(&p));
    assert!(err.contains("[W0248]"), "{err}");
    assert!(
        err.contains("set `placement: openflow` on LAG 7"),
        "the help offers the pinning this LAG allows: {err}"
    );

    let (_d, pinned) = spec(", placement: openflow");
    let (p, err) = plan(&pinned);
    assert!((predicted(&p) - 990.9).abs() < 0.1, "{}", predicted(&p));
    assert!(
        !err.contains("[W0248]"),
        "pinned pairs are not hashed: {err}"
    );
    let text = democ(&["plan", pinned.to_str().expect("utf-8")]).1;
    assert!(
        text.contains(
            "LAG 7 sw-a -> sw-b, pinned by the OpenFlow ruleset to member sw-a:1/21 -> sw-b:1/21"
        ),
        "{text}"
    );
}

/// OpenFlow number of each interface under the controller, from the switch's IR.
fn numbers(ir: &Value) -> BTreeMap<u64, String> {
    ir["openflow"]["port_numbers"]
        .as_array()
        .expect("port numbers")
        .iter()
        .map(|p| {
            (
                p["number"].as_u64().expect("number"),
                p["interface"].as_str().expect("interface").to_owned(),
            )
        })
        .collect()
}

#[test]
fn rules_output_to_members_one_pair_each() {
    let (dir, pinned) = spec(", placement: openflow");
    let out = dir.path().join("out");
    let (code, _, err) = democ(&[
        "build",
        pinned.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    for sw in ["sw-a", "sw-b"] {
        let ir: Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("ir/{sw}.json"))).expect("ir"),
        )
        .expect("json");
        assert_eq!(ir["port_channels"], Value::Array(vec![]), "no port-channel");
        let numbers = numbers(&ir);
        let ifname = |port: &str| {
            ir["interfaces"]
                .as_array()
                .expect("interfaces")
                .iter()
                .find(|i| i["port"] == port)
                .and_then(|i| i["name"].as_str())
                .expect("interface")
                .to_owned()
        };
        let members: Vec<String> = (21..=30).map(|n| ifname(&format!("1/{n}"))).collect();
        // Each pair's data rule: in from a host, out to a member (sw-a), or in from a
        // member, out to a host (sw-b); every member carries exactly one pair.
        let mut per_member: BTreeMap<String, usize> = BTreeMap::new();
        for r in ir["openflow"]["ruleset"]["rules"]
            .as_array()
            .expect("rules")
        {
            if r["match"]["ether_type"] != "ipv4" || r["direction"] != "forward" {
                continue;
            }
            let out = r["actions"]["output"]["number"]
                .as_u64()
                .expect("a port number, not NORMAL");
            let inp = r["match"]["in_port"].as_u64().expect("in_port");
            let (out, inp) = (&numbers[&out], &numbers[&inp]);
            let member = if members.contains(out) { out } else { inp };
            assert!(members.contains(member), "{sw}: {r}");
            *per_member.entry(member.clone()).or_default() += 1;
        }
        assert_eq!(per_member.len(), 10, "{sw}: {per_member:?}");
        assert!(per_member.values().all(|&n| n == 1), "{sw}: {per_member:?}");
    }
}

/// On a hybrid switch whose table miss is NORMAL, the members are parallel links in no
/// port-channel: anything no rule matches (broadcasts, other hosts' ARP, IPv6 ND) would
/// be flooded over every member and back. Each member therefore drops what democ's rules
/// do not match, above the table miss, in the ovs-ofctl file and the RESTCONF body; a
/// hashed LAG (one port-channel) needs no such entry. Found in a vendor engineer's
/// review against the Onyx manual's hybrid ports.
#[test]
fn pinned_members_drop_what_no_rule_matches() {
    let build = |placement: &str| {
        let (dir, file) = spec(placement);
        let out = dir.path().join("out");
        let (code, _, err) = democ(&[
            "build",
            file.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{err}");
        (dir, out)
    };
    let (_d, pinned) = build(", placement: openflow");
    for sw in ["sw-a", "sw-b"] {
        let ir: Value = serde_json::from_str(
            &std::fs::read_to_string(pinned.join(format!("ir/{sw}.json"))).expect("ir"),
        )
        .expect("json");
        assert_eq!(ir["openflow"]["ruleset"]["table_miss"], "normal", "{sw}");
        let numbers = numbers(&ir);
        let members: Vec<u64> = numbers
            .iter()
            .filter(|(_, name)| (21..=30).any(|n| name.ends_with(&format!("1/{n}"))))
            .map(|(&n, _)| n)
            .collect();
        assert_eq!(members.len(), 10, "{sw}: {numbers:?}");
        let flows =
            std::fs::read_to_string(pinned.join(format!("openflow/{sw}.flows"))).expect("flows");
        for n in &members {
            let line = format!("priority=1,in_port={n},actions=drop");
            assert!(flows.contains(&line), "{sw}: no `{line}` in\n{flows}");
        }
        let drops = flows.matches(",actions=drop").count();
        assert_eq!(drops, 10, "only the members are isolated: {flows}");
        // Every rule democ writes for a pair outranks the isolation.
        assert!(
            ir["openflow"]["ruleset"]["rules"]
                .as_array()
                .expect("rules")
                .iter()
                .all(|r| r["priority"].as_u64().expect("priority") > 1)
        );
        let odl = std::fs::read_to_string(pinned.join(format!("openflow/odl/{sw}.json")))
            .expect("odl body");
        assert_eq!(
            odl.matches("\"flow-name\":\"isolated-port\"").count(),
            10,
            "{odl}"
        );
    }
    let (_d, hashed) = build("");
    let flows = std::fs::read_to_string(hashed.join("openflow/sw-a.flows")).expect("flows");
    assert!(!flows.contains("priority=1,"), "{flows}");
}
