//! `democ lab split`: examples/sc15's lab spread over lab hosts. Every node lands on
//! exactly one host, the parts are balanced within one node, each cable between hosts is
//! a containerlab `vxlan` link at both ends with one VNI and the other host's address,
//! every part validates against containerlab's schema, and the same input splits the
//! same way. Bad lab hosts get located diagnostics (E0701, E0702), snapshotted. No root
//! needed (tests/lab_partitions.rs deploys a split lab).

#[path = "fixtures/render/support.rs"]
mod support;

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use support::{build, example};

fn democ(args: &[&str]) -> common::Run {
    common::democ_in(None, args, Duration::from_secs(120))
}

fn sc15() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    build(&example("sc15"), &out);
    let b = out.display().to_string();
    (tmp, b)
}

/// `lab split` of `b` over hosts a and b, which must succeed.
fn split_ab(b: &str) -> common::Run {
    let r = democ(&[
        "lab",
        "split",
        b,
        "--lab-hosts",
        "a=10.255.0.1,b=10.255.0.2",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r
}

fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_saphyr::from_str(&text).expect("YAML")
}

#[test]
fn sc15_splits_in_two_balanced_with_its_cut_cables_as_vxlan() {
    let (_tmp, b) = sc15();
    let r = split_ab(&b);
    assert!(r.stdout.contains("split over 2 hosts"), "{}", r.stdout);
    assert!(
        r.stderr.contains("must carry 9248-byte packets") && r.stderr.contains("UDP 14789"),
        "the underlay warning: {}",
        r.stderr
    );
    let whole = yaml(&Path::new(&b).join("lab/sc15.clab.yml"));
    let all: BTreeSet<String> = whole["topology"]["nodes"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(&b).join("lab/split/partition.json")).unwrap(),
    )
    .unwrap();
    let address: BTreeMap<&str, &str> = [("a", "10.255.0.1"), ("b", "10.255.0.2")].into();
    let mut seen = BTreeSet::new();
    let mut sizes = Vec::new();
    // vni -> (end, host, remote) seen in the parts.
    let mut tunnels: BTreeMap<u64, Vec<(String, String, String)>> = BTreeMap::new();
    let mut inside = 0;
    for host in ["a", "b"] {
        let part = yaml(&Path::new(&b).join(format!("lab/split/{host}.clab.yml")));
        let nodes: BTreeSet<String> = part["topology"]["nodes"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        sizes.push(nodes.len());
        assert!(seen.is_disjoint(&nodes), "a node on two hosts");
        seen.extend(nodes.iter().cloned());
        // Files one folder deeper than lab/: every bind climbs one more level.
        for n in part["topology"]["nodes"].as_object().unwrap().values() {
            for bind in n["binds"].as_array().into_iter().flatten() {
                let src = bind.as_str().unwrap().split(':').next().unwrap();
                assert!(
                    Path::new(&b).join("lab/split").join(src).exists(),
                    "{src} is not a file of the build"
                );
            }
        }
        for l in part["topology"]["links"].as_array().unwrap() {
            if l["type"] == "vxlan" {
                let node = l["endpoint"]["node"].as_str().unwrap();
                assert!(nodes.contains(node), "{l}");
                assert_ne!(l["remote"], address[host], "a tunnel to itself: {l}");
                assert_eq!(l["dst-port"], 14789);
                assert_eq!(l["mtu"], 9198);
                tunnels
                    .entry(l["vni"].as_u64().unwrap())
                    .or_default()
                    .push((
                        format!("{node}:{}", l["endpoint"]["interface"].as_str().unwrap()),
                        host.to_owned(),
                        l["remote"].as_str().unwrap().to_owned(),
                    ));
            } else {
                inside += 1;
                for e in l["endpoints"].as_array().unwrap() {
                    let node = e.as_str().unwrap().split(':').next().unwrap();
                    assert!(nodes.contains(node), "{l} leaves its part");
                }
            }
        }
    }
    assert_eq!(seen, all, "every node on exactly one host");
    assert!(sizes[0].abs_diff(sizes[1]) <= 1, "{sizes:?}");
    let cut = summary["cut"].as_array().unwrap();
    assert_eq!(tunnels.len(), cut.len());
    assert!(!cut.is_empty());
    let links = whole["topology"]["links"].as_array().unwrap().len();
    assert_eq!(inside + cut.len(), links, "every cable once");
    for (vni, ends) in &tunnels {
        assert_eq!(ends.len(), 2, "vni {vni}: {ends:?}");
        assert_ne!(ends[0].1, ends[1].1, "vni {vni} inside one host");
        for (end, _, remote) in ends {
            let other = ends.iter().find(|e| &e.0 != end).unwrap();
            assert_eq!(remote, address[other.1.as_str()], "vni {vni}");
        }
    }
    // sc15's sites hang off the show floor by one WAN circuit each: the split cuts
    // no more cables than it has sites beyond the floor.
    assert!(cut.len() <= 4, "{cut:?}");

    // containerlab's schema accepts each part.
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas/clab.schema.json");
    if let Ok(text) = std::fs::read_to_string(&schema) {
        let schema: Value = serde_json::from_str(&text).unwrap();
        let v = jsonschema::validator_for(&schema).expect("the schema compiles");
        for host in ["a", "b"] {
            let doc = yaml(&Path::new(&b).join(format!("lab/split/{host}.clab.yml")));
            let errors: Vec<String> = v
                .iter_errors(&doc)
                .map(|e| format!("{e} at {}", e.instance_path))
                .collect();
            assert!(errors.is_empty(), "{host}:\n{}", errors.join("\n"));
        }
    } else {
        println!("schema check skipped: {} is not there", schema.display());
    }

    // The same hosts again: the same files, byte for byte.
    let before: Vec<String> = ["a.clab.yml", "b.clab.yml", "partition.json"]
        .iter()
        .map(|f| std::fs::read_to_string(Path::new(&b).join("lab/split").join(f)).unwrap())
        .collect();
    split_ab(&b);
    for (f, was) in ["a.clab.yml", "b.clab.yml", "partition.json"]
        .iter()
        .zip(before)
    {
        let now = std::fs::read_to_string(Path::new(&b).join("lab/split").join(f)).unwrap();
        assert_eq!(now, was, "{f} changed");
    }
}

#[test]
fn a_hosts_file_splits_three_ways() {
    let (tmp, b) = sc15();
    let file = tmp.path().join("hosts.csv");
    std::fs::write(
        &file,
        "# the show's lab machines\nhall-a,10.1.0.1\nhall-b,10.1.0.2\nhall-c = 10.1.0.3\n",
    )
    .unwrap();
    let r = democ(&[
        "lab",
        "split",
        &b,
        "--lab-hosts-file",
        &file.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(&b).join("lab/split/partition.json")).unwrap(),
    )
    .unwrap();
    let sizes: Vec<usize> = summary["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["nodes"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes.iter().sum::<usize>(), 33);
    // Split again over two: the third host's part is gone.
    split_ab(&b);
    assert!(!Path::new(&b).join("lab/split/hall-c.clab.yml").exists());
    assert!(Path::new(&b).join("lab/split/a.clab.yml").exists());
    assert!(
        sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
        "{sizes:?}"
    );
}

/// A refused split: exit 2, the code, a help line, nothing written; stderr snapshotted
/// with the build's temporary path taken out.
fn refused(name: &str, args: &[&str], code: &str) {
    let (_tmp, b) = sc15();
    let mut argv = vec!["lab", "split", b.as_str()];
    argv.extend_from_slice(args);
    let r = democ(&argv);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("[{code}]")), "{}", r.stderr);
    assert!(r.stderr.contains("= help: "), "{}", r.stderr);
    assert!(!Path::new(&b).join("lab/split").exists(), "written anyway");
    insta::assert_snapshot!(name, r.stderr.replace(&b, "BUILD"));
}

