//! Reading a lock file. The file is the user's (committed, merged, possibly edited or
//! hostile): it goes through the same bounded reader and YAML parser as a spec, and
//! anything that is not a lock democ wrote is a located E0130 (exit 1), never a panic
//! and never silently ignored (a half-read lock would renumber the show).

use std::net::Ipv4Addr;
use std::path::Path;

use super::AddressLock;
use super::format::VERSION;
use crate::diag::{Diagnostic, Diags, codes};
use crate::read::ReadError;
use crate::source::{FileId, Sources, Span};
use crate::spec::load::{Limits, yaml_error, yaml_options};
use crate::yaml::decode::Located;
use crate::yaml::node::{Key, Kind, Node};
use crate::yaml::tree::parse_tree;

/// What to do about a lock that cannot be used, for every E0130.
const HELP: &str = "restore the lock from version control, or delete it (or build with \
                    `--no-lock`) to allocate every address afresh";

/// A lock read from its file: its entries and the source they point into.
pub(crate) struct Read {
    pub(crate) lock: AddressLock,
    pub(crate) file: FileId,
    pub(crate) text: String,
}

fn invalid(span: Span, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::new(codes::LOCK_INVALID, span, message)
        .label(label)
        .help(HELP)
}

/// Why a lock's file holds no text to read.
enum Unusable {
    Unreadable(ReadError),
    TooLarge,
    NotUtf8(std::string::FromUtf8Error),
}

/// The text of the lock at `path`, bounded as a spec's files are: Ok(None) when there
/// is none.
fn text_in(path: &Path, limits: &Limits) -> Result<Option<String>, Unusable> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match crate::read::confined(path, folder) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Unusable::Unreadable(ReadError::Io(e))),
        Ok(()) => {}
    }
    let bytes = match crate::read::bounded(path, limits.max_file_bytes) {
        Ok(b) => b,
        Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Unusable::Unreadable(e)),
    };
    if bytes.len() > limits.max_file_bytes {
        return Err(Unusable::TooLarge);
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(Unusable::NotUtf8)
}

/// The lock decoded from source `id` (`text`), when nothing was reported since
/// `errors` errors; Err(()) otherwise.
fn kept(
    lock: Option<AddressLock>,
    (id, text): (FileId, String),
    errors: usize,
    diags: &Diags,
) -> Result<Option<Read>, ()> {
    match lock {
        Some(lock) if diags.count(crate::diag::Severity::Error) == errors => Ok(Some(Read {
            lock,
            file: id,
            text,
        })),
        _ => Err(()),
    }
}

/// Reads the lock at `path`: Ok(None) when there is none; Err(()) when it is unusable
/// (the reasons are in `diags`).
pub(crate) fn file(
    path: &Path,
    limits: &Limits,
    sources: &mut Sources,
    diags: &mut Diags,
) -> Result<Option<Read>, ()> {
    let name = super::display(path);
    let text = match text_in(path, limits) {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(None),
        Err(Unusable::Unreadable(e)) => {
            let id = sources.add(name.as_str(), String::new());
            diags.push(invalid(
                Span::new(id, 0, 0),
                format!("cannot read the address lock `{name}`: {}", e.reason()),
                "unreadable",
            ));
            return Err(());
        }
        Err(Unusable::TooLarge) => {
            let id = sources.add(name.as_str(), String::new());
            diags.push(invalid(
                Span::new(id, 0, 0),
                format!(
                    "the address lock `{name}` is larger than the limit of {} bytes",
                    limits.max_file_bytes
                ),
                "too large",
            ));
            return Err(());
        }
        Err(Unusable::NotUtf8(e)) => {
            let at = e.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let id = sources.add(name.as_str(), lossy);
            let at = at.min(sources.get(id).text.len());
            diags.push(invalid(
                Span::new(id, at, at),
                format!("the address lock `{name}` is not UTF-8 text"),
                "the first byte that is not UTF-8",
            ));
            return Err(());
        }
    };
    let id = sources.add(name.as_str(), text.clone());
    let errors = diags.count(crate::diag::Severity::Error);
    let lock = text_of(sources, id, limits, diags);
    kept(lock, (id, text), errors, diags)
}

