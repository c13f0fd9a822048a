//! A located YAML tree: every value with the span of its text. serde-saphyr builds it
//! (yaml::tree); the typed decoding that follows walks it so that *all* type and field
//! errors of a file can be reported in one run, which serde's stop-at-first-error model
//! cannot do.

use crate::source::Span;

/// A YAML value with the span of its text.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    pub(crate) span: Span,
    /// For numbers and booleans: the text as written (`1.0`, `0x10`, `on`), so one read
    /// as a string keeps its spelling (`version: 1.0` is "1.0", not "1"; `site: on` is
    /// "on", not "true").
    pub(crate) lexeme: Option<Box<str>>,
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Box<str>),
    Seq(Vec<Node>),
    Map(Vec<(Key, Node)>),
}

/// A mapping key (always a scalar; non-string scalars keep their text).
#[derive(Debug, Clone)]
pub(crate) struct Key {
    pub(crate) name: Box<str>,
    pub(crate) span: Span,
}

impl Node {
    /// This node and every node below it.
    pub(crate) fn count(&self) -> usize {
        1 + match &self.kind {
            Kind::Seq(items) => items.iter().map(Node::count).sum(),
            Kind::Map(entries) => entries.iter().map(|(_, v)| 1 + v.count()).sum(),
            _ => 0,
        }
    }
}

impl Kind {
    /// What the user wrote, in words, for "expected X, found Y" messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Kind::Null => "nothing (null)",
            Kind::Bool(_) => "a boolean",
            Kind::Int(_) => "an integer",
            Kind::Float(_) => "a decimal number",
            Kind::Str(_) => "a string",
            Kind::Seq(_) => "a list",
            Kind::Map(_) => "a mapping",
        }
    }
}
