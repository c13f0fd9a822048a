//! `democ ir` and `democ build`: the commands that lower, render and write.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{Common, report, usage};
use crate::check::predict::Plan;
use crate::compile::{self, Session};
use crate::diag::plural;
use crate::emit;
use crate::render::Renderer;

#[derive(Args, Debug)]
pub(super) struct IrArgs {
    #[command(flatten)]
    pub(super) common: Common,
    /// Write the JSON here instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print the JSON Schema of the IR instead (schema/ir.schema.json).
    #[arg(long)]
    schema: bool,
}

#[derive(Args, Debug)]
pub(super) struct BuildArgs {
    #[command(flatten)]
    pub(super) common: Common,
    /// Output folder; replaced atomically (democ refuses folders it did not write and
    /// folders holding files it did not write).
    #[arg(short, long)]
    output: PathBuf,
    /// Folder of templates overriding the embedded ones by file name (`os10.j2` or `dell/os10.j2`).
    #[arg(long)]
    templates: Option<PathBuf>,
    /// Also write a script per DTN, `hosts/<name>.sh`: host tuning and test transfers.
    #[arg(long)]
    hosts: bool,
    /// Build despite feasibility errors (oversubscribed links, optics beyond their
    /// reach or budget, cards beyond their slot): they are reported as warnings.
    #[arg(long)]
    allow_infeasible: bool,
    /// Say nothing when the build succeeds (no summary, no progress): for scripts.
    /// Diagnostics are still printed.
    #[arg(short, long)]
    quiet: bool,
}

/// A progress line per stage, only for a person watching.
fn progress(message: &str) {
    if std::io::stderr().is_terminal() && !QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        eprintln!("democ: {message}");
    }
}

