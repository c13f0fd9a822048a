//! The located tree from serde-saphyr, which reads all of YAML: syntax errors, duplicate
//! keys, anchors and aliases, budgets. The tree is built as the parser goes, by a
//! `DeserializeSeed` that carries the file and its text: serde gives a `Deserialize`
//! impl no context, and building `Spanned<T>` values first and converting them after
//! took twice the time and memory on a large show.
//!
//! Locations: serde-saphyr hands a value's location to `Spanned<T>` by answering
//! `deserialize_newtype_struct(SPANNED, ..)` with a map of `value`, `referenced` and
//! `defined` (each location a map with a `span` whose `byte_info` is the byte offset and
//! length). [`NodeSeed`] asks the same way and reads those fields by name.
//! `tree_has_the_spans_of_spanned` holds it to `Spanned`'s own reading.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::node::{Key, Kind, Node};
use crate::source::{FileId, Span};

/// The name serde-saphyr's `Spanned<T>` asks for (its `Deserialize` impl).
const SPANNED: &str = "__yaml_spanned";

/// Where the tree's spans come from.
#[derive(Clone, Copy)]
enum Where<'t> {
    /// YAML read by serde-saphyr: each value's location in `text`, file `file`.
    Yaml { file: FileId, text: &'t str },
    /// Data democ converted at build time (no source to point into): every value gets
    /// this span.
    Fixed(Span),
}

/// Parses one YAML document into a located tree.
pub(crate) fn parse_tree(
    text: &str,
    file: FileId,
    options: serde_saphyr::Options,
) -> Result<Node, serde_saphyr::Error> {
    serde_saphyr::with_deserializer_from_str_with_options(text, options, |de| {
        NodeSeed::value(Where::Yaml { file, text }).deserialize(de)
    })
}

/// A tree from JSON democ wrote at build time (its own YAML data, converted by
/// build.rs), every value spanning `span`: that data is not the user's, so a diagnostic
/// about it can only point at where it is named.
pub(crate) fn from_json(json: &str, span: Span) -> Result<Node, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(json);
    let node = NodeSeed::value(Where::Fixed(span)).deserialize(&mut de)?;
    de.end()?;
    Ok(node)
}

/// Builds one value and everything below it; `key`: a mapping key, whose text is kept
/// for null too (`~: x` is the key "~").
#[derive(Clone, Copy)]
struct NodeSeed<'t> {
    at: Where<'t>,
    key: bool,
}

impl<'t> NodeSeed<'t> {
    fn value(at: Where<'t>) -> NodeSeed<'t> {
        NodeSeed { at, key: false }
    }

    /// Whether a value of this kind keeps its text as written.
    fn keeps_text(&self, kind: &Kind) -> bool {
        match kind {
            Kind::Int(_) | Kind::Float(_) | Kind::Bool(_) => true,
            Kind::Null => self.key,
            _ => false,
        }
    }
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = Node;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        match self.at {
            Where::Yaml { .. } => d.deserialize_newtype_struct(SPANNED, LocatedVisitor(self)),
            Where::Fixed(span) => Ok(Node {
                kind: d.deserialize_any(KindVisitor(self.at))?,
                span,
                lexeme: None,
            }),
        }
    }
}

/// A value with its location, as serde-saphyr gives it to `Spanned<T>`.
struct LocatedVisitor<'t>(NodeSeed<'t>);

impl<'de> Visitor<'de> for LocatedVisitor<'_> {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_struct(SPANNED, &["value", "referenced", "defined"], self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let Where::Yaml { file, text } = self.0.at else {
            return Err(serde::de::Error::custom("a location outside YAML"));
        };
        let (mut kind, mut at, mut defined) = (None, None, None);
        while let Some(field) = map.next_key_seed(FieldName)? {
            match field {
                Field::Value => kind = Some(map.next_value_seed(KindSeed(self.0.at))?),
                Field::Referenced => at = map.next_value_seed(LocationSeed)?,
                // Only a number's or a boolean's text is kept (its lexeme), and a null
                // key's.
                Field::Defined => {
                    let at = map.next_value_seed(LocationSeed)?;
                    if kind.as_ref().is_some_and(|k| self.0.keeps_text(k)) {
                        defined = at;
                    }
                }
                // (A location cannot be skipped as IgnoredAny: serde-saphyr hands it out
                // as a struct only.)
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let kind = kind.ok_or_else(|| serde::de::Error::missing_field("value"))?;
        let span = span_of(at, file, text);
        // A plain scalar YAML reads as a number or a boolean keeps its text: where a string
        // is expected (a name, a reference to one) `0x10` is not "16" and `on` not "true".
        let lexeme = defined.and_then(|at| plain_text(span_of(Some(at), file, text), text));
        Ok(Node { kind, span, lexeme })
    }
}

