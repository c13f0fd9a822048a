//! `democ init` (issue 41): what it writes passes `democ check` (exit 0) and `democ plan`
//! for every WAN kind and for mixed switch models; a flag it cannot use is a located
//! E0013 (exit 2) naming the catalog entries that would do; it never replaces a spec.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// democ in `dir`, stdin closed (no questions: flags and defaults only).
fn democ(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("democ runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `democ init show ARGS`, then `democ check` and `democ plan` in it: both exit 0, with
/// no warning. Returns the spec written.
fn init_checks(args: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let mut all = vec!["init", "show"];
    all.extend_from_slice(args);
    let o = democ(tmp.path(), &all);
    assert_eq!(
        o.status.code(),
        Some(0),
        "init {args:?}: {}",
        text(&o.stderr)
    );
    let err = text(&o.stderr);
    assert!(err.contains("wrote show/show.yaml"), "{err}");
    assert!(err.contains("checked: 0 warnings"), "{err}");
    assert!(err.contains("next: cd show && democ check"), "{err}");
    let show = tmp.path().join("show");
    assert!(show.join("democ.schema.json").is_file());
    let check = democ(&show, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert!(
        text(&check.stderr).contains("ok: show"),
        "{}",
        text(&check.stderr)
    );
    let deny = democ(&show, &["check", "--deny", "warnings"]);
    assert_eq!(deny.status.code(), Some(0), "{}", text(&deny.stderr));
    let plan = democ(&show, &["plan"]);
    assert_eq!(plan.status.code(), Some(0), "{}", text(&plan.stderr));
    assert!(
        !text(&plan.stdout).contains("SHORT"),
        "{}",
        text(&plan.stdout)
    );
    std::fs::read_to_string(show.join("show.yaml")).unwrap()
}

#[test]
fn defaults_check_clean_and_say_what_is_next() {
    let spec = init_checks(&[]);
    assert!(spec.starts_with("# yaml-language-server: $schema=democ.schema.json"));
    assert!(spec.contains("# Next: `democ check`"), "{spec}");
    assert!(spec.contains("model: arista-7060dx5-64s"), "{spec}");
    assert!(
        spec.contains("cpu: epyc-9555   # democ init's guess"),
        "{spec}"
    );
    assert!(spec.contains("name: booth-a-to-booth-b"), "{spec}");
}

/// The planner: two booths (Arista and Dell), ConnectX-7 DTNs, a 400ZR dark
/// fiber to a PoP.
#[test]
fn two_vendors_and_a_400zr_dark_fiber() {
    let spec = init_checks(&[
        "--booth",
        "caltech",
        "--booth",
        "starlight",
        "--remote",
        "pop",
        "--switch",
        "arista-7060dx5-64s",
        "--switch",
        "starlight=dell-z9432f-on",
        "--nic",
        "nvidia-cx7-400g",
        "--wan",
        "dark-fiber",
        "--wan-km",
        "22",
    ]);
    assert!(
        spec.contains("model: dell-z9432f-on\n    os: os10"),
        "{spec}"
    );
    assert!(spec.contains("kind: dark-fiber"), "{spec}");
    assert!(spec.contains("optic: 400zr\n"), "{spec}");
    assert!(spec.contains("length_km: 22"), "{spec}");
}

#[test]
fn an_otn_wave_and_a_circuit() {
    let otn = init_checks(&["--wan", "otn", "--wan-km", "800"]);
    assert!(otn.contains("client: 400GE"), "{otn}");
    let circuit = init_checks(&["--wan", "circuit", "--wan-km", "2000", "--rate", "100G"]);
    assert!(circuit.contains("capacity: 400G"), "{circuit}");
    assert!(circuit.contains("rtt_ms: 20"), "{circuit}");
    assert!(circuit.contains("rate: 100G"), "{circuit}");
}

/// A NIC slower than the cages, and a NIC faster than the switch: the link's speed is
/// written where it is not both ends' default.
#[test]
fn speeds_that_differ_are_written() {
    let slower = init_checks(&["--nic", "nvidia-cx6dx-100g", "--dtns", "3"]);
    assert!(
        slower.contains("b: \"booth-a-sw:1/3\", speed: 100G"),
        "{slower}"
    );
    let faster = init_checks(&["--switch", "dell-z9100-on", "--remote", "pop"]);
    assert!(faster.contains("speed: 100G"), "{faster}");
    assert!(faster.contains("kind: dark-fiber"), "{faster}");
}

/// Part numbers from the quote name their catalog entries; the spec is written with the
/// catalog's names and checks clean.
#[test]
fn part_numbers_are_their_catalog_entries() {
    let spec = init_checks(&["--switch", "DCS-7060DX5-64S", "--nic", "MCX75310AAS-NEAT"]);
    assert!(spec.contains("model: arista-7060dx5-64s"), "{spec}");
    assert!(spec.contains("model: nvidia-cx7-400g"), "{spec}");
}

#[test]
fn bad_flags_are_located_with_the_entries_that_would_do() {
    let tmp = tempfile::tempdir().unwrap();
    let o = democ(
        tmp.path(),
        &[
            "init",
            "show",
            "--switch",
            "arista-72",
            "--nic",
            "cx7",
            "--dtns",
            "0",
            "--rate",
            "10",
        ],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("error[E0013]").count(), 4, "{err}");
    assert!(err.contains("command line:1:"), "{err}");
    assert!(err.contains("^^^^^^^^^ `--switch`"), "{err}");
    assert!(
        err.contains("`arista-72` matches catalog entries")
            && err.contains("`arista-7280sr-48c6`")
            && err.contains("`arista-7280cr-48`"),
        "{err}"
    );
    assert!(err.contains("nvidia-cx7-400g"), "{err}");
    assert!(err.contains("init: nothing written"), "{err}");
    assert!(!tmp.path().join("show").exists());
}

#[test]
fn a_dark_fiber_too_long_names_the_optics_and_their_spans() {
    let tmp = tempfile::tempdir().unwrap();
    let o = democ(
        tmp.path(),
        &["init", "x", "--remote", "far", "--wan-km", "400"],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no catalog optic carries 400 km"), "{err}");
    assert!(err.contains("`400zr-plus` up to"), "{err}");
    assert!(err.contains("`--wan otn`"), "{err}");
}

#[test]
fn an_existing_spec_is_never_replaced_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("show.yaml"), "mine\n").unwrap();
    let o = democ(tmp.path(), &["init"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--force"), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("show.yaml")).unwrap(),
        "mine\n"
    );
    let o = democ(tmp.path(), &["init", "--force", "--name", "mine"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let check = democ(tmp.path(), &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
}
