//! `democ build` writes lab/<show>.clab.yml: it validates against containerlab's own JSON
//! Schema (../shared/schemas/clab.schema.json, when that folder is beside the project),
//! and holds what the schema cannot check: every endpoint names a node, no interface is
//! cabled twice, interface names suit each kind, node names suit containerlab, startup
//! configs exist. The file says what `democ ir` says. (The sc16 topology's golden file is
//! tests/fixtures/render/snapshots/sc16__lab__sc16.clab.yml.snap, from render_snapshots.)

#[path = "fixtures/render/support.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;
use support::{FIXTURE, build, democ, example, stderr};

/// Builds `spec` and returns the parsed topology with the build folder.
fn topology(spec: &str, show: &str) -> (Value, tempfile::TempDir) {
    let tmp = tempfile::tempdir().expect("tempdir");
    build(spec, &tmp.path().join("out"));
    let path = tmp.path().join(format!("out/lab/{show}.clab.yml"));
    let text = std::fs::read_to_string(&path).expect("lab/<show>.clab.yml is written");
    let doc: Value = serde_saphyr::from_str(&text).expect("the topology is YAML");
    (doc, tmp)
}

fn shows() -> [(String, &'static str); 4] {
    [
        (example("sc16"), "sc16"),
        (example("sc15"), "sc15"),
        (example("sc25-400g"), "sc25-400g"),
        (FIXTURE.to_owned(), "mini"),
    ]
}

#[test]
fn topologies_match_containerlab_schema() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas/clab.schema.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!(
            "skipped: {} is not there (it ships beside the project, not in it)",
            path.display()
        );
        return;
    };
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    let v = jsonschema::validator_for(&schema).expect("the schema compiles");
    for (spec, show) in shows() {
        let (doc, _tmp) = topology(&spec, show);
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{show}:\n{}", errors.join("\n"));
    }
    // The schema is strict enough to catch a wrong kind.
    let (mut doc, _tmp) = topology(FIXTURE, "mini");
    doc["topology"]["nodes"]["eos-1"]["kind"] = "arista_eos".into();
    assert!(!v.is_valid(&doc));
}

/// The data interface names a kind accepts, checked here independently of democ.
fn iface_ok(kind: &str, iface: &str) -> bool {
    let numbers = |rest: &str, groups: usize| {
        let parts: Vec<&str> = rest.split('_').collect();
        parts.len() <= groups
            && parts.iter().all(|p| {
                p.parse::<u32>().is_ok_and(|n| n > 0) && !p.starts_with('0') && !p.starts_with('+')
            })
    };
    match kind {
        "arista_ceos" => iface.strip_prefix("eth").is_some_and(|r| numbers(r, 3)),
        "dell_ftosv" => iface.strip_prefix("eth").is_some_and(|r| numbers(r, 1)),
        "linux" => {
            (1..=15).contains(&iface.len())
                && iface != "eth0"
                && iface
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        }
        other => panic!("unexpected kind `{other}`"),
    }
}

#[test]
fn endpoints_interfaces_and_names_are_consistent() {
    for (spec, show) in shows() {
        let (doc, tmp) = topology(&spec, show);
        let nodes = doc["topology"]["nodes"].as_object().expect("nodes");
        for (name, node) in nodes {
            assert!(
                name.len() <= 63
                    && name.starts_with(|c: char| c.is_ascii_alphanumeric())
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
                "{show}: node name `{name}`"
            );
            if let Some(cfg) = node["startup-config"].as_str() {
                let file = tmp.path().join("out/lab").join(cfg);
                assert!(file.is_file(), "{show}: `{name}` boots a missing {cfg}");
            }
        }
        let mut used = BTreeSet::new();
        let links = doc["topology"]["links"].as_array().expect("links");
        assert!(!links.is_empty(), "{show} has links");
        for link in links {
            let ends = link["endpoints"].as_array().expect("endpoints");
            assert_eq!(ends.len(), 2, "{show}: {link}");
            for e in ends {
                let e = e.as_str().expect("a string");
                let (node, iface) = e.split_once(':').expect("node:interface");
                let kind = nodes
                    .get(node)
                    .unwrap_or_else(|| panic!("{show}: `{e}` names no node"))["kind"]
                    .as_str()
                    .expect("kind");
                assert!(iface_ok(kind, iface), "{show}: `{iface}` on a `{kind}`");
                assert!(used.insert(e.to_owned()), "{show}: `{e}` is cabled twice");
            }
        }
        let addresses: Vec<&str> = nodes
            .values()
            .filter_map(|n| n["mgmt-ipv4"].as_str())
            .chain(doc["mgmt"]["ipv4-gw"].as_str())
            .collect();
        let unique: BTreeSet<&&str> = addresses.iter().collect();
        assert_eq!(
            unique.len(),
            addresses.len(),
            "{show}: a management address twice"
        );
    }
}

