//! What `lab up` deployed (`<state>/lab.json`), so `test` finds the containers and
//! `down` removes exactly that lab. The state folder is root's own, outside the build
//! (`/run/democ/lab/<build>`), refused when another user may write it or a symlink
//! leads to it, as the twin's is.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::twin::state::{self, Daemon};

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Record {
    /// The lab's name for containerlab: the show id and the nonce `up` drew
    /// (containers are `clab-<id>-<node>`).
    pub(crate) id: String,
    pub(crate) nonce: String,
    /// The private copy's topology, inside the state folder.
    pub(crate) topology: PathBuf,
    /// The management network's Docker name.
    pub(crate) network: String,
    /// The nodes deployed (all, or those of `--node-filter`).
    pub(crate) nodes: Vec<String>,
    /// The test controllers `up` started in the controller's node, identified.
    pub(crate) controllers: Vec<Daemon>,
    /// What the lab does not do here, and why (carried into the test's report).
    pub(crate) notes: Vec<String>,
    /// A split lab (`lab up --on` / `--side-by-side`): the parts deployed here, each its
    /// own containerlab lab; empty for the whole lab.
    #[serde(default)]
    pub(crate) parts: Vec<PartRecord>,
    /// The network namespaces `--side-by-side` made for the underlay, all removed at
    /// `down`.
    #[serde(default)]
    pub(crate) underlay: Vec<String>,
    /// `--side-by-side` made the management network itself (shared by the parts).
    #[serde(default)]
    pub(crate) own_network: bool,
}

/// One part of a split lab, deployed.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct PartRecord {
    /// The lab host it stands for.
    pub(crate) host: String,
    /// Its containerlab lab name (containers are `clab-<id>-<node>`).
    pub(crate) id: String,
    /// Its private copy's topology, inside the state folder.
    pub(crate) topology: PathBuf,
    pub(crate) nodes: Vec<String>,
    /// The namespace containerlab ran in (its underlay), side by side.
    pub(crate) netns: Option<String>,
}

const FILE: &str = "lab.json";
const RECORD_BYTES: u64 = 1024 * 1024;
/// Where default state folders live.
const RUN: &str = "/run/democ/lab";

/// The state folder of the lab of `build`: root's own, outside the build.
pub(crate) fn state_dir(build: &Path) -> PathBuf {
    let canonical = std::fs::canonicalize(build).unwrap_or_else(|_| build.to_owned());
    let key = crate::manifest::sha256(canonical.as_os_str().as_encoded_bytes());
    Path::new(RUN).join(&key[..16])
}

impl Record {
    pub(crate) fn load(state: &Path) -> Result<Option<Record>, String> {
        if std::fs::symlink_metadata(state).is_err() {
            return Ok(None);
        }
        state::trusted(state)?;
        let dir = crate::build_dir::BuildDir::open(state)?;
        match dir.read(FILE, RECORD_BYTES) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| format!("{}: {e}", state.join(FILE).display())),
            Err(e) if e.missing => Ok(None),
            Err(e) => Err(e.message),
        }
    }

    pub(crate) fn save(&self, state: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).unwrap_or_default();
        Ok(crate::write::file(&state.join(FILE), text.as_bytes())?)
    }

    /// The container of node `node`.
    pub(crate) fn container(&self, node: &str) -> String {
        let id = self
            .parts
            .iter()
            .find(|p| p.nodes.iter().any(|n| n == node))
            .map_or(&self.id, |p| &p.id);
        format!("clab-{id}-{node}")
    }

    /// The containerlab lab names of what is deployed: the lab's, or each part's.
    pub(crate) fn lab_ids(&self) -> Vec<&str> {
        if self.parts.is_empty() {
            vec![self.id.as_str()]
        } else {
            self.parts.iter().map(|p| p.id.as_str()).collect()
        }
    }

    /// Removes the record and the folder when nothing else is in it.
    pub(crate) fn remove(state: &Path) {
        let _ = std::fs::remove_file(state.join(FILE));
        let _ = std::fs::remove_dir(state);
    }
}
