//! `containerlab`: each `lab/*.clab.yml` against containerlab's own JSON Schema, and the
//! references the schema cannot check: every link endpoint names a declared node, no
//! interface is cabled twice, and every file a node boots or binds is in the build.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::outcome::{Outcome, first_lines};
use crate::build_dir::{BuildDir, SMALL_BYTES};

const NAME: &str = "containerlab";

/// containerlab's schema. Its errors never quote the file: the path is the user's, but
/// what it holds may be anything (a symlink to a private file), and a JSON Schema
/// library's error prints the offending value whole.
fn schema(path: &Path) -> Result<jsonschema::Validator, String> {
    let text = crate::read::text(path, crate::read::MAX_FILE_BYTES)?;
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not JSON (line {}, column {})",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    jsonschema::validator_for(&v).map_err(|e| {
        format!(
            "{}: not a JSON Schema democ can use (at `{}`)",
            path.display(),
            e.instance_path
        )
    })
}

/// The build's topology files (paths inside the build), sorted.
fn topologies(build: &BuildDir) -> Result<Vec<String>, String> {
    let out: Vec<String> = build
        .files_in("lab")?
        .into_iter()
        .filter(|n| n.ends_with(".clab.yml"))
        .map(|n| format!("lab/{n}"))
        .collect();
    if out.is_empty() {
        return Err(format!("no *.clab.yml in {}/lab", build.path().display()));
    }
    Ok(out)
}

/// Endpoints naming an undeclared node, interfaces cabled twice, links without two
/// `node:interface` endpoints.
fn references(doc: &Value) -> Vec<String> {
    let topo = &doc["topology"];
    let nodes = topo["nodes"].as_object();
    let mut used = BTreeSet::new();
    let mut errors = Vec::new();
    let links = topo["links"].as_array().map_or(&[][..], Vec::as_slice);
    for (i, link) in links.iter().enumerate() {
        let ends = link["endpoints"].as_array().map_or(&[][..], Vec::as_slice);
        if ends.len() != 2 {
            errors.push(format!("link {i}: {} endpoints, not 2", ends.len()));
        }
        for end in ends {
            let Some((node, _)) = end.as_str().and_then(|e| e.split_once(':')) else {
                errors.push(format!("link {i}: endpoint {end} is not `node:interface`"));
                continue;
            };
            if !nodes.is_some_and(|n| n.contains_key(node)) {
                errors.push(format!("link {i}: endpoint {end} names no declared node"));
            }
            if !used.insert(end.as_str().unwrap_or_default()) {
                errors.push(format!("link {i}: interface {end} is cabled twice"));
            }
        }
    }
    errors
}

/// `src` (relative to the topology's folder `dir`, itself inside the build) as a path
/// inside the build, or None when it leaves the build.
fn inside(dir: &str, src: &str) -> Option<String> {
    if src.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in src.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The configs nodes boot and the files they bind (paths relative to the topology's
/// folder, `dir`) that are not in the build: containerlab would refuse to deploy, or
/// would hand a node a file from outside the build.
fn missing_files(doc: &Value, build: &BuildDir, dir: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let nodes = doc["topology"]["nodes"].as_object();
    for (name, node) in nodes.into_iter().flatten() {
        let binds = node["binds"].as_array().map_or(&[][..], Vec::as_slice);
        let sources = binds
            .iter()
            .filter_map(|b| b.as_str()?.split(':').next())
            .chain(node["startup-config"].as_str());
        for src in sources {
            match inside(dir, src) {
                None => errors.push(format!("node {name}: {src} is outside the build")),
                Some(p) if !build.has(&p) && !build.has_folder(&p) => {
                    errors.push(format!("node {name}: {src} is not in the build"));
                }
                Some(_) => {}
            }
        }
    }
    errors
}

/// The schema's and the references' findings for one file, each line naming the file.
fn findings(build: &BuildDir, path: &str, schema: Option<&jsonschema::Validator>) -> Vec<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let doc: Value = match build
        .text(path, SMALL_BYTES)
        .map_err(String::from)
        .and_then(|t| serde_saphyr::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(d) => d,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let mut out: Vec<String> = schema
        .into_iter()
        .flat_map(|v| {
            v.iter_errors(&doc)
                .map(|e| format!("schema: {e} at {}", e.instance_path))
        })
        .collect();
    out.extend(references(&doc));
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    out.extend(missing_files(&doc, build, dir));
    out.into_iter().map(|f| format!("{name}: {f}")).collect()
}

/// The build's topologies against the schema the search found (`schema_at`: where
/// from, and its path), and their references; without a schema, not run.
pub(crate) fn check(build: &BuildDir, schema_at: Option<(&'static str, PathBuf)>) -> Outcome {
    let files = match topologies(build) {
        Ok(f) => f,
        Err(e) => return Outcome::failed(NAME, e),
    };
    let validator = match schema_at.as_ref().map(|(_, p)| schema(p)).transpose() {
        Ok(v) => v,
        Err(e) => return Outcome::failed(NAME, format!("containerlab's schema: {e}")),
    };
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| findings(build, f, validator.as_ref()))
        .collect();
    if !found.is_empty() {
        return Outcome::failed(NAME, first_lines(&found.join("\n")));
    }
    let names: Vec<&str> = files
        .iter()
        .map(|f| f.rsplit('/').next().unwrap_or(f))
        .collect();
    match schema_at {
        Some((place, p)) => Outcome::passed(
            NAME,
            format!(
                "{}: containerlab's schema ({}, from {place}) and the references",
                names.join(", "),
                p.display()
            ),
        ),
        // The references were checked; the half that needs the schema was not.
        None => Outcome::not_run(
            NAME,
            format!(
                "containerlab's schema was not found ({}); the references in {} are right",
                crate::cli::locate::CLAB_SEARCH,
                names.join(", ")
            ),
            "democ data --fetch (copies containerlab's schema into democ's data folder, or downloads the one of the installed containerlab), or --clab-schema PATH",
        ),
    }
}
