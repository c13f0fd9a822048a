//! `democ validate BUILD_DIR` (issue 11 §4) on a build of examples/sc16: the containerlab
//! check runs for real, the pyavd cross-check when the Python democ finds has
//! validators/avd (DEMOC_PYTHON, else the checkout's .venv, else python3; skipped with
//! the reason otherwise), the Batfish questions are skipped without a service, the twin
//! without `--twin`. A broken topology fails; a folder that is not a build is refused.

#[path = "fixtures/twin_state.rs"]
mod twin_state;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use twin_state::twin_state;

use serde_json::Value;

fn democ(args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_democ"));
    // A developer's Batfish must not turn the questions on here.
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .env_remove("BATFISH_HOST");
    c.output().expect("democ runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `democ build examples/sc16/show.yaml -o <tmp>/out`.
fn sc16() -> (tempfile::TempDir, PathBuf) {
    built("examples/sc16/show.yaml")
}

/// `democ build SPEC -o <tmp>/out`.
fn built(spec: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let o = democ(&["build", spec, "-o", out.to_str().expect("utf-8 path")]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (tmp, out)
}

fn validate_json(build: &Path, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec!["validate", build.to_str().expect("utf-8 path")];
    args.extend(["--format", "json"]);
    args.extend(extra);
    let o = democ(&args);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| {
        panic!("--format json parses ({e}):\n{}", stdout(&o));
    });
    (o.status.code(), v)
}

/// The one validator named `name` in the JSON report.
fn entry<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["validators"]
        .as_array()
        .expect("validators")
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no validator {name} in {v}"))
}

/// The schema ships beside the project, not in it: without it the containerlab check
/// is skipped with the reason (the references are still checked).
fn schema_here() -> bool {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/schemas/clab.schema.json")
        .is_file()
}

#[test]
fn sc16_passes_what_applies_and_says_why_the_rest_is_skipped() {
    let (_tmp, out) = sc16();
    let (code, v) = validate_json(&out, &[]);
    assert_eq!(code, Some(0), "{v:#}");

    let clab = entry(&v, "containerlab");
    let want = if schema_here() { "passed" } else { "not run" };
    assert_eq!(clab["status"], want, "{clab}");

    let avd = entry(&v, "avd");
    match avd["status"].as_str() {
        Some("passed") => assert!(
            avd["detail"]
                .as_str()
                .unwrap_or("")
                .contains("4 EOS switch"),
            "{avd}"
        ),
        Some("not run") => {
            assert!(
                avd["detail"]
                    .as_str()
                    .unwrap_or("")
                    .contains("not installed"),
                "{avd}"
            );
            assert!(
                avd["fix"].as_str().unwrap_or("").contains("DEMOC_PYTHON"),
                "{avd}"
            );
        }
        _ => panic!("the pyavd cross-check must pass on sc16: {avd}"),
    }
    assert_ne!(entry(&v, "batfish-snapshot")["status"], "failed", "{v:#}");
    let q = entry(&v, "batfish-questions");
    assert_eq!(q["status"], "skipped");
    assert_eq!(
        q["detail"],
        "no Batfish service (--batfish-host or BATFISH_HOST)"
    );
    let twin = entry(&v, "twin");
    assert_eq!(twin["status"], "skipped");
    assert!(twin["detail"].as_str().unwrap_or("").contains("--twin"));

    // The counts are the entries'.
    let n = |s: &str| {
        v["validators"]
            .as_array()
            .expect("validators")
            .iter()
            .filter(|e| e["status"] == s)
            .count()
    };
    for (key, s) in [
        ("passed", "passed"),
        ("failed", "failed"),
        ("not_run", "not run"),
        ("skipped", "skipped"),
    ] {
        assert_eq!(v[key].as_u64(), Some(n(s) as u64), "{s}: {v:#}");
    }
}

/// sc25-400g's `scinet-core` runs SONiC: its config_db.json passes SONiC's YANG models,
/// and a corrupted copy fails them ("not run", with the reason and the fix, where the
/// Python democ finds lacks validators/sonic or no models are found).
#[test]
fn sonic_config_db_passes_the_yang_models_and_a_corrupted_one_fails() {
    let (_tmp, out) = built("examples/sc25-400g/show.yaml");
    let (_, v) = validate_json(&out, &[]);
    let sonic = entry(&v, "sonic-yang");
    if sonic["status"] == "not run" {
        let why = sonic["detail"].as_str().unwrap_or("");
        assert!(
            why.contains("not installed") || why.contains("no SONiC YANG models"),
            "{sonic}"
        );
        assert!(
            sonic["fix"].as_str().is_some_and(|f| !f.is_empty()),
            "{sonic}"
        );
        println!("sonic-yang not run here: {why}");
        return;
    }
    assert_eq!(sonic["status"], "passed", "{sonic}");
    let file = out.join("switches/scinet-core.config_db.json");
    let text = std::fs::read_to_string(&file).expect("democ wrote it");
    std::fs::write(
        &file,
        text.replacen("\"lanes\": \"0,1,2,3\"", "\"lanes\": \"\"", 1),
    )
    .expect("writable");
    let (code, v) = validate_json(&out, &[]);
    let sonic = entry(&v, "sonic-yang");
    assert_eq!(sonic["status"], "failed", "{sonic}");
    assert!(
        sonic["detail"]
            .as_str()
            .unwrap_or("")
            .contains("scinet-core"),
        "{sonic}"
    );
    assert_eq!(code, Some(1));
}

/// sc25-400g's `nv-sn4700` runs Cumulus Linux: its NVUE file passes NVIDIA's NVUE
/// models, and a corrupted copy fails them ("not run", with the reason and the fix,
/// where the Python democ finds lacks validators/cumulus).
#[test]
fn cumulus_nvue_file_passes_the_nvue_models_and_a_corrupted_one_fails() {
    let (_tmp, out) = built("examples/sc25-400g/show.yaml");
    let (_, v) = validate_json(&out, &[]);
    let nvue = entry(&v, "nvue-schema");
    if nvue["status"] == "not run" {
        let why = nvue["detail"].as_str().unwrap_or("");
        assert!(why.contains("not installed"), "{nvue}");
        assert!(
            nvue["fix"].as_str().is_some_and(|f| !f.is_empty()),
            "{nvue}"
        );
        println!("nvue-schema not run here: {why}");
        return;
    }
    assert_eq!(nvue["status"], "passed", "{nvue}");
    let file = out.join("switches/nv-sn4700.nvue.yaml");
    let text = std::fs::read_to_string(&file).expect("democ wrote it");
    assert!(text.contains("      mtu: 9194\n"), "{text}");
    std::fs::write(
        &file,
        text.replacen("      mtu: 9194\n", "      mtu: 9300\n", 1),
    )
    .expect("writable");
    let (code, v) = validate_json(&out, &[]);
    let nvue = entry(&v, "nvue-schema");
    assert_eq!(nvue["status"], "failed", "{nvue}");
    assert!(
        nvue["detail"].as_str().unwrap_or("").contains("nv-sn4700"),
        "{nvue}"
    );
    assert_eq!(code, Some(1));
}

#[test]
fn text_prints_one_line_per_validator_and_a_summary() {
    let (_tmp, out) = sc16();
    let o = democ(&["validate", out.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for name in [
        "containerlab",
        "avd",
        "sonic-yang",
        "nvue-schema",
        "batfish-snapshot",
        "batfish-questions",
        "twin",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "no line for {name}:\n{text}"
        );
    }
    assert!(
        text.contains("batfish-questions  skipped: no Batfish service"),
        "{text}"
    );
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("validate: ")),
        "{text}"
    );
}