/// A byte offset and length in the text, when the parser knows them.
type At = Option<(usize, usize)>;

/// The span of `at` in `file`, clamped to the text.
fn span_of(at: At, file: FileId, text: &str) -> Span {
    match at {
        Some((offset, len)) => {
            let start = offset.min(text.len());
            Span::new(file, start, (start + len).min(text.len()))
        }
        None => Span::new(file, 0, 0),
    }
}

/// A non-string scalar as written: a plain scalar's text (not quoted, not an alias).
fn plain_text(span: Span, text: &str) -> Option<Box<str>> {
    let t = text.get(span.range())?.trim();
    let plain = !t.is_empty() && !t.starts_with(['"', '\'', '*', '&', '!']);
    plain.then(|| t.into())
}

/// The fields of the maps serde-saphyr hands `Spanned<T>` (a value with its locations,
/// a location, a span) that the tree reads; the others are skipped.
enum Field {
    Value,
    Referenced,
    Defined,
    Span,
    ByteInfo,
    Other,
}

/// Reads a [`Field`].
struct FieldName;

impl<'de> DeserializeSeed<'de> for FieldName {
    type Value = Field;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Field, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldName {
    type Value = Field;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field of a located value")
    }
    fn visit_str<E>(self, v: &str) -> Result<Field, E> {
        Ok(match v {
            "value" => Field::Value,
            "referenced" => Field::Referenced,
            "defined" => Field::Defined,
            "span" => Field::Span,
            "byte_info" => Field::ByteInfo,
            _ => Field::Other,
        })
    }
}

/// A location's byte offset and length (its `span`'s `byte_info`).
struct LocationSeed;

impl<'de> DeserializeSeed<'de> for LocationSeed {
    type Value = At;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<At, D::Error> {
        d.deserialize_struct("Location", &["span"], self)
    }
}

impl<'de> Visitor<'de> for LocationSeed {
    type Value = At;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a location")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<At, A::Error> {
        let mut at = None;
        while let Some(field) = map.next_key_seed(FieldName)? {
            match field {
                Field::Span => at = map.next_value_seed(SpanSeed)?,
                Field::ByteInfo => {
                    let (offset, len) = map.next_value::<(u64, u64)>()?;
                    at = usize::try_from(offset).ok().zip(usize::try_from(len).ok());
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(at)
    }
}

/// A span's `byte_info` (read by [`LocationSeed`]'s fields).
struct SpanSeed;

impl<'de> DeserializeSeed<'de> for SpanSeed {
    type Value = At;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<At, D::Error> {
        d.deserialize_struct("Span", &["byte_info"], LocationSeed)
    }
}

/// A value without its location (children are located again).
struct KindSeed<'t>(Where<'t>);

impl<'de> DeserializeSeed<'de> for KindSeed<'_> {
    type Value = Kind;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Kind, D::Error> {
        d.deserialize_any(KindVisitor(self.0))
    }
}

struct KindVisitor<'t>(Where<'t>);

