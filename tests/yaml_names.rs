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
