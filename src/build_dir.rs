//! The one reader of build folders. A build folder is input like the spec: users copy
//! it between machines, unpack it from archives and get it from colleagues, and the
//! twin and the lab read it as root. So every file is reached from the folder itself,
//! one name at a time, never through a symlink (`openat` with `O_NOFOLLOW` on each
//! component, so nothing can be swapped in between a check and the open), must be a
//! regular file (no FIFO to hang on, no `/dev/zero` to read forever), and is read only
//! up to a size cap. `twin`, `lab`, `diff`, `validate`, `push` and a rebuild's look at
//! the old manifest read through here.

use std::fs::File;
use std::io::Read as _;
use std::path::{Component, Path, PathBuf};

/// The cap on one file of a build: well above the largest benchmark show's largest
/// file (its plan.json, 1,000 switches and 100,000 flows, is about 200 MB).
pub(crate) const MAX_BYTES: u64 = 512 * 1024 * 1024;
/// The cap on files that are small in every real build (the manifest, a switch's IR,
/// a config, a script, the twin's record): a tenth of the above.
pub(crate) const SMALL_BYTES: u64 = 64 * 1024 * 1024;

/// A build folder, opened once; its files are read relative to it.
pub(crate) struct BuildDir {
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

/// Why a file of the build was not read, in words that name it.
#[derive(Debug)]
pub(crate) struct BuildReadError {
    pub(crate) missing: bool,
    pub(crate) message: String,
}

impl std::fmt::Display for BuildReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<BuildReadError> for String {
    fn from(e: BuildReadError) -> String {
        e.message
    }
}

/// Why the build folder itself was not opened.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// Its metadata could not be read (most often: it does not exist).
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
    NotAFolder {
        path: PathBuf,
    },
    #[cfg(unix)]
    Unopenable {
        path: PathBuf,
        errno: rustix::io::Errno,
    },
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Unreadable { path, error } => write!(f, "{}: {error}", path.display()),
            OpenError::NotAFolder { path } => write!(f, "{}: not a folder", path.display()),
            #[cfg(unix)]
            OpenError::Unopenable { path, errno } => write!(f, "{}: {errno}", path.display()),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<OpenError> for String {
    fn from(e: OpenError) -> String {
        e.to_string()
    }
}

impl std::error::Error for BuildReadError {}

impl BuildDir {
    /// Opens the folder the user named (a symlink there is the user's own choice and is
    /// followed; below it, none is).
    pub(crate) fn open(path: &Path) -> Result<BuildDir, OpenError> {
        let meta = std::fs::metadata(path).map_err(|e| OpenError::Unreadable {
            path: path.to_owned(),
            error: e,
        })?;
        if !meta.is_dir() {
            return Err(OpenError::NotAFolder {
                path: path.to_owned(),
            });
        }
        #[cfg(unix)]
        {
            use rustix::fs::{CWD, Mode, OFlags, openat};
            let fd = openat(
                CWD,
                path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| OpenError::Unopenable {
                path: path.to_owned(),
                errno: e,
            })?;
            Ok(BuildDir {
                path: path.to_owned(),
                fd,
            })
        }
        #[cfg(not(unix))]
        Ok(BuildDir {
            path: path.to_owned(),
        })
    }

    /// The folder as the user named it, for messages.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, rel: &str, missing: bool, why: impl std::fmt::Display) -> BuildReadError {
        BuildReadError {
            missing,
            message: format!("{}/{rel}: {why}", self.path.display()),
        }
    }

    /// Opens `rel` (a `/`-separated path inside the build) as a regular file.
    pub(crate) fn open_file(&self, rel: &str) -> Result<File, BuildReadError> {
        let parts = components(rel)
            .ok_or_else(|| self.error(rel, false, "not a plain path inside the build folder"))?;
        let file = self.open_components(rel, &parts)?;
        let meta = file.metadata().map_err(|e| self.error(rel, false, e))?;
        if !meta.is_file() {
            return Err(self.error(
                rel,
                false,
                format!(
                    "not a regular file ({}); democ reads only regular files in a build folder",
                    kind(meta.file_type())
                ),
            ));
        }
        Ok(file)
    }

