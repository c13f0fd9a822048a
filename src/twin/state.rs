//! What `twin up` created, recorded as it goes (`<state>/created.json`), so `twin down`
//! removes exactly that and nothing else.
//!
//! The twin runs as root from a build folder anyone may have handed over, so nothing
//! that decides what root kills or deletes may come from that folder. The state lives
//! outside it, in a folder of root's own (`/run/democ/twin/<build>` by default), refused
//! when another user could write it or when it is reached through a symlink. `up` draws
//! a random nonce that is part of every namespace name it makes, and records each
//! daemon it starts by pid, start time and command line; `down` removes a namespace only
//! when its name carries the record's nonce and stops a process only when all three
//! still match.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A daemon `up` started, as the kernel knew it then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Daemon {
    pub(crate) pidfile: PathBuf,
    pub(crate) pid: u32,
    /// Field 22 of /proc/<pid>/stat: clock ticks after boot, unique per pid over a boot.
    pub(crate) start: u64,
    pub(crate) cmdline: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Created {
    pub(crate) id: String,
    /// Random, drawn at `up`; part of `id` and so of every namespace name.
    pub(crate) nonce: String,
    /// Network namespaces, in creation order (every link lives inside them).
    pub(crate) namespaces: Vec<String>,
    /// Pidfiles of the daemons to be started (OVS, FRR, the test controller), inside
    /// the state folder.
    pub(crate) pidfiles: Vec<PathBuf>,
    /// The daemons started, identified.
    pub(crate) daemons: Vec<Daemon>,
}

pub(crate) fn file(state: &Path) -> PathBuf {
    state.join("created.json")
}

/// The cap on the record (a few KB per switch).
const RECORD_BYTES: u64 = 16 * 1024 * 1024;

impl Created {
    pub(crate) fn load(state: &Path) -> Result<Option<Created>, String> {
        if std::fs::symlink_metadata(state).is_err() {
            return Ok(None);
        }
        trusted(state)?;
        let dir = crate::build_dir::BuildDir::open(state)?;
        match dir.read("created.json", RECORD_BYTES) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| format!("{}: {e}", file(state).display())),
            Err(e) if e.missing => Ok(None),
            Err(e) => Err(e.message),
        }
    }

    pub(crate) fn save(&self, state: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).unwrap_or_default();
        Ok(crate::write::file(&file(state), text.as_bytes())?)
    }

    /// Whether namespace `ns` is one this record's `up` made: listed, and named with
    /// the record's nonce.
    pub(crate) fn made(&self, ns: &str) -> bool {
        self.nonce.len() >= 8
            && self.id.ends_with(&self.nonce)
            && ns.starts_with(&format!("{}-", self.id))
            && self.namespaces.iter().any(|n| n == ns)
    }
}

