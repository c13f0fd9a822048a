//! manifest.json: what a build wrote, each file's sha256, the democ version and the
//! hash of the sources it was built from. No timestamps, no absolute paths. Its format
//! marker is how a later build recognises the folder as democ's (a `manifest.json` of
//! any other kind, a browser extension's say, is not).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::source::{FileId, Sources};

/// The value of `format`: names the file's kind, so nothing else is taken for it.
pub(crate) const FORMAT: &str = "democ-build-manifest";
/// Bumped when a field changes meaning; a later democ still reads older versions.
pub(crate) const FORMAT_VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub(crate) struct Manifest {
    pub(crate) format: &'static str,
    pub(crate) format_version: u32,
    pub(crate) democ: String,
    pub(crate) show: String,
    /// sha256 over every source file's name and text, in load order.
    pub(crate) sources_sha256: String,
    /// Source names: embedded catalog files, then the spec files relative to the main file's folder.
    pub(crate) sources: Vec<String>,
    /// Templates taken from `--templates` instead of the embedded ones.
    pub(crate) templates_overridden: Vec<String>,
    /// Every other file of the build, sorted by path.
    pub(crate) files: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub(crate) path: String,
    pub(crate) sha256: String,
    pub(crate) bytes: usize,
}

/// A previous build's manifest as read back: only what deciding ownership and reuse needs.
#[derive(Debug, Deserialize)]
pub(crate) struct Previous {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    format_version: Option<u32>,
    democ: String,
    sources_sha256: String,
    pub(crate) files: Vec<Entry>,
}

impl Previous {
    /// Reads `bytes` as a democ manifest: the current format, or the one democ wrote
    /// before it had a marker (the same fields, recognised by their exact shape).
    pub(crate) fn parse(bytes: &[u8]) -> Result<Previous, ManifestError> {
        let p: Previous = serde_json::from_slice(bytes).map_err(ManifestError::NotJson)?;
        match (&p.format, p.format_version) {
            (Some(f), Some(v)) if f == FORMAT && (1..=FORMAT_VERSION).contains(&v) => {}
            (Some(f), Some(v)) if f == FORMAT => return Err(ManifestError::Newer { version: v }),
            (None, None) if is_sha256(&p.sources_sha256) && !p.democ.is_empty() => {}
            _ => return Err(ManifestError::NoFormat),
        }
        if let Some(e) = p.files.iter().find(|e| !is_sha256(&e.sha256)) {
            return Err(ManifestError::Unhashed {
                path: e.path.clone(),
            });
        }
        Ok(p)
    }
}

/// Why bytes are not a manifest this democ reads; the text completes "not a democ
/// manifest: ...".
#[derive(Debug)]
pub(crate) enum ManifestError {
    NotJson(serde_json::Error),
    /// Written by a later democ.
    Newer {
        version: u32,
    },
    NoFormat,
    /// An entry whose `sha256` is missing or not 64 hex digits.
    Unhashed {
        path: String,
    },
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ManifestError::NotJson(e) => write!(f, "{e}"),
            ManifestError::Newer { version } => write!(
                f,
                "its format version {version} is newer than this democ reads ({FORMAT_VERSION})"
            ),
            ManifestError::NoFormat => write!(f, "it has no `\"format\": \"{FORMAT}\"`"),
            ManifestError::Unhashed { path } => write!(f, "the entry for `{path}` has no sha256"),
        }
    }
}

impl std::error::Error for ManifestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ManifestError::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

pub(crate) fn sha256(bytes: &[u8]) -> String {
    hex(Sha256::digest(bytes))
}

/// A writer that hashes what passes through it to `inner`: a file's manifest entry
/// made while the file is written, so a large file is never held whole in memory.
pub(crate) struct Hashing<W> {
    inner: W,
    sha: Sha256,
    len: usize,
}

impl<W: std::io::Write> Hashing<W> {
    pub(crate) fn new(inner: W) -> Hashing<W> {
        Hashing {
            inner,
            sha: Sha256::new(),
            len: 0,
        }
    }

