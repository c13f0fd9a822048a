//! The private copy a lab deploys from. containerlab runs as root and resolves every
//! node's binds on the lab machine: pointed at the build folder, a bind would follow any
//! symlink in it (the user's keys into a container). So `lab up` reads the build's
//! topology as untrusted input (democ's own topology type, no field it never writes, no
//! file outside the build), and copies only the files the nodes bind or boot, through
//! the build folder's safe reader, into the lab's state folder; containerlab sees the
//! copy, never the build.

use std::path::{Path, PathBuf};

use crate::build_dir::{BuildDir, SMALL_BYTES};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ir::lab::Topology;

/// The kinds democ writes (lower/containerlab): any other is refused.
const KINDS: &[&str] = &["linux", "arista_ceos", "dell_ftosv"];

/// The build's topology: `lab/<show>.clab.yml`, its path in the build and its contents.
pub(crate) fn read(dir: &BuildDir) -> Result<(String, Topology), String> {
    let files: Vec<String> = dir
        .files_in("lab")?
        .into_iter()
        .filter(|f| f.ends_with(".clab.yml"))
        .collect();
    let [file] = files.as_slice() else {
        return Err(format!(
            "{}/lab holds {} containerlab topologies (`*.clab.yml`), not one: is it a `democ build` folder?",
            dir.path().display(),
            files.len()
        ));
    };
    let rel = format!("lab/{file}");
    let topo = read_at(dir, &rel)?;
    Ok((rel, topo))
}

/// A topology of the build at `rel` (the lab's, or a part's under lab/split/), refused
/// when a node has a kind democ never writes.
pub(crate) fn read_at<L: DeserializeOwned>(
    dir: &BuildDir,
    rel: &str,
) -> Result<Topology<L>, String> {
    let text = dir.text(rel, SMALL_BYTES)?;
    let at = || format!("{}/{rel}", dir.path().display());
    let topo: Topology<L> = serde_saphyr::from_str(&text).map_err(|e| format!("{}: {e}", at()))?;
    for (name, node) in &topo.topology.nodes {
        if !KINDS.contains(&node.kind.as_str()) {
            return Err(format!(
                "{}: node `{}` has kind `{}`, which democ never writes: refused",
                at(),
                crate::escape::line(name),
                crate::escape::line(&node.kind)
            ));
        }
    }
    Ok(topo)
}

/// A path a node names relative to its topology in folder `base` of the build (`lab`,
/// `lab/split`): `../hosts/a.sh`, `nodes/s.sh` as a path inside the build
/// (`hosts/a.sh`); Err when it is absolute or leaves the build.
fn inside(base: &str, from_lab: &str) -> Result<String, String> {
    let mut parts: Vec<&str> = base.split('/').collect();
    if from_lab.starts_with('/') {
        return Err(format!(
            "`{}` is outside the build folder: refused",
            crate::escape::line(from_lab)
        ));
    }
    for c in from_lab.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!(
                        "`{}` leads out of the build folder: refused",
                        crate::escape::line(from_lab)
                    ));
                }
            }
            c => parts.push(c),
        }
    }
    if parts.is_empty() {
        return Err(format!(
            "`{}` is the build folder itself: refused",
            crate::escape::line(from_lab)
        ));
    }
    Ok(parts.join("/"))
}

/// Copies `rel` (a file, or a folder and everything in it) from the build to `to`.
fn copy(dir: &BuildDir, rel: &str, to: &Path) -> Result<(), String> {
    let dest = to.join(rel);
    if let Some(up) = dest.parent() {
        std::fs::create_dir_all(up).map_err(|e| format!("{}: {e}", up.display()))?;
    }
    if !dir.has_folder(rel) {
        let bytes = dir.read(rel, SMALL_BYTES)?;
        return Ok(crate::write::file(&dest, &bytes)?);
    }
    std::fs::create_dir_all(&dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    for f in dir.files_in(rel)? {
        copy(dir, &format!("{rel}/{f}"), to)?;
    }
    for sub in dir.folders_in(rel)? {
        copy(dir, &format!("{rel}/{sub}"), to)?;
    }
    Ok(())
}

/// An empty folder `to` for a private copy.
pub(crate) fn fresh(to: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to.join("lab")).map_err(|e| format!("{}: {e}", to.display()))
}

/// Writes into the private copy under `to` (made by `fresh`): the topology at the same
/// place as in the build (`to/lab/<show>.clab.yml`, `to/lab/split/<host>.clab.yml`, so
/// its relative binds mean the same) and every file a node binds or boots. `keep_exec`
/// decides which `exec` lines stay. The copy's topology file.
pub(crate) fn make<L: Serialize>(
    dir: &BuildDir,
    rel: &str,
    topo: &mut Topology<L>,
    to: &Path,
    keep_exec: impl Fn(&str) -> bool,
) -> Result<PathBuf, String> {
    let base = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let file = to.join(rel);
    if let Some(up) = file.parent() {
        std::fs::create_dir_all(up).map_err(|e| format!("{}: {e}", up.display()))?;
    }
    for (name, node) in &mut topo.topology.nodes {
        let sources = node
            .binds
            .iter()
            .map(|b| b.split(':').next().unwrap_or_default())
            .chain(node.startup_config.as_deref());
        for src in sources {
            let path = inside(base, src)
                .map_err(|e| format!("node `{}`: {e}", crate::escape::line(name)))?;
            copy(dir, &path, to)?;
        }
        node.exec.retain(|c| keep_exec(c));
    }
    let text = serde_saphyr::to_string(&*topo).map_err(|e| format!("{rel}: {e}"))?;
    crate::write::file(&file, text.as_bytes())?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::inside;

    #[test]
    fn a_node_reaches_only_files_of_the_build() {
        assert_eq!(inside("lab", "../hosts/a.sh").unwrap(), "hosts/a.sh");
        assert_eq!(inside("lab", "nodes/s.sh").unwrap(), "lab/nodes/s.sh");
        assert_eq!(inside("lab", "../openflow").unwrap(), "openflow");
        assert!(inside("lab", "/etc/shadow").is_err());
        assert!(inside("lab", "../../etc/shadow").is_err());
        assert!(inside("lab", "..").is_err());
        assert_eq!(
            inside("lab/split", "../../hosts/a.sh").unwrap(),
            "hosts/a.sh"
        );
        assert_eq!(
            inside("lab/split", "../nodes/s.sh").unwrap(),
            "lab/nodes/s.sh"
        );
        assert!(inside("lab/split", "../../../etc/shadow").is_err());
    }
}
