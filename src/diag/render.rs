//! Diagnostics to text (codespan-reporting) and to JSON.

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, termcolor};
use serde::Serialize;

use super::{Diagnostic, Severity};
use crate::source::{FileId, Sources};

impl<'a> Files<'a> for Sources {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        Ok(&self.get(id).name)
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
            .with_message(&d.primary.message),
    ];
    labels.extend(
        d.secondary
            .iter()
            .map(|l| cs::Label::secondary(l.span.file, l.span.range()).with_message(&l.message)),
    );
    let mut notes: Vec<String> = d.help.iter().map(|h| format!("help: {h}")).collect();
    notes.extend(d.notes.iter().map(|n| format!("note: {n}")));
    cs::Diagnostic::new(severity)
        .with_code(d.code.id)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// Source lines longer than this are shown as a window around the labels, so that a
/// diagnostic in a minified or generated file stays readable (and small).
const MAX_LINE: usize = 160;
/// Characters kept before the first label of a cropped line.
const CONTEXT: usize = 40;

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

/// Sources with long lines cropped, for rendering one diagnostic. Line numbers are those
/// of the real files; columns are too (`shift` adds the characters cut off the front).
struct Cropped {
    files: Sources,
    shift: std::collections::BTreeMap<(FileId, usize), usize>,
}

impl<'a> Files<'a> for Cropped {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, files::Error> {
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

/// For a diagnostic with a label on a line longer than `MAX_LINE`, a copy of the sources
/// in which each labelled line is cropped to a window (`…` marks the cut) and the other
/// lines are blank, and the diagnostic with its spans moved into the windows. None when
/// every labelled line is short.
fn cropped(sources: &Sources, d: &Diagnostic) -> Option<(Cropped, Diagnostic)> {
    use std::collections::BTreeMap;
    let labels: Vec<&super::Label> = std::iter::once(&d.primary).chain(&d.secondary).collect();
    // (file, line index) -> (line start, line text, label starts within the line)
    let mut lines: BTreeMap<(FileId, usize), (usize, &str, Vec<usize>)> = BTreeMap::new();
    for l in &labels {
        let file = sources.get(l.span.file);
        let start = (l.span.start as usize).min(file.text.len());
        let line = file.line_col(start).0;
        let ls = file.offset_of(line, 1);
        let le = file.text[ls..]
            .find('\n')
            .map_or(file.text.len(), |i| ls + i);
        let text = file.text[ls..le].trim_end_matches('\r');
        lines
            .entry((l.span.file, line))
            .or_insert((ls, text, Vec::new()))
            .2
            .push(start - ls);
    }
    if lines.values().all(|(_, text, _)| text.len() <= MAX_LINE) {
        return None;
    }
    // Build each file's text line by line; remember where each kept window starts.
    let mut texts: BTreeMap<FileId, String> = BTreeMap::new();
    let mut placed: BTreeMap<(FileId, usize), (usize, usize, usize, usize)> = BTreeMap::new();
    let mut shift = BTreeMap::new();
    for (&(file, line), (_, text, starts)) in &lines {
        let out = texts.entry(file).or_default();
        let have = out.matches('\n').count() + 1;
        out.extend(std::iter::repeat_n('\n', line.saturating_sub(have)));
        let (ws, we) = if text.len() > MAX_LINE {
            window(text, starts)
        } else {
            (0, text.len())
        };
        if ws > 0 {
            out.push('…');
            shift.insert((file, line - 1), text[..ws].chars().count() - 1);
        }
        placed.insert((file, line), (out.len(), ws, we, text.len()));
        out.push_str(&text[ws..we]);
        if we < text.len() {
            out.push('…');
        }
    }
    let mut view = Sources::default();
    for (id, f) in sources.files() {
        view.add(f.name.clone(), texts.remove(&id).unwrap_or_default());
    }
    let mut moved = d.clone();
    for l in std::iter::once(&mut moved.primary).chain(&mut moved.secondary) {
        let file = sources.get(l.span.file);
        let start = (l.span.start as usize).min(file.text.len());
        let line = file.line_col(start).0;
        let Some(&(at, ws, we, _)) = placed.get(&(l.span.file, line)) else {
            continue;
        };
        let ls = file.offset_of(line, 1);
        let s = (start - ls).clamp(ws, we);
        let e = (l.span.end as usize).saturating_sub(ls).clamp(s, we);
        l.span = crate::source::Span::new(l.span.file, at + s - ws, at + e - ws);
    }
    Some((Cropped { files: view, shift }, moved))
}

/// Renders diagnostics as the human-readable report (no colour: stable for snapshots).
pub fn to_text(sources: &Sources, diags: &[Diagnostic], color: bool) -> String {
    let config = term::Config::default();
    let mut out: Vec<u8> = Vec::new();
    {
        let mut writer: Box<dyn termcolor::WriteColor> = if color {
            Box::new(termcolor::Ansi::new(&mut out))
        } else {
            Box::new(termcolor::NoColor::new(&mut out))
        };
        for d in diags {
            // A render failure means a span is outside its file: a bug, but never a panic.
            let done = match cropped(sources, d) {
                Some((view, d)) => term::emit(&mut writer, &config, &view, &to_codespan(&d)),
                None => term::emit(&mut writer, &config, sources, &to_codespan(d)),
            };
            if done.is_err() {
                let _ = writeln!(
                    writer,
                    "{}[{}]: {}",
                    sev_word(d.severity),
                    d.code.id,
                    d.message
                );
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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
    let doc = serde_json::json!({ "diagnostics": items, "errors": errors, "warnings": warnings });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}
