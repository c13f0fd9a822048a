//! The Python that runs democ's validator packages (validators/): `democ push` runs the
//! NAPALM shim with it, `democ validate` the avd and batfish checks.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The first of [`super::locate::python_places`]: DEMOC_PYTHON; else the venv in
/// democ's data folder; else the `.venv` that `./test.sh` made in the checkout this
/// binary was built from; else python3. A venv counts only when it is this user's (or
/// root's) and nobody else may write it; never one found by walking up from wherever
/// the binary sits: a folder planted above a copied binary must not choose the
/// interpreter that is handed the user's switch credentials.
pub(crate) fn python() -> PathBuf {
    for place in super::locate::python_places() {
        let Some(py) = place.path else { continue };
        match place.what {
            "DEMOC_PYTHON" | "PATH" => return py,
            _ => {
                // `<venv>/bin/python`: the venv is two folders up.
                let venv = py.parent().and_then(Path::parent);
                if venv.is_some_and(trusted) && py.is_file() {
                    return py;
                }
            }
        }
    }
    PathBuf::from("python3")
}

/// Whether `dir` is a real folder (not a symlink) owned by this user or root and not
/// writable by group or others.
#[cfg(unix)]
fn trusted(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(m) = std::fs::symlink_metadata(dir) else {
        return false;
    };
    let me = rustix::process::geteuid().as_raw();
    m.is_dir() && (m.uid() == me || m.uid() == 0) && m.mode() & 0o022 == 0
}

#[cfg(not(unix))]
fn trusted(dir: &Path) -> bool {
    dir.is_dir()
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
