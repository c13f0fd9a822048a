//! `democ build` says what it did (issue 41): on stderr, the files by kind (as many as
//! the folder holds), the plan's headline, the warnings and the next commands; nothing
//! with `--quiet`.

use std::path::Path;
use std::process::{Command, Output};

fn democ(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir)
        .args(args)
        .args(["--color", "never"])
        .output()
        .expect("democ runs")
}

/// The two-booth fixture, `big` asking for `big`.
fn show(big: &str) -> tempfile::TempDir {
    let text = std::fs::read_to_string("tests/fixtures/infeasible/show.yaml")
        .unwrap()
        .replace("BIG", big)
        .replace("EXPECT", "")
        .replace("ALLOW", "");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("show.yaml"), text).unwrap();
    dir
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                files_in(&e.path())
            } else {
                1
            }
        })
        .sum()
}

#[test]
fn a_build_says_what_it_wrote_and_what_comes_next() {
    let dir = show("30G");
    let o = democ(dir.path(), &["build", "show.yaml", "-o", "out", "--hosts"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(o.stdout.is_empty());
    let n = files_in(&dir.path().join("out"));
    assert!(
        err.contains(&format!(
            "built infeasible into out ({n} files): 2 switch configs, "
        )),
        "{n} files: {err}"
    );
    for part in [
        "4 host scripts",
        "1 lab file",
        "the report",
        "bom.csv, cabling.csv, manifest.json, plan.json",
        "plan: 2 flows, each predicted at its demand; busiest link",
        "next: open out/report/index.html; democ validate out; sudo democ twin up out",
        "democ diff OLD out after a change",
    ] {
        assert!(err.contains(part), "`{part}` missing: {err}");
    }
}

#[test]
fn a_short_flow_and_warnings_are_in_the_summary() {
    let dir = show("75G, streams: 1");
    let o = democ(dir.path(), &["build", "show.yaml", "-o", "out"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("plan: 2 flows, 1 short (below 95 % of the demand: big at 91 %)"),
        "{err}"
    );
    assert!(
        err.contains("warnings: 3 (W0244, W0246, W0247), above"),
        "{err}"
    );
    assert!(
        err.contains("`--hosts` adds the DTN scripts the twin runs"),
        "{err}"
    );
}

#[test]
fn quiet_says_nothing_on_success() {
    let dir = show("30G");
    let o = democ(dir.path(), &["build", "show.yaml", "-o", "out", "--quiet"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    assert!(dir.path().join("out/manifest.json").is_file());
}
