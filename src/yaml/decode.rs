//! Typed decoding of the located tree. Every decoder reports what it finds wrong into
//! the context and keeps going, so one run shows every type, field and value error.

use std::borrow::Cow;

use indexmap::IndexMap;

use super::node::{Key, Kind, Node};
use crate::diag::{Diagnostic, Diags, codes, did_you_mean, suggest};
use crate::source::Span;

/// A value with the span of the text it came from.
#[derive(Clone, Debug)]
pub struct Located<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

impl<T> Located<T> {
    pub(crate) fn new(value: T, span: Span) -> Located<T> {
        Located { value, span }
    }
}

impl<T> std::ops::Deref for Located<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Located<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

/// Decoding context: where diagnostics go.
pub(crate) struct DecodeContext<'a> {
    pub(crate) diags: &'a mut Diags,
}

impl DecodeContext<'_> {
    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub(crate) fn wrong_type(&mut self, node: &Node, expected: &str) {
        let found = node.kind.describe();
        self.error(
            Diagnostic::new(
                codes::WRONG_TYPE,
                node.span,
                format!("expected {expected}, found {found}"),
            )
            .label(format!("this is {found}"))
            .help(format!("write {expected} here")),
        );
    }

    pub(crate) fn invalid(
        &mut self,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.error(
            Diagnostic::new(codes::INVALID_VALUE, span, message)
                .label("not allowed here")
                .help(help),
        );
    }

    /// Opens a mapping for field-by-field decoding.
    pub(crate) fn fields<'n>(&mut self, node: &'n Node, what: &'static str) -> Option<Fields<'n>> {
        match &node.kind {
            Kind::Map(entries) => Some(Fields {
                span: node.span,
                entries,
                used: vec![false; entries.len()],
                lengths: key_lengths(entries),
                known: Vec::new(),
                missing: Vec::new(),
                what,
            }),
            _ => {
                self.wrong_type(node, &format!("a mapping ({what})"));
                None
            }
        }
    }
}

/// Something that can be read from a located node.
pub(crate) trait Decode: Sized {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Self>;
}

/// The fields of one mapping being decoded. Keys never asked for are unknown fields.
pub(crate) struct Fields<'n> {
    span: Span,
    entries: &'n [(Key, Node)],
    /// Which entries a decoder took.
    used: Vec<bool>,
    /// A bit for each key length present (the last bit for 63 and more), so that a field
    /// absent from the mapping is, most of the time, known absent without a scan: a
    /// decoder asks for every field it has, and most are absent.
    lengths: u64,
    /// The field names asked for, in order (for "did you mean" on an unknown key).
    known: Vec<&'static str>,
    /// Required fields found absent; reported by `finish`, unless an unknown key there
    /// is a misspelling of one (then that key's diagnostic says so, once).
    missing: Vec<&'static str>,
    what: &'static str,
}

