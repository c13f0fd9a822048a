//! The back end: lower the checked model to the IR, render every switch, and assemble
//! the build's files (configs, IR, the containerlab topology, manifest): in memory,
//! but for the largest, streamed into the build's staging folder when given one.

use std::path::Path;

use crate::check::predict::Plan;
use crate::derive::ShowModel;
use crate::ir::error::TopologyError;
use crate::ir::{self, Lab};
use crate::lower::error::LowerError;
use crate::manifest::{self, Entry, Manifest};
use crate::monitor::error::MonitorError;
use crate::render::{RenderError, Renderer};
use crate::session::Session;
use rayon::prelude::*;

use crate::write::error::WriteError;
use crate::write::{OutFile, Staging};

/// Writes a large file's bytes as they are made.
pub(crate) type Writer<'a> =
    Box<dyn FnOnce(&mut dyn std::io::Write) -> std::io::Result<()> + Send + 'a>;

/// A file made beside the rest (plan.json): its path, and what writes it.
pub(crate) struct Extra<'a> {
    pub(crate) path: &'static str,
    pub(crate) write: Writer<'a>,
}

/// Why a build's files were not made: a bug in democ or its data, or (with a staging
/// folder) a file that could not be written.
#[derive(Debug)]
pub(crate) enum EmitError {
    Lower(LowerError),
    Render(RenderError),
    Monitor(MonitorError),
    Topology(TopologyError),
    Write(WriteError),
    /// A large file made in memory whose writer failed.
    Large {
        path: String,
        error: std::io::Error,
    },
    /// A lab node's config made from a rendered file that is not among the files.
    NotRendered {
        path: String,
        source: String,
    },
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmitError::Lower(e) => e.fmt(f),
            EmitError::Render(e) => e.fmt(f),
            EmitError::Monitor(e) => e.fmt(f),
            EmitError::Topology(e) => e.fmt(f),
            EmitError::Write(e) => e.fmt(f),
            EmitError::Large { path, error } => write!(f, "{path}: {error}"),
            EmitError::NotRendered { path, source } => {
                write!(f, "{path}: {source} is not rendered")
            }
        }
    }
}

impl std::error::Error for EmitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EmitError::Lower(e) => Some(e),
            EmitError::Render(e) => Some(e),
            EmitError::Monitor(e) => Some(e),
            EmitError::Topology(e) => Some(e),
            EmitError::Write(e) => Some(e),
            EmitError::Large { error, .. } => Some(error),
            EmitError::NotRendered { .. } => None,
        }
    }
}

impl From<LowerError> for EmitError {
    fn from(e: LowerError) -> EmitError {
        EmitError::Lower(e)
    }
}

impl From<RenderError> for EmitError {
    fn from(e: RenderError) -> EmitError {
        EmitError::Render(e)
    }
}

impl From<MonitorError> for EmitError {
    fn from(e: MonitorError) -> EmitError {
        EmitError::Monitor(e)
    }
}

impl From<TopologyError> for EmitError {
    fn from(e: TopologyError) -> EmitError {
        EmitError::Topology(e)
    }
}

impl From<WriteError> for EmitError {
    fn from(e: WriteError) -> EmitError {
        EmitError::Write(e)
    }
}

/// Lowers; None when lowering reported errors (they are in the session).
pub(crate) fn lab(
    front: &ShowModel,
    s: &mut Session,
    deny_warnings: bool,
) -> Result<Option<Lab>, LowerError> {
    let lab = crate::lower::lower(front, &mut s.diags)?;
    if deny_warnings {
        s.diags.deny_warnings();
    }
    Ok((!s.diags.has_errors()).then_some(lab))
}