/// Parses the text of source `id`; None (with diagnostics) when it is not a lock.
fn text_of(
    sources: &Sources,
    id: FileId,
    limits: &Limits,
    diags: &mut Diags,
) -> Option<AddressLock> {
    let text = &sources.get(id).text;
    let root = match parse_tree(text, id, yaml_options(limits, limits.max_nodes)) {
        Ok(n) => n,
        Err(e) => {
            diags.push(
                yaml_error(sources, id, &e, limits)
                    .note("this is democ's address lock, written by `democ build`"),
            );
            return None;
        }
    };
    decode(&root, diags)
}

/// The lock a parsed file holds; None (with diagnostics) when it is not one.
fn decode(root: &Node, diags: &mut Diags) -> Option<AddressLock> {
    let Kind::Map(entries) = &root.kind else {
        diags.push(invalid(
            root.span,
            format!(
                "an address lock is a mapping (`version:`, `hosts:`, `links:`, `switches:`, `lab:`), found {}",
                root.kind.describe()
            ),
            "not a lock",
        ));
        return None;
    };
    let mut lock = AddressLock::default();
    let mut version = false;
    for (key, value) in entries {
        match &*key.name {
            "version" => version = check_version(value, diags),
            "hosts" => each(value, "hosts", diags, |k, v, d| {
                if let Some(a) = address(v, d) {
                    lock.hosts.insert(k.name.to_string(), Located::new(a, k.span));
                }
            }),
            "links" => each(value, "links", diags, |k, v, d| {
                if let Some(pair) = pair(v, d) {
                    lock.links.insert(k.name.to_string(), Located::new(pair, k.span));
                }
            }),
            "switches" => each(value, "switches", diags, |k, v, d| {
                if let Some(a) = address(v, d) {
                    lock.switches.insert(k.name.to_string(), Located::new(a, k.span));
                }
            }),
            "lab" => each(value, "lab", diags, |k, v, d| {
                if let Some(a) = address(v, d) {
                    lock.lab.insert(k.name.to_string(), Located::new(a, k.span));
                }
            }),
            other => diags.push(invalid(
                key.span,
                format!(
                    "`{}` is not part of an address lock (it has `version`, `hosts`, `links`, `switches` and `lab`)",
                    crate::escape::line(other)
                ),
                "unknown section",
            )),
        }
    }
    if !version {
        diags.push(invalid(
            root.span,
            format!("the address lock has no `version: {VERSION}`"),
            "no version",
        ));
        return None;
    }
    Some(lock)
}

fn check_version(value: &Node, diags: &mut Diags) -> bool {
    if matches!(value.kind, Kind::Int(VERSION)) {
        return true;
    }
    diags.push(invalid(
        value.span,
        format!("this democ reads address locks of version {VERSION}"),
        "unknown version",
    ));
    // Reported: the lock is refused by the error, not again for a missing version.
    true
}

/// Calls `f` on every entry of a section (a mapping).
fn each(section: &Node, name: &str, diags: &mut Diags, mut f: impl FnMut(&Key, &Node, &mut Diags)) {
    match &section.kind {
        Kind::Map(entries) => {
            for (k, v) in entries {
                f(k, v, diags);
            }
        }
        // An empty section, as a hand edit may leave it.
        Kind::Null => {}
        other => diags.push(invalid(
            section.span,
            format!(
                "`{name}:` is a mapping of names to addresses, found {}",
                other.describe()
            ),
            "not a mapping",
        )),
    }
}

fn address(v: &Node, diags: &mut Diags) -> Option<Ipv4Addr> {
    let parsed = match &v.kind {
        Kind::Str(s) => s.parse::<Ipv4Addr>().ok(),
        _ => None,
    };
    if parsed.is_none() {
        diags.push(invalid(
            v.span,
            "expected an IPv4 address (`10.16.0.1`)",
            "not an IPv4 address",
        ));
    }
    parsed
}

fn pair(v: &Node, diags: &mut Diags) -> Option<[Ipv4Addr; 2]> {
    match &v.kind {
        Kind::Seq(items) if items.len() == 2 => {
            let a = address(&items[0], diags);
            let b = address(&items[1], diags);
            Some([a?, b?])
        }
        _ => {
            diags.push(invalid(
                v.span,
                "expected the link's two addresses (`[10.255.16.0, 10.255.16.1]`)",
                "not a pair of addresses",
            ));
            None
        }
    }
}
