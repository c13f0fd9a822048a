//! `democ twin` runs a SONiC switch's shipped FRR file as written: the routed show of
//! tests/fixtures/show/routes-bgp-sonic.yaml (`sw-a` on SONiC, BGP to a transit switch)
//! passes its flow, and with one `network` statement deleted from the build's
//! `switches/sw-a.frr.conf` exactly that flow fails. The same for a Cumulus Linux
//! `sw-a` (routes-bgp-cumulus.yaml) and the FRR file democ derives beside its NVUE
//! file (`switches/sw-a.frr-derived.conf`). Needs what tests/twin.rs needs (root,
//! namespaces, Open vSwitch, FRR, iperf3); skips with the reason otherwise.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// democ's exit code and output; a twin step may take minutes on a loaded machine.
fn democ(args: &[&str]) -> (i32, String, String) {
    let r = common::democ_in(None, args, Duration::from_secs(600));
    (r.code, r.stdout, r.stderr)
}

/// The fixture (`routes-bgp-<os>.yaml`) built with `--hosts` under `dir`, its show
/// named for this process and OS (so side-by-side runs never share a twin), sw-a's FRR
/// file (`switches/sw-a.<ext>`) changed by `frr`.
fn build(dir: &Path, os: &str, ext: &str, frr: impl Fn(String) -> String) -> PathBuf {
    let src = Path::new("tests/fixtures/show");
    std::fs::copy(src.join("catalog.yaml"), dir.join("catalog.yaml")).expect("copy");
    let name = format!("name: t{}{:06}", &os[..1], std::process::id() % 1_000_000);
    let spec = std::fs::read_to_string(src.join(format!("routes-bgp-{os}.yaml"))).expect("fixture");
    std::fs::write(dir.join("show.yaml"), spec.replace("name: routed", &name)).expect("write");
    let out = dir.join("out");
    let (code, _, err) = democ(&[
        "build",
        "--hosts",
        "--no-lock",
        &dir.join("show.yaml").display().to_string(),
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    let file = out.join(format!("switches/sw-a.{ext}"));
    let text = std::fs::read_to_string(&file).expect("democ writes sw-a's FRR file");
    std::fs::write(&file, frr(text)).expect("write");
    out
}

/// `twin up`, `twin test`, `twin down`: test's exit code and table.
fn run(out: &Path) -> (i32, String) {
    let out = out.display().to_string();
    let (code, _, err) = democ(&["twin", "up", &out]);
    assert_eq!(code, 0, "twin up: {err}");
    let (tested, table, err) = democ(&["twin", "test", &out]);
    let (down, _, derr) = democ(&["twin", "down", &out]);
    assert_eq!(down, 0, "twin down: {derr}");
    (tested, format!("{table}{err}"))
}

/// One twin at a time: two side by side on a small machine make `twin test` judge the
/// rows against saturated CPUs ("not tested").
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The flow passes with sw-a's FRR file as built, and fails with its `network` deleted.
fn passes_and_fails_without_its_network(os: &str, ext: &str) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (code, _, err) = democ(&["twin", "up", "/nonexistent-democ-build"]);
    if code == 2 && err.contains("cannot run here") {
        eprintln!("skipped: {err}");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let good = tmp.path().join("good");
    std::fs::create_dir(&good).expect("dir");
    let (code, table) = run(&build(&good, os, ext, |t| t));
    assert_eq!(code, 0, "{table}");
    assert!(
        table.contains("a-to-b") && table.contains("1 of 1 rows passed"),
        "{table}"
    );

    let bad = tmp.path().join("bad");
    std::fs::create_dir(&bad).expect("dir");
    let out = build(&bad, os, ext, |t| {
        assert!(t.contains("\n  network 10.1.1.0/24\n"), "{t}");
        t.replace("\n  network 10.1.1.0/24\n", "\n")
    });
    let (code, table) = run(&out);
    assert_ne!(code, 0, "{table}");
    assert!(table.contains("0 of 1 rows passed"), "{table}");
}

#[test]
fn the_twin_runs_the_shipped_frr_and_a_deleted_network_fails_its_flow() {
    passes_and_fails_without_its_network("sonic", "frr.conf");
}

#[test]
fn the_twin_runs_a_cumulus_switchs_derived_frr_and_a_deleted_network_fails_its_flow() {
    passes_and_fails_without_its_network("cumulus", "frr-derived.conf");
}
