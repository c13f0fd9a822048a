//! One build at a time per output folder: an exclusive lock on `.<name>.democ-lock`
//! beside it, held while the folder is staged and swapped. A second build exits at
//! once with a message rather than waiting on a build that may be stuck. The file is
//! removed on release; a build that finds it locked and then unlinked by its owner
//! retries on the new file, so removing it never lets two builds in.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use super::error::{WriteError, io};

pub(crate) struct Lock {
    path: PathBuf,
    // Dropped after the file is removed: the lock is released last.
    _file: File,
}

impl Lock {
    pub(crate) fn take(dir: &Path) -> Result<Lock, WriteError> {
        let path = super::beside(dir, "lock")?;
        for _ in 0..64 {
            let file = File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io("create", &path))?;
            match try_lock(&file) {
                Ok(true) => {}
                Ok(false) => {
                    return Err(WriteError::Locked {
                        dir: dir.to_owned(),
                        lock: path,
                    });
                }
                Err(e) => return Err(io("lock", &path)(e)),
            }
            if still_named(&file, &path) {
                return Ok(Lock { path, _file: file });
            }
        }
        Err(WriteError::LockReplaced { lock: path })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still locked, so no one can lock this file and then lose it.
        let _ = fs::remove_file(&self.path);
    }
}

/// Takes an exclusive lock without waiting; Ok(false) when another process holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use rustix::fs::{FlockOperation, flock};
    match flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(e) if e == rustix::io::Errno::WOULDBLOCK => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Elsewhere builds are not serialised (democ's platform is Linux).
#[cfg(not(unix))]
fn try_lock(_: &File) -> std::io::Result<bool> {
    Ok(true)
}

/// Whether `path` still names the file `file` was opened from.
#[cfg(unix)]
fn still_named(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn still_named(_: &File, path: &Path) -> bool {
    path.exists()
}
