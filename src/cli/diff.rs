//! `democ diff OLD_BUILD NEW_BUILD`: what changed between two builds, for the planner
//! who edits the show the night before. Both folders must be democ builds; the files
//! compared are the ones their manifests list (by sha256, so unchanged files are not
//! read twice), grouped by the device they configure, with a unified diff of every
//! changed text a device runs (configs, rulesets, host scripts, lab scripts), the flow
//! pairs whose planned path, RTT or MTU moved, and the flows whose demand or predicted
//! rate moved (`plan.json`). Exit 0 when nothing changed, 1 when
//! something did, 2 on usage or I/O problems (as diff(1)).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::Args;

use crate::manifest::{Entry, Previous};

#[derive(Args, Debug)]
pub(crate) struct DiffArgs {
    /// The earlier build folder.
    old: PathBuf,
    /// The later build folder.
    new: PathBuf,
    /// Only the per-device summary and the flows, no unified diffs.
    #[arg(long)]
    summary: bool,
}

/// A build folder: its manifest's files by path.
struct Build {
    dir: PathBuf,
    files: BTreeMap<String, Entry>,
}

fn load(dir: &Path) -> Result<Build, String> {
    let bytes = std::fs::read(dir.join("manifest.json")).map_err(|e| {
        format!(
            "{}: no readable manifest.json ({e}); is it a `democ build` folder?",
            dir.display()
        )
    })?;
    let m = Previous::parse(&bytes).map_err(|e| format!("{}/manifest.json: {e}", dir.display()))?;
    let mut files = BTreeMap::new();
    for e in m.files {
        // The manifest names files inside the build; anything else is not democ's.
        let p = Path::new(&e.path);
        if p.is_absolute()
            || p.components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(format!(
                "{}/manifest.json names `{}`, outside the build",
                dir.display(),
                e.path
            ));
        }
        files.insert(e.path.clone(), e);
    }
    Ok(Build {
        dir: dir.to_owned(),
        files,
    })
}

/// The device a build file configures (switch or DTN), or `show` for show-wide files.
fn device(path: &str) -> String {
    let stem = |p: &str| {
        Path::new(p)
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    };
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["switches" | "hosts" | "openflow", _]
        | ["openflow", "odl", _]
        | ["ir", "hosts", _]
        | ["lab", "nodes" | "configs", _]
            if !path.ends_with("push.sh") =>
        {
            stem(path)
        }
        ["ir", f] if f.ends_with(".json") => stem(path),
        _ => "show".to_owned(),
    }
}

/// Files whose lines a device runs: shown as unified diffs (IR JSON and CSVs are
/// summarised, not diffed).
fn diffed(path: &str) -> bool {
    let top = path.split('/').next().unwrap_or("");
    matches!(top, "switches" | "openflow" | "hosts" | "lab") && !path.ends_with(".json")
}

#[derive(Default)]
struct Changes {
    added: Vec<String>,
    removed: Vec<String>,
    changed: Vec<String>,
}

