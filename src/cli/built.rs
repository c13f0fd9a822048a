//! What `democ build` says when it has written a build: the files by kind, the plan's
//! headline, the warnings, and the commands that come next. On stderr, whether or not it
//! is a terminal (a script reads stdout, which a build leaves empty); `--quiet` omits it.

use std::collections::BTreeMap;
use std::path::Path;

use crate::check::predict::Plan;
use crate::diag::{Severity, plural};
use crate::write::OutFile;

/// What a folder of the build holds, in words.
fn kind(folder: &str) -> &str {
    match folder {
        "switches" => "switch config",
        "ir" => "IR file",
        "hosts" => "host script",
        "lab" => "lab file",
        "openflow" => "OpenFlow file",
        "nvmeof" => "NVMe-oF file",
        "twin" => "twin file",
        "monitoring" => "monitoring file",
        other => other,
    }
}

/// Every file of the build: as its manifest lists them (files streamed to the folder
/// as they were made are not among those kept in memory), and the manifest itself.
fn paths(files: &[OutFile]) -> Vec<String> {
    let listed = files
        .iter()
        .find(|f| f.path == MANIFEST)
        .and_then(|m| crate::manifest::Previous::parse(&m.bytes).ok());
    match listed {
        Some(m) => m
            .files
            .into_iter()
            .map(|e| e.path)
            .chain([MANIFEST.to_owned()])
            .collect(),
        None => files.iter().map(|f| f.path.clone()).collect(),
    }
}

const MANIFEST: &str = "manifest.json";

/// `3 switch configs, 10 IR files, ..., report, cabling.csv, ...`: folders by kind in
/// the build's own order of importance, then the files at the top.
fn files_line(paths: &[String]) -> String {
    let mut folders: BTreeMap<&str, usize> = BTreeMap::new();
    let mut top = Vec::new();
    for p in paths {
        match p.split_once('/') {
            Some((folder, _)) => *folders.entry(folder).or_insert(0) += 1,
            None => top.push(p.as_str()),
        }
    }
    const ORDER: [&str; 7] = [
        "switches", "ir", "hosts", "openflow", "nvmeof", "lab", "twin",
    ];
    let rank = |f: &str| ORDER.iter().position(|o| *o == f).unwrap_or(ORDER.len());
    let mut named: Vec<(&str, usize)> = folders.into_iter().collect();
    named.sort_by_key(|(f, _)| (rank(f), *f));
    let mut parts: Vec<String> = named
        .into_iter()
        .map(|(folder, n)| match folder {
            "report" => "the report".to_owned(),
            f => plural(n, kind(f)),
        })
        .collect();
    top.sort_unstable();
    parts.extend(top.into_iter().map(str::to_owned));
    parts.join(", ")
}

/// `2 flows, both reach their demand; busiest link 75 % (...)`.
fn plan_line(plan: &Plan) -> String {
    let n = plan.flows.len();
    let short: Vec<String> = plan
        .flows
        .iter()
        .filter(|f| !f.feasible && !f.expect_infeasible)
        .map(|f| {
            format!(
                "{} at {:.0} %",
                crate::escape::line(&f.name),
                100.0 * f.predicted_gbps / f.demand_gbps.max(1e-9)
            )
        })
        .collect();
    let mut line = match (n, short.len()) {
        (0, _) => "no flows".to_owned(),
        (_, 0) => format!("{}, each predicted at its demand", plural(n, "flow")),
        (_, k) => format!(
            "{}, {k} short (below {:.0} % of the demand: {})",
            plural(n, "flow"),
            100.0 * crate::check::predict::SHORTFALL,
            short.into_iter().take(3).collect::<Vec<_>>().join(", ")
        ),
    };
    if let Some((_, busiest)) = plan
        .links
        .iter()
        .max_by(|a, b| a.1.utilization_pct.total_cmp(&b.1.utilization_pct))
    {
        line.push_str(&format!(
            "; busiest link {:.0} % ({}, {})",
            busiest.utilization_pct,
            crate::escape::line(&busiest.link),
            busiest.direction
        ));
    }
    line
}

/// The summary, one line per subject.
pub(super) fn summary(
    show: &str,
    dir: &Path,
    files: &[OutFile],
    diags: &crate::diag::Diags,
    plan: Option<&Plan>,
    hosts: bool,
) -> String {
    let paths = paths(files);
    let shown = dir.display().to_string();
    let out = crate::escape::line(&shown);
    let mut text = format!(
        "built {} into {out} ({}): {}\n",
        crate::escape::line(show),
        plural(paths.len(), "file"),
        files_line(&paths)
    );
    if let Some(p) = plan {
        text.push_str(&format!("plan: {}\n", plan_line(p)));
    }
    let warnings = diags.count(Severity::Warning);
    if warnings == 0 {
        text.push_str("warnings: none\n");
    } else {
        let mut codes: Vec<&str> = diags
            .items()
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| d.code.id)
            .collect();
        codes.sort_unstable();
        codes.dedup();
        text.push_str(&format!(
            "warnings: {} ({}), above; `democ explain CODE` says more\n",
            warnings,
            codes.join(", ")
        ));
    }
    let twin = if hosts {
        format!("sudo democ twin up {out} && sudo democ twin test {out} (the show on this machine)")
    } else {
        "`--hosts` adds the DTN scripts the twin runs".to_owned()
    };
    let report = if paths.iter().any(|p| p == "report/index.html") {
        format!("open {out}/report/index.html; ")
    } else {
        String::new()
    };
    text.push_str(&format!(
        "next: {report}democ validate {out}; {twin}; democ diff OLD {out} after a change\n"
    ));
    text
}