#[test]
fn bad_lab_hosts_are_located() {
    refused(
        "E0701-lab-hosts",
        &[
            "--lab-hosts",
            "a=10.0.0.1,B=10.0.0.2,c=10.0.0.1,d=10.0.0.300,e",
        ],
        "E0701",
    );
    refused("E0701-one-host", &["--lab-hosts", "a=10.0.0.1"], "E0701");
    let many: Vec<String> = (0..34).map(|i| format!("h{i}=10.9.0.{}", i + 1)).collect();
    refused(
        "E0702-more-hosts-than-nodes",
        &["--lab-hosts", &many.join(",")],
        "E0702",
    );
}

#[test]
fn a_bad_line_of_a_hosts_file_is_located() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hosts.csv");
    std::fs::write(&file, "hall-a,10.1.0.1\nhall-a,10.1.0.2\n").unwrap();
    let path = file.display().to_string();
    let (_t, b) = sc15();
    let r = democ(&["lab", "split", &b, "--lab-hosts-file", &path]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    insta::assert_snapshot!("E0701-hosts-file", r.stderr.replace(&path, "hosts.csv"));
}

#[test]
fn lab_up_on_a_host_the_split_does_not_name_is_located() {
    let (_tmp, b) = sc15();
    split_ab(&b);
    let r = democ(&["lab", "up", &b, "--on", "c"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("[E0703]") && r.stderr.contains("= help: "),
        "{}",
        r.stderr
    );
    insta::assert_snapshot!("E0703-unknown-lab-host", r.stderr);
}
