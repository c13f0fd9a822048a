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
use std::time::{Duration, Instant};

use clap::Args;

use serde::Deserialize;

use crate::build_dir::{BuildDir, MAX_BYTES, SMALL_BYTES};
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
    dir: BuildDir,
    files: BTreeMap<String, Entry>,
}

fn load(path: &Path) -> Result<Build, String> {
    let dir = BuildDir::open(path)?;
    let bytes = dir
        .read("manifest.json", SMALL_BYTES)
        .map_err(|e| format!("{e}; is it a `democ build` folder?"))?;
    let m = Previous::parse(&bytes)
        .map_err(|e| format!("{}/manifest.json: {e}", dir.path().display()))?;
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
                dir.path().display(),
                e.path
            ));
        }
        files.insert(e.path.clone(), e);
    }
    Ok(Build { dir, files })
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

/// A changed file's text, for its unified diff (a file the manifest lists but the
/// folder does not hold as a plain file is an error: the build was altered).
fn read(b: &Build, path: &str) -> Result<String, String> {
    let bytes = b.dir.read(path, SMALL_BYTES)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A JSON file of the build read into the few fields diff compares, or None when the
/// build has none (older builds) or it does not parse.
fn json<T: for<'de> Deserialize<'de>>(b: &Build, path: &str) -> Option<T> {
    let bytes = b.dir.read(path, MAX_BYTES).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// What diff reads of `ir/flows/flows.json`.
#[derive(Deserialize)]
struct Flow {
    #[serde(default)]
    name: String,
    #[serde(default)]
    pairs: Vec<FlowPair>,
}

#[derive(Deserialize)]
struct FlowPair {
    #[serde(default)]
    src: String,
    #[serde(default)]
    dst: String,
    #[serde(default)]
    path: Vec<Hop>,
    #[serde(default)]
    rtt_ms: serde_json::Value,
    #[serde(default)]
    mtu: serde_json::Value,
}

#[derive(Deserialize)]
struct Hop {
    #[serde(default)]
    switch: Option<String>,
}

/// Flow pair -> (path, rtt_ms, mtu), from `ir/flows/flows.json`.
type Pairs = BTreeMap<String, (String, String, String)>;

fn pairs(b: &Build) -> Pairs {
    let mut out = Pairs::new();
    let flows: Vec<Flow> = json(b, "ir/flows/flows.json").unwrap_or_default();
    for f in flows {
        for p in f.pairs {
            let key = format!("{} {} -> {}", f.name, p.src, p.dst);
            let hops: Vec<String> = p.path.into_iter().filter_map(|h| h.switch).collect();
            out.insert(
                key,
                (hops.join(" > "), p.rtt_ms.to_string(), p.mtu.to_string()),
            );
        }
    }
    out
}

/// Flow -> (demand, prediction, bottleneck), from `plan.json` (builds before it have none).
type Predictions = BTreeMap<String, (f64, f64, String)>;

/// What diff reads of `plan.json`.
#[derive(Deserialize)]
struct Plan {
    #[serde(default)]
    flows: Vec<PlannedFlow>,
}

#[derive(Deserialize)]
struct PlannedFlow {
    #[serde(default)]
    name: String,
    #[serde(default)]
    demand_gbps: f64,
    #[serde(default)]
    predicted_gbps: f64,
    #[serde(default)]
    bottleneck: Bottleneck,
}

#[derive(Deserialize, Default)]
struct Bottleneck {
    #[serde(default)]
    why: String,
}

fn predictions(b: &Build) -> Predictions {
    let plan: Option<Plan> = json(b, "plan.json");
    plan.map(|p| p.flows)
        .unwrap_or_default()
        .into_iter()
        .map(|f| (f.name, (f.demand_gbps, f.predicted_gbps, f.bottleneck.why)))
        .collect()
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
        let deadline = Instant::now() + DIFF_TIME;
        let mut skipped = Vec::new();
        for c in by_device.values() {
            for p in c.changed.iter().filter(|p| diffed(p)) {
                let (o, n) = (read(&old, p)?, read(&new, p)?);
                if o.len() + n.len() > DIFF_BYTES {
                    skipped.push(format!(
                        "{p}: not diffed, {} MiB of text is more than democ diffs (compare the files with diff(1))",
                        (o.len() + n.len()) >> 20
                    ));
                    continue;
                }
                out.push('\n');
                out.push_str(&unified(p, &o, &n, deadline));
            }
        }
        for s in &skipped {
            out.push('\n');
            out.push_str(s);
            out.push('\n');
        }
    }
    Ok((out, true))
}

/// The most text (old and new together) one file may have to be diffed.
const DIFF_BYTES: usize = 16 * 1024 * 1024;
/// How long all of a diff's unified diffs may take: Myers' algorithm is quadratic in
/// the worst case (two long files that share little), so past this the remaining
/// differences are shown as whole removed and added runs instead of the shortest edit.
const DIFF_TIME: Duration = Duration::from_secs(5);

/// The unified diff of one file, exact until `deadline`, coarser (still correct)
/// after it.
fn unified(path: &str, old: &str, new: &str, deadline: Instant) -> String {
    similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .deadline(deadline)
        .diff_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}
