//! One shape for every problem democ reports, and the sink passes collect them into.
//! The library never prints: rendering lives in `render`.

pub(crate) mod codes;
pub(crate) mod render;

use crate::source::Span;
pub(crate) use codes::Code;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A message attached to a span.
#[derive(Clone, Debug)]
pub struct Label {
    pub(crate) span: Span,
    pub(crate) message: String,
}

/// A located finding: severity, stable code, message, labels and what to change.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub(crate) severity: Severity,
    pub(crate) code: Code,
    pub(crate) message: String,
    pub(crate) primary: Label,
    pub(crate) secondary: Vec<Label>,
    pub(crate) help: Option<String>,
    pub(crate) notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic with the severity the code carries by default.
    pub(crate) fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: code.severity(),
            code,
            message: bounded(message.into()),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            help: None,
            notes: Vec::new(),
        }
    }

    /// Text under the primary caret.
    pub(crate) fn label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = bounded(message.into());
        self
    }

    /// The other side of a conflict.
    pub(crate) fn also(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: bounded(message.into()),
        });
        self
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(bounded(help.into()));
        self
    }

    pub(crate) fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(bounded(note.into()));
        self
    }

    pub(crate) fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
}

/// Collects the diagnostics of a pass; a pass stops the pipeline only at its end.
#[derive(Debug, Default)]
pub struct Diags {
    items: Vec<Diagnostic>,
}

impl Diags {
    pub(crate) fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    pub(crate) fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    pub(crate) fn count(&self, severity: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == severity).count()
    }

    pub(crate) fn items(&self) -> &[Diagnostic] {
        &self.items
    }

    pub(crate) fn items_mut(&mut self) -> &mut [Diagnostic] {
        &mut self.items
    }

    /// Stable order for output: by file, position, then code; the same finding at the
    /// same place (hosts declared as one range share their spans) is reported once.
    pub(crate) fn sort(&mut self) {
        // Which to keep, found with borrowed keys (no message copied), then kept.
        let keep: Vec<bool> = {
            let mut seen = crate::fxhash::FxSet::default();
            self.items
                .iter()
                .map(|d| {
                    seen.insert((
                        d.code.id,
                        d.primary.span,
                        d.secondary.iter().map(|l| l.span).collect::<Vec<_>>(),
                        d.primary.message.as_str(),
                    ))
                })
                .collect()
        };
        let mut keep = keep.into_iter();
        self.items.retain(|_| keep.next().unwrap_or(true));
        self.items.sort_by(|a, b| {
            (
                a.primary.span.file,
                a.primary.span.start,
                a.code.id,
                &a.message,
            )
                .cmp(&(
                    b.primary.span.file,
                    b.primary.span.start,
                    b.code.id,
                    &b.message,
                ))
        });
    }

    /// `--deny warnings`: warnings count as errors.
    /// Takes every diagnostic of `other`, after these.
    pub(crate) fn append(&mut self, other: Diags) {
        self.items.extend(other.items);
    }

    pub(crate) fn deny_warnings(&mut self) {
        for d in &mut self.items {
            if d.severity == Severity::Warning {
                d.severity = Severity::Error;
            }
        }
    }
}

/// The closest candidate to `name`, for "did you mean" hints. A candidate that starts
/// with what was written (`dell-z9100` for `dell-z9100-on`) wins over one that merely
/// looks alike (`dell-z9000`): a truncated name is the likelier mistake.
pub(crate) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut best: Option<(f64, &str)> = None;
    let mut prefixed: Option<&str> = None;
    for c in candidates {
        if name.len() >= 4
            && c.len() > name.len()
            && c.starts_with(name)
            && prefixed.is_none_or(|p| (c.len(), c) < (p.len(), p))
        {
            prefixed = Some(c);
        }
        let score = strsim::jaro_winkler(name, c);
        if score > 0.8 && best.is_none_or(|(s, b)| score > s || (score == s && c < b)) {
            best = Some((score, c));
        }
    }
    prefixed.or(best.map(|(_, c)| c))
}

/// "did you mean `x`?" or a list of what is allowed, for help lines.
pub(crate) fn suggest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> String {
    match did_you_mean(name, candidates.clone()) {
        Some(c) => format!("did you mean `{c}`?"),
        None => {
            let mut all: Vec<&str> = candidates.into_iter().collect();
            all.sort_unstable();
            all.dedup();
            if all.is_empty() {
                "there is nothing of that kind declared".to_owned()
            } else if all.len() <= 8 {
                format!("expected one of {}", list(&all))
            } else {
                format!(
                    "expected one of {}, ... ({} in all)",
                    list(&all[..8]),
                    all.len()
                )
            }
        }
    }
}

/// `a`, `b` and `c`
pub(crate) fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        n => format!("{} or {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

/// "1 error", "2 errors", "2 switches"
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else if word.ends_with("ch") || word.ends_with('s') || word.ends_with('x') {
        format!("{n} {word}es")
    } else {
        format!("{n} {word}s")
    }
}

/// The most characters a diagnostic's message, label, help or note holds: they quote
/// what the user wrote, and a 100 KB value must not come back as a 100 KB message.
const TEXT_MAX: usize = 1000;

/// `text` cut to [`TEXT_MAX`] characters, with `…` where it was cut.
fn bounded(mut text: String) -> String {
    if let Some((at, _)) = text.char_indices().nth(TEXT_MAX) {
        text.truncate(at);
        text.push('…');
    }
    text
}