/// Every file of a build, sorted by path, manifest.json last; `report/index.html` when
/// the checked front end and its prediction are given; `extra` (plan.json) made beside
/// the rest. With a `sink`, the largest files (`extra`, the flows' IR) are streamed
/// into it and left out of the list (the manifest still lists them).
pub(crate) fn files(
    lab: &Lab,
    r: &Renderer,
    s: &Session,
    main_dir: &str,
    extra: Option<Extra<'_>>,
    front: Option<(&ShowModel, Option<&Plan>)>,
    sink: Option<&Staging>,
) -> Result<Vec<OutFile>, EmitError> {
    let report = front.and_then(|(front, plan)| Some((front, plan?)));
    // A lab lowered without the flows' IR (`lower::lower_but_flows`, a build's): its
    // flows.json is written from the routes, the bytes lowering them would give.
    let flows = front.map(|(f, _)| f).filter(|_| lab.flows.is_empty());
    let made = made(lab, r, s, main_dir, extra, (report, flows), sink)?;
    let mut streamed = Vec::new();
    let mut out = Vec::with_capacity(lab.switches.len() * 2 + lab.hosts.len() * 2 + 16);
    let mut entries = Vec::with_capacity(out.capacity());
    let mut body = None;
    for m in made {
        match m {
            Made::Files(files, hashes) => {
                out.extend(files);
                entries.extend(hashes);
            }
            Made::Report(b) => body = Some(b),
            Made::Streamed(e) => streamed.push(e),
        }
    }
    let mut late = Vec::new();
    // By path: a search of every file per config grew with switches x files.
    let by_path: crate::fxhash::FxMap<&str, &OutFile> =
        out.iter().map(|f| (f.path.as_str(), f)).collect();
    for (path, c) in &lab.containerlab.configs {
        let source = by_path
            .get(c.source.as_str())
            .ok_or_else(|| EmitError::NotRendered {
                path: path.clone(),
                source: c.source.clone(),
            })?;
        let text = String::from_utf8_lossy(&source.bytes);
        late.push(OutFile {
            path: path.clone(),
            bytes: c.apply(&text).into_bytes(),
        });
    }
    if front.is_some() {
        // The report ends with the list of every other file, known only now.
        let mut listed: Vec<&str> = out.iter().chain(&late).map(|f| f.path.as_str()).collect();
        listed.extend(streamed.iter().map(|e| e.path.as_str()));
        listed.push("manifest.json");
        listed.sort_unstable();
        late.push(OutFile {
            path: "report/index.html".into(),
            bytes: body
                .flatten()
                .map(|b| crate::report::finish(b, &listed))
                .unwrap_or_default()
                .into_bytes(),
        });
    }
    entries.extend(hashed(&late));
    entries.extend(streamed);
    out.extend(late);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let mut clock = crate::stages::Stages::new();
    let (sources_sha256, sources) = sources(s, main_dir);
    let m = Manifest {
        format: manifest::FORMAT,
        format_version: manifest::FORMAT_VERSION,
        democ: env!("CARGO_PKG_VERSION").to_owned(),
        show: lab.show.clone(),
        sources_sha256,
        sources,
        templates_overridden: r.overridden.clone(),
        files: entries,
    };
    out.push(OutFile {
        path: "manifest.json".into(),
        bytes: ir::to_json(&m).into_bytes(),
    });
    clock.mark("  manifest");
    Ok(out)
}

/// What one part of a build makes: files with their manifest entries, or the report
/// without its list of files (None: the show has no physics).
enum Made {
    Files(Vec<OutFile>, Vec<Entry>),
    Report(Option<String>),
    /// A file already written into the staging folder: its entry.
    Streamed(Entry),
}

/// The manifest's `sources_sha256` and `sources`: every file read but the address lock.
fn sources(s: &Session, main_dir: &str) -> (String, Vec<String>) {
    let lock_file = s
        .lock
        .as_ref()
        .and_then(|l| l.old.as_ref())
        .map(|(_, id)| *id);
    manifest::sources_hash(&s.sources, main_dir, lock_file)
}

/// A large file: streamed into `sink` (hashed as it goes), or made in memory without one.
fn large(sink: Option<&Staging>, path: &str, write: Writer<'_>) -> Result<Made, EmitError> {
    if let Some(st) = sink {
        return Ok(Made::Streamed(st.stream(path, write)?));
    }
    let mut bytes = Vec::new();
    let w: &mut dyn std::io::Write = &mut bytes;
    write(w).map_err(|error| EmitError::Large {
        path: path.to_owned(),
        error,
    })?;
    let f = vec![OutFile {
        path: path.to_owned(),
        bytes,
    }];
    let hashes = hashed(&f);
    Ok(Made::Files(f, hashes))
}

