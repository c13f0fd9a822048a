//! Running one of the validator packages (`python -m MODULE ...`) and reading its exit
//! code as an outcome.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use super::outcome::{Outcome, WHY_LINES, first_lines};

/// Why `module` cannot run with `py` (not installed, or no Python), if it cannot, and
/// what fixes it.
pub(crate) fn unavailable(py: &Path, module: &str, package: &str) -> Option<(String, String)> {
    let fix = format!(
        "DEMOC_PYTHON=PYTHON democ validate ... with a Python that has {module} \
         (`pip install -e validators/{package}` from democ's checkout; `./test.sh` makes \
         the checkout's .venv, which democ finds itself); `democ data` shows the search"
    );
    match crate::cli::python::has_module(py, module) {
        Ok(true) => None,
        Ok(false) => Some((
            format!("{module} is not installed for {}", py.display()),
            fix,
        )),
        Err(e) => Some((e, fix)),
    }
}

/// The lines of a per-file validator's report that name an invalid file
/// (`switch: file: invalid: why`).
pub(crate) fn invalid(report: &str) -> String {
    report
        .lines()
        .filter(|l| l.contains(": invalid: "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether any switch's IR (`ir/<switch>.json`) says `os: <os>`. Unreadable IR counts
/// as that OS, so the package runs and reports the problem itself.
pub(crate) fn has_os(build: &Path, os: &str) -> bool {
    let Ok(dir) = std::fs::read_dir(build.join("ir")) else {
        return true;
    };
    dir.filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .any(|p| {
            std::fs::read_to_string(&p)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .is_none_or(|v| v["os"] == os)
        })
}

/// What the module printed and how it exited.
pub(crate) struct Ran {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

pub(crate) fn run<S: AsRef<OsStr>>(py: &Path, module: &str, args: &[S]) -> Result<Ran, String> {
    let o = Command::new(py)
        .arg("-m")
        .arg(module)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {} ({e})", py.display()))?;
    Ok(Ran {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    })
}

/// A run that did not exit 0: its `error:` lines first (exit 2: an I/O, IR or service
/// problem), then `report`, the part of its stdout that says what differs; when both are
/// empty, the end of its stderr (a Python traceback ends with the exception).
pub(crate) fn failure(name: &'static str, r: &Ran, report: &str) -> Outcome {
    let errors: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("error"))
        .collect();
    let mut why = format!("{}\n{report}", errors.join("\n"));
    if why.trim().is_empty() {
        let tail: Vec<&str> = r.stderr.lines().rev().take(WHY_LINES).collect();
        why = tail.into_iter().rev().collect::<Vec<_>>().join("\n");
    }
    if why.trim().is_empty() {
        let code = r
            .code
            .map_or_else(|| "a signal".to_owned(), |c| format!("exit {c}"));
        why = format!("stopped by {code}, printing nothing");
    }
    Outcome::failed(name, first_lines(&why))
}

/// The last non-blank line a module printed: its summary.
pub(crate) fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}