/// Eight random hex digits from the kernel.
pub(crate) fn nonce() -> Result<String, String> {
    use std::io::Read as _;
    let mut b = [0u8; 4];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .map_err(|e| format!("/dev/urandom: {e}"))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// The default state folder of the twin of `build`: root's own, outside the build,
/// one per build folder.
pub(crate) fn default_dir(build: &Path) -> PathBuf {
    let canonical = std::fs::canonicalize(build).unwrap_or_else(|_| build.to_owned());
    let key = crate::manifest::sha256(canonical.as_os_str().as_encoded_bytes());
    Path::new(RUN).join(&key[..16])
}

/// Where default state folders live.
const RUN: &str = "/run/democ/twin";

/// Err unless `dir` is a folder (not a symlink) of this user's, with no symlink on the
/// way to it, that no other user may write.
pub(crate) fn trusted(dir: &Path) -> Result<(), String> {
    let abs = std::path::absolute(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut walked = PathBuf::new();
    for part in abs.components() {
        walked.push(part);
        let meta =
            std::fs::symlink_metadata(&walked).map_err(|e| format!("{}: {e}", walked.display()))?;
        if meta.file_type().is_symlink() {
            return Err(format!(
                "the twin's state folder {} is reached through a symlink ({}): refused",
                dir.display(),
                walked.display()
            ));
        }
    }
    owned(&abs)
}

#[cfg(unix)]
fn owned(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt as _;
    let m = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let me = rustix::process::geteuid().as_raw();
    if !m.is_dir() || m.uid() != me || m.mode() & 0o022 != 0 {
        return Err(format!(
            "the twin's state folder {} must be a folder of user {me}'s that no other user may write: refused",
            dir.display()
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn owned(_dir: &Path) -> Result<(), String> {
    Ok(())
}

/// Makes `dir` (and, for the default place, the folders above it up to /run) as this
/// user's own, 0711 (FRR's daemons run as user `frr` and must pass through to their own
/// folders; nobody else may list or write them), then checks it as [`trusted`] does.
pub(crate) fn make(dir: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        let mut b = std::fs::DirBuilder::new();
        b.mode(0o711);
        let mut to_make = Vec::new();
        let mut d = Some(dir);
        while let Some(x) = d {
            if std::fs::symlink_metadata(x).is_ok() {
                break;
            }
            to_make.push(x);
            d = x.parent();
        }
        for x in to_make.into_iter().rev() {
            b.create(x).map_err(|e| format!("{}: {e}", x.display()))?;
        }
        if dir.starts_with(RUN) {
            for x in [Path::new("/run/democ"), Path::new(RUN)] {
                trusted(x)?;
            }
        }
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    trusted(dir)
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

/// The process `pid` as the kernel knows it now: start time and command line.
pub(crate) fn identify(pid: u32) -> Option<(u64, String)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command (field 2) is in parentheses and may hold anything: count from after it.
    let after = stat.rsplit_once(')')?.1;
    let start = after.split_whitespace().nth(19)?.parse().ok()?;
    let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some((start, String::from_utf8_lossy(&cmd).replace('\0', " ")))
}

/// The daemon behind `pidfile` now, identified; None when none runs.
pub(crate) fn daemon(pidfile: &Path) -> Option<Daemon> {
    let pid = live_pid(pidfile)?;
    let (start, cmdline) = identify(pid)?;
    Some(Daemon {
        pidfile: pidfile.to_owned(),
        pid,
        start,
        cmdline,
    })
}

/// Whether `d` is still the very process `up` recorded.
pub(crate) fn same(d: &Daemon) -> bool {
    identify(d.pid).is_some_and(|(start, cmd)| start == d.start && cmd == d.cmdline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_known_by_pid_start_and_command() {
        let me = std::process::id();
        let (start, cmd) = identify(me).expect("this process");
        let d = Daemon {
            pidfile: PathBuf::new(),
            pid: me,
            start,
            cmdline: cmd.clone(),
        };
        assert!(same(&d));
        assert!(!same(&Daemon {
            start: start + 1,
            ..d.clone()
        }));
        assert!(!same(&Daemon {
            cmdline: format!("{cmd}x"),
            ..d
        }));
    }

    #[test]
    fn a_namespace_is_made_only_with_the_nonce() {
        let c = Created {
            id: "sc16-0a1b2c3d".into(),
            nonce: "0a1b2c3d".into(),
            namespaces: vec!["sc16-0a1b2c3d-s-sw1".into(), "other".into()],
            ..Created::default()
        };
        assert!(c.made("sc16-0a1b2c3d-s-sw1"));
        assert!(!c.made("other"));
        assert!(!c.made("sc16-0a1b2c3d-s-sw2"));
        let forged = Created {
            nonce: String::new(),
            id: "sc16".into(),
            namespaces: vec!["sc16-s-sw1".into()],
            ..Created::default()
        };
        assert!(!forged.made("sc16-s-sw1"));
    }

    #[test]
    fn a_state_folder_others_may_write_or_reached_by_a_symlink_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let ok = t.path().join("ok");
        make(&ok).expect("made");
        assert!(trusted(&ok).is_ok());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let open = t.path().join("open");
            std::fs::create_dir(&open).unwrap();
            std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
            assert!(trusted(&open).is_err());
            let link = t.path().join("link");
            std::os::unix::fs::symlink(&ok, &link).unwrap();
            assert!(trusted(&link).unwrap_err().contains("symlink"));
            assert!(Created::load(&link).is_err());
        }
    }
}