/// `build --quiet`: no progress lines either.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Reports what stopped the build, and how to build anyway when only feasibility did.
fn refused(s: &mut Session, c: &Common, allow_infeasible: bool) -> i32 {
    let code = report(s, c, false).max(1);
    let feasibility = |d: &&crate::diag::Diagnostic| {
        d.severity == crate::diag::Severity::Error
            && crate::diag::codes::FEASIBILITY.contains(&d.code)
    };
    if !allow_infeasible && s.diags.items().iter().any(|d| feasibility(&d)) {
        eprintln!(
            "note: `democ plan` shows every flow's prediction despite these; `--allow-infeasible` builds despite feasibility errors ({})",
            crate::diag::codes::FEASIBILITY
                .iter()
                .map(|c| c.id)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    code
}

/// `democ ir` always shows the DTNs' part of the IR (no files to write).
const HOSTS_IN_IR: bool = true;

/// What lowering gives a command: the lab, the front end, and the checks' full
/// prediction when it was asked for (None without physics).
type Lowered = (crate::ir::Lab, compile::ShowModel, Option<Plan>);

/// ShowModel end and lowering, predicting in full when `prediction` (for the report and
/// plan.json); Err(exit code) when something stopped the pipeline.
fn lab(
    c: &Common,
    s: &mut Session,
    hosts: bool,
    allow_infeasible: bool,
    prediction: bool,
) -> Result<Lowered, i32> {
    progress("checking and lowering the spec");
    let opts = compile::Options {
        allow_infeasible,
        full_prediction: prediction,
        ..c.options()
    };
    match compile::lowered(c.input(), &opts, s) {
        Err(e) => Err(usage(&e)),
        Ok(None) => Err(refused(s, c, allow_infeasible)),
        Ok(Some(l)) => match l.lab {
            Err(e) => Err(usage(&format!("internal error: {e}"))),
            Ok(None) => Err(report(s, c, false).max(1)),
            Ok(Some(mut lab)) => {
                report(s, c, false);
                if hosts {
                    lab.hosts = crate::lower::hosts(&l.front)
                        .map_err(|e| usage(&format!("internal error: {e}")))?;
                    lab.fabrics = crate::lower::fabrics::lower(&l.front, l.prediction.as_ref())
                        .map_err(|e| usage(&format!("internal error: {e}")))?;
                    crate::lower::bind_host_scripts(&mut lab.containerlab, &lab.hosts);
                }
                Ok((lab, l.front, l.prediction))
            }
        },
    }
}

pub(super) fn ir(a: &IrArgs) -> i32 {
    if a.schema {
        crate::cli::stdout::put(&crate::ir::json_schema());
        return 0;
    }
    let mut s = Session::default();
    let lab = match lab(&a.common, &mut s, HOSTS_IN_IR, false, false) {
        Ok((l, ..)) => l,
        Err(code) => return code,
    };
    let text = crate::ir::to_json(&lab);
    match &a.output {
        None => {
            crate::cli::stdout::put(&text);
            0
        }
        Some(path) => crate::write::file(path, text.as_bytes()).map_or_else(|e| usage(&e), |()| 0),
    }
}

/// The files a build reads, as far as known before it runs.
fn named_inputs(a: &BuildArgs) -> Vec<(&'static str, &Path)> {
    let c = &a.common;
    [
        ("spec", c.spec.as_deref()),
        ("catalog folder", c.catalog.as_deref()),
        ("templates folder", a.templates.as_deref()),
    ]
    .into_iter()
    .filter_map(|(what, p)| Some((what, p?)))
    .collect()
}

/// Every spec file and include read from disk (the embedded catalog and show are not).
fn read_specs(a: &BuildArgs, s: &Session) -> Vec<PathBuf> {
    if a.common.spec.is_none() {
        return Vec::new();
    }
    let embedded: std::collections::HashSet<&str> =
        crate::catalog::EMBEDDED.iter().map(|(n, _)| *n).collect();
    s.sources
        .files()
        .map(|(_, f)| f.name.as_str())
        .filter(|n| !embedded.contains(n))
        .map(PathBuf::from)
        .collect()
}

pub(super) fn build(a: &BuildArgs) -> i32 {
    QUIET.store(a.quiet, std::sync::atomic::Ordering::Relaxed);
    if let Err(e) = crate::write::outside(&a.output, named_inputs(a)) {
        return usage(&e);
    }
    let renderer = match Renderer::new(a.templates.as_deref()) {
        Ok(r) => r,
        Err(e) => return usage(&e),
    };
    let mut s = Session::default();
    // The prediction beside the configs (what `democ diff` compares when a rate or a
    // link changes a flow's outcome but no config line), made by the checks.
    let (lab, front, prediction) = match lab(&a.common, &mut s, a.hosts, a.allow_infeasible, true) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut clock = compile::Stages::new();
    let specs = read_specs(a, &s);
    let specs = specs.iter().map(|p| ("spec file", p.as_path()));
    if let Err(e) = crate::write::outside(&a.output, specs) {
        return usage(&e);
    }
    progress(&format!(
        "rendering {}",
        plural(lab.switches.len(), "config")
    ));
    // The largest files are written into it as they are made (emit::files).
    let staging = match crate::write::Staging::open(&a.output) {
        Ok(st) => st,
        Err(e) => return usage(&e),
    };
    // Made beside the configs (emit::files).
    let extra = prediction.as_ref().map(|p| emit::Extra {
        path: "plan.json",
        write: Box::new(move |w: &mut dyn std::io::Write| {
            crate::plan::json_to(p, &crate::plan::Extras::none(), w)
        }),
    });
    let files = match emit::files(
        &lab,
        &renderer,
        &s,
        &emit::main_dir(a.common.spec.as_deref()),
        extra,
        Some((&front, prediction.as_ref())),
        Some(&staging),
    ) {
        Ok(f) => f,
        Err(e) => return usage(&format!("internal error: {e}")),
    };
    clock.mark("render");
    progress(&format!(
        "writing {} to {}",
        plural(files.len(), "file"),
        a.output.display()
    ));
    let written = staging.finish(&files);
    clock.mark("write");
    let summary = (!a.quiet).then(|| {
        super::built::summary(
            &front.model.settings.name,
            &a.output,
            &files,
            &s.diags,
            prediction.as_ref(),
            a.hosts,
        )
    });
    // The process ends right after: the system takes the memory back at once, where
    // freeing a large show's model piece by piece takes a noticeable while.
    std::mem::forget((files, lab, front, prediction));
    clock.mark("free");
    match written {
        Ok(()) => {
            let code = write_lock(&s, &a.common);
            if code == 0 {
                eprint!("{}", summary.unwrap_or_default());
            }
            code
        }
        // Killed by a signal, as the shell reports it: 128 + its number.
        Err(e @ crate::write::error::WriteError::Interrupted { signal, .. }) => {
            eprintln!("error: {e}");
            128 + signal
        }
        Err(e) => usage(&e),
    }
}

/// After a successful build: the address lock beside the spec, atomically, when it
/// changed (never under `--locked`, which refuses any change; never for the embedded
/// example or with `--no-lock`, which have no lock path).
fn write_lock(s: &Session, c: &Common) -> i32 {
    let Some(lock) = s.lock.as_ref().filter(|_| !c.locked) else {
        return 0;
    };
    let Some(text) = lock.to_write() else {
        return 0;
    };
    let name = crate::lock::display(&lock.path);
    match crate::write::file(&lock.path, text.as_bytes()) {
        Ok(()) => {
            progress(&format!(
                "wrote {name} ({})",
                plural(lock.next.len(), "address")
            ));
            0
        }
        Err(e) => usage(&format!(
            "the build is written, but not its address lock: {e}"
        )),
    }
}

#[derive(Args, Debug)]
pub(super) struct ReportArgs {
    #[command(flatten)]
    pub(super) common: Common,
    /// Folder to write `index.html` into (created when missing; only that file is
    /// written).
    #[arg(short, long)]
    output: PathBuf,
    /// Result folders or files (as `democ verify` reads them): the report shows what
    /// was measured beside every flow's and link's prediction.
    #[arg(long, value_name = "DIR")]
    results: Vec<PathBuf>,
    /// How far below its prediction a measured flow may fall and still pass, percent.
    #[arg(long, default_value_t = 10.0, requires = "results", value_parser = crate::cli::verify::tolerance)]
    tolerance: f64,
}

/// `democ report`: the show report alone, also for a show with feasibility errors (it
/// lists them); `democ build` writes the same report beside the files it links to.
pub(super) fn report_only(a: &ReportArgs) -> i32 {
    let mut s = Session::default();
    let (lab, front, prediction) = match lab(&a.common, &mut s, false, true, true) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let measured = match (&prediction, a.results.is_empty()) {
        (Some(plan), false) => match measured(&front, plan, &lab, a) {
            Ok(m) => Some(m),
            Err(code) => return code,
        },
        _ => None,
    };
    let main_dir = emit::main_dir(a.common.spec.as_deref());
    let text = prediction.map_or_else(String::new, |plan| {
        emit::report(&front, &plan, &lab, &s, (&main_dir, &[]), measured.as_ref())
    });
    if let Err(e) = std::fs::create_dir_all(&a.output) {
        return usage(&format!("cannot create {}: {e}", a.output.display()));
    }
    let target = a.output.join("index.html");
    if let Err(e) = replaceable(&target) {
        return usage(&e);
    }
    crate::write::file(&target, text.as_bytes()).map_or_else(|e| usage(&e), |()| 0)
}

/// `democ verify` on `--results` against the show as this run made it: what the report
/// prints beside its predictions. Err: the exit code (2, the diagnostics printed).
fn measured(
    front: &crate::derive::ShowModel,
    plan: &crate::check::predict::Plan,
    lab: &crate::ir::Lab,
    a: &ReportArgs,
) -> Result<crate::report::Measured, i32> {
    let mut flows = Vec::new();
    let written = if lab.flows.is_empty() {
        crate::lower::flows::write(front, &mut flows)
    } else {
        crate::ir::write_json(&mut flows, &lab.flows)
    };
    written.map_err(|e| usage(&format!("internal error: {e}")))?;
    let parts = crate::verify::Parts {
        plan: crate::plan::json_bytes(plan, &crate::plan::Extras::none()),
        flows,
        switches: lab
            .switches
            .iter()
            .map(|sw| crate::ir::to_json(sw).into_bytes())
            .collect(),
        cabling: crate::csv::cabling(&lab.cabling),
    };
    let o = crate::verify::run_parts(&parts, &a.results, a.tolerance).map_err(|e| usage(&e))?;
    if !o.diags.items().is_empty() {
        eprint!(
            "{}",
            crate::diag::render::to_text(&o.sources, o.diags.items(), a.common.color())
        );
        return Err(2);
    }
    Ok(o.report.measured())
}

/// Err unless `index` is absent or a report democ wrote (its title says so): a user's
/// own index.html is never overwritten, as `build` never replaces a folder it did not
/// write.
fn replaceable(index: &std::path::Path) -> Result<(), String> {
    if std::fs::symlink_metadata(index).is_err() {
        return Ok(());
    }
    let refuse = || {
        format!(
            "{} is not a report democ wrote: refusing to overwrite it (remove it, or write the report to another folder)",
            index.display()
        )
    };
    // The title sits in the first line of every report democ writes.
    let head = crate::read::bounded(index, crate::read::MAX_FILE_BYTES).map_err(|_| refuse())?;
    let first = head
        .split(|&b| b == b'\n')
        .take(30)
        .flatten()
        .copied()
        .collect::<Vec<u8>>();
    if String::from_utf8_lossy(&first).contains(" — democ report</title>") {
        Ok(())
    } else {
        Err(refuse())
    }
}
