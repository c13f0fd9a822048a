//! The Python that runs democ's validator packages (validators/): `democ push` runs the
//! NAPALM shim with it, `democ validate` the avd and batfish checks.

use std::path::{Path, PathBuf};
use std::process::Command;

/// DEMOC_PYTHON; else the `.venv` of the checkout this binary was built in (test.sh
/// installs the packages there; the binary sits in `<repo>/target/<profile>/`); else
/// python3.
pub(crate) fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("DEMOC_PYTHON").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().ok();
    exe.as_deref()
        .into_iter()
        .flat_map(Path::ancestors)
        .map(|dir| dir.join(".venv/bin/python"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("python3"))
}

/// Exit status of the probe when the module is missing (any other failure is Python's).
const MISSING: i32 = 3;

/// Whether `py` can import `module` (found without importing it, so a package with
/// heavy dependencies costs nothing to probe). Err: Python itself could not run.
pub(crate) fn has_module(py: &Path, module: &str) -> Result<bool, String> {
    let probe = format!(
        "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec({module:?}) else {MISSING})"
    );
    let status = Command::new(py)
        .args(["-c", &probe])
        .status()
        .map_err(|e| format!("cannot run {} ({e}); set DEMOC_PYTHON", py.display()))?;
    match status.code() {
        Some(0) => Ok(true),
        Some(MISSING) => Ok(false),
        _ => Err(format!(
            "{} failed ({status}) checking for {module}; set DEMOC_PYTHON",
            py.display()
        )),
    }
}
