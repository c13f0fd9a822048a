//! The back end: lower the checked model to the IR, render every switch, and assemble
//! the build's files in memory (configs, IR, the containerlab topology, manifest).
//! Nothing is written here.

use std::path::Path;

use crate::check::predict::Plan;
use crate::compile::{Front, Session};
use crate::ir::{self, Lab};
use crate::manifest::{self, Entry, Manifest};
use crate::par::Task;
use crate::render::Renderer;
use crate::write::OutFile;

/// Lowers; None when lowering reported errors (they are in the session).
pub(crate) fn lab(
    front: &Front,
    s: &mut Session,
    deny_warnings: bool,
) -> Result<Option<Lab>, String> {
    let lab = crate::lower::lower(front, &mut s.diags)?;
    if deny_warnings {
        s.diags.deny_warnings();
    }
    Ok((!s.diags.has_errors()).then_some(lab))
}

/// Every file of a build, sorted by path, manifest.json last; `report/index.html` when
/// the checked front end and its prediction are given; `extra` (plan.json) made beside
/// the rest.
pub(crate) fn files(
    lab: &Lab,
    r: &Renderer,
    s: &Session,
    main_dir: &str,
    extra: Option<Task<'_, OutFile>>,
    front: Option<(&Front, Option<&Plan>)>,
) -> Result<Vec<OutFile>, String> {
    // Below a few hundred devices (or thousands of flows) a thread costs more than it
    // saves.
    let size = lab.switches.len() + lab.hosts.len() + lab.flows.len() / 16;
    let threads = crate::par::threads(size, 256);
    assemble(lab, r, s, main_dir, extra, front, threads)
}

/// [`files`] made on `threads` threads: the same files whatever their number.
fn assemble(
    lab: &Lab,
    r: &Renderer,
    s: &Session,
    main_dir: &str,
    extra: Option<Task<'_, OutFile>>,
    front: Option<(&Front, Option<&Plan>)>,
    threads: usize,
) -> Result<Vec<OutFile>, String> {
    let report = front.and_then(|(front, plan)| Some((front, plan?)));
    let made = crate::par::tasks(tasks(lab, r, s, main_dir, extra, report, threads), threads);
    let mut out = Vec::with_capacity(lab.switches.len() * 2 + lab.hosts.len() * 2 + 16);
    let mut entries = Vec::with_capacity(out.capacity());
    let mut body = None;
    for m in made {
        match m? {
            Made::Files(files, hashes) => {
                out.extend(files);
                entries.extend(hashes);
            }
            Made::Report(b) => body = Some(b),
        }
    }
    let mut late = Vec::new();
    // By path: a search of every file per config grew with switches x files.
    let by_path: crate::fxhash::FxMap<&str, &OutFile> =
        out.iter().map(|f| (f.path.as_str(), f)).collect();
    for (path, c) in &lab.containerlab.configs {
        let source = by_path
            .get(c.source.as_str())
            .ok_or_else(|| format!("{path}: {} is not rendered", c.source))?;
        let text = String::from_utf8_lossy(&source.bytes);
        late.push(OutFile {
            path: path.clone(),
            bytes: c.apply(&text).into_bytes(),
        });
    }
    if front.is_some() {
        // The report ends with the list of every other file, known only now.
        let mut listed: Vec<&str> = out.iter().chain(&late).map(|f| f.path.as_str()).collect();
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
    out.extend(late);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let mut clock = crate::compile::Stages::new();
    let lock_file = s
        .lock
        .as_ref()
        .and_then(|l| l.old.as_ref())
        .map(|(_, id)| *id);
    let (sources_sha256, sources) = manifest::sources_hash(&s.sources, main_dir, lock_file);
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

/// What one task of a build makes: files with their manifest entries (hashed where
/// they were made, so hashing runs on every thread), or the report without its list of
/// files (None: the show has no physics).
enum Made {
    Files(Vec<OutFile>, Vec<Entry>),
    Report(Option<String>),
}

/// The build's pieces of work, longest first (see `par::tasks`).
fn tasks<'a>(
    lab: &'a Lab,
    r: &'a Renderer,
    s: &'a Session,
    main_dir: &'a str,
    extra: Option<Task<'a, OutFile>>,
    report: Option<(&'a Front, &'a Plan)>,
    threads: usize,
) -> Vec<Task<'a, Result<Made, String>>> {
    let files = |f: Vec<OutFile>| {
        let hashes = hashed(&f);
        Ok(Made::Files(f, hashes))
    };
    let mut tasks: Vec<Task<'a, Result<Made, String>>> = Vec::new();
    if let Some(x) = extra {
        tasks.push(Box::new(move || files(vec![x()])));
    }
    tasks.push(Box::new(move || {
        files(vec![OutFile {
            // In a folder of its own: a switch may be named `flows`.
            path: "ir/flows/flows.json".into(),
            bytes: ir::to_json(&lab.flows).into_bytes(),
        }])
    }));
    if let Some((front, plan)) = report {
        tasks.push(Box::new(move || {
            let found = crate::report::Finding::all(s, main_dir);
            Ok(Made::Report(crate::report::body(front, plan, lab, &found)))
        }));
    }
    // Several runs per thread, so the last one taken is short.
    let per = |n: usize| n.div_ceil(4 * threads).max(1);
    for run in lab.switches.chunks(per(lab.switches.len())) {
        tasks.push(Box::new(move || files(switches(run, r, &lab.show)?)));
    }
    for run in lab.hosts.chunks(per(lab.hosts.len())) {
        tasks.push(Box::new(move || files(hosts(run, r, &lab.show)?)));
    }
    tasks.push(Box::new(move || {
        let mut f = vec![OutFile {
            path: lab.containerlab.file.clone(),
            bytes: lab.containerlab.to_yaml()?.into_bytes(),
        }];
        f.extend(lab.containerlab.scripts.iter().map(|(path, text)| OutFile {
            path: path.clone(),
            bytes: text.clone().into_bytes(),
        }));
        files(f)
    }));
    tasks.push(Box::new(move || {
        files(vec![
            OutFile {
                path: "cabling.csv".into(),
                bytes: crate::csv::cabling(&lab.cabling).into_bytes(),
            },
            OutFile {
                path: "bom.csv".into(),
                bytes: crate::csv::bom(&lab.cabling).into_bytes(),
            },
        ])
    }));
    tasks.push(Box::new(move || {
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
        files(f)
    }));
    tasks
}

