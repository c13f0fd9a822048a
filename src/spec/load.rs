//! Reading spec files: encodings, YAML, includes (with cycle and depth limits).

use std::path::{Path, PathBuf};

use serde::de::IgnoredAny;
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{MessageFormatter, UserMessageFormatter};

use super::error::LoadError;
use super::{Spec, SpecFile};
use crate::diag::{Diagnostic, Diags, codes};
use crate::read::ReadError;
use crate::source::{FileId, Sources, Span};
use crate::yaml::decode::{Decode, DecodeContext, Located};
use crate::yaml::node::Node;
use crate::yaml::tree::parse_tree;

/// Safety limits on input; each breach is an E0009 diagnostic, never a hang.
/// `max_file_bytes` and `max_nodes` count the main file and its includes together, so
/// including one large file many times cannot multiply the work.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_file_bytes: usize,
    pub max_includes: usize,
    pub max_include_depth: usize,
    pub max_depth: usize,
    /// YAML values (scalars, lists, mappings, alias expansions included). A large show
    /// has a few tens of thousands; each costs about a microsecond and 100 bytes.
    pub max_nodes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: crate::read::MAX_FILE_BYTES,
            max_includes: 256,
            max_include_depth: 16,
            max_depth: 64,
            // A 1,000-switch show with 10,000 DTNs and 100,000 flows is about 1.2 million
            // values; the limit leaves room for three times that, and bounds a hostile
            // file to a few seconds and about half a gigabyte.
            max_nodes: 4_000_000,
        }
    }
}

/// Values that aliases (`*name`) may replay in one file. Replaying is slower than
/// reading (and grows faster than linearly in the parser), so aliases get a tighter
/// budget than plain values; a show spec uses a handful of anchors, if any.
const MAX_ALIAS_VALUES: usize = 100_000;

/// Parser options for one file, with `nodes` values left of the show's budget.
pub(crate) fn yaml_options(limits: &Limits, nodes: usize) -> serde_saphyr::Options {
    // Both types are non-exhaustive: start from the defaults and adjust.
    let mut budget = serde_saphyr::Budget::default();
    budget.max_reader_input_bytes = Some(limits.max_file_bytes);
    budget.max_events = nodes.saturating_mul(3);
    budget.max_nodes = nodes;
    budget.max_recorded_anchor_events = nodes.min(MAX_ALIAS_VALUES);
    budget.max_depth = limits.max_depth;
    let mut options = serde_saphyr::Options::default();
    options.alias_limits.max_total_replayed_events = nodes.min(MAX_ALIAS_VALUES);
    options.budget = Some(budget);
    options.with_snippet = false;
    options
}

/// At least as many values as serde-saphyr can count in `text`: each starts at the
/// text's start, a line's start or after one of a few indicators (a flow mapping's `{`
/// opens the mapping, its first key and that key's null value), and aliases replay at
/// most [`MAX_ALIAS_VALUES`]. Only decides whether a text is first read without building
/// its tree; over or under, the budget decides.
fn most_values(text: &str) -> usize {
    let weight = |b: &u8| match b {
        b'{' => 3,
        b'[' | b'-' | b'?' | b',' => 2,
        b':' | b'\n' | b'*' => 1,
        _ => 0,
    };
    2 + MAX_ALIAS_VALUES + text.as_bytes().iter().map(weight).sum::<usize>()
}

/// Decodes bytes to text: UTF-8 (BOM stripped); anything else is an error.
fn decode_text(bytes: &[u8]) -> Result<String, (usize, String, String)> {
    // UTF-32 first: its little-endian mark starts with UTF-16's.
    if bytes.starts_with(&[0xFF, 0xFE, 0, 0]) || bytes.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return Err((
            0,
            "the file is UTF-32 (it starts with a UTF-32 byte-order mark), not UTF-8".into(),
            "save the file as UTF-8".into(),
        ));
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err((
            0,
            "the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8".into(),
            "save the file as UTF-8".into(),
        ));
    }
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => Err((
            e.valid_up_to(),
            format!(
                "the file is not valid UTF-8 (byte 0x{:02x})",
                body[e.valid_up_to()]
            ),
            "save the file as UTF-8; Latin-1 and Windows code pages are not accepted".into(),
        )),
    }
}

