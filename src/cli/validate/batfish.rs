//! `batfish-snapshot` and `batfish-questions`, by the validators/batfish package: the
//! offline snapshot is always built (it needs no service, and building it checks that
//! every config and cable maps onto Batfish's model); the questions only when a Batfish
//! service is named.
//!
//! The snapshot goes to a fresh temporary folder, removed afterwards: validate reads a
//! build and never changes it (the package's default is BUILD_DIR/snapshot).

use std::path::{Path, PathBuf};

use super::outcome::Outcome;
use super::pymod;

const SNAPSHOT: &str = "batfish-snapshot";
const QUESTIONS: &str = "batfish-questions";
const MODULE: &str = "democ_validators_batfish";

/// A new folder of our own under the temporary folder (`create_dir` fails on an
/// existing path, so nothing someone else put there is written into or removed).
fn scratch() -> Result<PathBuf, String> {
    let base = std::env::temp_dir();
    let pid = std::process::id();
    let mut last = String::new();
    for n in 0..100 {
        let dir = base.join(format!("democ-validate-{pid}-{n}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) => last = format!("{}: {e}", dir.display()),
        }
    }
    Err(last)
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.filter_map(Result::ok).count())
}

fn snapshot(py: &Path, build: &Path, out: &Path) -> Outcome {
    let args = [
        "-o".as_ref(),
        out.as_os_str(),
        "--".as_ref(),
        build.as_os_str(),
    ];
    match pymod::run(py, MODULE, &args) {
        Err(e) => Outcome::failed(SNAPSHOT, e),
        Ok(r) if r.code == Some(0) => Outcome::passed(
            SNAPSHOT,
            format!(
                "{} switch config(s) and {} host(s) Batfish can model (`python -m {MODULE} \
                 BUILD_DIR -o DIR` keeps a copy)",
                files_in(&out.join("configs")),
                files_in(&out.join("hosts"))
            ),
        ),
        Ok(r) => pymod::failure(SNAPSHOT, &r, ""),
    }
}

fn questions(py: &Path, build: &Path, host: &str, out: &Path) -> Outcome {
    if let Some((why, fix)) = pymod::unavailable(py, "pybatfish", "batfish") {
        return Outcome::not_run(QUESTIONS, why, fix);
    }
    let args = [
        "--batfish-host".as_ref(),
        host.as_ref(),
        "--snapshot-dir".as_ref(),
        out.as_os_str(),
        "--".as_ref(),
        build.as_os_str(),
    ];
    match pymod::run(py, &format!("{MODULE}.questions"), &args) {
        Err(e) => Outcome::failed(QUESTIONS, e),
        Ok(r) if r.code == Some(0) => Outcome::passed(QUESTIONS, pymod::last_line(&r.stdout)),
        // Sections with nothing in them (`parse warnings: 0`) are not the why.
        Ok(r) => {
            let report: Vec<&str> = r.stdout.lines().filter(|l| !l.ends_with(": 0")).collect();
            pymod::failure(QUESTIONS, &r, &report.join("\n"))
        }
    }
}

pub(crate) fn check(py: &Path, build: &Path, host: Option<&str>) -> Vec<Outcome> {
    let no_service = || {
        Outcome::skipped(
            QUESTIONS,
            "no Batfish service (--batfish-host or BATFISH_HOST)",
        )
    };
    if let Some((why, fix)) = pymod::unavailable(py, MODULE, "batfish") {
        let questions = match host {
            Some(_) => Outcome::not_run(QUESTIONS, why.clone(), fix.clone()),
            None => no_service(),
        };
        return vec![Outcome::not_run(SNAPSHOT, why, fix), questions];
    }
    let dir = match scratch() {
        Ok(d) => d,
        Err(e) => {
            let why = format!("no temporary folder for the snapshot: {e}");
            return vec![Outcome::failed(SNAPSHOT, why), no_service()];
        }
    };
    let snap = snapshot(py, build, &dir.join("snapshot"));
    let asked = match host {
        Some(h) => questions(py, build, h, &dir.join("asked")),
        None => no_service(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    vec![snap, asked]
}