impl<'n> Fields<'n> {
    fn take(&mut self, name: &'static str) -> Option<&'n Node> {
        self.known.push(name);
        if self.lengths & length_bit(name.len()) == 0 {
            return None;
        }
        let i = self
            .entries
            .iter()
            .position(|(k, _)| same_name(&k.name, name))?;
        self.used[i] = true;
        Some(&self.entries[i].1)
    }

    /// Where the value of field `name` is written (the mapping, when it is absent).
    pub(crate) fn span_of(&self, name: &str) -> Span {
        self.entries
            .iter()
            .find(|(k, _)| &*k.name == name)
            .map_or(self.span, |(_, v)| v.span)
    }

    /// A required field: `finish` reports it missing.
    pub(crate) fn req<T: Decode>(
        &mut self,
        cx: &mut DecodeContext,
        name: &'static str,
    ) -> Option<T> {
        match self.take(name) {
            Some(node) => T::decode(node, cx),
            None => {
                self.missing.push(name);
                None
            }
        }
    }

    /// An optional field; `null` counts as absent.
    pub(crate) fn opt<T: Decode>(
        &mut self,
        cx: &mut DecodeContext,
        name: &'static str,
    ) -> Option<T> {
        match self.take(name) {
            Some(node) if matches!(node.kind, Kind::Null) => None,
            Some(node) => T::decode(node, cx),
            None => None,
        }
    }

    /// Reports every key that no decoder asked for, and the required fields absent. A
    /// misspelt required field (`modle:` for `model:`) is one diagnostic, not two.
    pub(crate) fn finish(self, cx: &mut DecodeContext) {
        let mut missing = self.missing;
        for (i, (key, _)) in self.entries.iter().enumerate() {
            if self.used[i] {
                continue;
            }
            let closest = did_you_mean(&key.name, self.known.iter().copied());
            let (label, hint) = match closest {
                Some(c) if missing.contains(&c) => {
                    missing.retain(|m| *m != c);
                    (
                        "not a field; the required `".to_owned() + c + "` is missing",
                        format!("did you mean `{c}`?"),
                    )
                }
                _ => (
                    "not a field of this mapping".to_owned(),
                    suggest(&key.name, self.known.iter().copied()),
                ),
            };
            cx.error(
                Diagnostic::new(
                    codes::UNKNOWN_FIELD,
                    key.span,
                    format!("unknown field `{}` in {}", key.name, self.what),
                )
                .label(label)
                .help(hint),
            );
        }
        let what = self.what;
        for name in missing {
            cx.error(
                Diagnostic::new(
                    codes::MISSING_FIELD,
                    self.span,
                    format!("{what} is missing `{name}`"),
                )
                .label(format!("`{name}` is required here"))
                .help(format!("add `{name}: ...` to this {what}")),
            );
        }
    }
}

/// `key == name`, its first byte compared before the call to compare the rest: keys
/// of one length (`name`, `from`, `rate`) mostly differ there.
fn same_name(key: &str, name: &str) -> bool {
    key.len() == name.len() && key.as_bytes().first() == name.as_bytes().first() && key == name
}

fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

fn key_lengths(entries: &[(Key, Node)]) -> u64 {
    entries
        .iter()
        .fold(0, |bits, (k, _)| bits | length_bit(k.name.len()))
}

// ---- scalars ---------------------------------------------------------------------

impl Decode for String {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<String> {
        text(node, cx).map(Cow::into_owned)
    }
}

/// A string value as [`String`] decodes it, borrowed from the tree where it can be: for
/// decoders that only read the text (names, patterns, keywords, rates), so that the
/// text is not copied only to be parsed and dropped.
pub(crate) fn text<'n>(node: &'n Node, cx: &mut DecodeContext) -> Option<Cow<'n, str>> {
    match &node.kind {
        Kind::Str(s) => Some(Cow::Borrowed(s)),
        // Port names like `1` and versions like 1.3 are text to us even when YAML
        // reads them as numbers.
        Kind::Int(i) => Some(
            node.lexeme
                .as_deref()
                .map_or_else(|| Cow::Owned(i.to_string()), Cow::Borrowed),
        ),
        Kind::Float(f) => Some(
            node.lexeme
                .as_deref()
                .map_or_else(|| Cow::Owned(f.to_string()), Cow::Borrowed),
        ),
        // A name YAML 1.1 reads as a boolean (`y`, `on`, `no`) is the name as written.
        Kind::Bool(_) if node.lexeme.is_some() => node.lexeme.as_deref().map(Cow::Borrowed),
        _ => {
            cx.wrong_type(node, "a string");
            None
        }
    }
}

impl Decode for bool {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<bool> {
        match node.kind {
            Kind::Bool(b) => Some(b),
            _ => {
                cx.wrong_type(node, "`true` or `false`");
                None
            }
        }
    }
}

impl Decode for f64 {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<f64> {
        match node.kind {
            Kind::Int(i) => Some(i as f64),
            Kind::Float(f) if f.is_finite() => Some(f),
            Kind::Float(_) => {
                cx.invalid(
                    node.span,
                    "the number is too large or not a number",
                    "write an ordinary number; `.inf` and `.nan` are not allowed",
                );
                None
            }
            _ => {
                cx.wrong_type(node, "a number");
                None
            }
        }
    }
}

macro_rules! int_decode {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            fn decode(node: &Node, cx: &mut DecodeContext) -> Option<$t> {
                match node.kind {
                    Kind::Int(i) => match <$t>::try_from(i) {
                        Ok(v) => Some(v),
                        Err(_) => {
                            cx.invalid(
                                node.span,
                                format!("{i} is out of range"),
                                format!("use a whole number from {} to {}", <$t>::MIN, <$t>::MAX),
                            );
                            None
                        }
                    },
                    // `2.0` is a whole number; beyond i64 YAML gives a float.
                    Kind::Float(f) if f.fract() == 0.0 && f >= <$t>::MIN as f64 && f <= <$t>::MAX as f64 => {
                        Some(f as $t)
                    }
                    Kind::Float(f) if f.fract() == 0.0 || !f.is_finite() => {
                        cx.invalid(
                            node.span,
                            "the number is out of range",
                            format!("use a whole number from {} to {}", <$t>::MIN, <$t>::MAX),
                        );
                        None
                    }
                    _ => {
                        cx.wrong_type(node, "a whole number");
                        None
                    }
                }
            }
        }
    )*};
}
int_decode!(u8, u16, u32, u64, i64);

