//! `democ verify BUILD RESULTS...`: what the show measured against what the build
//! planned. Per flow, the rate its pairs reached (the host scripts' result files)
//! against the plan's prediction, and when short, the likely causes, each from the
//! plan's own limits: loss (retransmits, lost datagrams, discards on the path), a link
//! or port-channel member above its predicted load, RTT against the window, a CPU core
//! saturated, a drive below its share, the path MTU the connection found, an optic below
//! its receive floor, OpenFlow rules that matched nothing. Per link, the counters
//! against the predicted load; per optic, the receive power against the catalog's
//! floor; per port, the LLDP neighbour against the cabling plan. Every result file that
//! cannot be read gets a located diagnostic (E0601-E0604) and is left out.

mod by_os;
mod host;
mod inputs;
mod judge;
mod lldpd;
mod located;
mod planned;
pub(crate) mod print;
mod restconf;
mod sonic;
pub(crate) mod stamp;
mod state;
mod switch;
mod twin_run;

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diags, codes};
use crate::source::{FileId, Sources, Span};

pub(crate) use judge::Report;
pub(crate) use planned::Parts;
pub(crate) use twin_run::{FILE as TWIN_STAMP, Throttled, TwinRun, not_comparable};

/// What a run of verify found: the report, and the diagnostics on its inputs.
pub(crate) struct Outcome {
    pub(crate) report: Report,
    pub(crate) sources: Sources,
    pub(crate) diags: Diags,
}

/// Reads the build and the results and judges every flow, link, optic and neighbour.
/// An error: the build folder could not be read (the message names the file).
pub(crate) fn run(
    build: &Path,
    results: &[PathBuf],
    tolerance_pct: f64,
) -> Result<Outcome, String> {
    Ok(judged(&planned::read(build)?, results, tolerance_pct))
}

/// [`run`] against a build made in memory (`report --results`).
pub(crate) fn run_parts(
    parts: &Parts,
    results: &[PathBuf],
    tolerance_pct: f64,
) -> Result<Outcome, String> {
    let plan = planned::from_parts(parts, &|rel| format!("the build's {rel}"))?;
    Ok(judged(&plan, results, tolerance_pct))
}

fn judged(plan: &planned::Planned, results: &[PathBuf], tolerance_pct: f64) -> Outcome {
    let mut sources = Sources::default();
    let mut diags = Diags::default();
    let got = inputs::gather(results, &mut sources, &mut diags);
    let seen = state::read(plan, &got.files, &sources, &mut diags);
    let twin = twin_of(&got.stamps, &sources, &mut diags);
    let mut report = judge::judge(plan, &seen, tolerance_pct, twin.as_ref());
    report.files = got.files.len() + got.stamps.len();
    report.skipped = got.skipped;
    diags.sort();
    Outcome {
        report,
        sources,
        diags,
    }
}

/// The twin run the results are from, when a stamp says so; stamps of runs at different
/// scales or throttles cannot be judged together (a diagnostic).
fn twin_of(stamps: &[FileId], sources: &Sources, diags: &mut Diags) -> Option<TwinRun> {
    let mut runs: Vec<(FileId, TwinRun)> = Vec::new();
    for &id in stamps {
        let t = located::Text {
            id,
            file: sources.get(id),
        };
        match twin_run::read(&t) {
            Ok(r) => runs.push((id, r)),
            Err(d) => diags.push(*d),
        }
    }
    let (_, first) = runs.first()?;
    if let Some((id, other)) = runs
        .iter()
        .find(|(_, r)| r.scale != first.scale || r.throttles != first.throttles)
    {
        diags.push(
            Diagnostic::new(
                codes::RESULT_CONTENT,
                Span::new(*id, 0, 0),
                format!(
                    "a twin run at 1/{} with {} throttles beside one at 1/{} with {}: results of two runs",
                    other.scale,
                    other.throttles.len(),
                    first.scale,
                    first.throttles.len()
                ),
            )
            .help("verify one twin measurement at a time: name one `twin/results` folder"),
        );
        return None;
    }
    Some(first.clone())
}
