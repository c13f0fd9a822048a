//! `openflow/odl/<switch>.json` has the shape OpenDaylight's inventory model expects, and
//! `openflow/odl/push.sh` PUTs, verifies and deletes as it should.
//!
//! The schema (tests/fixtures/odl/inventory-flows.schema.json) was written from
//! openflowplugin's YANG models at commit b8f40de135d65d7b73279c37e9d043f385b4e094
//! (github.com/opendaylight/openflowplugin): model/model-inventory/src/main/yang/
//! opendaylight-inventory.yang, model/model-flow-service/src/main/yang/
//! flow-node-inventory.yang, and model/model-flow-base/src/main/yang/
//! opendaylight-{flow,match,action,meter}-types.yang, with the JSON bodies of
//! docs/users/flow-examples.rst; encoded per RFC 7951. Every sc16/sc15 switch's file
//! validates, and agrees with the switch's IR ruleset.
//!
//! push.sh runs against tests/fixtures/odl/fake_restconf.py (python3 http.server) with
//! the controller and credentials in the environment; a `curl` shim on PATH records
//! curl's argv, which must hold neither. Skips when python3, curl or sh is missing.

#[path = "fixtures/render/support.rs"]
mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use serde_json::{Value, json};
use support::{build, example, switch_ir_files};

const SCHEMA: &str = "tests/fixtures/odl/inventory-flows.schema.json";

fn validator() -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(SCHEMA).expect("schema")).expect("json");
    jsonschema::validator_for(&schema).expect("schema compiles")
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect()
}

/// (hostname, switch IR) of every OpenFlow switch of a build.
fn openflow_switches(out: &Path) -> Vec<(String, Value)> {
    switch_ir_files(out)
        .iter()
        .filter_map(|p| {
            let ir: Value = serde_json::from_slice(&std::fs::read(p).ok()?).ok()?;
            ir.get("openflow").filter(|o| !o.is_null())?;
            Some((ir["hostname"].as_str()?.to_owned(), ir))
        })
        .collect()
}

fn decimal(hex: &Value) -> String {
    let h = hex.as_str().expect("cookie").trim_start_matches("0x");
    u64::from_str_radix(h, 16).expect("hex").to_string()
}

#[test]
fn odl_bodies_have_the_inventory_models_shape_for_every_example_switch() {
    let v = validator();
    let tmp = tempfile::tempdir().expect("tempdir");
    for show in ["sc16", "sc15"] {
        let out = tmp.path().join(show);
        build(&example(show), &out);
        let switches = openflow_switches(&out);
        assert!(switches.len() >= 10, "{show}: {} switches", switches.len());
        for (host, ir) in switches {
            let path = out.join(format!("openflow/odl/{host}.json"));
            let mut doc: Value =
                serde_json::from_slice(&std::fs::read(&path).expect("odl file")).expect("json");
            let of = &ir["openflow"];
            let node = &mut doc["opendaylight-inventory:nodes"]["node"][0];
            match of["datapath_id"].as_str() {
                Some(dpid) => {
                    let want = format!("openflow:{}", u64::from_str_radix(dpid, 16).expect("hex"));
                    assert_eq!(node["id"], want, "{host}: node id from the datapath id");
                }
                None => {
                    // The OS picks its datapath id: push.sh takes the node on its
                    // command line, as the model's list key needs one.
                    assert!(node.get("id").is_none(), "{host}: no guessed node id");
                    node["id"] = json!("openflow:1");
                }
            }
            let errs = errors(&v, &doc);
            assert!(errs.is_empty(), "{show}/{host}: {errs:#?}");
            // The same rules as the IR (and the .flows file), in the same order.
            let node = &doc["opendaylight-inventory:nodes"]["node"][0];
            let flows = node["flow-node-inventory:table"][0]["flow"]
                .as_array()
                .expect("flows");
            let rs = &of["ruleset"];
            let rules = rs["rules"].as_array().expect("rules");
            assert_eq!(flows.len(), rules.len() + 1, "{host}: rules + table-miss");
            for (f, r) in flows.iter().zip(rules) {
                assert_eq!(f["cookie"], decimal(&r["cookie"]), "{host}");
                assert_eq!(f["priority"], r["priority"], "{host}");
                assert_eq!(f["match"]["in-port"], r["match"]["in_port"].to_string());
                let out_port = match r["actions"]["output"]["kind"].as_str() {
                    Some("port") => r["actions"]["output"]["number"].to_string(),
                    _ => "NORMAL".to_owned(),
                };
                let acts = f["instructions"]["instruction"]
                    .as_array()
                    .and_then(|i| i.last())
                    .expect("apply-actions")["apply-actions"]["action"]
                    .as_array()
                    .expect("actions")
                    .clone();
                let last = acts.last().expect("an action");
                assert_eq!(last["output-action"]["output-node-connector"], out_port);
                assert_eq!(
                    acts.iter().any(|a| a.get("set-queue-action").is_some()),
                    !r["actions"]["queue"].is_null(),
                    "{host}: set-queue where the IR queues"
                );
            }
            let miss = flows.last().expect("miss");
            assert_eq!(miss["priority"], 0);
            assert_eq!(miss["cookie"], decimal(&rs["table_miss_cookie"]));
            let meters = node
                .get("flow-node-inventory:meter")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            assert_eq!(meters, rs["meters"].as_array().expect("meters").len());
        }
    }
}

