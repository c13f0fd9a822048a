//! Where a spec's files really are (symlinks followed), each folder resolved once.
//!
//! `Path::canonicalize` asks the kernel about every component of the absolute path:
//! a `getcwd` and one `readlink` per folder from the working folder down, for each
//! file, while a show's files share a few folders.
//! Here a folder is resolved the first time a file in it is, and a file whose own name
//! is no symlink resolves to its folder's path and that name, which is what
//! `canonicalize` gives; a file that is a symlink is resolved in full, as before.

use std::path::{Path, PathBuf};

/// Folders resolved so far: as the spec's paths name them, and canonical. A list, looked
/// through: there are at most as many as files, which the include limit bounds (256).
#[derive(Default)]
pub(crate) struct Folders {
    known: Vec<(PathBuf, PathBuf)>,
}

impl Folders {
    /// `dir` canonical (`.` for the empty path), from the record when resolved before.
    pub(crate) fn folder(&mut self, dir: &Path) -> std::io::Result<PathBuf> {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Some((_, c)) = self.known.iter().find(|(d, _)| d == dir) {
            return Ok(c.clone());
        }
        let c = dir.canonicalize()?;
        self.known.push((dir.to_path_buf(), c.clone()));
        Ok(c)
    }

    /// `path` canonical, as `Path::canonicalize` would give it (and failing as it
    /// would, with the same error): its folder from [`Folders::folder`], its name
    /// checked with one `lstat`.
    pub(crate) fn file(&mut self, path: &Path) -> std::io::Result<PathBuf> {
        // `..` or a root: no name of its own to join.
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return path.canonicalize();
        };
        let dir = self.folder(dir)?;
        if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
            return path.canonicalize();
        }
        Ok(dir.join(name))
    }
}

#[cfg(test)]
mod tests {
    use super::Folders;
    use std::path::Path;

    /// Files, folders, symlinks to each (inside and outside, relative and absolute, in
    /// a chain, in a loop), missing names and files used as folders: the same result
    /// as `canonicalize`, the same error kind when it fails, asked twice (from the
    /// record the second time).
    #[test]
    fn resolves_as_canonicalize_does() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let t = tmp.path();
        std::fs::create_dir_all(t.join("show/sub")).expect("mkdir");
        std::fs::create_dir_all(t.join("out")).expect("mkdir");
        for f in ["show/a.yaml", "show/sub/b.yaml", "out/o.yaml"] {
            std::fs::write(t.join(f), "x: 1\n").expect("write");
        }
        let absolute = t.join("show/a.yaml");
        for (target, at) in [
            (Path::new("../out/o.yaml"), "show/escape.yaml"),
            (Path::new("../out"), "show/escdir"),
            (Path::new("sub"), "show/inward"),
            (Path::new("escape.yaml"), "show/chain.yaml"),
            (Path::new("loop2.yaml"), "show/loop1.yaml"),
            (Path::new("loop1.yaml"), "show/loop2.yaml"),
            (absolute.as_path(), "show/abs.yaml"),
            (Path::new("missing.yaml"), "show/dangling.yaml"),
        ] {
            std::os::unix::fs::symlink(target, t.join(at)).expect("symlink");
        }
        let names = [
            "show/a.yaml",
            "show/sub/b.yaml",
            "show/escape.yaml",
            "show/escdir/o.yaml",
            "show/inward/b.yaml",
            "show/chain.yaml",
            "show/loop1.yaml",
            "show/abs.yaml",
            "show/dangling.yaml",
            "show/missing.yaml",
            "show/nodir/a.yaml",
            "show/a.yaml/x.yaml",
            "show/sub",
            "show/escdir",
            "show/..",
            "show",
        ];
        let mut folders = Folders::default();
        for round in 0..2 {
            for n in names {
                let p = t.join(n);
                let want = p.canonicalize().map_err(|e| e.kind());
                let got = folders.file(&p).map_err(|e| e.kind());
                assert_eq!(got, want, "{n} (round {round})");
            }
        }
        // Relative paths, and the working folder itself.
        let mut folders = Folders::default();
        for p in ["Cargo.toml", "src/lib.rs", "src/../Cargo.toml", "src"] {
            let want = Path::new(p).canonicalize().map_err(|e| e.kind());
            assert_eq!(
                folders.file(Path::new(p)).map_err(|e| e.kind()),
                want,
                "{p}"
            );
        }
        assert_eq!(
            folders.folder(Path::new("")).ok(),
            Path::new(".").canonicalize().ok()
        );
    }
}
