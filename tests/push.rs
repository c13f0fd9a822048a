//! `democ push` (issue 11 §3): democ checks the folder and hands the work to the NAPALM
//! shim (validators/push), passing its exit code through. The shim's own behaviour
//! (diffs, commit-confirm, rollback, credentials) is tested in validators/push/tests;
//! here: the wiring, with NAPALM's mock driver selected through the environment.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn democ(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_democ"));
    c.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    // The developer's own push settings must not reach the test.
    for (k, _) in std::env::vars() {
        if k.starts_with("DEMOC_PUSH") {
            c.env_remove(k);
        }
    }
    c.envs(env.iter().copied());
    c.output().expect("democ runs")
}

/// The repo's venv Python when it has the shim; else why the test cannot run.
fn venv_python() -> Result<PathBuf, String> {
    let py = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if !py.is_file() {
        return Err(format!("no {} (./test.sh makes it)", py.display()));
    }
    let ok = Command::new(&py)
        .args(["-c", "import democ_push"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return Err(format!(
            "{} lacks democ_push (`pip install -e validators/push`)",
            py.display()
        ));
    }
    Ok(py)
}

/// sc16 built into a temporary folder (kept while the first value lives).
fn sc16() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let build = tmp.path().join("sc16");
    let o = democ(
        &[
            "build",
            "examples/sc16/show.yaml",
            "-o",
            build.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (tmp, build)
}

#[test]
fn a_folder_that_is_not_a_build_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let o = democ(&["push", tmp.path().to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no manifest.json"), "{err}");
}

#[test]
fn a_python_without_the_shim_is_a_clear_usage_error() {
    let (tmp, build) = sc16();
    // python3 without site-packages: the standard library, never the shim.
    let wrapper = tmp.path().join("python-no-site");
    std::fs::write(&wrapper, "#!/bin/sh\nexec python3 -I -S \"$@\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    if Command::new(&wrapper)
        .arg("-c")
        .arg("pass")
        .status()
        .is_err()
    {
        println!("skipped: no python3 on PATH");
        return;
    }
    let o = democ(
        &["push", build.to_str().unwrap()],
        &[("DEMOC_PYTHON", wrapper.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("democ_push) is not installed")
            && err.contains("pip install -e validators/push"),
        "{err}"
    );
}

#[test]
fn a_dry_run_on_sc16_prints_a_line_per_device() {
    let py = match venv_python() {
        Ok(p) => p,
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let (tmp, build) = sc16();
    // One fixture folder for every device: each loads, shows a one-line diff, discards.
    let mock = tmp.path().join("mock");
    std::fs::create_dir(&mock).unwrap();
    for (f, body) in [
        ("load_replace_candidate.1", "{}"),
        ("compare_config.1", r#"{"diff": "+ntp server 192.0.2.123"}"#),
        ("discard_config.1", "{}"),
    ] {
        std::fs::write(mock.join(f), body).unwrap();
    }
    let reports = tmp.path().join("reports");
    let o = democ(
        &[
            "push",
            build.to_str().unwrap(),
            "--report-dir",
            reports.to_str().unwrap(),
            "--parallel",
            "2",
        ],
        &[
            ("DEMOC_PYTHON", py.to_str().unwrap()),
            ("DEMOC_PUSH_DRIVER", "mock"),
            ("DEMOC_PUSH_MOCK_DIR", mock.to_str().unwrap()),
            ("DEMOC_PUSH_USER", "ops"),
            ("DEMOC_PUSH_PASSWORD", "pw-rust-test-Qx7"),
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    let switches: Vec<String> = std::fs::read_dir(build.join("ir"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "json")
                .then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    assert_eq!(switches.len(), 19);
    for s in &switches {
        let line = format!("{s} (");
        assert!(
            out.lines()
                .any(|l| l.starts_with(&line) && l.contains("dry-run): changed")),
            "no line for {s}:\n{out}"
        );
        assert!(
            reports.join(format!("{s}.json")).is_file(),
            "no report for {s}"
        );
    }
    assert!(out.contains("+ntp server 192.0.2.123"), "{out}");
    assert!(
        out.contains("push dry run (nothing committed): 19 devices"),
        "{out}"
    );
    assert!(!out.contains("pw-rust-test-Qx7") && !err.contains("pw-rust-test-Qx7"));
    // Options reach the shim, and its usage errors come back as democ's exit 2.
    let o = democ(
        &[
            "push",
            build.to_str().unwrap(),
            "--preamble",
            "junos=site.cfg",
        ],
        &[("DEMOC_PYTHON", py.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--preamble 'junos=site.cfg'"));
}