/// The schema can fail: what the model forbids is refused.
#[test]
fn the_schema_refuses_what_the_model_forbids() {
    let v = validator();
    let flow = |f: Value| json!({"opendaylight-inventory:nodes": {"node": [{"id": "openflow:1", "flow-node-inventory:table": [{"id": 0, "flow": [f]}]}]}});
    let good = json!({"id": "a", "table_id": 0, "priority": 1000, "cookie": "1",
        "match": {"in-port": "1", "ethernet-match": {"ethernet-type": {"type": 2048}}, "ipv4-source": "10.0.0.1/32"},
        "instructions": {"instruction": [{"order": 0, "apply-actions": {"action": [{"order": 0, "output-action": {"output-node-connector": "2"}}]}}]}});
    assert!(errors(&v, &flow(good.clone())).is_empty());
    let bad = |edit: &dyn Fn(&mut Value)| {
        let mut f = good.clone();
        edit(&mut f);
        !errors(&v, &flow(f)).is_empty()
    };
    assert!(bad(&|f| f["cookie"] = json!(1)), "a uint64 is a string");
    assert!(
        bad(&|f| f["match"]["arp-target-transport-address"] = json!("10.0.0.2/32")),
        "ipv4 and arp cases"
    );
    assert!(
        bad(&|f| f["match"]["ethernet-match"]["ethernet-type"]["type"] = json!(2054)),
        "IPv4 needs 2048"
    );
    assert!(
        bad(&|f| f["match"]["ipv4-source"] = json!("10.0.0.1")),
        "a prefix"
    );
    assert!(bad(&|f| f["priority"] = json!(70000)), "uint16");
    assert!(bad(&|f| f["flow_name"] = json!("x")), "misspelt leaf");
    assert!(
        bad(
            &|f| f["instructions"]["instruction"][0]["apply-actions"]["action"][0]["output-action"]
                ["output-node-connector"] = json!("port 2")
        ),
        "connector"
    );
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The fake controller, killed on drop.
struct Fake {
    child: Child,
    url: String,
}

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const USER: &str = "odl-admin";
const PASSWORD: &str = "pa\"ss\\ w$rd;`id`";

fn fake(dir: &Path, refuse: &str) -> Fake {
    fake_api(dir, refuse, "rfc8040")
}

/// The fake controller serving `api`'s paths (`rfc8040` or `bierman02`).
fn fake_api(dir: &Path, refuse: &str, api: &str) -> Fake {
    let mut child = Command::new("python3")
        .env("FAKE_API", api)
        .arg("tests/fixtures/odl/fake_restconf.py")
        .env("FAKE_USER", USER)
        .env("FAKE_PASSWORD", PASSWORD)
        .env("FAKE_LOG", dir.join("requests.log"))
        .env("FAKE_REFUSE", refuse)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("port");
    let url = format!("http://127.0.0.1:{}", line.trim());
    Fake { child, url }
}

/// Runs push.sh with the controller in the environment and the curl shim first on PATH.
fn push(out: &Path, shim: &Path, url: &str, password: &str, args: &[&str]) -> Output {
    push_api(out, shim, url, password, args, "rfc8040")
}

fn push_api(
    out: &Path,
    shim: &Path,
    url: &str,
    password: &str,
    args: &[&str],
    api: &str,
) -> Output {
    let path = format!(
        "{}:{}",
        shim.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("sh");
    cmd.arg(out.join("openflow/odl/push.sh"))
        .args(args)
        .env("PATH", path)
        .env("ODL_URL", url)
        .env("ODL_USER", USER)
        .env("ODL_PASSWORD", password)
        .env("ODL_TRIES", "2");
    // "": the build's own default (the spec's `openflow.restconf`).
    if api.is_empty() {
        cmd.env_remove("ODL_API");
    } else {
        cmd.env("ODL_API", api);
    }
    cmd.output().expect("sh runs")
}

fn state(url: &str) -> Value {
    let o = Command::new("curl")
        .args(["-sS", &format!("{url}/state")])
        .output()
        .expect("curl");
    serde_json::from_slice(&o.stdout).expect("state json")
}

fn ids(state: &Value, store: &str) -> Vec<String> {
    state[store]["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .map(|f| f["id"].as_str().expect("id").to_owned())
        .collect()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// sc16 built into a temporary folder for push.sh's tests, or None (said why) when
/// python3, curl or sh is missing.
fn sc16_for_push() -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    if !["python3", "curl", "sh"].iter().all(|t| have(t)) {
        println!("skipped: push.sh's test needs python3, curl and sh");
        return None;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("sc16");
    build(&example("sc16"), &out);
    Some((tmp, out))
}

#[test]
fn push_sh_puts_verifies_and_deletes_by_cookie() {
    let Some((tmp, out)) = sc16_for_push() else {
        return;
    };
    // A curl that records its argv, then runs the real one.
    let shim = tmp.path().join("shim");
    std::fs::create_dir(&shim).expect("shim dir");
    let real = Command::new("sh")
        .args(["-c", "command -v curl"])
        .output()
        .expect("which curl");
    let real = String::from_utf8_lossy(&real.stdout).trim().to_owned();
    let argv_log = tmp.path().join("curl-argv.log");
    std::fs::write(
        shim.join("curl"),
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{real}' \"$@\"\n",
            argv_log.display()
        ),
    )
    .expect("shim");
    Command::new("chmod")
        .args(["+x", &shim.join("curl").to_string_lossy()])
        .status()
        .expect("chmod");

    let f = fake(tmp.path(), "");
    let sw = "cit-b-z9100";
    let file = std::fs::read_to_string(out.join(format!("openflow/odl/{sw}.json"))).expect("odl");
    let doc: Value = serde_json::from_str(&file).expect("json");
    let node = doc["opendaylight-inventory:nodes"]["node"][0].clone();
    let want: Vec<Value> = node["flow-node-inventory:table"][0]["flow"]
        .as_array()
        .expect("flows")
        .clone();
    assert!(want.len() > 20);

    // put: every flow lands in config under the node, body for body, and is verified.
    let o = push(&out, &shim, &f.url, PASSWORD, &["put", sw]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(
        "every flow and meter is in the operational datastore of openflow:281474976710660"
    ));
    let s = state(&f.url);
    let config = s["config"]["flows"].as_array().expect("config");
    assert_eq!(config.len(), want.len());
    for (got, w) in config.iter().zip({
        let mut w = want.clone();
        w.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
        w
    }) {
        assert_eq!(got["node"], "openflow:281474976710660");
        assert_eq!(got["body"], w, "the flow as the file has it");
    }
    // Neither the controller nor the credentials were on curl's command line.
    let argv = std::fs::read_to_string(&argv_log).expect("argv log");
    assert!(!argv.is_empty());
    assert!(
        !argv.contains("127.0.0.1") && !argv.contains(USER) && !argv.contains("pa\""),
        "{argv}"
    );

    // delete by a flow's cookie (default mask: the whole flow, both directions).
    let first = want[0]["id"].as_str().expect("id");
    let cookie = &first[..16];
    let flow_prefix = &cookie[..10];
    let o = push(
        &out,
        &shim,
        &f.url,
        PASSWORD,
        &["delete", sw, &format!("0x{cookie}")],
    );
    assert!(o.status.success(), "{}", text(&o));
    let s = state(&f.url);
    let left = ids(&s, "operational");
    assert!(left.iter().all(|i| !i.starts_with(flow_prefix)), "{left:?}");
    let removed = want.len() - left.len();
    let expected = want
        .iter()
        .filter(|w| w["id"].as_str().is_some_and(|i| i.starts_with(flow_prefix)))
        .count();
    assert_eq!(removed, expected);
    assert!(expected >= 4, "both directions of every pair of the flow");
    assert_eq!(ids(&s, "config"), left);

    // An exact mask removes one pair-direction only (its IPv4 and ARP rules).
    let other = left
        .iter()
        .find(|i| !i.contains("-miss"))
        .expect("a rule")
        .clone();
    let c = &other[..16];
    let o = push(
        &out,
        &shim,
        &f.url,
        PASSWORD,
        &["delete", sw, &format!("0x{c}/0xffffffffffffffff")],
    );
    assert!(o.status.success(), "{}", text(&o));
    let after = ids(&state(&f.url), "operational");
    assert_eq!(
        left.len() - after.len(),
        left.iter().filter(|i| i.starts_with(c)).count()
    );
    assert!(after.iter().all(|i| !i.starts_with(c)));

    // Wrong credentials: refused, exit 2, nothing written.
    let before = ids(&state(&f.url), "config");
    let o = push(&out, &shim, &f.url, "wrong", &["put", sw]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("HTTP 401"), "{}", text(&o));
    assert_eq!(ids(&state(&f.url), "config"), before);

    // A switch without a build-time datapath id needs its node; names are checked.
    let o = push(&out, &shim, &f.url, PASSWORD, &["put", "cit-a-arista"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("has no datapath id"), "{}", text(&o));
    for bad in [
        vec!["put", "../cit-b-z9100"],
        vec!["put", "x;touch pwned"],
        vec!["put", sw, "openflow:1/../2"],
        vec!["put", sw, "openflow:1;id"],
        vec!["delete", sw, "0xzz"],
        vec!["delete", sw, "0x1/0x1;id"],
    ] {
        let o = push(&out, &shim, &f.url, PASSWORD, &bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
    }
    assert!(!Path::new("pwned").exists());
    let o = push(
        &out,
        &shim,
        &f.url,
        PASSWORD,
        &["put", "cit-a-arista", "openflow:42"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let on42 = state(&f.url)["config"]["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .filter(|x| x["node"] == "openflow:42")
        .count();
    assert!(on42 > 10);
    drop(f);

    // A flow the switch refuses: put reports it and fails.
    let refused = want[3]["id"].as_str().expect("id").to_owned();
    let f = fake(tmp.path(), &refused);
    let o = push(&out, &shim, &f.url, PASSWORD, &["put", sw]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains(&refused), "{}", text(&o));
    let o = push(&out, &shim, &f.url, PASSWORD, &["verify", sw]);
    assert_eq!(o.status.code(), Some(1));
}

/// `delete` removes the meter of the flow whose rules it deletes (a capped flow's meter
/// is its own), and only when no rule left on the switch uses it. It used to leave every
/// meter behind in the controller's config.
#[test]
fn push_sh_delete_takes_the_flows_meter_with_its_rules() {
    if !["python3", "curl", "sh"].iter().all(|t| have(t)) {
        println!("skipped: push.sh's test needs python3, curl and sh");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("render");
    build("tests/fixtures/render/show.yaml", &out);
    let f = fake(tmp.path(), "");
    // ovs-1 meters the capped flow rdma-ed (meter 1).
    let sw = "ovs-1";
    let file = std::fs::read_to_string(out.join(format!("openflow/odl/{sw}.json"))).expect("odl");
    let metered: Vec<String> = file
        .lines()
        .filter(|l| l.contains("\"meter\":{\"meter-id\":1}"))
        .filter_map(|l| l.split('"').nth(3).map(|id| id[..16].to_owned()))
        .collect();
    assert!(!metered.is_empty(), "{file}");
    let meters = |s: &Value| s["config"]["meters"].as_array().map_or(0, Vec::len);
    let path = Path::new("/nonexistent-shim");
    let o = push(&out, path, &f.url, PASSWORD, &["put", sw]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(meters(&state(&f.url)), 1);
    // Another flow's rules (the cookie's first 10 hex digits name the flow): the meter stays.
    let unmetered = ids(&state(&f.url), "config")
        .into_iter()
        .find(|i| !i.contains("-miss") && !metered.iter().any(|m| i[..10] == m[..10]));
    if let Some(other) = unmetered {
        let o = push(
            &out,
            path,
            &f.url,
            PASSWORD,
            &["delete", sw, &format!("0x{}", &other[..16])],
        );
        assert!(o.status.success(), "{}", text(&o));
        assert!(!text(&o).contains("deleted meter"), "{}", text(&o));
        assert_eq!(meters(&state(&f.url)), 1);
    }
    // The metered flow (all its pairs and directions): its meter goes too.
    let o = push(
        &out,
        path,
        &f.url,
        PASSWORD,
        &["delete", sw, &format!("0x{}", metered[0])],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("deleted meter 1"), "{}", text(&o));
    assert_eq!(meters(&state(&f.url)), 0);
}

/// The controllers of the shows' time (OpenDaylight Lithium, Boron) serve the draft
/// RESTCONF paths, not RFC 8040's (vendor review): sc16's `openflow.restconf: bierman02`
/// makes push.sh put, verify and delete through `/restconf/config` and
/// `/restconf/operational` with no `ODL_API`, and an unknown API is refused before
/// anything is sent.
#[test]
fn push_sh_speaks_the_draft_restconf_of_older_controllers() {
    let Some((tmp, out)) = sc16_for_push() else {
        return;
    };
    let no_shim = tmp.path().join("no-shim");
    std::fs::create_dir(&no_shim).expect("dir");
    let f = fake_api(tmp.path(), "", "bierman02");
    let sw = "cit-b-z9100";
    let run = |args: &[&str], api: &str| push_api(&out, &no_shim, &f.url, PASSWORD, args, api);
    // sc16's spec says its controller (Boron) speaks the draft: no ODL_API needed.
    let o = run(&["put", sw], "");
    assert!(o.status.success(), "{}", text(&o));
    let st = state(&f.url);
    let (config, oper) = (ids(&st, "config"), ids(&st, "operational"));
    assert!(config.len() > 20 && config == oper, "{config:?}");
    let log = std::fs::read_to_string(tmp.path().join("requests.log")).expect("log");
    assert!(
        log.lines()
            .all(|l| l == "GET /state" || l.contains(" /restconf/")),
        "{log}"
    );
    let o = run(
        &["delete", sw, "0xdc00000000000000/0xffffffffffffffff"],
        "bierman02",
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(ids(&state(&f.url), "config").len(), config.len() - 1);
    let o = run(&["verify", sw], "draft");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("ODL_API must be rfc8040 or bierman02"),
        "{}",
        text(&o)
    );
}
