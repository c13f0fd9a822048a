//! Names are what the planner wrote: YAML 1.1 reads `y`, `on`, `no` as booleans and
//! `0x10`, `1e3` as numbers, and a switch named `y` became `true` (two such switches
//! were "declared twice"). Issue 13 §5.

#![cfg(unix)]

mod common;

const NAMES: &[&str] = &[
    "y", "n", "on", "off", "yes", "no", "1e3", "0x10", "true", "null",
];

#[test]
fn switch_names_are_kept_as_written() {
    let mut spec =
        String::from("show: { name: names }\nsites:\n  s1: { kind: booth }\nswitches:\n");
    for n in NAMES {
        spec.push_str(&format!("  {n}: {{ model: dell-z9100-on, site: s1 }}\n"));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("show.yaml"), &spec).expect("write spec");
    let run = common::democ_bounded(Some(dir.path()), &["ir", "show.yaml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ir: serde_json::Value = serde_json::from_str(&run.stdout).expect("IR is JSON");
    let mut names: Vec<&str> = ir["switches"]
        .as_array()
        .expect("switches")
        .iter()
        .filter_map(|s| s["hostname"].as_str())
        .collect();
    names.sort_unstable();
    let mut want = NAMES.to_vec();
    want.sort_unstable();
    assert_eq!(names, want);
}

/// The same words as values: a site named `on`, hosts named `yes`, `1e3` and `0x10`,
/// flows naming them in `from`, `to` and `path`. Before, every such value was "expected
/// a string, found a boolean", and `0x10` as a value became "16".
#[test]
fn names_used_as_values_are_kept_as_written() {
    let host = |name: &str, site: &str| {
        format!(
            "  {name}: {{ site: {site}, chassis: generic-1s-gen3, cpu: xeon-e5-2697-v3, \
             nics: [{{ model: mellanox-cx4-100g, slot: \"1\", ports: [p0] }}] }}\n"
        )
    };
    let mut spec = String::from(
        "show: { name: names }\nsites: { on: { kind: booth }, off: { kind: booth } }\n\
         switches:\n  y: { site: on, model: dell-z9100-on }\n  n: { site: off, model: dell-z9100-on }\n\
         hosts:\n",
    );
    for (name, site) in [("yes", "on"), ("1e3", "on"), ("no", "off"), ("0x10", "off")] {
        spec.push_str(&host(name, site));
    }
    spec.push_str(
        "links:\n  - { a: \"yes:p0\", b: \"y:1/1\", media: dac }\n\
         \x20 - { a: \"1e3:p0\", b: \"y:1/2\", media: dac }\n\
         \x20 - { a: \"no:p0\", b: \"n:1/1\", media: dac }\n\
         \x20 - { a: \"0x10:p0\", b: \"n:1/2\", media: dac }\n\
         \x20 - { a: \"y:1/32\", b: \"n:1/32\", media: fiber, optic: 100gbase-lr4, length_m: 300 }\n\
         flows:\n  - { name: on, from: yes, to: no, rate: 10G, protocol: tcp }\n\
         \x20 - { name: off, from: 1e3, to: 0x10, rate: 10G, protocol: tcp, path: [y, n] }\n",
    );
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("show.yaml"), &spec).expect("write spec");
    let run = common::democ_bounded(Some(dir.path()), &["plan", "show.yaml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for want in ["on ", "off ", "0x10:p0", "1e3:p0", "yes:p0", "no:p0"] {
        assert!(
            run.stdout.contains(want),
            "{want} missing from\n{}",
            run.stdout
        );
    }
    assert!(!run.stdout.contains("16:p0"), "{}", run.stdout);
}
