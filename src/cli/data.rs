//! `democ data [--fetch] [--clab-schema FROM]`: where democ looks for the files it does
//! not carry (containerlab's schema, the validators' Python), which one it uses, and,
//! on request, containerlab's schema put into democ's data folder.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

use super::locate::{self, CLAB_SCHEMA, Place};
use super::usage;

#[derive(Args, Debug)]
pub(super) struct DataArgs {
    /// Put containerlab's schema into democ's data folder: copied from where the search
    /// finds one (containerlab's installation, beside democ's checkout), else downloaded
    /// with curl from containerlab's repository at the installed containerlab's version.
    #[arg(long)]
    fetch: bool,
    /// With `--fetch`: copy this file (a containerlab JSON Schema) instead.
    #[arg(long, value_name = "FROM", requires = "fetch")]
    clab_schema: Option<PathBuf>,
}

/// The modules `democ validate` and `democ push` run with the Python found.
const MODULES: [&str; 3] = [
    "democ_validators_avd",
    "democ_validators_batfish",
    "democ_push",
];

fn places_text(title: &str, places: &[Place], used: Option<&Path>) -> String {
    let width = places.iter().map(|p| p.what.len()).max().unwrap_or(0);
    let mut out = format!("{title}, looked for in this order:\n");
    for p in places {
        let state = match &p.path {
            None => "(not set)".to_owned(),
            Some(path) => {
                let mark = if used == Some(path.as_path()) {
                    "  <- used"
                } else if path.is_file() {
                    "  (present)"
                } else if path.is_absolute() {
                    "  (absent)"
                } else {
                    ""
                };
                format!("{}{mark}", path.display())
            }
        };
        out.push_str(&format!("  {:width$}  {state}\n", p.what));
    }
    out
}

fn show() -> i32 {
    let data = locate::data_dir();
    let mut out = format!(
        "democ's data folder: {} (DEMOC_DATA_DIR, else $XDG_DATA_HOME/democ, else ~/.local/share/democ)\n\n",
        data.as_ref()
            .map_or_else(|| "none (no HOME)".to_owned(), |d| d.display().to_string())
    );
    let schema = locate::clab_schema(None);
    out.push_str(&places_text(
        "containerlab's schema (democ validate)",
        &locate::clab_schema_places(None),
        schema.as_ref().map(|(_, p)| p.as_path()),
    ));
    if schema.is_none() {
        out.push_str("  none found: `democ data --fetch` puts one in democ's data folder\n");
    }
    let py = super::python::python();
    out.push('\n');
    out.push_str(&places_text(
        "the validators' Python (democ validate, democ push)",
        &locate::python_places(),
        Some(&py),
    ));
    for m in MODULES {
        let state = match super::python::has_module(&py, m) {
            Ok(true) => "installed".to_owned(),
            Ok(false) => "not installed".to_owned(),
            Err(e) => e,
        };
        out.push_str(&format!("  {m}: {state}\n"));
    }
    crate::cli::stdout::put(&crate::escape::lines(&out));
    0
}

/// The installed containerlab's release (`v0.72.0`), when it says one.
fn containerlab_release() -> Option<String> {
    let bin = locate::containerlab_bin()?;
    let out = Command::new(bin)
        .arg("version")
        .env("NO_COLOR", "1")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("version:"))?
        .trim()
        .to_owned();
    // A development build says 0.0.0: no release of that name.
    (v.chars().all(|c| c.is_ascii_digit() || c == '.') && v != "0.0.0").then(|| format!("v{v}"))
}

/// containerlab's schema as its repository holds it at `release` (else its main branch).
fn download(release: Option<&str>) -> Result<(Vec<u8>, String), String> {
    let url = format!(
        "https://raw.githubusercontent.com/srl-labs/containerlab/{}/schemas/{CLAB_SCHEMA}",
        release.unwrap_or("main")
    );
    let out = Command::new("curl")
        .args(["-fsSL", "--max-time", "60", &url])
        .output()
        .map_err(|e| format!("cannot run curl ({e}) to fetch {url}"))?;
    if !out.status.success() {
        return Err(format!(
            "curl could not fetch {url}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok((out.stdout, url))
}

/// The schema's bytes and where they came from.
fn source(from: Option<&Path>, data: &Path) -> Result<(Vec<u8>, String), String> {
    let target = data.join(CLAB_SCHEMA);
    let found = match from {
        Some(p) => Some(p.to_path_buf()),
        None => locate::clab_schema_places(None)
            .into_iter()
            .filter_map(|p| p.path)
            .find(|p| p.is_file() && *p != target),
    };
    match found {
        Some(p) => crate::read::bounded(&p, crate::read::MAX_FILE_BYTES)
            .map(|b| (b, p.display().to_string()))
            .map_err(|e| format!("cannot read {}: {}", p.display(), e.reason())),
        None => download(containerlab_release().as_deref()),
    }
}

fn fetch(from: Option<&Path>) -> i32 {
    let Some(data) = locate::data_dir() else {
        return usage("no data folder: set DEMOC_DATA_DIR (or HOME)");
    };
    let (bytes, origin) = match source(from, &data) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    // Only a JSON Schema democ can use goes in: what validate would refuse, fetch does.
    let usable = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .is_some_and(|v| jsonschema::validator_for(&v).is_ok());
    if !usable {
        return usage(&format!(
            "{origin} is not a JSON Schema democ can use; nothing written"
        ));
    }
    if let Err(e) = std::fs::create_dir_all(&data) {
        return usage(&format!("cannot create {}: {e}", data.display()));
    }
    let target = data.join(CLAB_SCHEMA);
    match crate::write::file(&target, &bytes) {
        Ok(()) => {
            eprintln!(
                "wrote {} (from {}); `democ validate` uses it now",
                target.display(),
                crate::escape::line(&origin)
            );
            0
        }
        Err(e) => usage(&e),
    }
}

pub(super) fn run(a: &DataArgs) -> i32 {
    if a.fetch {
        fetch(a.clab_schema.as_deref())
    } else {
        show()
    }
}