#[test]
fn a_link_to_a_missing_node_fails_containerlab() {
    let (_tmp, out) = sc16();
    let lab = out.join("lab/sc16.clab.yml");
    let text = std::fs::read_to_string(&lab).expect("the topology");
    let broken = text.replacen(
        "endpoints: [\"cit-a-arista:",
        "endpoints: [\"ghost-node:",
        1,
    );
    assert_ne!(
        broken, text,
        "the topology has a cit-a-arista link to break"
    );
    std::fs::write(&lab, broken).expect("write");
    let (code, v) = validate_json(&out, &[]);
    assert_eq!(code, Some(1), "{v:#}");
    let clab = entry(&v, "containerlab");
    assert_eq!(clab["status"], "failed");
    let detail = clab["detail"].as_str().unwrap_or("");
    assert!(
        detail.contains("ghost-node") && detail.contains("names no declared node"),
        "{detail}"
    );
    assert!(v["failed"].as_u64() >= Some(1));
}

/// A stand-in's script missing from the build: containerlab could not bind it.
#[test]
fn a_missing_bound_file_fails_containerlab() {
    let (_tmp, out) = sc16();
    std::fs::remove_file(out.join("lab/nodes/cit-a-sn2700.sh")).expect("the stand-in's script");
    let (code, v) = validate_json(&out, &[]);
    assert_eq!(code, Some(1), "{v:#}");
    let clab = entry(&v, "containerlab");
    assert_eq!(clab["status"], "failed");
    let detail = clab["detail"].as_str().unwrap_or("");
    assert!(
        detail.contains("node cit-a-sn2700: nodes/cit-a-sn2700.sh is not in the build"),
        "{detail}"
    );
}