fn read(b: &Build, path: &str) -> Result<String, String> {
    let bytes =
        std::fs::read(b.dir.join(path)).map_err(|e| format!("{}/{path}: {e}", b.dir.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Flow pair -> (path, rtt_ms, mtu), from `ir/flows/flows.json`.
type Pairs = BTreeMap<String, (String, String, String)>;

fn pairs(b: &Build) -> Pairs {
    let mut out = Pairs::new();
    let Ok(text) = read(b, "ir/flows/flows.json") else {
        return out;
    };
    let Ok(serde_json::Value::Array(flows)) = serde_json::from_str::<serde_json::Value>(&text)
    else {
        return out;
    };
    for f in &flows {
        let name = f["name"].as_str().unwrap_or("?");
        for p in f["pairs"].as_array().into_iter().flatten() {
            let key = format!(
                "{name} {} -> {}",
                p["src"].as_str().unwrap_or("?"),
                p["dst"].as_str().unwrap_or("?")
            );
            let hops: Vec<&str> = p["path"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|h| h["switch"].as_str())
                .collect();
            out.insert(
                key,
                (
                    hops.join(" > "),
                    p["rtt_ms"].to_string(),
                    p["mtu"].to_string(),
                ),
            );
        }
    }
    out
}

/// Flow -> (demand, prediction, bottleneck), from `plan.json` (builds before it have none).
type Predictions = BTreeMap<String, (f64, f64, String)>;

fn predictions(b: &Build) -> Predictions {
    let mut out = Predictions::new();
    let Ok(text) = read(b, "plan.json") else {
        return out;
    };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
        return out;
    };
    for f in doc["flows"].as_array().into_iter().flatten() {
        let name = f["name"].as_str().unwrap_or("?").to_owned();
        let why = f["bottleneck"]["why"].as_str().unwrap_or("").to_owned();
        out.insert(
            name,
            (
                f["demand_gbps"].as_f64().unwrap_or(0.0),
                f["predicted_gbps"].as_f64().unwrap_or(0.0),
                why,
            ),
        );
    }
    out
}

/// The prediction lines of flows whose demand or prediction moved by 0.1 Gbit/s or more.
fn prediction_changes(old: &Build, new: &Build) -> Vec<String> {
    let (po, pn) = (predictions(old), predictions(new));
    let mut out = Vec::new();
    for (k, n) in &pn {
        let Some(o) = po.get(k) else { continue };
        if (o.0 - n.0).abs() < 0.1 && (o.1 - n.1).abs() < 0.1 {
            continue;
        }
        let mut line = format!(
            "flow {k}: demand {:.1} => {:.1} Gbit/s, predicted {:.1} => {:.1} Gbit/s",
            o.0, n.0, o.1, n.1
        );
        if o.2 != n.2 {
            line.push_str(&format!(" (now limited by {})", n.2));
        }
        out.push(line);
    }
    out
}

pub(crate) fn run(a: &DiffArgs) -> i32 {
    match diff(a) {
        Ok((text, changed)) => {
            crate::cli::stdout::put(&crate::escape::lines(&text));
            i32::from(changed)
        }
        Err(e) => super::usage(&e),
    }
}

fn diff(a: &DiffArgs) -> Result<(String, bool), String> {
    let (old, new) = (load(&a.old)?, load(&a.new)?);
    let mut by_device: BTreeMap<String, Changes> = BTreeMap::new();
    let paths: BTreeSet<&String> = old.files.keys().chain(new.files.keys()).collect();
    for p in &paths {
        let c = by_device.entry(device(p)).or_default();
        match (old.files.get(*p), new.files.get(*p)) {
            (Some(_), None) => c.removed.push((*p).clone()),
            (None, Some(_)) => c.added.push((*p).clone()),
            (Some(o), Some(n)) if o.sha256 != n.sha256 => c.changed.push((*p).clone()),
            _ => {}
        }
    }
    by_device.retain(|_, c| !(c.added.is_empty() && c.removed.is_empty() && c.changed.is_empty()));
    let mut out = String::new();
    for (dev, c) in &by_device {
        let mut parts = Vec::new();
        for (what, list) in [
            ("changed", &c.changed),
            ("added", &c.added),
            ("removed", &c.removed),
        ] {
            if !list.is_empty() {
                parts.push(format!("{what} {}", list.join(", ")));
            }
        }
        out.push_str(&format!("{dev}: {}\n", parts.join("; ")));
    }
    let (po, pn) = (pairs(&old), pairs(&new));
    let mut flows = Vec::new();
    for k in po.keys().chain(pn.keys()).collect::<BTreeSet<_>>() {
        match (po.get(k), pn.get(k)) {
            (Some(_), None) => flows.push(format!("flow {k}: gone")),
            (None, Some(n)) => flows.push(format!("flow {k}: new, via {}", n.0)),
            (Some(o), Some(n)) if o != n => {
                let mut what = Vec::new();
                if o.0 != n.0 {
                    what.push(format!("path {} => {}", o.0, n.0));
                }
                if o.1 != n.1 {
                    what.push(format!("RTT {} ms => {} ms", o.1, n.1));
                }
                if o.2 != n.2 {
                    what.push(format!("path MTU {} => {}", o.2, n.2));
                }
                flows.push(format!("flow {k}: {}", what.join(", ")));
            }
            _ => {}
        }
    }
    flows.extend(prediction_changes(&old, &new));
    for f in &flows {
        out.push_str(f);
        out.push('\n');
    }
    let files: usize = by_device
        .values()
        .map(|c| c.added.len() + c.removed.len() + c.changed.len())
        .sum();
    let changed = files > 0 || !flows.is_empty();
    if !changed {
        out.push_str("no change\n");
        return Ok((out, false));
    }
    out.push_str(&format!(
        "{} on {}; {}\n",
        crate::diag::plural(files, "file"),
        crate::diag::plural(by_device.len(), "device"),
        crate::diag::plural(flows.len(), "flow change")
    ));
    if !a.summary {
        for c in by_device.values() {
            for p in c.changed.iter().filter(|p| diffed(p)) {
                let (o, n) = (read(&old, p)?, read(&new, p)?);
                let d = similar::TextDiff::from_lines(&o, &n);
                out.push('\n');
                out.push_str(
                    &d.unified_diff()
                        .context_radius(3)
                        .header(&format!("a/{p}"), &format!("b/{p}"))
                        .to_string(),
                );
            }
        }
    }
    Ok((out, true))
}