/// The build's parts, side by side: plan.json, flows.json and the rest, and the configs
/// and scripts device by device, on every core (the largest shows' build spent most of
/// its time here on one). The order they are made in does not matter: `files` sorts
/// what they give by path.
fn made(
    lab: &Lab,
    r: &Renderer,
    s: &Session,
    main_dir: &str,
    extra: Option<Extra<'_>>,
    (report, flows): (Option<(&ShowModel, &Plan)>, Option<&ShowModel>),
    sink: Option<&Staging>,
) -> Result<Vec<Made>, EmitError> {
    let files = |f: Vec<OutFile>| {
        let hashes = hashed(&f);
        Made::Files(f, hashes)
    };
    let plan_json = move || extra.map(|x| large(sink, x.path, x.write)).transpose();
    let flows_json = move || {
        // As `ir::to_json` writes it, from the routes when the lab was lowered without
        // the flows' IR. In a folder of its own: a switch may be named `flows`.
        let write: Writer<'_> = match flows {
            Some(front) => {
                Box::new(move |w: &mut dyn std::io::Write| crate::lower::flows::write(front, w))
            }
            None => Box::new(move |w: &mut dyn std::io::Write| ir::write_json(w, &lab.flows)),
        };
        large(sink, "ir/flows/flows.json", write)
    };
    let the_rest = || -> Result<Vec<Made>, EmitError> {
        let mut made = Vec::new();
        if let Some((front, plan)) = report {
            let found = crate::report::Finding::all(s, main_dir);
            made.push(Made::Report(crate::report::body(
                front, plan, lab, &found, None,
            )));
            made.push(files(crate::monitor::files(front, plan, lab)?));
        }
        let mut f = vec![OutFile {
            path: lab.containerlab.file.clone(),
            bytes: lab.containerlab.to_yaml()?.into_bytes(),
        }];
        f.extend(lab.containerlab.scripts.iter().map(|(path, text)| OutFile {
            path: path.clone(),
            bytes: text.clone().into_bytes(),
        }));
        made.push(files(f));
        let mut f = crate::rulesets::files(lab);
        for (path, (fab, i)) in crate::lower::fabrics::scripts(&lab.fabrics) {
            f.push(OutFile {
                path,
                bytes: r.fabric(fab, i, &lab.show)?.into_bytes(),
            });
        }
        f.extend(lab.fabrics.iter().map(|fab| OutFile {
            path: format!("ir/fabrics/{}.json", fab.name),
            bytes: ir::to_json(fab).into_bytes(),
        }));
        made.push(files(f));
        made.push(files(vec![
            OutFile {
                path: "cabling.csv".into(),
                bytes: crate::csv::cabling(&lab.cabling).into_bytes(),
            },
            OutFile {
                path: "bom.csv".into(),
                bytes: crate::csv::bom(&lab.cabling).into_bytes(),
            },
        ]));
        let per_device: Vec<Result<Made, RenderError>> = lab
            .switches
            .par_chunks(CHUNK)
            .map(|run| switches(run, r, &lab.show).map(files))
            .chain(
                lab.hosts
                    .par_chunks(CHUNK)
                    .map(|run| hosts(run, r, &lab.show).map(files)),
            )
            .collect();
        for m in per_device {
            made.push(m?);
        }
        Ok(made)
    };
    let (plan, (flows, rest)) = rayon::join(plan_json, || rayon::join(flows_json, the_rest));
    let mut made = rest?;
    made.push(flows?);
    made.extend(plan?);
    Ok(made)
}

/// Devices rendered together as one piece of parallel work.
const CHUNK: usize = 64;

/// The prediction the report and plan.json show; None without physics (then neither
/// is made). The command line's build has its checks make it (`Options::full_prediction`).
pub(crate) fn prediction(front: &ShowModel) -> Option<Plan> {
    crate::check::CheckInput::new(front).map(|cx| crate::check::predict::plan(&cx).0)
}

/// The show report: predictions, findings, what was measured (when given) and the
/// files it links to.
pub(crate) fn report(
    front: &ShowModel,
    plan: &Plan,
    lab: &Lab,
    s: &Session,
    (main_dir, files): (&str, &[&str]),
    measured: Option<&crate::report::Measured>,
) -> String {
    let found = crate::report::Finding::all(s, main_dir);
    crate::report::html_report(front, plan, lab, &found, files, measured)
}

