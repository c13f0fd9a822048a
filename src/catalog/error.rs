//! Why `--catalog DIR` could not be read: a usage error (exit 2). What is wrong inside
//! a catalog file is a diagnostic.

use std::path::PathBuf;

use crate::read::ReadError;

#[derive(Debug)]
pub(crate) enum CatalogError {
    /// The folder itself cannot be listed.
    Folder {
        dir: PathBuf,
        error: std::io::Error,
    },
    /// A file in it is a symlink to outside the folder, or cannot be resolved.
    Confined {
        file: PathBuf,
        error: std::io::Error,
    },
    Unreadable {
        file: PathBuf,
        error: ReadError,
    },
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CatalogError::Folder { dir, error } => {
                write!(f, "cannot read catalog folder `{}`: {error}", dir.display())
            }
            CatalogError::Confined { file, error } => {
                write!(f, "cannot read catalog file `{}`: {error}", file.display())
            }
            CatalogError::Unreadable { file, error } => write!(
                f,
                "cannot read catalog file `{}`: {}",
                file.display(),
                error.reason()
            ),
        }
    }
}

impl std::error::Error for CatalogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CatalogError::Folder { error, .. } | CatalogError::Confined { error, .. } => {
                Some(error)
            }
            CatalogError::Unreadable { error, .. } => Some(error),
        }
    }
}
