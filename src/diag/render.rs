//! Diagnostics to text (codespan-reporting) and to JSON.

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, termcolor};
use serde::Serialize;

use std::borrow::Cow;

use super::{Diagnostic, Severity};
use crate::escape;
use crate::source::{FileId, Sources};

impl<'a> Files<'a> for Sources {
    type FileId = FileId;
    type Name = Cow<'a, str>;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<Cow<'a, str>, files::Error> {
        Ok(escape::line(&self.get(id).name))
    }
    fn source(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        Ok(&self.get(id).text)
    }
    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, files::Error> {
        Ok(self.get(id).line_index(byte_index))
    }
    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, files::Error> {
        self.get(id)
            .line_range(line_index)
            .ok_or(files::Error::LineTooLarge {
                given: line_index,
                max: 0,
            })
    }
    /// From the file's index, not by counting the characters of the line (the default),
    /// which made many diagnostics on one long line quadratic.
    fn column_number(
        &'a self,
        id: FileId,
        _line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        Ok(self.get(id).line_col(byte_index).1)
    }
}

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<FileId> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let mut labels = vec![
        cs::Label::primary(d.primary.span.file, d.primary.span.range())
            .with_message(escape::line(&d.primary.message)),
    ];
    labels.extend(d.secondary.iter().map(|l| {
        cs::Label::secondary(l.span.file, l.span.range()).with_message(escape::line(&l.message))
    }));
    let mut notes: Vec<String> = d
        .help
        .iter()
        .map(|h| format!("help: {}", escape::lines(h)))
        .collect();
    notes.extend(
        d.notes
            .iter()
            .map(|n| format!("note: {}", escape::lines(n))),
    );
    cs::Diagnostic::new(severity)
        .with_code(d.code.id)
        .with_message(escape::line(&d.message))
        .with_labels(labels)
        .with_notes(notes)
}

/// Source lines longer than this are shown as a window around the labels, so that a
/// diagnostic in a minified or generated file stays readable (and small).
const MAX_LINE: usize = 160;
/// Characters kept before the first label of a cropped line.
const CONTEXT: usize = 40;
/// Diagnostics rendered per file; the rest are counted in one closing line. A hostile or
/// generated file can have hundreds of thousands; nobody reads past the first screens.
const MAX_PER_FILE: usize = 100;

/// The byte window of a long line to show: from a little before the first label start.
fn window(line: &str, starts: &[usize]) -> (usize, usize) {
    let first = starts.iter().copied().min().unwrap_or(0);
    let mut ws = first.saturating_sub(CONTEXT);
    while !line.is_char_boundary(ws) {
        ws -= 1;
    }
    let mut we = (ws + MAX_LINE).min(line.len());
    while !line.is_char_boundary(we) {
        we -= 1;
    }
    (ws, we)
}

/// Sources with long lines cropped and control characters made visible, for rendering
/// one diagnostic. Line numbers are those of the real files; columns are too (`shift`
/// adds the characters cut off the front).
struct Cropped {
    files: Sources,
    shift: std::collections::BTreeMap<(FileId, usize), usize>,
}

impl<'a> Files<'a> for Cropped {
    type FileId = FileId;
    type Name = Cow<'a, str>;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<Cow<'a, str>, files::Error> {
        self.files.name(id)
    }
    fn source(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        self.files.source(id)
    }
    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, files::Error> {
        self.files.line_index(id, byte_index)
    }
    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, files::Error> {
        self.files.line_range(id, line_index)
    }
    fn column_number(
        &'a self,
        id: FileId,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let shown = files::column_index(
            self.files.source(id)?,
            self.files.line_range(id, line_index)?,
            byte_index,
        );
        Ok(shown + 1 + self.shift.get(&(id, line_index)).copied().unwrap_or(0))
    }
}

/// A labelled line: where it starts, its text (no line break), the label starts in it.
type Line<'a> = (usize, &'a str, Vec<usize>);

