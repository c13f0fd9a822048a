//! The back end: lower the checked model to the IR, render every switch, and assemble
//! the build's files in memory (configs, IR, the containerlab topology, manifest).
//! Nothing is written here.

use std::path::Path;

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

/// Every file of a build, sorted by path, manifest.json last.
pub(crate) fn files(
    lab: &Lab,
    r: &Renderer,
    s: &Session,
    main_dir: &str,
) -> Result<Vec<OutFile>, String> {
    let mut out = Vec::with_capacity(lab.switches.len() * 2 + 2);
    for sw in &lab.switches {
        out.push(OutFile {
            path: sw.config_file.clone(),
            bytes: r.switch(sw, &lab.show)?.into_bytes(),
        });
        out.push(OutFile {
            path: format!("ir/{}.json", sw.hostname),
            bytes: ir::to_json(sw).into_bytes(),
        });
    }
    out.push(OutFile {
        path: lab.containerlab.file.clone(),
        bytes: lab.containerlab.to_yaml()?.into_bytes(),
    });
    out.sort_by(|a, b| a.path.cmp(&b.path));
    let (sources_sha256, sources) = manifest::sources_hash(&s.sources, main_dir);
    let m = Manifest {
        democ: env!("CARGO_PKG_VERSION").to_owned(),
        show: lab.show.clone(),
        sources_sha256,
        sources,
        templates_overridden: r.overridden.clone(),
        files: out
            .iter()
            .map(|f| Entry {
                path: f.path.clone(),
                sha256: manifest::sha256(&f.bytes),
                bytes: f.bytes.len(),
            })
            .collect(),
    };
    out.push(OutFile {
        path: "manifest.json".into(),
        bytes: ir::to_json(&m).into_bytes(),
    });
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
