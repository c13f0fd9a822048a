//! The one reader of files the user names: the spec and its includes, `--catalog DIR`
//! files, `--templates DIR` overrides. It opens without blocking (a FIFO would otherwise
//! wait forever for a writer), refuses anything that is not a regular file (FIFOs,
//! devices such as `/dev/zero`, sockets, directories) by the type of the opened handle,
//! and reads at most one byte past the size limit, so no input can hang democ or make it
//! read more than the limit.

use std::fs::File;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// The size limit on one file the user names (and on a show's files together), in bytes.
pub(crate) const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum ReadError {
    Io(std::io::Error),
    /// The path names something other than a regular file: what it is, in words.
    NotRegular(&'static str),
}

impl ReadError {
    /// The reason, in words, for a label or a message.
    pub(crate) fn reason(&self) -> String {
        match self {
            ReadError::Io(e) => match e.kind() {
                std::io::ErrorKind::NotFound => "no such file".into(),
                std::io::ErrorKind::PermissionDenied => "permission denied".into(),
                _ => e.to_string(),
            },
            ReadError::NotRegular(what) => format!("not a regular file ({what})"),
        }
    }
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

/// What a file type is, in words.
fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Opens `path` for reading without waiting on a FIFO or a terminal.
fn open(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Non-blocking only matters for what is refused below; a regular file reads the
        // same either way.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Reads a regular file: at most `limit + 1` bytes, so that a caller sees that the file
/// is over the limit without reading more of it.
pub(crate) fn bounded(path: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    let file = open(path)?;
    hook::opened(&file);
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind(meta.file_type())));
    }
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(cap)).unwrap_or(0));
    file.take(cap).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Err when `path` is a symlink whose target is not inside `folder` (both resolved):
/// democ's own side files (the address lock, `--catalog` entries) must not be a way to
/// have democ read, and quote in its errors, a file from elsewhere.
pub(crate) fn confined(path: &Path, folder: &Path) -> Result<(), std::io::Error> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(());
    }
    let (target, root) = (std::fs::canonicalize(path)?, std::fs::canonicalize(folder)?);
    if target.starts_with(&root) {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "a symlink to outside `{}`",
            folder.display()
        )))
    }
}

/// Why [`text`] gave no text.
#[derive(Debug)]
pub(crate) enum TextError {
    Unreadable { path: PathBuf, error: ReadError },
    TooLarge { path: PathBuf, limit: usize },
    NotUtf8 { path: PathBuf },
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            TextError::Unreadable { path, error } => {
                write!(f, "cannot read `{}`: {}", path.display(), error.reason())
            }
            TextError::TooLarge { path, limit } => write!(
                f,
                "`{}` is larger than the limit of {limit} bytes",
                path.display()
            ),
            TextError::NotUtf8 { path } => write!(f, "`{}` is not UTF-8 text", path.display()),
        }
    }
}

impl std::error::Error for TextError {}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.reason())
    }
}

impl std::error::Error for ReadError {}

impl From<TextError> for String {
    fn from(e: TextError) -> String {
        e.to_string()
    }
}

/// [`bounded`] for files that must be text under the limit (templates): the whole text,
/// or why not.
pub(crate) fn text(path: &Path, limit: usize) -> Result<String, TextError> {
    let bytes = bounded(path, limit).map_err(|error| TextError::Unreadable {
        path: path.to_owned(),
        error,
    })?;
    if bytes.len() > limit {
        return Err(TextError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    String::from_utf8(bytes).map_err(|_| TextError::NotUtf8 {
        path: path.to_owned(),
    })
}

/// In unit tests, every file the reader opens is recorded (as the kernel names the open
/// handle), so that tests can prove which files were never opened.
#[cfg(test)]
pub(crate) mod hook {
    use std::cell::RefCell;
    use std::path::PathBuf;

    thread_local! {
        static OPENED: RefCell<Vec<PathBuf>> = const { RefCell::new(Vec::new()) };
    }

    pub(crate) fn opened(file: &std::fs::File) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd as _;
            let link = format!("/proc/self/fd/{}", file.as_raw_fd());
            let path = std::fs::read_link(link).unwrap_or_else(|_| PathBuf::from("?"));
            OPENED.with(|o| o.borrow_mut().push(path));
        }
        #[cfg(not(target_os = "linux"))]
        let _ = file;
    }

    /// The files opened on this thread since the last call.
    pub(crate) fn take() -> Vec<PathBuf> {
        OPENED.with(|o| std::mem::take(&mut *o.borrow_mut()))
    }
}

#[cfg(not(test))]
mod hook {
    pub(super) fn opened(_: &std::fs::File) {}
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_refused_without_waiting() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("f.yaml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: no mkfifo");
            return;
        }
        let e = bounded(&fifo, 100).expect_err("a FIFO is refused");
        assert_eq!(e.reason(), "not a regular file (a FIFO)");
    }

    #[test]
    fn devices_and_folders_are_refused_and_files_are_cut_at_the_limit() {
        let e = bounded(Path::new("/dev/zero"), 100).expect_err("a device is refused");
        assert_eq!(e.reason(), "not a regular file (a character device)");
        let dir = tempfile::tempdir().expect("temp dir");
        let e = bounded(dir.path(), 100).expect_err("a folder is refused");
        assert_eq!(e.reason(), "not a regular file (a directory)");
        let f = dir.path().join("a.yaml");
        std::fs::write(&f, vec![b'x'; 1000]).expect("write");
        assert_eq!(bounded(&f, 100).expect("read").len(), 101);
        assert!(text(&f, 100).is_err_and(|e| matches!(e, TextError::TooLarge { limit: 100, .. })));
        assert_eq!(text(&f, 1000).expect("text").len(), 1000);
    }
}
