//! Where the planner said each thing: the command line as a source file, so that a bad
//! flag value is reported like a bad spec value, at its place with a caret, a stable code
//! and a help line; an answer typed at a prompt becomes a source of its own.

use std::ffi::OsString;

use crate::diag::{Diagnostic, Diags, codes, render};
use crate::source::{FileId, Sources, Span};

pub(super) struct Said {
    pub(super) sources: Sources,
    pub(super) diags: Diags,
    line: FileId,
    /// Each argument's text and its byte range in the command line.
    args: Vec<(String, usize, usize)>,
}

impl Said {
    pub(super) fn new(argv: &[OsString]) -> Said {
        let mut text = String::new();
        let mut args = Vec::new();
        for (i, a) in argv.iter().enumerate() {
            if !text.is_empty() {
                text.push(' ');
            }
            // The program as the planner calls it, not the path it was found at.
            let a = if i == 0 {
                "democ".to_owned()
            } else {
                a.to_string_lossy().into_owned()
            };
            let start = text.len();
            text.push_str(&a);
            args.push((a, start, text.len()));
        }
        let mut sources = Sources::default();
        let line = sources.add("command line", text);
        Said {
            sources,
            diags: Diags::default(),
            line,
            args,
        }
    }

    /// Where `value` of `--flag` was written (`--flag value` or `--flag=value`); for a
    /// SITE=VALUE form, the whole argument. An answer typed at a prompt (no such
    /// argument) becomes a source named after the question.
    pub(super) fn place(&mut self, flag: &str, value: &str) -> Span {
        let eq = format!("{flag}=");
        for (i, (a, start, end)) in self.args.iter().enumerate() {
            if a == flag && self.args.get(i + 1).is_some_and(|(v, ..)| v == value) {
                let (_, s, e) = &self.args[i + 1];
                return Span::new(self.line, *s, *e);
            }
            if a.strip_prefix(&eq) == Some(value) {
                return Span::new(self.line, start + eq.len(), *end);
            }
        }
        let file = self
            .sources
            .add(format!("your answer for {flag}"), value.to_owned());
        Span::new(file, 0, value.len())
    }

    /// Records a refused value of `--flag`.
    pub(super) fn refuse(&mut self, flag: &str, value: &str, message: String, help: String) {
        let span = self.place(flag, value);
        self.diags.push(
            Diagnostic::new(codes::BAD_ARGUMENT, span, message)
                .label(format!("`{flag}`"))
                .help(help),
        );
    }

    /// The refusals so far as text, and forgets them (a prompt asks again).
    pub(super) fn take_text(&mut self, color: bool) -> Option<String> {
        if !self.diags.has_errors() {
            return None;
        }
        let text = render::to_text(&self.sources, self.diags.items(), color);
        self.diags = Diags::default();
        Some(text)
    }
}
