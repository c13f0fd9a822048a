//! `democ diff OLD NEW` (issue 11 §5): what changed between two builds of sc16, for the
//! planner who edits the show the night before.

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::copy_dir;

fn democ(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("democ runs")
}

/// sc16 copied, `edit` applied to one of its files, built; and sc16 itself, built.
fn two_builds(file: &str, from: &str, to: &str) -> (tempfile::TempDir, String, String) {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("sc16");
    copy_dir(Path::new("examples/sc16"), &spec);
    let f = spec.join(file);
    let text = std::fs::read_to_string(&f).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&f, text.replacen(from, to, 1)).unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for (s, o) in [
        ("examples/sc16/show.yaml".to_owned(), &a),
        (spec.join("show.yaml").display().to_string(), &b),
    ] {
        let out = democ(&["build", &s, "-o", o.to_str().unwrap(), "--hosts"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (a, b) = (a.display().to_string(), b.display().to_string());
    (tmp, a, b)
}

#[test]
fn a_rate_change_shows_the_plan_and_the_flow_only() {
    // The RDMA terabit asks for 800G instead of 1T: no config line changes, the plan does.
    let (_t, a, b) = two_builds("flows.yaml", "rate: 1T", "rate: 800G");
    let o = democ(&["diff", &a, &b]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(
        out,
        "show: changed plan.json, report/index.html\n\
         flow cit-sl-rdma-1t: demand 1000.0 => 800.0 Gbit/s, predicted 990.9 => 800.0 Gbit/s (now limited by each of its 10 pairs asks for 80G)\n\
         2 files on 1 device; 1 flow change\n"
    );
}

#[test]
fn a_circuit_description_change_diffs_exactly_its_two_ends() {
    let (_t, a, b) = two_builds(
        "wan.yaml",
        "description: CENIC/PacWave to UCSD/SDSC, La Jolla",
        "description: PacWave to UCSD, La Jolla",
    );
    let o = democ(&["diff", &a, &b]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let summary: Vec<&str> = out.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(
        summary,
        [
            "pop-uen-sw: changed ir/pop-uen-sw.json, switches/pop-uen-sw.cfg",
            "show: changed cabling.csv, report/index.html",
            // cEOS boots the lab's copy of the config (lab/configs/).
            "ucsd-campus-sw: changed ir/ucsd-campus-sw.json, lab/configs/ucsd-campus-sw.cfg, switches/ucsd-campus-sw.cfg",
            "7 files on 3 devices; 0 flow changes",
        ]
    );
    for want in [
        "--- a/switches/pop-uen-sw.cfg\n+++ b/switches/pop-uen-sw.cfg\n",
        "- description \"CENIC/PacWave to UCSD/SDSC, La Jolla\"\n+ description \"PacWave to UCSD, La Jolla\"\n",
        "-   description CENIC/PacWave to UCSD/SDSC, La Jolla\n+   description PacWave to UCSD, La Jolla\n",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    let brief = democ(&["diff", &a, &b, "--summary"]);
    assert!(!String::from_utf8_lossy(&brief.stdout).contains("--- a/"));
}

#[test]
fn the_same_build_is_no_change_and_a_folder_that_is_not_a_build_is_refused() {
    let (t, a, _b) = two_builds("flows.yaml", "rate: 1T", "rate: 1T");
    let o = democ(&["diff", &a, &a]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "no change\n");
    let not = t.path().join("sc16");
    let o = democ(&["diff", &a, not.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is it a `democ build` folder?"));
}