/// The line a byte offset is on, without its line break: (start, text).
fn line_at(file: &crate::source::SourceFile, offset: usize) -> (usize, usize, &str) {
    let index = file.line_index(offset);
    let range = file.line_range(index).unwrap_or(offset..offset);
    let text = file.text[range.clone()].trim_end_matches(['\n', '\r']);
    (index, range.start, text)
}

/// Every label cut to the line it starts on: only those lines are ever shown (a label
/// spanning lines would show others, whatever their length).
fn one_line(sources: &Sources, d: &Diagnostic) -> Diagnostic {
    let mut d = d.clone();
    for l in std::iter::once(&mut d.primary).chain(&mut d.secondary) {
        let file = sources.get(l.span.file);
        let start = (l.span.start as usize).min(file.text.len());
        let (_, ls, text) = line_at(file, start);
        let end = (l.span.end as usize).clamp(start, ls + text.len().max(start - ls));
        l.span = crate::source::Span::new(l.span.file, start, end);
    }
    d
}

/// For a diagnostic with a label on a line longer than `MAX_LINE` or holding control
/// characters, a copy of the sources in which each labelled line is cropped to a window
/// (`…` marks the cut) with its control characters made visible, and the other lines are
/// blank; and the diagnostic with its spans moved into the windows. None when every
/// labelled line is short and clean. Costs the labelled lines, not the files.
fn cropped(sources: &Sources, d: &Diagnostic) -> Option<(Cropped, Diagnostic)> {
    use std::collections::BTreeMap;
    let labels: Vec<&super::Label> = std::iter::once(&d.primary).chain(&d.secondary).collect();
    // (file, line index) -> (line start, line text, label starts within the line)
    let mut lines: BTreeMap<(FileId, usize), Line> = BTreeMap::new();
    for l in &labels {
        let file = sources.get(l.span.file);
        let start = (l.span.start as usize).min(file.text.len());
        let (index, ls, text) = line_at(file, start);
        lines
            .entry((l.span.file, index))
            .or_insert((ls, text, Vec::new()))
            .2
            .push(start - ls);
    }
    let plain =
        |text: &str| text.len() <= MAX_LINE && matches!(escape::line(text), Cow::Borrowed(_));
    if lines.values().all(|(_, text, _)| plain(text)) {
        return None;
    }
    // Build each file's text line by line; remember where each kept window starts.
    let mut texts: BTreeMap<FileId, (String, usize)> = BTreeMap::new();
    let mut placed: BTreeMap<(FileId, usize), (usize, usize, usize)> = BTreeMap::new();
    let mut shift = BTreeMap::new();
    for (&(file, index), (ls, text, starts)) in &lines {
        let (out, row) = texts.entry(file).or_default();
        out.extend(std::iter::repeat_n('\n', index - *row));
        *row = index;
        let (ws, we) = if text.len() > MAX_LINE {
            window(text, starts)
        } else {
            (0, text.len())
        };
        if ws > 0 {
            out.push('…');
            let cut = sources.get(file).line_col(ls + ws).1 - 1;
            shift.insert((file, index), cut - 1);
        }
        placed.insert((file, index), (out.len(), ws, we));
        out.push_str(&escape::line(&text[ws..we]));
        if we < text.len() {
            out.push('…');
        }
    }
    let mut view = Sources::default();
    for (id, f) in sources.files() {
        view.add(f.name.clone(), texts.remove(&id).unwrap_or_default().0);
    }
    let mut moved = d.clone();
    for l in std::iter::once(&mut moved.primary).chain(&mut moved.secondary) {
        let file = sources.get(l.span.file);
        let start = (l.span.start as usize).min(file.text.len());
        let (index, ls, text) = line_at(file, start);
        let Some(&(at, ws, we)) = placed.get(&(l.span.file, index)) else {
            continue;
        };
        let s = (start - ls).clamp(ws, we);
        let e = (l.span.end as usize).saturating_sub(ls).clamp(s, we);
        // Escaping keeps one character for one, but not one byte for one.
        let shown = |to: usize| at + escape::line(&text[ws..to]).len();
        l.span = crate::source::Span::new(l.span.file, shown(s), shown(e));
    }
    Some((Cropped { files: view, shift }, moved))
}

