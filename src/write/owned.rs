//! What a previous build left in the output folder, and whether democ may replace it.
//!
//! A folder is democ's when its `manifest.json` is a democ build manifest (its format
//! marker, or the exact shape democ wrote before it had one) and every entry in it is
//! a file that manifest lists, or a folder on the way to one. Anything else (a user's
//! `NOTES.md`, a `.git/`, the spec being built) makes the build refuse, naming it:
//! democ never deletes a file it did not write. An empty folder may be used too.
//!
//! Nothing is read through a symlink, and the only file read is the manifest, with a
//! size limit: unchanged files are recognised by the manifest's hashes, not by reading
//! them back.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;
use std::time::SystemTime;

use super::error::{NotOurs, WriteError, io};
use crate::manifest;

/// The largest manifest read back (a 20,000-file build writes about 4 MB).
const MANIFEST_LIMIT: u64 = crate::build_dir::SMALL_BYTES;

/// A previous build in the output folder.
pub(crate) struct Prior {
    /// Its manifest.json, as bytes.
    pub(crate) manifest: Vec<u8>,
    /// Path -> (sha256, length) of every other file.
    files: HashMap<String, (String, usize)>,
    /// Files modified after the manifest was written were edited since: never reused.
    written: SystemTime,
    /// Path -> sha256 from the new build's manifest (hashed once, when it was made).
    new: HashMap<String, String>,
}

impl Prior {
    /// The old file at `path` if it can stand for `bytes` unchanged: listed with the
    /// same hash, still a regular file of that length, not modified since the build.
    pub(crate) fn unchanged(&self, dir: &Path, path: &str, bytes: &[u8]) -> Option<fs::Metadata> {
        let (sha, len) = self.files.get(path)?;
        if *len != bytes.len() {
            return None;
        }
        let meta = self.kept(dir, path, *len);
        let new_sha = match self.new.get(path) {
            Some(h) => *h == *sha,
            None => *sha == manifest::sha256(bytes),
        };
        meta.filter(|_| new_sha)
    }

    /// [`Prior::unchanged`] for a file already written (streamed into the staging
    /// folder), known by its hash and length.
    pub(crate) fn unchanged_hash(
        &self,
        dir: &Path,
        path: &str,
        sha256: &str,
        len: usize,
    ) -> Option<fs::Metadata> {
        let (sha, old_len) = self.files.get(path)?;
        if *old_len != len || sha != sha256 {
            return None;
        }
        self.kept(dir, path, len)
    }

    /// The old file at `path` if it is still what the build left: a regular file of
    /// `len` bytes, not modified since, reached without a symlink (a `hosts/` turned
    /// into a symlink out of the build must not have an outside file linked in).
    fn kept(&self, dir: &Path, path: &str, len: usize) -> Option<fs::Metadata> {
        let meta = crate::build_dir::BuildDir::open(dir)
            .ok()?
            .open_file(path)
            .ok()?
            .metadata()
            .ok()?;
        let fresh = meta.modified().is_ok_and(|t| t <= self.written);
        (meta.is_file() && meta.len() == len as u64 && fresh).then_some(meta)
    }
}

/// The previous build in `dir`; None when `dir` is missing or empty. Err when democ
/// must not replace it. `new_manifest` is the manifest of the build about to be written.
pub(crate) fn prior(dir: &Path, new_manifest: Option<&[u8]>) -> Result<Option<Prior>, WriteError> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io("read", dir)(e)),
        Ok(m) if !m.is_dir() => {
            return Err(WriteError::NotAFolder {
                dir: dir.to_owned(),
            });
        }
        Ok(_) => {}
    }
    let path = dir.join("manifest.json");
    let meta = match fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let empty = fs::read_dir(dir).map_err(io("read", dir))?.next().is_none();
            return if empty {
                Ok(None)
            } else {
                Err(WriteError::NoManifest {
                    dir: dir.to_owned(),
                })
            };
        }
        Err(e) => return Err(io("read", &path)(e)),
        Ok(m) => m,
    };
    let not_ours = |why: NotOurs| WriteError::NotOurs {
        manifest: path.clone(),
        why,
    };
    if !meta.is_file() {
        return Err(not_ours(NotOurs::NotRegular));
    }
    let bytes = crate::build_dir::BuildDir::open(dir)
        .map_err(NotOurs::Unopenable)
        .and_then(|d| {
            d.read("manifest.json", MANIFEST_LIMIT)
                .map_err(NotOurs::Unreadable)
        })
        .map_err(not_ours)?;
    let m = manifest::Previous::parse(&bytes).map_err(|e| not_ours(NotOurs::Manifest(e)))?;
    let files: HashMap<String, (String, usize)> = m
        .files
        .into_iter()
        .map(|e| (e.path, (e.sha256, e.bytes)))
        .collect();
    foreign(dir, &files)?;
    let new = new_manifest
        .and_then(|b| manifest::Previous::parse(b).ok())
        .map(|m| m.files.into_iter().map(|e| (e.path, e.sha256)).collect())
        .unwrap_or_default();
    Ok(Some(Prior {
        manifest: bytes,
        files,
        written: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        new,
    }))
}