/// Each file's manifest entry.
fn hashed(out: &[OutFile]) -> Vec<Entry> {
    out.iter()
        .map(|f| Entry {
            path: f.path.clone(),
            sha256: manifest::sha256(&f.bytes),
            bytes: f.bytes.len(),
        })
        .collect()
}

/// Each switch's config and IR (equipment owned by others gets its IR, what democ
/// assumes it does, and no config).
fn switches(run: &[ir::Switch], r: &Renderer, show: &str) -> Result<Vec<OutFile>, RenderError> {
    let mut out = with_ir(
        run,
        |sw| format!("ir/{}.json", sw.hostname),
        |sw| {
            (!sw.external)
                .then(|| Ok((sw.config_file.clone(), r.switch(sw, show)?)))
                .transpose()
        },
    )?;
    // SONiC's config_db.json, beside the FRR file the template wrote.
    for sw in run.iter().filter(|s| !s.external) {
        if let Some(s) = &sw.sonic {
            out.push(OutFile {
                path: s.config_db_file.clone(),
                bytes: crate::config_db::text(sw).into_bytes(),
            });
        }
        // Cumulus Linux's NVUE file, beside the derived FRR file the template wrote.
        if let Some(c) = &sw.cumulus {
            out.push(OutFile {
                path: c.nvue_file.clone(),
                bytes: crate::nvue::text(sw).into_bytes(),
            });
        }
    }
    Ok(out)
}

/// Each DTN's script and IR.
fn hosts(run: &[ir::host::Host], r: &Renderer, show: &str) -> Result<Vec<OutFile>, RenderError> {
    with_ir(
        run,
        |h| format!("ir/hosts/{}.json", h.name),
        |h| Ok(Some((h.script_file.clone(), r.host(h, show)?))),
    )
}

/// Each item's rendered file (when it has one: path and text), then its IR as JSON.
fn with_ir<T: serde::Serialize>(
    run: &[T],
    ir_path: impl Fn(&T) -> String,
    rendered: impl Fn(&T) -> Result<Option<(String, String)>, RenderError>,
) -> Result<Vec<OutFile>, RenderError> {
    let mut out = Vec::with_capacity(run.len() * 2);
    for item in run {
        if let Some((path, text)) = rendered(item)? {
            out.push(OutFile {
                path,
                bytes: text.into_bytes(),
            });
        }
        out.push(OutFile {
            path: ir_path(item),
            bytes: ir::to_json(item).into_bytes(),
        });
    }
    Ok(out)
}

/// The folder of the main spec file as the loader names it (`examples/sc16`).
pub(crate) fn main_dir(spec: Option<&Path>) -> String {
    let main = match spec {
        Some(p) => p.to_string_lossy().replace('\\', "/"),
        None => crate::spec::examples::EMBEDDED_SC16_MAIN.to_owned(),
    };
    let main = main.strip_prefix("./").unwrap_or(&main).to_owned();
    main.rsplit_once('/')
        .map(|(d, _)| d.to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streamed into a staging folder, the largest files are the bytes made in memory
    /// (plan.json those of `plan::json_bytes`), and the manifest is the same.
    #[test]
    fn streamed_files_are_those_made_in_memory() {
        let (front, lab) = crate::testkit::render_fixture();
        let r = Renderer::new(None).expect("templates");
        let s = Session::default();
        let plan = prediction(&front).expect("the fixture has physics");
        let extra = || Extra {
            path: "plan.json",
            write: Box::new(|w: &mut dyn std::io::Write| {
                crate::plan::json_to(&plan, &crate::plan::Extras::none(), w)
            }),
        };
        let report = Some((&front, Some(&plan)));
        let mem = files(&lab, &r, &s, "x", Some(extra()), report, None).expect("renders");
        let planned = mem.iter().find(|f| f.path == "plan.json").expect("plan");
        let bytes = crate::plan::json_bytes(&plan, &crate::plan::Extras::none());
        assert_eq!(planned.bytes, bytes);
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let st = Staging::open(&dir).expect("staging");
        let staged = files(&lab, &r, &s, "x", Some(extra()), report, Some(&st)).expect("renders");
        assert_eq!(staged.len() + 2, mem.len());
        st.finish(&staged).expect("written");
        for f in &mem {
            let on_disk = std::fs::read(dir.join(&f.path)).expect("written");
            assert!(on_disk == f.bytes, "{}", f.path);
        }
    }
}
