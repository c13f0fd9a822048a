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
        Ok(self.get(id).line_col(byte_index).0 - 1)
    }
    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, files::Error> {
        let file = self.get(id);
        let start = file.offset_of(line_index + 1, 1);
        let next = file.offset_of(line_index + 2, 1);
        if start > file.text.len() {
            return Err(files::Error::LineTooLarge {
                given: line_index,
                max: 0,
            });
        }
        Ok(start..next.max(start))
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
            if term::emit(&mut writer, &config, sources, &to_codespan(d)).is_err() {
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