/// The prediction the report and plan.json show; None without physics (then neither
/// is made). The command line's build has its checks make it (`Options::full_prediction`).
pub(crate) fn prediction(front: &Front) -> Option<Plan> {
    crate::check::Ctx::new(front).map(|cx| crate::check::predict::plan(&cx).0)
}

/// The show report: predictions, findings and the files it links to.
pub(crate) fn report(
    front: &Front,
    plan: &Plan,
    lab: &Lab,
    s: &Session,
    main_dir: &str,
    files: &[&str],
) -> String {
    let found = crate::report::Finding::all(s, main_dir);
    crate::report::html_report(front, plan, lab, &found, files)
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
fn switches(run: &[ir::Switch], r: &Renderer, show: &str) -> Result<Vec<OutFile>, String> {
    with_ir(
        run,
        |sw| format!("ir/{}.json", sw.hostname),
        |sw| {
            (!sw.external)
                .then(|| Ok((sw.config_file.clone(), r.switch(sw, show)?)))
                .transpose()
        },
    )
}

/// Each DTN's script and IR.
fn hosts(run: &[ir::host::Host], r: &Renderer, show: &str) -> Result<Vec<OutFile>, String> {
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
    rendered: impl Fn(&T) -> Result<Option<(String, String)>, String>,
) -> Result<Vec<OutFile>, String> {
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
        None => crate::compile::EMBEDDED_SC16_MAIN.to_owned(),
    };
    let main = main.strip_prefix("./").unwrap_or(&main).to_owned();
    main.rsplit_once('/')
        .map(|(d, _)| d.to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Made on several threads, a build's files are exactly those one thread makes.
    #[test]
    fn threads_make_what_one_thread_makes() {
        let (front, lab) = crate::testkit::render_fixture();
        let r = Renderer::new(None).expect("templates");
        let s = Session::default();
        let plan = prediction(&front);
        let files = |threads| -> Vec<(String, Vec<u8>)> {
            let extra: Task<'_, OutFile> = Box::new(|| OutFile {
                path: "plan.json".into(),
                bytes: b"{}".to_vec(),
            });
            assemble(
                &lab,
                &r,
                &s,
                "x",
                Some(extra),
                Some((&front, plan.as_ref())),
                threads,
            )
            .expect("renders")
            .into_iter()
            .map(|f| (f.path, f.bytes))
            .collect()
        };
        let one = files(1);
        assert!(lab.switches.len() >= 3 && one.len() > 2 * lab.switches.len());
        assert!(
            one.iter()
                .any(|(p, b)| p == "report/index.html" && !b.is_empty())
        );
        assert_eq!(files(2), one);
        assert_eq!(files(3), one);
        assert_eq!(files(64), one);
    }
}
