//! Diagnostics inside a result file: JSON read with its error's place, and a value's
//! place found by its key (serde_json's values carry no spans; a key's first
//! occurrence is close enough to point a planner at the right line).

use crate::diag::{Diagnostic, codes};
use crate::source::{FileId, SourceFile, Span};

/// A parser's refusal (boxed: a diagnostic is large, and results are many).
pub(crate) type Bad = Box<Diagnostic>;

/// A result file as the parsers see it.
pub(crate) struct Text<'a> {
    pub(crate) id: FileId,
    pub(crate) file: &'a SourceFile,
}

impl Text<'_> {
    pub(crate) fn text(&self) -> &str {
        &self.file.text
    }

    /// The first `"key"` in the file, or its start.
    pub(crate) fn at_key(&self, key: &str) -> Span {
        let quoted = format!("\"{key}\"");
        match self.text().find(&quoted) {
            Some(i) => Span::new(self.id, i, i + quoted.len()),
            None => Span::new(self.id, 0, 0),
        }
    }

    /// The first occurrence of `what`, or the file's start.
    pub(crate) fn at(&self, what: &str) -> Span {
        match self.text().find(what).filter(|_| !what.is_empty()) {
            Some(i) => Span::new(self.id, i, i + what.len()),
            None => Span::new(self.id, 0, 0),
        }
    }

    pub(crate) fn line(&self, index: usize) -> Span {
        let r = self.file.line_range(index).unwrap_or(0..0);
        let end = r.start + self.text()[r.clone()].trim_end().len();
        Span::new(self.id, r.start, end)
    }

    /// The file's JSON, from its first `{` (fio prints notes before its report when it
    /// lays a file out).
    pub(crate) fn json(&self, what: &str) -> Result<serde_json::Value, Bad> {
        let text = self.text();
        let start = text.find('{').unwrap_or(0);
        serde_json::from_str(&text[start..]).map_err(|e| {
            let line = e.line() + text[..start].matches('\n').count();
            let col = if e.line() == 1 {
                e.column() + text[..start].rsplit('\n').next().map_or(0, |l| l.chars().count())
            } else {
                e.column()
            };
            let at = self.file.offset_of(line, col.max(1));
            let end = (at + 1).min(text.len());
            let d = Diagnostic::new(
                codes::RESULT_SYNTAX,
                Span::new(self.id, at, end),
                format!("not {what}: {e}"),
            )
            .label("reading stopped here")
            .help(format!(
                "give the file as {what} wrote it, whole; a report cut short by a stopped test cannot be read"
            ));
            Box::new(d)
        })
    }

    /// A content error at `span`.
    pub(crate) fn bad(&self, span: Span, message: impl Into<String>, help: &str) -> Bad {
        Box::new(Diagnostic::new(codes::RESULT_CONTENT, span, message).help(help.to_owned()))
    }

    /// Not the tool's format at all: at the file's start.
    pub(crate) fn syntax(&self, message: &str, help: &str) -> Bad {
        Box::new(
            Diagnostic::new(codes::RESULT_SYNTAX, Span::new(self.id, 0, 0), message)
                .help(help.to_owned()),
        )
    }
}

/// A number that is finite and not negative.
pub(crate) fn amount(v: &serde_json::Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite() && *x >= 0.0)
}