/// What democ's own commands add to a build after it is written: the twin's
/// measurements (`twin test --measure`: `twin/measure.json`, `twin/results/`) and a lab
/// split's topologies (`lab split`: `lab/split/`). They describe the build they were made
/// from, so a rebuild replaces them with the rest of the folder (docs/twin.md, lab.md).
pub(crate) const RUN_OUTPUTS: [&str; 2] = ["twin", "lab/split"];

/// Whether `rel` is one of [`RUN_OUTPUTS`] or inside one.
fn run_output(rel: &str) -> bool {
    RUN_OUTPUTS
        .iter()
        .any(|o| rel == *o || rel.strip_prefix(o).is_some_and(|r| r.starts_with('/')))
}

/// Whether `rel` is a folder that holds one of [`RUN_OUTPUTS`] (`lab` of `lab/split`).
fn holds_run_output(rel: &str) -> bool {
    RUN_OUTPUTS
        .iter()
        .any(|o| o.strip_prefix(rel).is_some_and(|r| r.starts_with('/')))
}

/// The first entry of `dir` (in name order, depth first) that the manifest does not
/// account for, as an error naming it.
fn foreign(dir: &Path, files: &HashMap<String, (String, usize)>) -> Result<(), WriteError> {
    let mut folders: HashSet<&str> = HashSet::new();
    for path in files.keys() {
        let mut p = path.as_str();
        while let Some((parent, _)) = p.rsplit_once('/') {
            if !folders.insert(parent) {
                break;
            }
            p = parent;
        }
    }
    let listed = |rel: &str, is_dir: bool| {
        if run_output(rel) {
            true
        } else if is_dir {
            folders.contains(rel) || holds_run_output(rel)
        } else {
            rel == "manifest.json" || files.contains_key(rel)
        }
    };
    match first_unlisted(dir, "", &listed)? {
        None => Ok(()),
        Some(rel) => Err(WriteError::Foreign {
            dir: dir.to_owned(),
            rel,
        }),
    }
}

fn first_unlisted(
    dir: &Path,
    rel: &str,
    listed: &dyn Fn(&str, bool) -> bool,
) -> Result<Option<String>, WriteError> {
    let here = if rel.is_empty() {
        dir.to_path_buf()
    } else {
        dir.join(rel)
    };
    let mut entries: Vec<(String, bool)> = Vec::new();
    for e in fs::read_dir(&here).map_err(io("read", &here))? {
        let e = e.map_err(io("read", &here))?;
        let name = e.file_name();
        let name = name.to_string_lossy();
        let child = if rel.is_empty() {
            name.into_owned()
        } else {
            format!("{rel}/{name}")
        };
        // The entry's own type: a symlink to a folder is not a folder here.
        let is_dir = e.file_type().map_err(io("read", &here))?.is_dir();
        entries.push((child, is_dir));
    }
    entries.sort();
    for (child, is_dir) in entries {
        if !listed(&child, is_dir) {
            return Ok(Some(if is_dir { format!("{child}/") } else { child }));
        }
        if is_dir {
            if let Some(found) = first_unlisted(dir, &child, listed)? {
                return Ok(Some(found));
            }
        }
    }
    Ok(None)
}