/// The error itself, looking through alias and snippet wrappers.
fn innermost(mut err: &serde_saphyr::Error) -> &serde_saphyr::Error {
    while let serde_saphyr::Error::AliasError { error, .. }
    | serde_saphyr::Error::WithSnippet { error, .. } = err
    {
        err = error;
    }
    err
}

/// The parser budget an error reports.
fn breach_of(err: &serde_saphyr::Error) -> Option<&BudgetBreach> {
    match innermost(err) {
        serde_saphyr::Error::Budget { breach, .. } => Some(breach),
        _ => None,
    }
}

/// What a breached parser budget means, in the words of `Limits`.
fn budget_message(breach: &BudgetBreach, limits: &Limits) -> (String, &'static str) {
    const ALIASES: &str = "write the values out, or use fewer aliases (`*name`) of large anchors";
    match breach {
        BudgetBreach::Depth { .. } => (
            format!("the YAML is nested deeper than {} levels", limits.max_depth),
            "a show spec needs a few levels of nesting: flatten this part",
        ),
        BudgetBreach::Nodes { .. } | BudgetBreach::Events { .. } => (
            format!(
                "the show has more than {} YAML values (all files together)",
                limits.max_nodes
            ),
            "remove what does not belong in the show, or describe repeated hosts with a range (`dtn-[1-40]`)",
        ),
        BudgetBreach::Aliases { aliases } => (
            format!("the YAML uses {aliases} aliases (`*name`), above the limit"),
            ALIASES,
        ),
        BudgetBreach::Anchors { anchors } => (
            format!("the YAML defines {anchors} anchors (`&name`), above the limit"),
            ALIASES,
        ),
        BudgetBreach::RecordedAnchorEvents { .. }
        | BudgetBreach::RecordedAnchorBytes { .. }
        | BudgetBreach::AliasAnchorRatio { .. }
        | BudgetBreach::MergeKeys { .. } => (
            format!("the YAML's aliases (`*name`) expand to more than {MAX_ALIAS_VALUES} values"),
            ALIASES,
        ),
        BudgetBreach::ScalarBytes { .. } | BudgetBreach::InputBytes { .. } => (
            format!(
                "the YAML text is larger than {} bytes",
                limits.max_file_bytes
            ),
            "a show spec is rarely more than a megabyte: remove what does not belong in it",
        ),
        other => (
            format!("the YAML is beyond a parser limit ({other:?})"),
            "simplify the document: fewer aliases, less nesting, a smaller file",
        ),
    }
}

/// The span of the token at `start`: up to `:` or the end of the line.
fn token_at(text: &str, start: usize) -> usize {
    let rest = &text[start..];
    let len = rest.find([':', '\n', '\r']).unwrap_or(rest.len());
    start + rest[..len].trim_end().len()
}

/// YAML's limit on a key written without `?`; the parser stops looking for its `:` there.
const MAX_KEY_CHARS: usize = 1024;

/// The length in characters of an over-long key on the line of `at`: from the line's
/// first non-blank character to the first `:` at or after `at`.
fn long_key(text: &str, at: usize) -> Option<usize> {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text.get(line_start..line_end)?;
    let colon = line.get(at - line_start..)?.find(':')? + (at - line_start);
    // In a flow mapping the key starts after its `{` or `,`; in a sequence after `- `.
    let key = line[..colon].rsplit(['{', ',', '[']).next().unwrap_or("");
    let key = key.trim_start().trim_start_matches("- ");
    let chars = key.chars().count();
    (chars > MAX_KEY_CHARS).then_some(chars)
}