    /// Each name of `parts` opened as a folder below the build, none a symlink: the
    /// last folder's handle (None for the build folder itself).
    #[cfg(unix)]
    fn folder(
        &self,
        rel: &str,
        parts: &[&str],
    ) -> Result<Option<std::os::fd::OwnedFd>, BuildReadError> {
        use rustix::fs::{Mode, OFlags, openat};
        let mut dir: Option<std::os::fd::OwnedFd> = None;
        for name in parts {
            let at = dir.as_ref().unwrap_or(&self.fd);
            let next = openat(
                at,
                *name,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| self.errno(rel, e))?;
            dir = Some(next);
        }
        Ok(dir)
    }

    #[cfg(unix)]
    fn errno(&self, rel: &str, e: rustix::io::Errno) -> BuildReadError {
        use rustix::io::Errno;
        match e {
            Errno::NOENT => self.error(rel, true, "no such file"),
            Errno::LOOP | Errno::NOTDIR => self.error(
                rel,
                false,
                "reached through a symlink (or a non-folder); democ follows no symlink inside a build folder",
            ),
            e => self.error(rel, false, e),
        }
    }

    #[cfg(unix)]
    fn open_components(&self, rel: &str, parts: &[&str]) -> Result<File, BuildReadError> {
        use rustix::fs::{Mode, OFlags, openat};
        let (last, folders) = parts.split_last().expect("components() is never empty");
        let dir = self.folder(rel, folders)?;
        // Non-blocking so that a FIFO is refused by its type instead of waited on.
        let fd = openat(
            dir.as_ref().unwrap_or(&self.fd),
            *last,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| self.errno(rel, e))?;
        Ok(File::from(fd))
    }

    #[cfg(not(unix))]
    fn open_components(&self, rel: &str, parts: &[&str]) -> Result<File, BuildReadError> {
        let mut p = self.path.clone();
        for c in parts {
            p.push(c);
            if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(self.error(rel, false, "reached through a symlink"));
            }
        }
        File::open(&p).map_err(|e| self.error(rel, e.kind() == std::io::ErrorKind::NotFound, e))
    }

    /// The bytes of `rel`, refused past `limit`.
    pub(crate) fn read(&self, rel: &str, limit: u64) -> Result<Vec<u8>, BuildReadError> {
        let file = self.open_file(rel)?;
        let mut bytes = Vec::new();
        file.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| self.error(rel, false, e))?;
        if bytes.len() as u64 > limit {
            return Err(self.error(
                rel,
                false,
                format!("larger than democ reads in a build ({} MiB)", limit >> 20),
            ));
        }
        Ok(bytes)
    }

    /// [`BuildDir::read`] as UTF-8 text.
    pub(crate) fn text(&self, rel: &str, limit: u64) -> Result<String, BuildReadError> {
        let bytes = self.read(rel, limit)?;
        String::from_utf8(bytes).map_err(|_| self.error(rel, false, "not UTF-8 text"))
    }

    /// Whether `rel` is a regular file of the build, reached without a symlink.
    pub(crate) fn has(&self, rel: &str) -> bool {
        self.open_file(rel).is_ok()
    }

    /// Whether `rel` is a folder of the build, reached without a symlink.
    #[cfg(unix)]
    pub(crate) fn has_folder(&self, rel: &str) -> bool {
        components(rel).is_some_and(|parts| self.folder(rel, &parts).is_ok())
    }

    #[cfg(not(unix))]
    pub(crate) fn has_folder(&self, rel: &str) -> bool {
        self.path.join(rel).is_dir()
    }

    /// The regular files directly in folder `rel` (names, sorted; `""` is the folder
    /// itself), none through a symlink; a missing folder has none.
    #[cfg(unix)]
    pub(crate) fn files_in(&self, rel: &str) -> Result<Vec<String>, BuildReadError> {
        self.entries_in(rel, rustix::fs::FileType::RegularFile)
    }

    /// The folders directly in folder `rel` (names, sorted; a symlink is none).
    #[cfg(unix)]
    pub(crate) fn folders_in(&self, rel: &str) -> Result<Vec<String>, BuildReadError> {
        self.entries_in(rel, rustix::fs::FileType::Directory)
    }

    #[cfg(unix)]
    fn entries_in(
        &self,
        rel: &str,
        kind: rustix::fs::FileType,
    ) -> Result<Vec<String>, BuildReadError> {
        use rustix::fs::Dir;
        // `""` is the folder itself.
        let parts = if rel.is_empty() {
            Vec::new()
        } else {
            components(rel)
                .ok_or_else(|| self.error(rel, false, "not a plain path inside the build folder"))?
        };
        let dir = match self.folder(rel, &parts) {
            Ok(d) => d,
            Err(e) if e.missing => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let entries = Dir::read_from(dir.as_ref().unwrap_or(&self.fd))
            .map_err(|e| self.error(rel, false, e))?;
        let mut names = Vec::new();
        for e in entries {
            let e = e.map_err(|e| self.error(rel, false, e))?;
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type() == kind && name != "." && name != ".." {
                names.push(name);
            }
        }
        names.sort();
        Ok(names)
    }

    #[cfg(not(unix))]
    pub(crate) fn folders_in(&self, rel: &str) -> Result<Vec<String>, BuildReadError> {
        self.entries_in(rel, std::fs::FileType::is_dir)
    }

    #[cfg(not(unix))]
    pub(crate) fn files_in(&self, rel: &str) -> Result<Vec<String>, BuildReadError> {
        self.entries_in(rel, std::fs::FileType::is_file)
    }

    #[cfg(not(unix))]
    fn entries_in(
        &self,
        rel: &str,
        kind: fn(&std::fs::FileType) -> bool,
    ) -> Result<Vec<String>, BuildReadError> {
        let entries = match std::fs::read_dir(self.path.join(rel)) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(self.error(rel, false, e)),
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| kind(&t)))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        Ok(names)
    }
}

