//! The back end: lower the checked model to the IR, render every switch, and assemble
//! the build's files in memory (configs, IR, the containerlab topology, manifest).
//! Nothing is written here.

use std::path::Path;

use crate::check::predict::Plan;
use crate::compile::{Front, Session};
use crate::ir::{self, Lab};
use crate::manifest::{self, Entry, Manifest};
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
/// the checked front end and its prediction are given.
pub(crate) fn files(
    lab: &Lab,
    r: &Renderer,
    s: &Session,
    main_dir: &str,
    extra: Option<OutFile>,
    front: Option<(&Front, Option<&Plan>)>,
) -> Result<Vec<OutFile>, String> {
    let mut out = Vec::with_capacity(lab.switches.len() * 2 + lab.hosts.len() * 2 + 3);
    // Below a few hundred devices a thread costs more than it saves.
    let threads = |n: usize| crate::par::threads(n, 256);
    let switches = render_switches(lab, r, threads(lab.switches.len()));
    let hosts = render_hosts(lab, r, threads(lab.hosts.len()));
    for part in switches.into_iter().chain(hosts) {
        out.extend(part?);
    }
    out.extend(crate::rulesets::files(lab));
    for (path, (f, i)) in crate::lower::fabrics::scripts(&lab.fabrics) {
        out.push(OutFile {
            path,
            bytes: r.fabric(f, i, &lab.show)?.into_bytes(),
        });
    }
    for f in &lab.fabrics {
        out.push(OutFile {
            path: format!("ir/fabrics/{}.json", f.name),
            bytes: ir::to_json(f).into_bytes(),
        });
    }
    out.push(OutFile {
        // In a folder of its own: a switch may be named `flows`.
        path: "ir/flows/flows.json".into(),
        bytes: ir::to_json(&lab.flows).into_bytes(),
    });
    out.push(OutFile {
        path: "cabling.csv".into(),
        bytes: crate::csv::cabling(&lab.cabling).into_bytes(),
    });
    out.push(OutFile {
        path: "bom.csv".into(),
        bytes: crate::csv::bom(&lab.cabling).into_bytes(),
    });
    out.push(OutFile {
        path: lab.containerlab.file.clone(),
        bytes: lab.containerlab.to_yaml()?.into_bytes(),
    });
    out.extend(lab.containerlab.scripts.iter().map(|(path, text)| OutFile {
        path: path.clone(),
        bytes: text.clone().into_bytes(),
    }));
    for (path, c) in &lab.containerlab.configs {
        let source = out
            .iter()
            .find(|f| f.path == c.source)
            .ok_or_else(|| format!("{path}: {} is not rendered", c.source))?;
        let text = String::from_utf8_lossy(&source.bytes);
        out.push(OutFile {
            path: path.clone(),
            bytes: c.apply(&text).into_bytes(),
        });
    }
    out.extend(extra);
    if let Some((front, plan)) = front {
        let mut clock = crate::compile::Stages::new();
        let mut listed: Vec<String> = out.iter().map(|f| f.path.clone()).collect();
        listed.push("manifest.json".into());
        listed.sort();
        out.push(OutFile {
            path: "report/index.html".into(),
            bytes: plan
                .map(|p| report(front, p, lab, s, main_dir, &listed))
                .unwrap_or_default()
                .into_bytes(),
        });
        clock.mark("  report");
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
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
        files: entries(&out),
    };
    out.push(OutFile {
        path: "manifest.json".into(),
        bytes: ir::to_json(&m).into_bytes(),
    });
    clock.mark("  manifest");
    Ok(out)
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
    files: &[String],
) -> String {
    let found = crate::report::Finding::all(s, main_dir);
    crate::report::html_report(front, plan, lab, &found, files)
}

/// Each file's manifest entry. The hashes run on every core when there is much to hash
/// (the largest show's 300 MB took a fifth of its render on one).
fn entries(out: &[OutFile]) -> Vec<Entry> {
    let bytes: usize = out.iter().map(|f| f.bytes.len()).sum();
    let runs = crate::par::runs(out, crate::par::threads(bytes, 8 << 20), |run| {
        run.iter()
            .map(|f| Entry {
                path: f.path.clone(),
                sha256: manifest::sha256(&f.bytes),
                bytes: f.bytes.len(),
            })
            .collect::<Vec<_>>()
    });
    runs.into_iter().flatten().collect()
}

/// Renders `items` on `threads` threads (`par::runs`): the files are the same as one
/// thread would make (they are sorted by path afterwards anyway).
fn in_runs<T: Sync>(
    items: &[T],
    threads: usize,
    render: impl Fn(&T) -> Result<Vec<OutFile>, String> + Sync,
) -> Vec<Result<Vec<OutFile>, String>> {
    crate::par::runs(items, threads, |items| {
        let mut out = Vec::with_capacity(items.len() * 2);
        for item in items {
            out.extend(render(item)?);
        }
        Ok(out)
    })
}

/// Each switch's config and IR.
fn render_switches(lab: &Lab, r: &Renderer, threads: usize) -> Vec<Result<Vec<OutFile>, String>> {
    in_runs(&lab.switches, threads, |sw| {
        let ir = OutFile {
            path: format!("ir/{}.json", sw.hostname),
            bytes: ir::to_json(sw).into_bytes(),
        };
        // Equipment owned by others gets its IR (what democ assumes it does), no config.
        if sw.external {
            return Ok(vec![ir]);
        }
        Ok(vec![
            OutFile {
                path: sw.config_file.clone(),
                bytes: r.switch(sw, &lab.show)?.into_bytes(),
            },
            ir,
        ])
    })
}

/// Each DTN's script.
fn render_hosts(lab: &Lab, r: &Renderer, threads: usize) -> Vec<Result<Vec<OutFile>, String>> {
    in_runs(&lab.hosts, threads, |h| {
        Ok(vec![
            OutFile {
                path: h.script_file.clone(),
                bytes: r.host(h, &lab.show)?.into_bytes(),
            },
            OutFile {
                path: format!("ir/hosts/{}.json", h.name),
                bytes: ir::to_json(h).into_bytes(),
            },
        ])
    })
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

    /// Rendering on several threads makes exactly the files one thread makes.
    #[test]
    fn threads_render_what_one_thread_renders() {
        let (_, lab) = crate::testkit::render_fixture();
        let r = Renderer::new(None).expect("templates");
        let files = |threads| -> Vec<(String, Vec<u8>)> {
            render_switches(&lab, &r, threads)
                .into_iter()
                .flat_map(|p| p.expect("renders"))
                .map(|f| (f.path, f.bytes))
                .collect()
        };
        let one = files(1);
        assert!(lab.switches.len() >= 3 && one.len() == 2 * lab.switches.len());
        assert_eq!(files(2), one);
        assert_eq!(files(3), one);
        assert_eq!(files(64), one);
    }
}