/// Turns a YAML-level error into a located diagnostic.
pub(crate) fn yaml_error(
    sources: &Sources,
    file: FileId,
    err: &serde_saphyr::Error,
    limits: &Limits,
) -> Diagnostic {
    let mut message = UserMessageFormatter.format_message(err).into_owned();
    let f = sources.get(file);
    let mut span = match err.location() {
        Some(loc) if loc.line() > 0 => {
            let start = f.offset_of(loc.line() as usize, loc.column() as usize);
            let end = f.text[start..]
                .chars()
                .next()
                .map_or(start, |c| start + c.len_utf8());
            Span::new(file, start, end)
        }
        _ => Span::new(file, 0, 0),
    };
    let breach = breach_of(err);
    let replay = matches!(
        innermost(err),
        serde_saphyr::Error::AliasReplayLimitExceeded { .. }
            | serde_saphyr::Error::AliasExpansionLimitExceeded { .. }
            | serde_saphyr::Error::AliasReplayStackDepthExceeded { .. }
    );
    let mut limit_help = "simplify the document: fewer aliases, less nesting, a smaller file";
    // The parser's own guard against deep flow nesting (`[[[[...`) is the depth limit too.
    let recursion = breach.is_none() && message.to_lowercase().contains("recursion limit");
    if recursion {
        (message, limit_help) = budget_message(&BudgetBreach::Depth { depth: 0 }, limits);
    }
    if let Some(breach) = breach {
        (message, limit_help) = budget_message(breach, limits);
    } else if replay {
        message =
            format!("the YAML's aliases (`*name`) expand to more than {MAX_ALIAS_VALUES} values");
        limit_help = "write the values out, or use fewer aliases (`*name`) of large anchors";
    }
    let breach = breach.is_some() || replay || recursion;
    if let Some(key) = long_key(&f.text, span.start as usize) {
        // The parser only says that it found no `:` where it gave up looking.
        message = format!(
            "a key is longer than {MAX_KEY_CHARS} characters ({key}), the most YAML allows"
        );
    }
    let lower = message.to_lowercase();
    if lower.contains("duplicate mapping key") {
        // Underline the whole key, not its first character.
        let start = span.start as usize;
        span = Span::new(file, start, token_at(&f.text, start).max(span.end as usize));
    } else if lower.contains("tab") {
        // Point at the tab itself (the parser stops at the first character after it).
        let (line, _) = f.line_col(span.start as usize);
        let line_start = f.offset_of(line, 1);
        if let Some(i) = f.text[line_start..span.start as usize].find('\t') {
            span = Span::new(file, line_start + i, line_start + i + 1);
        }
    }
    let label = if breach {
        "limit reached here"
    } else if lower.contains("duplicate mapping key") {
        "second occurrence of this key"
    } else {
        "here"
    };
    let (code, help) = if lower.contains("duplicate mapping key") {
        (codes::DUPLICATE_KEY, "remove or rename one of the two keys")
    } else if breach
        || lower.contains("budget")
        || lower.contains("limits breached")
        || lower.contains("alias") && lower.contains("exceed")
    {
        (codes::LIMIT, limit_help)
    } else if lower.contains("tab") {
        (
            codes::YAML_SYNTAX,
            "indent with spaces; YAML does not allow tabs for indentation",
        )
    } else if lower.starts_with("a key is longer") {
        (
            codes::YAML_SYNTAX,
            "shorten the key: field names are short, and names at most 63 characters",
        )
    } else {
        (
            codes::YAML_SYNTAX,
            "fix the YAML syntax at this point (quotes, brackets, indentation)",
        )
    };
    Diagnostic::new(code, span, message.trim_end_matches('.').to_owned())
        .label(label)
        .help(help)
}

/// Reads the main spec and everything it includes.
pub struct Loader<'a> {
    pub(crate) sources: &'a mut Sources,
    pub(crate) diags: &'a mut Diags,
    pub(crate) limits: Limits,
    /// Files being read, outermost first: canonical path (for cycles) and display name.
    stack: Vec<(PathBuf, String)>,
    loaded: usize,
    /// The include limit is reported once, at the first include beyond it.
    limit_reported: bool,
    /// Bytes and YAML values read so far, for the limits on the whole show.
    bytes_read: usize,
    nodes_read: usize,
    /// When set, files are read from this table (the embedded example) instead of disk.
    pub(crate) embedded: Option<&'static [(&'static str, &'static str)]>,
    /// Folders (canonical) includes may resolve into, and as the user wrote them.
    roots: Vec<PathBuf>,
    roots_shown: Vec<String>,
    /// `--allow-include-outside` folders: canonical, and as written.
    extra_roots: Vec<(PathBuf, String)>,
    /// The spec's folders resolved so far (symlinks followed).
    folders: super::folders::Folders,
}

