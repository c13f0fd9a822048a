//! Writing a build atomically. Everything is rendered in memory first; then the files
//! go into a staging folder beside DIR, which replaces DIR by rename. Files whose bytes
//! did not change are hard-linked from the old tree (or copied with their old mtime),
//! so tools watching mtimes see only real changes. On any error DIR is left as it was.
//! DIR belongs to democ: an existing non-empty DIR without a manifest.json is refused.

use std::fs;
use std::path::{Path, PathBuf};

/// One output file: a `/`-separated path relative to DIR, and its bytes.
#[derive(Debug, Clone)]
pub(crate) struct OutFile {
    pub(crate) path: String,
    pub(crate) bytes: Vec<u8>,
}

fn io(what: &str, p: &Path, e: std::io::Error) -> String {
    format!("cannot {what} `{}`: {e}", p.display())
}

/// `.<name>.democ-<tag>-<pid>` beside `dir`.
fn sibling(dir: &Path, tag: &str) -> Result<PathBuf, String> {
    let name = dir
        .file_name()
        .ok_or_else(|| format!("`{}` is not a folder name", dir.display()))?;
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Ok(parent.join(format!(
        ".{}.democ-{tag}-{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// Refuses to replace a folder democ did not write.
fn owned(dir: &Path) -> Result<bool, String> {
    match fs::symlink_metadata(dir) {
        Err(_) => Ok(false),
        Ok(m) if !m.is_dir() => Err(format!("`{}` exists and is not a folder", dir.display())),
        Ok(_) => {
            let empty = fs::read_dir(dir)
                .map_err(|e| io("read", dir, e))?
                .next()
                .is_none();
            if empty || dir.join("manifest.json").is_file() {
                Ok(true)
            } else {
                Err(format!(
                    "`{}` is not empty and has no manifest.json: democ only replaces folders it wrote",
                    dir.display()
                ))
            }
        }
    }
}

/// Puts one file into the staging tree, reusing the old file when unchanged.
fn stage(old: Option<&Path>, staging: &Path, f: &OutFile) -> Result<(), String> {
    if f.path
        .split('/')
        .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return Err(format!(
            "refusing to write `{}` outside the output folder",
            f.path
        ));
    }
    let target = staging.join(&f.path);
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(|e| io("create", parent, e))?;
    }
    if let Some(prev) = old.map(|o| o.join(&f.path)) {
        if fs::read(&prev).is_ok_and(|b| b == f.bytes) {
            if fs::hard_link(&prev, &target).is_ok() {
                return Ok(());
            }
            fs::write(&target, &f.bytes).map_err(|e| io("write", &target, e))?;
            if let Ok(mtime) = fs::metadata(&prev).and_then(|m| m.modified()) {
                let _ = fs::File::options()
                    .write(true)
                    .open(&target)
                    .and_then(|h| h.set_modified(mtime));
            }
            return Ok(());
        }
    }
    fs::write(&target, &f.bytes).map_err(|e| io("write", &target, e))
}

/// Replaces `dir` with exactly `files`.
pub(crate) fn tree(dir: &Path, files: &[OutFile]) -> Result<(), String> {
    let exists = owned(dir)?;
    let staging = sibling(dir, "new")?;
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).map_err(|e| io("create", &staging, e))?;
    let staged = files
        .iter()
        .try_for_each(|f| stage(exists.then_some(dir), &staging, f));
    if let Err(e) = staged {
        let _ = fs::remove_dir_all(&staging);
        return Err(e);
    }
    if !exists {
        return fs::rename(&staging, dir).map_err(|e| {
            let _ = fs::remove_dir_all(&staging);
            io("create", dir, e)
        });
    }
    let old = sibling(dir, "old")?;
    let _ = fs::remove_dir_all(&old);
    if let Err(e) = fs::rename(dir, &old) {
        let _ = fs::remove_dir_all(&staging);
        return Err(io("replace", dir, e));
    }
    if let Err(e) = fs::rename(&staging, dir) {
        let _ = fs::rename(&old, dir);
        let _ = fs::remove_dir_all(&staging);
        return Err(io("replace", dir, e));
    }
    let _ = fs::remove_dir_all(&old);
    Ok(())
}

/// Writes one file atomically (temporary file beside it, then rename).
pub(crate) fn file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = sibling(path, "tmp")?;
    fs::write(&tmp, bytes).map_err(|e| io("write", &tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io("write", path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(path: &str, text: &str) -> OutFile {
        OutFile {
            path: path.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn replaces_and_keeps_unchanged_files() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        tree(
            &dir,
            &[
                f("manifest.json", "{}"),
                f("a/x.cfg", "x"),
                f("a/y.cfg", "y"),
            ],
        )
        .expect("first");
        let before = fs::metadata(dir.join("a/x.cfg"))
            .and_then(|m| m.modified())
            .expect("mtime");
        std::thread::sleep(std::time::Duration::from_millis(20));
        tree(
            &dir,
            &[
                f("manifest.json", "{1}"),
                f("a/x.cfg", "x"),
                f("b.cfg", "b"),
            ],
        )
        .expect("second");
        let after = fs::metadata(dir.join("a/x.cfg"))
            .and_then(|m| m.modified())
            .expect("mtime");
        assert_eq!(before, after);
        assert!(!dir.join("a/y.cfg").exists());
        assert_eq!(fs::read_to_string(dir.join("b.cfg")).expect("b"), "b");
        let leftovers: Vec<_> = fs::read_dir(tmp.path())
            .expect("ls")
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("out")]);
    }

    #[test]
    fn a_write_error_midway_leaves_the_previous_output_intact() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        tree(&dir, &[f("manifest.json", "{}"), f("a/x.cfg", "x")]).expect("first");
        // The second build stages `a/x.cfg` and `b` as files, then needs `b` to be a
        // folder for `b/c.cfg`: the write fails after part of the tree was staged.
        let err = tree(
            &dir,
            &[
                f("manifest.json", "{2}"),
                f("a/x.cfg", "changed"),
                f("b", "file"),
                f("b/c.cfg", "c"),
            ],
        );
        assert!(err.is_err(), "the staging write must fail");
        assert_eq!(
            fs::read_to_string(dir.join("manifest.json")).expect("manifest"),
            "{}"
        );
        assert_eq!(fs::read_to_string(dir.join("a/x.cfg")).expect("x"), "x");
        assert!(!dir.join("b").exists());
        let leftovers: Vec<_> = fs::read_dir(tmp.path())
            .expect("ls")
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert_eq!(
            leftovers,
            vec![std::ffi::OsString::from("out")],
            "no staging folder left"
        );
    }

    #[test]
    fn refuses_foreign_folders_and_escapes() {
        let tmp = tempfile::tempdir().expect("tempdir");
        fs::write(tmp.path().join("precious.txt"), "keep").expect("write");
        assert!(tree(tmp.path(), &[f("manifest.json", "{}")]).is_err());
        assert!(tmp.path().join("precious.txt").exists());
        let dir = tmp.path().join("out");
        assert!(tree(&dir, &[f("../escape", "x")]).is_err());
        assert!(!dir.exists());
    }
}
