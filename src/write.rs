//! Writing a build atomically. The files go into a staging folder beside DIR, which
//! takes DIR's place in one atomic exchange (see `swap`): the largest (plan.json, the
//! flows' IR) are streamed into it while the rest is rendered (`Staging::stream`), and
//! the rest, rendered in memory, follow. Files whose bytes did not change (by the
//! previous manifest's hashes) are hard-linked from the old tree (or copied with their
//! old mtime), so tools watching mtimes see only real changes. On any error, or a signal
//! while writing, DIR is left as it was and the staging folder is removed. DIR must be
//! democ's own output (see `owned`); one build at a time writes it (see `lock`).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub(crate) mod error;
mod hook;
mod inputs;
mod interrupt;
mod lock;
mod owned;
mod swap;

use error::{WriteError, io};
use hook::Hook;
pub(crate) use inputs::outside;

/// One output file: a `/`-separated path relative to DIR, and its bytes.
#[derive(Debug, Clone)]
pub(crate) struct OutFile {
    pub(crate) path: String,
    pub(crate) bytes: Vec<u8>,
}

/// `.<name>.democ-<tag>` beside `target`.
fn beside(target: &Path, tag: &str) -> Result<PathBuf, WriteError> {
    let name = target.file_name().ok_or_else(|| WriteError::NotAName {
        target: target.to_owned(),
    })?;
    let parent = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Ok(parent.join(format!(".{}.democ-{tag}", name.to_string_lossy())))
}

/// `.<name>.democ-<tag>-<pid>` beside `target`.
fn sibling(target: &Path, tag: &str) -> Result<PathBuf, WriteError> {
    beside(target, &format!("{tag}-{}", std::process::id()))
}

/// A path of the build that would land outside DIR.
fn escapes(path: &str) -> bool {
    path.split('/')
        .any(|c| c.is_empty() || c == "." || c == "..")
}

/// Creates `path` (which must not exist) with `bytes`.
fn create(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = fs::File::options()
        .write(true)
        .create_new(true)
        .open(path)?;
    if hook::hook() == Hook::DiskFull {
        f.write_all(&bytes[..bytes.len() / 2])?;
        return Err(std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            "no space left on device (DEMOC_TEST_HOOK)",
        ));
    }
    f.write_all(bytes)
}

/// Puts one file into the staging tree, reusing the old file when unchanged (unless
/// `fresh`); returns whether it did.
fn stage(
    prior: Option<&owned::Prior>,
    dir: &Path,
    staging: &Path,
    f: &OutFile,
    fresh: bool,
) -> Result<bool, WriteError> {
    let target = staging.join(&f.path);
    let old = prior.filter(|_| !fresh).and_then(|p| {
        if f.path == "manifest.json" {
            let meta = fs::symlink_metadata(dir.join(&f.path)).ok()?;
            (p.manifest == f.bytes && meta.is_file()).then_some(meta)
        } else {
            p.unchanged(dir, &f.path, &f.bytes)
        }
    });
    if let Some(meta) = old {
        if fs::hard_link(dir.join(&f.path), &target).is_ok() {
            return Ok(true);
        }
        create(&target, &f.bytes).map_err(io("write", &target))?;
        if let Ok(mtime) = meta.modified() {
            let _ = fs::File::options()
                .write(true)
                .open(&target)
                .and_then(|h| h.set_modified(mtime));
        }
        return Ok(true);
    }
    create(&target, &f.bytes).map_err(io("write", &target))?;
    Ok(false)
}