impl<'a> Loader<'a> {
    pub(crate) fn new(
        sources: &'a mut Sources,
        diags: &'a mut Diags,
        limits: Limits,
    ) -> Loader<'a> {
        Loader {
            sources,
            diags,
            limits,
            stack: Vec::new(),
            loaded: 0,
            limit_reported: false,
            bytes_read: 0,
            nodes_read: 0,
            embedded: None,
            roots: Vec::new(),
            roots_shown: Vec::new(),
            extra_roots: Vec::new(),
            folders: super::folders::Folders::default(),
        }
    }

    /// Reads bytes into a located tree, reporting encoding, size and YAML errors.
    pub(crate) fn parse_file(&mut self, name: &str, bytes: &[u8]) -> Option<Node> {
        let text = match decode_text(bytes) {
            Ok(t) => t,
            Err((at, msg, help)) => {
                // Offsets are relative to the text after a UTF-8 byte-order mark.
                let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
                let lossy = String::from_utf8_lossy(body).into_owned();
                let id = self.sources.add(name, lossy);
                let at = at.min(self.sources.get(id).text.len());
                let label = if at == 0 {
                    "not UTF-8 from the start"
                } else {
                    "the first byte that is not UTF-8"
                };
                let d = Diagnostic::new(codes::BAD_ENCODING, Span::new(id, at, at), msg)
                    .label(label)
                    .help(help);
                self.diags.push(d);
                return None;
            }
        };
        let total = self.bytes_read.saturating_add(text.len());
        if total > self.limits.max_file_bytes {
            let message = if self.bytes_read == 0 {
                format!(
                    "`{name}` is {} bytes, above the limit of {}",
                    text.len(),
                    self.limits.max_file_bytes
                )
            } else {
                format!(
                    "`{name}` brings the show's files to {total} bytes, above the limit of {}",
                    self.limits.max_file_bytes
                )
            };
            let id = self.sources.add(name, String::new());
            self.diags.push(
                Diagnostic::new(codes::LIMIT, Span::new(id, 0, 0), message)
                    .label("too large")
                    .help("a show spec is rarely more than a megabyte: remove what does not belong in it"),
            );
            return None;
        }
        self.bytes_read = total;
        let id = self.sources.add(name, text);
        let left = self.limits.max_nodes.saturating_sub(self.nodes_read);
        let text = &self.sources.get(id).text;
        // A text that may hold more values than are left is first read without building
        // anything, so that a hostile one is refused without building millions of values
        // (hundreds of megabytes) first; the budget refuses it either way.
        let options = || yaml_options(&self.limits, left);
        let counted = if most_values(text) > left {
            serde_saphyr::from_str_with_options::<IgnoredAny>(text, options()).map(drop)
        } else {
            Ok(())
        };
        let parsed = counted
            .and_then(|()| parse_tree(text, id, options()))
            .map(|n| {
                let values = n.count();
                (n, values)
            });
        if let Ok((_, values)) = &parsed {
            self.nodes_read = self.nodes_read.saturating_add(*values);
        }
        match parsed {
            Ok((n, _)) if matches!(n.kind, crate::yaml::node::Kind::Null) => None,
            Ok((n, _)) => Some(n),
            Err(e) => {
                let d = yaml_error(self.sources, id, &e, &self.limits);
                self.diags.push(d);
                None
            }
        }
    }

    /// Parses a spec file's text and merges it (and its includes) into `spec`.
    pub(crate) fn load_text(&mut self, name: &str, dir: &Path, bytes: &[u8], spec: &mut Spec) {
        if let Some(node) = self.parse_file(name, bytes) {
            self.decode_file(&node, name, dir, spec);
        }
    }

    /// The main file: read with its includes, and it must have `show:`.
    pub(crate) fn main_text(
        &mut self,
        canonical: PathBuf,
        name: &str,
        dir: &Path,
        bytes: &[u8],
        spec: &mut Spec,
    ) {
        let errors_before = self.diags.count(crate::diag::Severity::Error);
        let first_file = self.sources.len();
        self.stack.push((canonical, name.to_owned()));
        if let Some(node) = self.parse_file(name, bytes) {
            self.decode_file(&node, name, dir, spec);
        }
        self.stack.pop();
        // A main file without `show:` (empty, or only other sections) is reported in it,
        // unless something else was already wrong with it.
        if spec.show.is_none() && self.diags.count(crate::diag::Severity::Error) == errors_before {
            let file = FileId(u32::try_from(first_file).unwrap_or(u32::MAX));
            if first_file < self.sources.len() {
                self.diags.push(
                    Diagnostic::new(
                        codes::MISSING_FIELD,
                        Span::new(file, 0, 0),
                        "the spec has no `show:` section",
                    )
                    .label("`show:` is required in the main file")
                    .help("start the main file with `show: { name: ... }`"),
                );
            }
        }
    }

    /// Parses a catalog file (sections at top level) into `spec.catalogs`.
    pub(crate) fn load_catalog(&mut self, name: &str, bytes: &[u8], spec: &mut Spec) {
        if let Some(node) = self.parse_file(name, bytes) {
            self.decode_catalog(&node, spec);
        }
    }

    fn decode_catalog(&mut self, node: &Node, spec: &mut Spec) {
        let mut cx = DecodeContext { diags: self.diags };
        if let Some(c) = crate::spec::catalog_file::CatalogFile::decode(node, &mut cx) {
            spec.catalogs.push(c);
        }
    }

    fn decode_file(&mut self, node: &Node, name: &str, dir: &Path, spec: &mut Spec) {
        let file = {
            let mut cx = DecodeContext { diags: self.diags };
            SpecFile::decode(node, &mut cx)
        };
        let Some(mut file) = file else { return };
        if self.stack.len() > 1 && file.show.is_some() {
            let span = match &node.kind {
                crate::yaml::node::Kind::Map(entries) => entries
                    .iter()
                    .find(|(k, _)| &*k.name == "show")
                    .map_or(node.span, |(k, _)| k.span),
                _ => node.span,
            };
            self.diags.push(
                Diagnostic::new(
                    codes::UNKNOWN_FIELD,
                    span,
                    format!("`show:` in included file `{name}`"),
                )
                .label("only allowed in the main file")
                .help("only the main spec file has `show:`; move it there"),
            );
        }
        let includes = file.include.take().unwrap_or_default();
        spec.merge(file);
        for inc in includes {
            self.include(&inc, dir, spec);
        }
    }

    fn include(&mut self, inc: &Located<String>, dir: &Path, spec: &mut Spec) {
        self.loaded += 1;
        if self.loaded > self.limits.max_includes
            || self.stack.len() > self.limits.max_include_depth
        {
            let what = if self.loaded > self.limits.max_includes {
                format!("more than {} included files", self.limits.max_includes)
            } else {
                format!(
                    "includes nested deeper than {}",
                    self.limits.max_include_depth
                )
            };
            if !self.limit_reported {
                self.limit_reported = true;
                self.diags.push(
                    Diagnostic::new(codes::LIMIT, inc.span, what)
                        .label("this include is one too many")
                        .help("flatten the include tree: fewer, larger files"),
                );
            }
            return;
        }
        let path = normalize(&dir.join(inc.value.as_str()));
        let canonical = if self.embedded.is_some() {
            path.clone()
        } else {
            match self.folders.file(&path) {
                Ok(c) => c,
                Err(e) => return self.unreadable(inc, &ReadError::Io(e)),
            }
        };
        if self.embedded.is_none() && !self.roots.iter().any(|r| canonical.starts_with(r)) {
            self.diags.push(outside(inc, &self.roots_shown));
            return;
        }
        if let Some(pos) = self.stack.iter().position(|(p, _)| *p == canonical) {
            let chain: Vec<&str> = self.stack[pos..].iter().map(|(_, n)| n.as_str()).collect();
            let first = chain[0];
            let message = if chain.len() == 1 {
                format!("`{first}` includes itself")
            } else {
                format!(
                    "`{first}` includes itself through {}",
                    crate::diag::plural(chain.len() - 1, "other file")
                )
            };
            self.diags.push(
                Diagnostic::new(codes::INCLUDE_CYCLE, inc.span, message)
                    .label("this include closes the cycle")
                    .note(format!("cycle: {} -> {first}", chain.join(" -> ")))
                    .help("remove this include; each file should be included once"),
            );
            return;
        }
        // The resolved path is what was confined: read that, not the path as written.
        let bytes = match self.read(&canonical) {
            Ok(b) => b,
            Err(e) => return self.unreadable(inc, &e),
        };
        let name = display(&path);
        let sub_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.stack.push((canonical, name.clone()));
        self.load_text(&name, &sub_dir, &bytes, spec);
        self.stack.pop();
    }

    /// An include that could not be read (missing, not a regular file): E0001 at it.
    fn unreadable(&mut self, inc: &Located<String>, e: &ReadError) {
        self.diags.push(
            Diagnostic::new(
                codes::IO,
                inc.span,
                format!("cannot read included file `{}`", inc.value),
            )
            .label(e.reason())
            .help("include paths are relative to the file that includes them; an include must be a regular file"),
        );
    }

    /// Reads a file through the one bounded reader (at most one byte past the size
    /// limit; FIFOs and devices refused unread), or from the embedded table.
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        match self.embedded {
            Some(files) => {
                let key = display(path);
                files
                    .iter()
                    .find(|(name, _)| *name == key)
                    .map(|(_, text)| text.as_bytes().to_vec())
                    .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound).into())
            }
            None => crate::read::bounded(path, self.limits.max_file_bytes),
        }
    }

    /// Includes may read below these folders (canonical), besides the main file's own:
    /// `--allow-include-outside DIR`. A folder that does not exist is a usage error.
    pub(crate) fn allow_outside(&mut self, dirs: &[PathBuf]) -> Result<(), LoadError> {
        for d in dirs {
            let c = d.canonicalize().map_err(|e| LoadError::IncludeRoot {
                dir: d.clone(),
                error: ReadError::Io(e),
            })?;
            self.extra_roots.push((c, display(d)));
        }
        Ok(())
    }

    /// Sets the folder includes are confined to: the main file's folder (symlinks
    /// resolved), and the folders allowed with `--allow-include-outside`.
    pub(crate) fn confine_to(&mut self, dir: &Path) {
        let shown = match display(dir) {
            d if d.is_empty() => ".".to_owned(),
            d => d,
        };
        let here = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        self.roots = self.folders.folder(here).into_iter().collect();
        self.roots_shown = vec![shown];
        for (c, d) in &self.extra_roots {
            self.roots.push(c.clone());
            self.roots_shown.push(d.clone());
        }
    }

    /// Loads the main file. An unreadable main file is a usage error (exit 2).
    pub(crate) fn load_main(&mut self, path: &Path, spec: &mut Spec) -> Result<(), LoadError> {
        let bytes = self.read(path).map_err(|e| match e {
            ReadError::NotRegular("a directory") => LoadError::MainIsFolder {
                path: path.to_owned(),
            },
            error => LoadError::MainUnreadable {
                path: path.to_owned(),
                error,
            },
        })?;
        let canonical = if self.embedded.is_some() {
            path.to_path_buf()
        } else {
            self.folders
                .file(path)
                .unwrap_or_else(|_| path.to_path_buf())
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        self.confine_to(&dir);
        self.main_text(canonical, &display(path), &dir, &bytes, spec);
        Ok(())
    }
}