#[test]
fn the_file_is_the_ir_and_the_manifest_lists_it() {
    let (doc, tmp) = topology(&example("sc16"), "sc16");
    let o = democ(&["ir", &example("sc16")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ir: Value = serde_json::from_slice(&o.stdout).expect("IR is JSON");
    assert_eq!(ir["containerlab"]["file"], "lab/sc16.clab.yml");
    assert_eq!(ir["containerlab"]["topology"], doc);
    let manifest = std::fs::read_to_string(tmp.path().join("out/manifest.json")).expect("manifest");
    assert!(manifest.contains("\"lab/sc16.clab.yml\""));
    // cEOS and OS10 boot democ's configs; FTOS 9, PicOS and Onyx are stand-ins.
    let nodes = &doc["topology"]["nodes"];
    assert_eq!(nodes["cit-a-arista"]["kind"], "arista_ceos");
    assert_eq!(nodes["pop-esnet-sw"]["kind"], "dell_ftosv");
    for standin in ["cit-a-z9100-1", "sl-inventec-1", "cit-a-sn2700"] {
        assert_eq!(nodes[standin]["labels"]["democ.role"], "stand-in");
    }
    assert_eq!(nodes["cit-b-25g-1"]["labels"]["democ.role"], "host");
}

/// The lab's OpenFlow controller takes the address the switches dial: no host is given
/// it from the top of the pool (the mini show's first host would be), and a node of its
/// own stands there with the rulesets bound.
#[test]
fn the_controller_address_is_the_controller_nodes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = Path::new(FIXTURE).parent().expect("folder");
    std::fs::copy(src.join("catalog.yaml"), tmp.path().join("catalog.yaml")).expect("copy");
    let spec = std::fs::read_to_string(FIXTURE)
        .expect("fixture")
        .replace("10.0.0.10:6653", "192.168.16.254:6653");
    let path = tmp.path().join("show.yaml");
    std::fs::write(&path, spec).expect("write");
    let out = tmp.path().join("out");
    build(path.to_str().expect("utf-8"), &out);
    let text = std::fs::read_to_string(out.join("lab/mini.clab.yml")).expect("topology");
    let doc: Value = serde_saphyr::from_str(&text).expect("YAML");
    let nodes = doc["topology"]["nodes"].as_object().expect("nodes");
    let at: Vec<&String> = nodes
        .iter()
        .filter(|(_, n)| n["mgmt-ipv4"] == "192.168.16.254")
        .map(|(k, _)| k)
        .collect();
    assert_eq!(at, ["controller"], "{text}");
    let c = &nodes["controller"];
    assert_eq!(c["labels"]["democ.role"], "controller");
    assert_eq!(c["binds"][0], "../openflow:/democ/openflow:ro");
    assert!(out.join("openflow/odl/push.sh").is_file());
}

/// cEOS boots a config it accepts: its management port is Management0, and it has a
/// block only for each interface the lab wires (`ethA_B` is EthernetA/B), the rest of
/// democ's config kept as it is.
#[test]
fn ceos_boots_management0_and_only_wired_interfaces() {
    let (doc, tmp) = topology(&example("sc16"), "sc16");
    let out = tmp.path().join("out");
    let nodes = doc["topology"]["nodes"].as_object().expect("nodes");
    let mut checked = 0;
    for (name, node) in nodes.iter().filter(|(_, n)| n["kind"] == "arista_ceos") {
        assert_eq!(node["startup-config"], format!("configs/{name}.cfg"));
        let lab = std::fs::read_to_string(out.join(format!("lab/configs/{name}.cfg")))
            .expect("lab config");
        let full =
            std::fs::read_to_string(out.join(format!("switches/{name}.cfg"))).expect("config");
        assert!(lab.contains("\ninterface Management0\n"), "{name}");
        assert!(!lab.contains("Management1"), "{name}");
        assert!(full.contains("\ninterface Management1\n"), "{name}");
        let wired: BTreeSet<String> = doc["topology"]["links"]
            .as_array()
            .expect("links")
            .iter()
            .flat_map(|l| l["endpoints"].as_array().expect("ends"))
            .filter_map(|e| e.as_str()?.strip_prefix(&format!("{name}:")))
            .map(|i| format!("Ethernet{}", i.trim_start_matches("eth").replace('_', "/")))
            .collect();
        let blocks: BTreeSet<String> = lab
            .lines()
            .filter_map(|l| l.strip_prefix("interface Ethernet"))
            .map(|n| format!("Ethernet{n}"))
            .collect();
        assert_eq!(blocks, wired, "{name}");
        for l in lab
            .lines()
            .filter_map(|l| l.trim().strip_prefix("bind interface Ethernet"))
        {
            assert!(
                wired.contains(&format!("Ethernet{l}")),
                "{name} binds Ethernet{l}"
            );
        }
        // Everything else is democ's config.
        let rest = |t: &str| {
            t.lines()
                .filter(|l| l.starts_with("router ") || l.starts_with("hostname"))
                .count()
        };
        assert_eq!(rest(&lab), rest(&full), "{name}");
        checked += 1;
    }
    assert_eq!(checked, 4, "sc16's cEOS nodes");
}

/// lab/containerlab/README.md's trust table says, for every sc16 switch, what the
/// topology runs (the vendor's OS under its kind, or the IR emulation of a stand-in) and
/// what the lab cannot show.
#[test]
fn the_readme_trust_table_matches_the_sc16_topology() {
    let readme = std::fs::read_to_string("lab/containerlab/README.md").expect("README");
    let section = readme
        .split("## Trust: what the lab shows of each switch")
        .nth(1)
        .expect("the trust section");
    let rows: BTreeMap<String, Vec<String>> = section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<String> = l
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().trim_matches('`').to_owned())
                .collect();
            (cells[0].clone(), cells)
        })
        .collect();
    let (doc, _tmp) = topology(&example("sc16"), "sc16");
    let mut switches = BTreeSet::new();
    for (name, node) in doc["topology"]["nodes"].as_object().expect("nodes") {
        let labels = &node["labels"];
        let runs = match labels["democ.role"].as_str() {
            Some("switch") => "vendor OS",
            Some("stand-in") => "IR emulation",
            _ => continue,
        };
        switches.insert(name.clone());
        let row = rows
            .get(name)
            .unwrap_or_else(|| panic!("no trust row for {name}"));
        assert_eq!(row[1], labels["democ.os"].as_str().expect("os"), "{name}");
        assert_eq!(
            row[2],
            labels["democ.model"].as_str().expect("model"),
            "{name}"
        );
        assert_eq!(row[3], runs, "{name}");
        for gap in ["ASIC buffers", "PFC headroom", "line rate"] {
            assert!(row[5].contains(gap), "{name}: {}", row[5]);
        }
    }
    assert_eq!(rows.keys().cloned().collect::<BTreeSet<_>>(), switches);
}