impl<'de> Visitor<'de> for KindVisitor<'_> {
    type Value = Kind;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Kind, E> {
        Ok(Kind::Null)
    }
    fn visit_none<E>(self) -> Result<Kind, E> {
        Ok(Kind::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Kind, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Kind, E> {
        Ok(Kind::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Kind, E> {
        Ok(Kind::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Kind, E> {
        Ok(i64::try_from(v).map_or(Kind::Float(v as f64), Kind::Int))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Kind, E> {
        Ok(i64::try_from(v).map_or(Kind::Float(v as f64), Kind::Int))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Kind, E> {
        Ok(i64::try_from(v).map_or(Kind::Float(v as f64), Kind::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Kind, E> {
        Ok(Kind::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Kind, E> {
        Ok(Kind::Str(v.into()))
    }
    fn visit_string<E>(self, v: String) -> Result<Kind, E> {
        Ok(Kind::Str(v.into_boxed_str()))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Kind, E> {
        Ok(Kind::Str(String::from_utf8_lossy(v).into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Kind, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(NodeSeed::value(self.0))? {
            items.push(item);
        }
        Ok(Kind::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Kind, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        let key = NodeSeed {
            at: self.0,
            key: true,
        };
        while let Some(key) = map.next_key_seed(key)? {
            let value = map.next_value_seed(NodeSeed::value(self.0))?;
            entries.push((key_of(key), value));
        }
        Ok(Kind::Map(entries))
    }
}

/// A mapping key: its text. A key YAML reads as something other than a string (a number,
/// a boolean, null) is spelt as written: a name is what the planner wrote, so `1.10`
/// stays "1.10", `0x10` is not 16 and a switch named `y` or `on` is not `true` (YAML 1.1
/// booleans).
fn key_of(node: Node) -> Key {
    let name = match node.kind {
        Kind::Str(s) => s,
        _ if node.lexeme.is_some() => node.lexeme.unwrap_or_default(),
        Kind::Int(i) => i.to_string().into(),
        Kind::Float(f) => f.to_string().into(),
        Kind::Bool(b) => b.to_string().into(),
        Kind::Null => "null".into(),
        Kind::Seq(_) | Kind::Map(_) => "<complex key>".into(),
    };
    Key {
        name,
        span: node.span,
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_saphyr::Spanned;

    use super::*;

    /// serde-saphyr's own `Spanned` over the same text.
    enum Raw {
        Seq(Vec<Spanned<Raw>>),
        Map(Vec<Spanned<Raw>>),
        Scalar,
    }

    impl<'de> Deserialize<'de> for Raw {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
            d.deserialize_any(RawVisitor)
        }
    }

    struct RawVisitor;

    impl<'de> Visitor<'de> for RawVisitor {
        type Value = Raw;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any YAML value")
        }
        fn visit_unit<E>(self) -> Result<Raw, E> {
            Ok(Raw::Scalar)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Raw, E> {
            Ok(Raw::Scalar)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Raw, E> {
            Ok(Raw::Scalar)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Raw, E> {
            Ok(Raw::Scalar)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Raw, E> {
            Ok(Raw::Scalar)
        }
        fn visit_str<E>(self, _: &str) -> Result<Raw, E> {
            Ok(Raw::Scalar)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(Raw::Seq(items))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
            let mut values = Vec::new();
            while map.next_key::<IgnoredAny>()?.is_some() {
                values.push(map.next_value()?);
            }
            Ok(Raw::Map(values))
        }
    }

    fn spans(raw: &Spanned<Raw>, out: &mut Vec<(usize, usize)>) {
        let s = raw.referenced.span();
        out.push((
            s.byte_offset().unwrap_or(0) as usize,
            s.byte_len().unwrap_or(0) as usize,
        ));
        match &raw.value {
            Raw::Seq(items) | Raw::Map(items) => items.iter().for_each(|i| spans(i, out)),
            Raw::Scalar => {}
        }
    }

    fn node_spans(n: &Node, out: &mut Vec<(usize, usize)>) {
        out.push((n.span.start as usize, (n.span.end - n.span.start) as usize));
        match &n.kind {
            Kind::Seq(items) => items.iter().for_each(|i| node_spans(i, out)),
            Kind::Map(entries) => entries.iter().for_each(|(_, v)| node_spans(v, out)),
            _ => {}
        }
    }

    /// The tree's spans are the ones `Spanned<T>` reads: the protocol [`NodeSeed`] speaks
    /// is serde-saphyr's.
    #[test]
    fn tree_has_the_spans_of_spanned() {
        let text = "show:\n  name: x\n  list: [1, 2.5, on, 'q']\nsites:\n  - a: 0x10\n  - {b: ~}\n";
        let tree = parse_tree(text, FileId(3), serde_saphyr::Options::default()).expect("parses");
        let raw: Spanned<Raw> = serde_saphyr::from_str(text).expect("parses");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        node_spans(&tree, &mut a);
        spans(&raw, &mut b);
        assert_eq!(a, b);
        assert!(a.iter().filter(|&&(_, len)| len > 0).count() > 8, "{a:?}");
        let Kind::Map(top) = &tree.kind else {
            panic!("a mapping")
        };
        assert_eq!(&*top[1].0.name, "sites");
        assert_eq!(top[1].0.span, Span::new(FileId(3), 42, 47));
        let Kind::Seq(sites) = &top[1].1.kind else {
            panic!("a list")
        };
        let Kind::Map(first) = &sites[0].kind else {
            panic!("a mapping")
        };
        assert!(matches!(first[0].1.kind, Kind::Int(16)));
        assert_eq!(first[0].1.lexeme.as_deref(), Some("0x10"));
    }

    #[test]
    fn json_gives_every_value_one_span() {
        let span = Span::new(FileId(1), 5, 9);
        let n = from_json(r#"{"a": [1, 2.5, "x", null, true], "b": {}}"#, span).expect("JSON");
        let Kind::Map(entries) = &n.kind else {
            panic!("a mapping")
        };
        assert_eq!(entries.len(), 2);
        assert_eq!(&*entries[0].0.name, "a");
        assert!(
            entries
                .iter()
                .all(|(k, v)| k.span == span && v.span == span)
        );
        assert_eq!(n.count(), 10);
    }
}