    /// The writer back, with the sha256 (as [`sha256`] spells it) and length of what
    /// it was given.
    pub(crate) fn finish(self) -> (W, String, usize) {
        (self.inner, hex(self.sha.finalize()), self.len)
    }
}

impl<W: std::io::Write> std::io::Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sha.update(&buf[..n]);
        self.len += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn hex(digest: impl IntoIterator<Item = u8>) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out
}

/// A source's name as hashed: spec files relative to the main file's folder, so the
/// hash does not depend on where democ was run from.
fn relative(name: &str, main_dir: &str) -> String {
    if main_dir.is_empty() {
        return name.to_owned();
    }
    name.strip_prefix(main_dir)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or(name)
        .to_owned()
}

/// (hash, names) of every source file in load order: name, NUL, length, text. `skip`
/// is the address lock: a build's files show every address it kept, and a build that
/// wrote the lock must not differ from the next one, which reads it.
pub(crate) fn sources_hash(
    sources: &Sources,
    main_dir: &str,
    skip: Option<FileId>,
) -> (String, Vec<String>) {
    let mut h = Sha256::new();
    let mut names = Vec::with_capacity(sources.len());
    for (_, f) in sources.files().filter(|(id, _)| Some(*id) != skip) {
        let name = relative(&f.name, main_dir);
        h.update(name.as_bytes());
        h.update([0]);
        h.update((f.text.len() as u64).to_le_bytes());
        h.update(f.text.as_bytes());
        names.push(name);
    }
    let hash = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    (hash, names)
}

#[cfg(test)]
mod tests {
    /// Hashed in pieces as written, a file's hash is that of its whole bytes.
    #[test]
    fn hashing_while_writing_is_hashing_the_whole() {
        use std::io::Write as _;
        let text: Vec<u8> = (0..1000u32).flat_map(|i| i.to_le_bytes()).collect();
        let mut h = super::Hashing::new(Vec::new());
        for piece in text.chunks(7) {
            h.write_all(piece).expect("into memory");
        }
        let (written, sha, len) = h.finish();
        assert_eq!((written.as_slice(), len), (text.as_slice(), text.len()));
        assert_eq!(sha, super::sha256(&text));
    }

    /// A build made before the format marker still counts as democ's; other JSON, a
    /// later format version and an entry without a hash do not.
    #[test]
    fn previous_manifests_are_recognised_by_content() {
        let sha = super::sha256(b"");
        let legacy = format!(
            r#"{{"democ":"0.1.0","show":"sc16","sources_sha256":"{sha}","sources":[],"templates_overridden":[],"files":[{{"path":"a.cfg","sha256":"{sha}","bytes":0}}]}}"#
        );
        let p = super::Previous::parse(legacy.as_bytes()).expect("legacy");
        assert_eq!(p.files[0].path, "a.cfg");
        let current = legacy.replacen(
            '{',
            r#"{"format":"democ-build-manifest","format_version":1,"#,
            1,
        );
        assert!(
            super::Previous::parse(current.as_bytes()).is_ok(),
            "{current}"
        );
        let later = legacy.replacen(
            '{',
            r#"{"format":"democ-build-manifest","format_version":99,"#,
            1,
        );
        let err = super::Previous::parse(later.as_bytes()).expect_err("later");
        assert!(
            matches!(err, super::ManifestError::Newer { version: 99 }),
            "{err}"
        );
        let browser = r#"{"manifest_version":3,"name":"x","version":"1.0"}"#;
        assert!(super::Previous::parse(browser.as_bytes()).is_err());
        let unhashed = legacy.replace(&format!(r#""sha256":"{sha}""#), r#""sha256":"x""#);
        assert!(super::Previous::parse(unhashed.as_bytes()).is_err());
    }

    #[test]
    fn names_are_relative_to_the_main_folder() {
        assert_eq!(
            super::relative("examples/sc16/booths/a.yaml", "examples/sc16"),
            "booths/a.yaml"
        );
        assert_eq!(
            super::relative("catalog/switches.yaml", "examples/sc16"),
            "catalog/switches.yaml"
        );
        assert_eq!(super::relative("show.yaml", ""), "show.yaml");
        assert_eq!(
            super::sha256(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
