//! What `twin up` created, recorded as it goes (`<state>/created.json`), so `twin down`
//! removes exactly that and nothing else.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Created {
    pub(crate) id: String,
    /// Network namespaces, in creation order (every link lives inside them).
    pub(crate) namespaces: Vec<String>,
    /// Pidfiles of the daemons started (OVS, FRR, the test controller).
    pub(crate) pidfiles: Vec<PathBuf>,
}

pub(crate) fn file(state: &Path) -> PathBuf {
    state.join("created.json")
}

impl Created {
    pub(crate) fn load(state: &Path) -> Result<Option<Created>, String> {
        let f = file(state);
        match std::fs::read_to_string(&f) {
            Ok(t) => serde_json::from_str(&t)
                .map(Some)
                .map_err(|e| format!("{}: {e}", f.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", f.display())),
        }
    }

    pub(crate) fn save(&self, state: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).unwrap_or_default();
        crate::write::file(&file(state), text.as_bytes())
    }
}

/// The network namespaces that exist now.
pub(crate) fn namespaces() -> Vec<String> {
    std::fs::read_dir("/run/netns")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// The pid in a pidfile, if that process still runs.
pub(crate) fn live_pid(pidfile: &Path) -> Option<u32> {
    let pid: u32 = std::fs::read_to_string(pidfile).ok()?.trim().parse().ok()?;
    Path::new(&format!("/proc/{pid}")).exists().then_some(pid)
}
