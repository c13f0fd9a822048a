//! Putting the staged tree in place of the output folder, and clearing what an
//! interrupted build left beside it.
//!
//! On Linux the two folders are exchanged in one `renameat2(RENAME_EXCHANGE)`: at every
//! instant `DIR` is either the whole old tree or the whole new one, and the old tree
//! ends up under the staging name, from where it is removed. Where the exchange is
//! missing (another OS, a file system without it) `DIR` is renamed aside and the new
//! tree renamed in; a kill between the two leaves only `.<name>.democ-old-PID`, which
//! the next build renames back to `DIR` before anything else.

use std::fs;
use std::path::Path;

use super::error::{WriteError, io};

/// How the folder was replaced (the tests check the exchange is used where it exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum How {
    Created,
    Exchanged,
    Renamed,
}

/// Replaces `dir` (if any) by `staging`; on error `dir` is as it was and `staging` is gone.
pub(crate) fn replace(
    staging: &Path,
    dir: &Path,
    exchange_allowed: bool,
) -> Result<How, WriteError> {
    let done = swap(staging, dir, exchange_allowed);
    // After an exchange the staging name holds the old tree; after a failure, the new one.
    let _ = fs::remove_dir_all(staging);
    done
}

fn swap(staging: &Path, dir: &Path, exchange_allowed: bool) -> Result<How, WriteError> {
    if fs::symlink_metadata(dir).is_err() {
        fs::rename(staging, dir).map_err(io("create", dir))?;
        return Ok(How::Created);
    }
    if exchange_allowed {
        match exchange(staging, dir) {
            Ok(()) => return Ok(How::Exchanged),
            Err(e) if !unsupported(&e) => return Err(io("replace", dir)(e)),
            Err(_) => {}
        }
    }
    let old = super::sibling(dir, "old")?;
    let _ = fs::remove_dir_all(&old);
    fs::rename(dir, &old).map_err(io("replace", dir))?;
    if let Err(e) = fs::rename(staging, dir) {
        let _ = fs::rename(&old, dir);
        return Err(io("replace", dir)(e));
    }
    let _ = fs::remove_dir_all(&old);
    Ok(How::Renamed)
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(std::io::Error::from)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// The kernel or the file system has no exchange: fall back to two renames. (Linux's
/// numbers: only there is the exchange tried.)
fn unsupported(e: &std::io::Error) -> bool {
    const EINVAL: i32 = 22;
    const ENOSYS: i32 = 38;
    const EOPNOTSUPP: i32 = 95;
    e.kind() == std::io::ErrorKind::Unsupported
        || matches!(e.raw_os_error(), Some(EINVAL | ENOSYS | EOPNOTSUPP))
}

/// Clears what interrupted runs of democ left beside `target` (a folder or a file):
/// staging folders, old trees and temporary files whose process is gone. When `target`
/// itself is missing and an old tree of a dead build is there, that tree was the
/// output: it is renamed back first.
pub(crate) fn sweep(target: &Path) -> Result<(), WriteError> {
    let prefix = super::beside(target, "")?;
    let (Some(parent), Some(prefix)) = (prefix.parent(), prefix.file_name()) else {
        return Ok(());
    };
    let prefix = prefix.to_string_lossy().into_owned();
    let Ok(entries) = fs::read_dir(parent) else {
        return Ok(());
    };
    let mut stale: Vec<(String, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let rest = name.strip_prefix(&prefix)?;
            let (tag, pid) = rest.split_once('-')?;
            let pid: u32 = pid.parse().ok()?;
            let ours = ["new", "old", "tmp"].contains(&tag);
            (ours && !alive(pid)).then(|| (tag.to_owned(), e.path()))
        })
        .collect();
    stale.sort();
    if fs::symlink_metadata(target).is_err() {
        if let Some((_, old)) = stale.iter().find(|(tag, _)| tag == "old") {
            fs::rename(old, target).map_err(io("restore the previous output to", target))?;
        }
    }
    for (_, p) in stale {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => fs::remove_dir_all(&p),
            Ok(_) => fs::remove_file(&p),
            Err(_) => Ok(()),
        }
        .map_err(io("remove the leftover", &p))?;
    }
    Ok(())
}

/// Whether a process `pid` exists (this process's own id counts as gone: whatever
/// carries it was left by an earlier process that had the same id).
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
}

/// Without a way to ask, every process counts as alive: nothing is removed.
#[cfg(not(unix))]
fn alive(pid: u32) -> bool {
    pid != std::process::id()
}