#[test]
fn the_twin_needs_a_hosts_build() {
    // Asked for, on a build without `--hosts`: skipped before anything is checked or
    // started on this machine.
    let (_tmp, out) = sc16();
    let (code, v) = validate_json(&out, &["--twin"]);
    assert_eq!(code, Some(0), "{v:#}");
    let twin = entry(&v, "twin");
    assert_eq!(twin["status"], "skipped");
    assert!(
        twin["detail"].as_str().unwrap_or("").contains("--hosts"),
        "{twin}"
    );
}

#[test]
fn a_folder_that_is_not_a_build_exits_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = democ(&["validate", tmp.path().to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("manifest.json"));
    assert!(stdout(&o).is_empty());
}

/// With `--twin`, where the twin can run (root, Linux, the tools): up, test, down on
/// the twin fixture, under a show name unique to this process (twins side by side on
/// one machine never meet), and nothing left up afterwards.
#[test]
fn the_twin_runs_up_test_down() {
    let o = democ(&["twin", "up", "/nonexistent-democ-build"]);
    let err = String::from_utf8_lossy(&o.stderr);
    if o.status.code() == Some(2) && err.contains("cannot run here") {
        println!("skipped: {err}");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/twin");
    std::fs::copy(src.join("catalog.yaml"), tmp.path().join("catalog.yaml")).expect("copy");
    let spec = std::fs::read_to_string(src.join("show.yaml")).expect("fixture");
    let name = format!("vd{:06}", std::process::id() % 1_000_000);
    let spec = spec.replace("name: twinmini", &format!("name: {name}"));
    let show = tmp.path().join("show.yaml");
    std::fs::write(&show, spec).expect("write");
    let out = tmp.path().join("out");
    let o = democ(&[
        "build",
        "--hosts",
        show.to_str().expect("utf-8 path"),
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let (code, v) = validate_json(&out, &["--twin"]);
    assert_eq!(code, Some(0), "{v:#}");
    let twin = entry(&v, "twin");
    assert_eq!(twin["status"], "passed", "{twin}");
    assert!(
        !twin_state(&out).join("created.json").exists() && !netns_named(&name),
        "the twin is down again"
    );
}

fn netns_named(prefix: &str) -> bool {
    Command::new("ip")
        .args(["netns", "list"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(prefix))
}

/// A check that applies but cannot run here (no Python with the validators) is "not
/// run" with the command that fixes it, apart from passed, failed and skipped; exit 0,
/// and 1 with `--require-all`.
#[test]
fn a_check_that_cannot_run_is_not_run_and_require_all_fails_it() {
    let (_tmp, out) = sc16();
    let build = out.to_str().expect("utf-8 path");
    let run = |extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_democ"));
        c.current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["validate", build])
            .args(extra)
            .env_remove("BATFISH_HOST")
            .env("DEMOC_PYTHON", "/nonexistent/democ-test-python");
        c.output().expect("democ runs")
    };
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let text = stdout(&o);
    assert!(
        text.contains("avd                not run: cannot run /nonexistent/democ-test-python"),
        "{text}"
    );
    assert!(
        text.contains("fix: DEMOC_PYTHON=PYTHON democ validate"),
        "{text}"
    );
    assert!(text.contains(" not run, "), "{text}");
    let o = run(&["--require-all"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}

/// `democ data --fetch --clab-schema FILE` puts the schema into democ's data folder,
/// which the search then finds first (after the flag and the variable).
#[test]
fn the_data_folder_holds_the_schema_validate_finds() {
    if !schema_here() {
        println!("skipped: no containerlab schema beside the checkout to copy");
        return;
    }
    let (tmp, out) = sc16();
    let data = tmp.path().join("data");
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas/clab.schema.json");
    let democ_data = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_democ"))
            .args(args)
            .env("DEMOC_DATA_DIR", &data)
            .env_remove("DEMOC_CLAB_SCHEMA")
            .env_remove("BATFISH_HOST")
            .output()
            .expect("democ runs")
    };
    let o = democ_data(&["data", "--fetch", "--clab-schema", schema.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(data.join("clab.schema.json").is_file());
    let shown = stdout(&democ_data(&["data"]));
    assert!(shown.contains("democ's data folder"), "{shown}");
    assert!(shown.contains("clab.schema.json  <- used"), "{shown}");
    let o = democ_data(&["validate", out.to_str().unwrap()]);
    let text = stdout(&o);
    assert!(
        text.contains("from democ's data folder) and the references"),
        "{text}"
    );
    // Not a JSON Schema: refused, nothing replaced.
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, "not json").unwrap();
    let o = democ_data(&["data", "--fetch", "--clab-schema", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}
