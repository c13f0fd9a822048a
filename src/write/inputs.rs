//! A build never writes over what it reads: a spec, include, catalog or template inside
//! the output folder would be deleted (or refused as a foreign file only after the
//! whole pipeline ran). Checked before anything is written, by real paths (symlinks
//! resolved), so `out/../out/show.yaml` and a symlinked folder are caught too.

use std::path::{Path, PathBuf};

use super::error::WriteError;

/// Err naming the first of `inputs` (what, path) that lies in `dir` or is `dir`.
pub(crate) fn outside<'a>(
    dir: &Path,
    inputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<(), WriteError> {
    // A folder that does not exist yet holds nothing.
    let Ok(root) = dir.canonicalize() else {
        return Ok(());
    };
    for (what, path) in inputs {
        if real(path).is_some_and(|p| p.starts_with(&root)) {
            return Err(WriteError::InputInside {
                what: what.to_owned(),
                path: path.to_owned(),
                dir: dir.to_owned(),
            });
        }
    }
    Ok(())
}

fn real(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok()
}