/// Stages every file, stopping at a signal. The folders are made first, once each, then
/// the files. The manifest goes last, and is written anew when any file was: a file modified after
/// the manifest was edited since the build.
fn stage_all(
    prior: Option<&owned::Prior>,
    dir: &Path,
    staging: &Path,
    files: &[OutFile],
    streamed: &[Streamed],
    signals: &interrupt::Guard,
) -> Result<(), WriteError> {
    let (manifest, rest): (Vec<&OutFile>, Vec<&OutFile>) =
        files.iter().partition(|f| f.path == "manifest.json");
    let mut folders: Vec<&str> = rest
        .iter()
        .filter_map(|f| f.path.rsplit_once('/').map(|(d, _)| d))
        .collect();
    folders.sort_unstable();
    folders.dedup();
    for d in folders {
        let at = staging.join(d);
        fs::create_dir_all(&at).map_err(io("create", &at))?;
    }
    let mut all_reused = true;
    for (i, f) in rest.iter().enumerate() {
        stop_if_signalled(signals, dir)?;
        all_reused &= stage(prior, dir, staging, f, false)?;
        if i == 0 && hook::hook() == Hook::StallStaging {
            for _ in 0..3000 {
                if signals.raised().is_some() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    }
    for s in streamed {
        stop_if_signalled(signals, dir)?;
        all_reused &= relink(prior, dir, staging, s)?;
    }
    for f in manifest {
        stop_if_signalled(signals, dir)?;
        stage(prior, dir, staging, f, !all_reused)?;
    }
    stop_if_signalled(signals, dir)
}

fn stop_if_signalled(signals: &interrupt::Guard, dir: &Path) -> Result<(), WriteError> {
    match signals.raised() {
        None => Ok(()),
        Some(signal) => Err(WriteError::Interrupted {
            signal,
            dir: dir.to_owned(),
        }),
    }
}

/// A file already written into the staging folder: its path, sha256 and length.
struct Streamed {
    path: String,
    sha256: String,
    bytes: usize,
}

/// A streamed file the previous build has unchanged: the old one is hard-linked over
/// it (or, where links fail, the new one gets the old mtime), as `stage` does for
/// files in memory; returns whether it was.
fn relink(
    prior: Option<&owned::Prior>,
    dir: &Path,
    staging: &Path,
    s: &Streamed,
) -> Result<bool, WriteError> {
    let Some(meta) = prior.and_then(|p| p.unchanged_hash(dir, &s.path, &s.sha256, s.bytes)) else {
        return Ok(false);
    };
    let target = staging.join(&s.path);
    // Linked under a name no output has, then renamed over the new file: the new file
    // stays in place if the link cannot be made.
    let link = staging.join(".democ-relink");
    if fs::hard_link(dir.join(&s.path), &link).is_ok() {
        fs::rename(&link, &target).map_err(io("write", &target))?;
    } else if let Ok(mtime) = meta.modified() {
        let _ = fs::File::options()
            .write(true)
            .open(&target)
            .and_then(|h| h.set_modified(mtime));
    }
    Ok(true)
}

/// A build being written into its staging folder beside the output folder: made before
/// rendering, so the largest files are written as they are made ([`Staging::stream`]);
/// [`Staging::finish`] adds the rest and swaps it into place. Dropped unfinished (an
/// error), the staging folder is removed and the output is as it was. Holds the output
/// folder's lock and the signal handlers for as long as it lives.
pub(crate) struct Staging {
    dir: PathBuf,
    path: PathBuf,
    signals: interrupt::Guard,
    streamed: Mutex<Vec<Streamed>>,
    // Dropped after the staging folder is removed (`Drop`): the lock is released last.
    _lock: lock::Lock,
}

impl Staging {
    /// Locks `dir`, clears what interrupted builds left beside it, and makes the
    /// staging folder.
    pub(crate) fn open(dir: &Path) -> Result<Staging, WriteError> {
        if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(io("create", parent))?;
        }
        let lock = lock::Lock::take(dir)?;
        swap::sweep(dir)?;
        let path = sibling(dir, "new")?;
        let signals = interrupt::Guard::install();
        fs::create_dir(&path).map_err(io("create", &path))?;
        Ok(Staging {
            dir: dir.to_path_buf(),
            path,
            signals,
            streamed: Mutex::new(Vec::new()),
            _lock: lock,
        })
    }

    /// Writes the file at `path` (relative to the output folder) as `write` makes it,
    /// hashing it on the way; its manifest entry. Safe to call from several threads.
    pub(crate) fn stream(
        &self,
        path: &str,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<crate::manifest::Entry, WriteError> {
        if escapes(path) {
            return Err(WriteError::Escapes {
                path: path.to_owned(),
            });
        }
        let target = self.path.join(path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(io("create", parent))?;
        }
        let file = fs::File::options()
            .write(true)
            .create_new(true)
            .open(&target)
            .map_err(io("write", &target))?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, crate::manifest::Hashing::new(file));
        write(&mut w as &mut dyn std::io::Write).map_err(io("write", &target))?;
        let (_, sha256, bytes) = w
            .into_inner()
            .map_err(|e| io("write", &target)(e.into_error()))?
            .finish();
        self.streamed
            .lock()
            .map_err(|_| WriteError::WriterThread)?
            .push(Streamed {
                path: path.to_owned(),
                sha256: sha256.clone(),
                bytes,
            });
        Ok(crate::manifest::Entry {
            path: path.to_owned(),
            sha256,
            bytes,
        })
    }

    /// Adds `files` (the manifest among them) beside the streamed ones and puts the
    /// staging folder in place of the output folder.
    pub(crate) fn finish(self, files: &[OutFile]) -> Result<(), WriteError> {
        self.finish_as(files, true).map(|_| ())
    }

    fn finish_as(self, files: &[OutFile], exchange: bool) -> Result<swap::How, WriteError> {
        if let Some(f) = files.iter().find(|f| escapes(&f.path)) {
            return Err(WriteError::Escapes {
                path: f.path.clone(),
            });
        }
        let new_manifest = files.iter().find(|f| f.path == "manifest.json");
        let prior = owned::prior(&self.dir, new_manifest.map(|f| f.bytes.as_slice()))?;
        let mut streamed =
            std::mem::take(&mut *self.streamed.lock().map_err(|_| WriteError::WriterThread)?);
        // In path order, whichever thread streamed first.
        streamed.sort_by(|a, b| a.path.cmp(&b.path));
        let (dir, path) = (&self.dir, &self.path);
        stage_all(prior.as_ref(), dir, path, files, &streamed, &self.signals)?;
        swap::replace(path, dir, exchange)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // After `finish` the staging name is gone (swap::replace removes it); else this
        // is an error's way out.
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// Replaces `dir` with exactly `files` (all in memory).
#[cfg(test)]
pub(crate) fn tree(dir: &Path, files: &[OutFile]) -> Result<(), WriteError> {
    replace_tree(dir, files, true).map(|_| ())
}

#[cfg(test)]
fn replace_tree(dir: &Path, files: &[OutFile], exchange: bool) -> Result<swap::How, WriteError> {
    Staging::open(dir)?.finish_as(files, exchange)
}

/// Writes one file atomically (temporary file beside it, then rename); on any error
/// the temporary file is removed.
pub(crate) fn file(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    swap::sweep(path)?;
    let tmp = sibling(path, "tmp")?;
    let written = create(&tmp, bytes)
        .map_err(io("write", &tmp))
        .and_then(|()| fs::rename(&tmp, path).map_err(io("write", path)));
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{self, Entry, Manifest};

    /// The files, and a democ manifest for them (`show` tells builds apart).
    fn build(show: &str, files: &[(&str, &str)]) -> Vec<OutFile> {
        let mut out: Vec<OutFile> = files
            .iter()
            .map(|(p, t)| OutFile {
                path: (*p).into(),
                bytes: t.as_bytes().to_vec(),
            })
            .collect();
        let m = Manifest {
            format: manifest::FORMAT,
            format_version: manifest::FORMAT_VERSION,
            democ: "test".into(),
            show: show.into(),
            sources_sha256: manifest::sha256(b""),
            sources: vec![],
            templates_overridden: vec![],
            files: out
                .iter()
                .map(|f| Entry {
                    path: f.path.clone(),
                    sha256: manifest::sha256(&f.bytes),
                    bytes: f.bytes.len(),
                })
                .collect(),
        };
        out.push(OutFile {
            path: "manifest.json".into(),
            bytes: crate::ir::to_json(&m).into_bytes(),
        });
        out
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .expect("ls")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn mtime(p: &Path) -> std::time::SystemTime {
        fs::metadata(p).and_then(|m| m.modified()).expect("mtime")
    }

    #[test]
    fn replaces_and_keeps_unchanged_files() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        tree(&dir, &build("1", &[("a/x.cfg", "x"), ("a/y.cfg", "y")])).expect("first");
        let before = mtime(&dir.join("a/x.cfg"));
        std::thread::sleep(std::time::Duration::from_millis(20));
        tree(&dir, &build("2", &[("a/x.cfg", "x"), ("b.cfg", "b")])).expect("second");
        assert_eq!(before, mtime(&dir.join("a/x.cfg")));
        assert!(!dir.join("a/y.cfg").exists());
        assert_eq!(fs::read_to_string(dir.join("b.cfg")).expect("b"), "b");
        assert_eq!(names(tmp.path()), ["out"]);
    }

    /// Reuse goes by the manifest's hashes; a file edited since the build (its mtime
    /// is after the manifest's) is written anew even when its length is the same.
    #[test]
    fn an_edited_file_is_rewritten() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let files = build("1", &[("x.cfg", "abc")]);
        tree(&dir, &files).expect("first");
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(dir.join("x.cfg"), "xyz").expect("edit");
        tree(&dir, &files).expect("second");
        assert_eq!(fs::read_to_string(dir.join("x.cfg")).expect("x"), "abc");
        // And the manifest was written after it, so the next build reuses it again.
        let rewritten = mtime(&dir.join("x.cfg"));
        std::thread::sleep(std::time::Duration::from_millis(20));
        tree(&dir, &files).expect("third");
        assert_eq!(mtime(&dir.join("x.cfg")), rewritten);
    }

    /// Every file of `dir` by path, with its inode: the same inode after a rebuild is
    /// the same file, hard-linked into the new tree, not written again.
    #[cfg(unix)]
    fn inodes(dir: &Path) -> Vec<(String, u64)> {
        use std::os::unix::fs::MetadataExt as _;
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).expect("ls").filter_map(Result::ok) {
                let meta = e.metadata().expect("stat");
                if meta.is_dir() {
                    stack.push(e.path());
                } else {
                    let rel = e.path().strip_prefix(dir).expect("inside").to_owned();
                    out.push((rel.to_string_lossy().into_owned(), meta.ino()));
                }
            }
        }
        out.sort();
        out
    }

    /// A rebuild with nothing changed writes no file: every file, the manifest too, is
    /// the previous build's own (same inode, same mtime).
    #[cfg(unix)]
    #[test]
    fn an_unchanged_rebuild_writes_nothing() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let files = build(
            "1",
            &[("a/x.cfg", "x"), ("a/y.cfg", "yy"), ("z.json", "{}")],
        );
        tree(&dir, &files).expect("first");
        let before = inodes(&dir);
        let stamps: Vec<_> = before.iter().map(|(p, _)| mtime(&dir.join(p))).collect();
        std::thread::sleep(std::time::Duration::from_millis(20));
        tree(&dir, &files).expect("second");
        assert_eq!(inodes(&dir), before);
        let after: Vec<_> = before.iter().map(|(p, _)| mtime(&dir.join(p))).collect();
        assert_eq!(after, stamps);
        assert_eq!(names(tmp.path()), ["out"]);
    }

    /// A file streamed into the staging folder that the previous build has unchanged
    /// is the previous build's own (same inode), and so is the manifest then.
    #[cfg(unix)]
    #[test]
    fn an_unchanged_streamed_file_is_the_old_one() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let files = build("1", &[("big/x.json", "xyz"), ("a.cfg", "a")]);
        tree(&dir, &files).expect("first");
        let before = inodes(&dir);
        let st = Staging::open(&dir).expect("staging");
        let write = |w: &mut dyn std::io::Write| w.write_all(b"xyz");
        let entry = st.stream("big/x.json", write).expect("streamed");
        assert_eq!((entry.sha256, entry.bytes), (manifest::sha256(b"xyz"), 3));
        let rest: Vec<OutFile> = files
            .iter()
            .filter(|f| f.path != "big/x.json")
            .cloned()
            .collect();
        st.finish(&rest).expect("second");
        assert_eq!(inodes(&dir), before);
        assert_eq!(names(tmp.path()), ["out"]);
    }

    /// A tampered output file whose manifest entry still says the old hash: reuse trusts
    /// the manifest's hash only for a file of the listed length whose mtime is not after
    /// the manifest's, so a change of length is caught even with the mtime set back, and
    /// the file is written anew from the build's bytes, never kept.
    #[test]
    fn a_tampered_file_of_another_length_is_rewritten_whatever_its_mtime() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let files = build("1", &[("x.cfg", "abc")]);
        tree(&dir, &files).expect("first");
        let stamp = mtime(&dir.join("x.cfg"));
        fs::write(dir.join("x.cfg"), "abcd, tampered").expect("tamper");
        fs::File::options()
            .write(true)
            .open(dir.join("x.cfg"))
            .and_then(|f| f.set_modified(stamp))
            .expect("set the mtime back");
        tree(&dir, &files).expect("second");
        assert_eq!(fs::read_to_string(dir.join("x.cfg")).expect("x"), "abc");
    }

    /// A build of many files in many folders lands whole, and a rebuild reuses exactly
    /// the files that did not change.
    #[cfg(unix)]
    #[test]
    fn a_large_build_lands_whole_and_is_reused() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let texts: Vec<(String, String)> = (0..300)
            .map(|i| (format!("d{}/f{i}.cfg", i % 30), format!("file {i}\n")))
            .collect();
        let as_refs = |t: &[(String, String)]| -> Vec<OutFile> {
            let pairs: Vec<(&str, &str)> =
                t.iter().map(|(p, b)| (p.as_str(), b.as_str())).collect();
            build("1", &pairs)
        };
        tree(&dir, &as_refs(&texts)).expect("first");
        for (p, b) in &texts {
            assert_eq!(&fs::read_to_string(dir.join(p)).expect("written"), b);
        }
        let before = inodes(&dir);
        let mut changed = texts.clone();
        changed[7].1 = "changed\n".into();
        tree(&dir, &as_refs(&changed)).expect("second");
        let after = inodes(&dir);
        let moved: Vec<&str> = before
            .iter()
            .zip(&after)
            .filter(|(b, a)| b.1 != a.1)
            .map(|(b, _)| b.0.as_str())
            .collect();
        assert_eq!(moved, [changed[7].0.as_str(), "manifest.json"]);
        assert_eq!(
            fs::read_to_string(dir.join(&changed[7].0)).expect("x"),
            "changed\n"
        );
    }

    #[test]
    fn a_write_error_midway_leaves_the_previous_output_intact() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let first = build("1", &[("a/x.cfg", "x")]);
        tree(&dir, &first).expect("first");
        // The second build stages `a/x.cfg` and `b` as files, then needs `b` to be a
        // folder for `b/c.cfg`: the write fails after part of the tree was staged.
        let err = tree(
            &dir,
            &build(
                "2",
                &[("a/x.cfg", "changed"), ("b", "file"), ("b/c.cfg", "c")],
            ),
        );
        assert!(err.is_err(), "the staging write must fail");
        assert_eq!(
            fs::read(dir.join("manifest.json")).expect("manifest"),
            first[1].bytes
        );
        assert_eq!(fs::read_to_string(dir.join("a/x.cfg")).expect("x"), "x");
        assert!(!dir.join("b").exists());
        assert_eq!(names(tmp.path()), ["out"], "no staging folder or lock left");
    }

    #[test]
    fn refuses_foreign_folders_and_escapes() {
        let tmp = tempfile::tempdir().expect("tempdir");
        fs::write(tmp.path().join("precious.txt"), "keep").expect("write");
        assert!(tree(tmp.path(), &build("1", &[])).is_err());
        assert!(tmp.path().join("precious.txt").exists());
        let dir = tmp.path().join("out");
        assert!(tree(&dir, &build("1", &[("../escape", "x")])).is_err());
        assert!(!dir.exists());
    }

    /// Linux swaps the folders in one step; elsewhere (forced here) two renames, and a
    /// build killed between them is recovered by the next one.
    #[test]
    fn exchange_where_the_os_has_it_and_recovery_otherwise() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("out");
        let files = build("1", &[("x.cfg", "x")]);
        assert_eq!(
            replace_tree(&dir, &files, true).expect("new"),
            swap::How::Created
        );
        let second = build("2", &[("x.cfg", "y")]);
        let how = replace_tree(&dir, &second, true).expect("exchange");
        if cfg!(target_os = "linux") {
            assert_eq!(how, swap::How::Exchanged);
        }
        let third = build("3", &[("x.cfg", "z")]);
        assert_eq!(
            replace_tree(&dir, &third, false).expect("renames"),
            swap::How::Renamed
        );
        assert_eq!(fs::read_to_string(dir.join("x.cfg")).expect("x"), "z");
        assert_eq!(names(tmp.path()), ["out"]);
        // A fallback replacement killed between its renames: only the old tree is left,
        // under the name of a process that is gone.
        let dead = tmp.path().join(".out.democ-old-4194999");
        fs::rename(&dir, &dead).expect("rename");
        swap::sweep(&dir).expect("sweep");
        assert_eq!(
            fs::read_to_string(dir.join("x.cfg")).expect("restored"),
            "z"
        );
        assert_eq!(names(tmp.path()), ["out"]);
    }

    #[test]
    fn a_failed_file_write_leaves_no_temporary_file() {
        let tmp = tempfile::tempdir().expect("tempdir");
        // A folder where the file should go: the rename fails after the write.
        let path = tmp.path().join("ir.json");
        fs::create_dir(&path).expect("mkdir");
        fs::write(path.join("keep"), "k").expect("write");
        assert!(file(&path, b"{}").is_err());
        assert_eq!(names(tmp.path()), ["ir.json"]);
        file(&tmp.path().join("b.json"), b"{}").expect("write");
        assert_eq!(names(tmp.path()), ["b.json", "ir.json"]);
    }
}
