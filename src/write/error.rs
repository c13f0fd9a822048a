//! Why a build (or one file) was not written. Every case leaves the output as it was.

use std::path::PathBuf;

use crate::build_dir::{BuildReadError, OpenError};
use crate::manifest::ManifestError;

#[derive(Debug)]
pub(crate) enum WriteError {
    /// A file-system call failed: `what` is the verb of the message (`create`,
    /// `write`, `replace`, `restore the previous output to`, ...).
    Io {
        what: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    /// The output path has no last component (`..`, `/`).
    NotAName {
        target: PathBuf,
    },
    /// A file of the build whose path would land outside the output folder.
    Escapes {
        path: String,
    },
    /// A thread writing a streamed file panicked.
    WriterThread,
    /// Another build holds the output folder's lock.
    Locked {
        dir: PathBuf,
        lock: PathBuf,
    },
    /// The lock file was replaced each time it was taken.
    LockReplaced {
        lock: PathBuf,
    },
    NotAFolder {
        dir: PathBuf,
    },
    /// The output folder holds files but no manifest.
    NoManifest {
        dir: PathBuf,
    },
    /// The output folder's manifest.json is not democ's.
    NotOurs {
        manifest: PathBuf,
        why: NotOurs,
    },
    /// A file or folder the previous build's manifest does not list (`rel`, `/`-ended
    /// for a folder).
    Foreign {
        dir: PathBuf,
        rel: String,
    },
    /// One of the build's inputs lies inside the output folder.
    InputInside {
        what: String,
        path: PathBuf,
        dir: PathBuf,
    },
    /// A signal arrived while writing.
    Interrupted {
        signal: i32,
        dir: PathBuf,
    },
}

/// Why a manifest.json in the output folder is not one democ wrote.
#[derive(Debug)]
pub(crate) enum NotOurs {
    NotRegular,
    Unopenable(OpenError),
    Unreadable(BuildReadError),
    Manifest(ManifestError),
}

/// A `map_err` for a file-system call on `path`.
pub(super) fn io(
    what: &'static str,
    path: &std::path::Path,
) -> impl FnOnce(std::io::Error) -> WriteError {
    let path = path.to_owned();
    move |error| WriteError::Io { what, path, error }
}

impl std::fmt::Display for NotOurs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotOurs::NotRegular => f.write_str("not a regular file"),
            NotOurs::Unopenable(e) => e.fmt(f),
            NotOurs::Unreadable(e) => e.fmt(f),
            NotOurs::Manifest(e) => e.fmt(f),
        }
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Io { what, path, error } => {
                write!(f, "cannot {what} `{}`: {error}", path.display())
            }
            WriteError::NotAName { target } => {
                write!(f, "`{}` is not a folder or file name", target.display())
            }
            WriteError::Escapes { path } => {
                write!(f, "refusing to write `{path}` outside the output folder")
            }
            WriteError::WriterThread => f.write_str("a writer thread failed"),
            WriteError::Locked { dir, lock } => write!(
                f,
                "another democ build is writing `{}` (it holds `{}`); wait for it to finish and build again",
                dir.display(),
                lock.display()
            ),
            WriteError::LockReplaced { lock } => write!(
                f,
                "cannot lock `{}`: it keeps being replaced",
                lock.display()
            ),
            WriteError::NotAFolder { dir } => {
                write!(f, "`{}` exists and is not a folder", dir.display())
            }
            WriteError::NoManifest { dir } => write!(
                f,
                "`{}` is not empty and has no democ manifest.json: democ only replaces folders it wrote; choose another folder",
                dir.display()
            ),
            WriteError::NotOurs { manifest, why } => write!(
                f,
                "`{}` is not a democ build manifest ({why}): democ only replaces folders it wrote; choose another folder",
                manifest.display()
            ),
            WriteError::Foreign { dir, rel } => write!(
                f,
                "`{}` is not a file democ wrote (its manifest.json does not list it): democ replaces only its own files; move it out of `{}` or choose another output folder",
                dir.join(rel).display(),
                dir.display()
            ),
            WriteError::InputInside { what, path, dir } => write!(
                f,
                "the {what} `{}` is inside the output folder `{}`, which democ replaces: keep the show's files outside it or choose another output folder",
                path.display(),
                dir.display()
            ),
            WriteError::Interrupted { signal, dir } => write!(
                f,
                "interrupted by {}: `{}` is as it was",
                super::interrupt::name(*signal),
                dir.display()
            ),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io { error, .. } => Some(error),
            WriteError::NotOurs { why, .. } => match why {
                NotOurs::NotRegular => None,
                NotOurs::Unopenable(e) => Some(e),
                NotOurs::Unreadable(e) => Some(e),
                NotOurs::Manifest(e) => Some(e),
            },
            _ => None,
        }
    }
}

impl From<WriteError> for String {
    fn from(e: WriteError) -> String {
        e.to_string()
    }
}