/// Renders diagnostics as the human-readable report (no colour: stable for snapshots).
/// At most `MAX_PER_FILE` diagnostics per file are shown; a last line counts the rest.
pub fn to_text(sources: &Sources, diags: &[Diagnostic], color: bool) -> String {
    let config = term::Config::default();
    let mut out: Vec<u8> = Vec::new();
    {
        let mut writer: Box<dyn termcolor::WriteColor> = if color {
            Box::new(termcolor::Ansi::new(&mut out))
        } else {
            Box::new(termcolor::NoColor::new(&mut out))
        };
        let mut shown: std::collections::BTreeMap<FileId, (usize, usize)> = Default::default();
        for d in diags {
            let (count, hidden) = shown.entry(d.primary.span.file).or_default();
            if *count == MAX_PER_FILE {
                *hidden += 1;
                continue;
            }
            *count += 1;
            let d = one_line(sources, d);
            // A render failure means a span is outside its file: a bug, but never a panic.
            let done = match cropped(sources, &d) {
                Some((view, d)) => term::emit(&mut writer, &config, &view, &to_codespan(&d)),
                None => term::emit(&mut writer, &config, sources, &to_codespan(&d)),
            };
            if done.is_err() {
                let _ = writeln!(
                    writer,
                    "{}[{}]: {}",
                    sev_word(d.severity),
                    d.code.id,
                    escape::line(&d.message)
                );
            }
        }
        for (file, (_, hidden)) in shown.into_iter().filter(|(_, (_, h))| *h > 0) {
            let _ = writeln!(
                writer,
                "... and {hidden} more in `{}` (`--format json` lists every diagnostic)\n",
                escape::line(&sources.get(file).name)
            );
        }
    }
    // Valid already (codespan writes our strings): checked, not copied.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

use std::io::Write as _;

fn sev_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonDiag<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    code: &'a str,
    name: &'a str,
    severity: Severity,
    message: &'a str,
    label: &'a str,
    help: Option<&'a str>,
    notes: &'a [String],
    related: Vec<JsonLabel<'a>>,
}

fn json_label<'a>(sources: &'a Sources, l: &'a super::Label) -> JsonLabel<'a> {
    let file = sources.get(l.span.file);
    let (line, column) = file.line_col(l.span.start as usize);
    let (end_line, end_column) = file.line_col(l.span.end as usize);
    JsonLabel {
        file: &file.name,
        line,
        column,
        end_line,
        end_column,
        message: &l.message,
    }
}

/// Renders diagnostics as a JSON document `{"diagnostics": [...], "errors": n, "warnings": n}`.
pub fn to_json(sources: &Sources, diags: &[Diagnostic]) -> String {
    serde_json::to_string_pretty(&to_value(sources, diags)).unwrap_or_default()
}

/// The document of [`to_json`] as a value (`plan --format json` embeds it).
pub(crate) fn to_value(sources: &Sources, diags: &[Diagnostic]) -> serde_json::Value {
    let items: Vec<JsonDiag> = diags
        .iter()
        .map(|d| {
            let p = json_label(sources, &d.primary);
            JsonDiag {
                file: p.file,
                line: p.line,
                column: p.column,
                end_line: p.end_line,
                end_column: p.end_column,
                code: d.code.id,
                name: d.code.name,
                severity: d.severity,
                message: &d.message,
                label: &d.primary.message,
                help: d.help.as_deref(),
                notes: &d.notes,
                related: d.secondary.iter().map(|l| json_label(sources, l)).collect(),
            }
        })
        .collect();
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    serde_json::json!({ "diagnostics": items, "errors": errors, "warnings": warnings })
}

/// `file:line:col` of a diagnostic's primary label.
pub(crate) fn location(sources: &Sources, d: &Diagnostic) -> String {
    let l = json_label(sources, &d.primary);
    format!("{}:{}:{}", l.file, l.line, l.column)
}