/// E0012 at an include that resolves outside every allowed folder. Nothing of the file
/// is read, and its resolved path is not shown (it may say where a symlink points).
fn outside(inc: &Located<String>, roots: &[String]) -> Diagnostic {
    let folders: Vec<&str> = roots.iter().map(String::as_str).collect();
    Diagnostic::new(
        codes::INCLUDE_OUTSIDE,
        inc.span,
        format!("the include `{}` is outside the show's folder", inc.value),
    )
    .label("refused: not read")
    .note(format!(
        "includes must resolve (symlinks followed) to files under {}",
        crate::diag::list(&folders)
    ))
    .help("move the file into the show's folder, or allow its folder with `--allow-include-outside DIR`")
}

/// Resolves `.` and `..` without touching the disk, so names stay relative.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// File names in diagnostics: as given, with `/` separators, never made absolute.
fn display(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small limits, so that each can be breached by a tiny input.
    const TINY: Limits = Limits {
        max_file_bytes: 2_000,
        max_includes: 3,
        max_include_depth: 2,
        max_depth: 5,
        max_nodes: 60,
    };

    /// Loads `main.yaml` (and whatever it includes) from a folder holding `files`; returns
    /// the diagnostics as (code, file name, line, message).
    fn load(
        files: &[(&str, String)],
        limits: Limits,
    ) -> Vec<(&'static str, String, usize, String)> {
        let dir = tempfile::tempdir().expect("temp dir");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("write");
        }
        let (mut sources, mut diags, mut spec) =
            (Sources::default(), Diags::default(), Spec::default());
        let mut loader = Loader::new(&mut sources, &mut diags, limits);
        loader
            .load_main(&dir.path().join("main.yaml"), &mut spec)
            .expect("main.yaml is readable");
        diags
            .items()
            .iter()
            .map(|d| {
                let f = sources.get(d.primary.span.file);
                let name = f.name.rsplit('/').next().unwrap_or("").to_owned();
                (
                    d.code.id,
                    name,
                    f.line_col(d.primary.span.start as usize).0,
                    d.message.clone(),
                )
            })
            .collect()
    }

    fn main(text: &str) -> Vec<(&'static str, String)> {
        vec![("main.yaml", text.to_owned())]
    }

    fn only_limit(found: &[(&'static str, String, usize, String)], file: &str, line: usize) {
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].0, found[0].1.as_str(), found[0].2),
            ("E0009", file, line),
            "{found:?}"
        );
    }

    #[test]
    fn file_bytes() {
        let found = load(
            &main(&format!("show: {{ name: x }}\n#{}\n", "x".repeat(3_000))),
            TINY,
        );
        only_limit(&found, "main.yaml", 1);
        assert!(found[0].3.contains("above the limit of 2000"), "{found:?}");
        // Counted over the includes: two files of 1,500 bytes breach 2,000.
        let pad = format!("#{}\n", "x".repeat(1_500));
        let files = [
            (
                "main.yaml",
                format!("show: {{ name: x }}\ninclude: [a.yaml]\n{pad}"),
            ),
            ("a.yaml", format!("sites: {{}}\n{pad}")),
        ];
        only_limit(&load(&files, TINY), "a.yaml", 1);
    }

    #[test]
    fn nodes() {
        let list = vec!["0"; 100].join(", ");
        let found = load(
            &main(&format!("show: {{ name: x }}\nsites: [{list}]\n")),
            TINY,
        );
        only_limit(&found, "main.yaml", 2);
        // Counted over the includes: 40 values in each of two files breach 60.
        let sites = |p: &str| {
            (0..10)
                .map(|i| format!("{p}{i}: {{ kind: lab }}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let files = [
            (
                "main.yaml",
                format!(
                    "show: {{ name: x }}\ninclude: [a.yaml]\nsites: {{ {} }}\n",
                    sites("m")
                ),
            ),
            ("a.yaml", format!("sites: {{ {} }}\n", sites("a"))),
        ];
        only_limit(&load(&files, TINY), "a.yaml", 1);
    }

    #[test]
    fn depth() {
        only_limit(
            &load(
                &main("show: { name: x }\nsites: [[[[[[[[[[]]]]]]]]]]\n"),
                TINY,
            ),
            "main.yaml",
            2,
        );
        // Far deeper than the parser's own recursion guard: still E0009, no stack overflow.
        let deep = format!("show: {{ name: x }}\nsites: {}\n", "[".repeat(100_000));
        only_limit(&load(&main(&deep), Limits::default()), "main.yaml", 2);
    }

    #[test]
    fn aliases() {
        let mut text = String::from(
            "show: { name: x }\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
        );
        for i in 1..9 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        let found = load(&main(&text), Limits::default());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "E0009", "{found:?}");
        assert!(found[0].2 > 1, "{found:?}");
    }

    #[test]
    fn includes_are_counted_and_reported_once() {
        let files = [
            ("main.yaml", "show: { name: x }\ninclude:\n  - a.yaml\n  - a.yaml\n  - a.yaml\n  - a.yaml\n  - a.yaml\n".to_owned()),
            ("a.yaml", "sites: {}\n".to_owned()),
        ];
        only_limit(&load(&files, TINY), "main.yaml", 6);
    }

    #[test]
    fn include_depth() {
        let files = [
            (
                "main.yaml",
                "show: { name: x }\ninclude: [a.yaml]\n".to_owned(),
            ),
            ("a.yaml", "include: [b.yaml]\n".to_owned()),
            ("b.yaml", "include: [c.yaml]\n".to_owned()),
            ("c.yaml", "sites: {}\n".to_owned()),
        ];
        only_limit(&load(&files, TINY), "b.yaml", 1);
    }

    #[test]
    fn include_cycles_name_files_as_given() {
        let files = [
            (
                "main.yaml",
                "show: { name: x }\ninclude: [a.yaml]\n".to_owned(),
            ),
            ("a.yaml", "include: [main.yaml]\n".to_owned()),
        ];
        let found = load(&files, Limits::default());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].0, found[0].1.as_str()),
            ("E0008", "a.yaml"),
            "{found:?}"
        );
    }
}

#[cfg(all(test, target_os = "linux"))]
#[path = "confine_tests.rs"]
mod confine_tests;