impl<T: Decode> Decode for Located<T> {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Located<T>> {
        T::decode(node, cx).map(|v| Located::new(v, node.span))
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Vec<T>> {
        match &node.kind {
            Kind::Seq(items) => decode_items(items, cx, items.len()),
            _ => {
                cx.wrong_type(node, "a list");
                None
            }
        }
    }
}

/// Every item decoded (each reports its errors); the list only when all of them decode.
/// Kept straight in the list: a list of Options collected into one of values moved each
/// item twice more (a tenth of decoding the flows of a large show). `room`: the list's
/// capacity to start with.
fn decode_items<T: Decode>(items: &[Node], cx: &mut DecodeContext, room: usize) -> Option<Vec<T>> {
    let mut out = Vec::with_capacity(room);
    let mut ok = true;
    for n in items {
        match T::decode(n, cx) {
            Some(t) if ok => out.push(t),
            Some(_) => {}
            None => ok = false,
        }
    }
    ok.then_some(out)
}

impl<T: Decode> Decode for Box<T> {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Box<T>> {
        T::decode(node, cx).map(Box::new)
    }
}

/// A mapping from names to entries, in the order written (`switches:`, `hosts:` ...).
/// Keys keep their spans so duplicate-name and unknown-reference errors can point at them.
#[derive(Clone, Debug)]
pub struct Named<T> {
    pub(crate) entries: Vec<(Located<String>, T)>,
}

impl<T> Default for Named<T> {
    fn default() -> Self {
        Named {
            entries: Vec::new(),
        }
    }
}

impl<T> Named<T> {
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Located<String>, &T)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<T: Decode> Decode for Named<T> {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Named<T>> {
        match &node.kind {
            Kind::Map(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                let mut ok = true;
                for (k, v) in entries {
                    match T::decode(v, cx) {
                        Some(t) => out.push((Located::new(k.name.to_string(), k.span), t)),
                        None => ok = false,
                    }
                }
                // Keep what decoded so later passes still see the rest; the error is recorded.
                let _ = ok;
                Some(Named { entries: out })
            }
            Kind::Null => Some(Named::default()),
            _ => {
                cx.wrong_type(node, "a mapping of names to entries");
                None
            }
        }
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Named<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Named_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let inner = generator.subschema_for::<T>();
        schemars::json_schema!({
            "type": "object",
            "propertyNames": { "$ref": "#/$defs/Name" },
            "additionalProperties": inner,
        })
    }
}

/// Map with string keys, for small keyed sections like switch port overrides.
impl<T: Decode> Decode for IndexMap<String, Located<T>> {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Self> {
        let named = Named::<T>::decode(node, cx)?;
        Some(
            named
                .entries
                .into_iter()
                .map(|(k, v)| (k.value, Located::new(v, k.span)))
                .collect(),
        )
    }
}

/// Keyword enums: `kind: booth`.
pub(crate) fn keyword<T: Copy>(
    node: &Node,
    cx: &mut DecodeContext,
    what: &str,
    table: &[(&'static str, T)],
) -> Option<T> {
    // YAML 1.1 readers (and ours) turn a bare `off`/`on`/`no`/`yes` into a boolean; where
    // the keyword table holds that word, take the planner's meaning.
    if let Kind::Bool(b) = node.kind {
        let words: &[&str] = if b {
            &["on", "true", "yes"]
        } else {
            &["off", "false", "no"]
        };
        if let Some((_, v)) = table.iter().find(|(k, _)| words.contains(k)) {
            return Some(*v);
        }
    }
    let text = text(node, cx)?;
    if let Some((_, v)) = table.iter().find(|(k, _)| *k == text) {
        return Some(*v);
    }
    let names: Vec<&str> = table.iter().map(|(k, _)| *k).collect();
    cx.invalid(
        node.span,
        format!("`{text}` is not a valid {what}"),
        suggest(&text, names.iter().copied()),
    );
    None
}

/// Implements Decode and JsonSchema for a keyword enum from its table.
macro_rules! keyword_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident ($what:literal) { $($(#[$vmeta:meta])* $variant:ident = $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        $vis enum $name { $($(#[$vmeta])* #[serde(rename = $text)] $variant),* }
        impl $name {
            pub(crate) const TABLE: &'static [(&'static str, $name)] = &[$(($text, $name::$variant)),*];
            #[allow(dead_code)]
            pub(crate) fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }
        }
        impl $crate::yaml::decode::Decode for $name {
            fn decode(node: &$crate::yaml::node::Node, cx: &mut $crate::yaml::decode::DecodeContext) -> Option<$name> {
                $crate::yaml::decode::keyword(node, cx, $what, $name::TABLE)
            }
        }
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> { stringify!($name).into() }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "enum": [$($text),*] })
            }
        }
    };
}
pub(crate) use keyword_enum;