/// The names of a `/`-separated relative path, or None when it is absolute, empty,
/// or steps out (`..`, `.`).
fn components(rel: &str) -> Option<Vec<&str>> {
    let p = Path::new(rel);
    if rel.is_empty() || p.is_absolute() {
        return None;
    }
    let mut out = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(s) => out.push(s.to_str()?),
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// What a file type is, in words.
fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() { "a folder" } else { "not a file" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("ir")).unwrap();
        std::fs::write(d.path().join("ir/sw1.json"), "{}").unwrap();
        std::fs::write(d.path().join("manifest.json"), "{}").unwrap();
        d
    }

    #[test]
    fn reads_plain_files_inside() {
        let d = build();
        let b = BuildDir::open(d.path()).unwrap();
        assert_eq!(b.text("ir/sw1.json", SMALL_BYTES).unwrap(), "{}");
        assert_eq!(b.files_in("ir").unwrap(), vec!["sw1.json"]);
        assert!(b.files_in("nothing").unwrap().is_empty());
        assert!(b.read("absent.json", SMALL_BYTES).unwrap_err().missing);
    }

    #[test]
    fn refuses_paths_that_step_out() {
        let d = build();
        let b = BuildDir::open(d.path()).unwrap();
        for rel in [
            "../x",
            "/etc/passwd",
            "ir/../manifest.json",
            "./manifest.json",
            "",
        ] {
            let e = b.read(rel, SMALL_BYTES).unwrap_err();
            assert!(e.message.contains("not a plain path"), "{rel}: {e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_at_any_depth() {
        let d = build();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "secret").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), d.path().join("a.json")).unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join("link")).unwrap();
        let b = BuildDir::open(d.path()).unwrap();
        for rel in ["a.json", "link/secret"] {
            let e = b.read(rel, SMALL_BYTES).unwrap_err();
            assert!(e.message.contains("symlink"), "{rel}: {e}");
            assert!(!e.message.contains("secret\n"));
        }
        assert!(b.files_in("link").is_err());
        assert!(!b.has("a.json"));
    }

    #[cfg(unix)]
    #[test]
    fn refuses_fifos_and_devices_without_waiting() {
        let d = build();
        let fifo = d.path().join("manifest.fifo");
        let ok = std::process::Command::new("mkfifo").arg(&fifo).status();
        let b = BuildDir::open(d.path()).unwrap();
        if ok.is_ok_and(|s| s.success()) {
            let e = b.read("manifest.fifo", SMALL_BYTES).unwrap_err();
            assert!(e.message.contains("a FIFO"), "{e}");
        }
        let dev = BuildDir::open(Path::new("/dev")).unwrap();
        let e = dev.read("zero", SMALL_BYTES).unwrap_err();
        assert!(e.message.contains("a device"), "{e}");
    }

    #[test]
    fn refuses_files_over_the_cap() {
        let d = build();
        std::fs::write(d.path().join("big.json"), vec![b' '; 2048]).unwrap();
        let b = BuildDir::open(d.path()).unwrap();
        let e = b.read("big.json", 1024).unwrap_err();
        assert!(e.message.contains("larger than"), "{e}");
        assert_eq!(b.read("big.json", 4096).unwrap().len(), 2048);
    }
}
