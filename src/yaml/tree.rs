//! The located tree from serde-saphyr, which reads all of YAML: syntax errors,
//! duplicate keys, alias budgets, and every document the fast reader refuses.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use super::node::{Key, Kind, Node};
use crate::source::{FileId, Span};

// ---- raw tree as serde-saphyr produces it -------------------------------------------

enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<RawKey>, Spanned<Raw>)>),
}

/// A key's text, and whether YAML read it as something other than a string (a number,
/// a boolean, null), whose spelling is then taken from the source: a name is what the
/// planner wrote, so `1.10` stays "1.10", `0x10` is not 16 and a switch named `y` or
/// `on` is not `true` (YAML 1.1 booleans).
struct RawKey(String, bool);

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Raw, E> {
        Ok(Raw::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(k) = map.next_key::<Spanned<RawKey>>()? {
            let v = map.next_value::<Spanned<Raw>>()?;
            entries.push((k, v));
        }
        Ok(Raw::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

impl<'de> Deserialize<'de> for RawKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawKey, D::Error> {
        let raw = Raw::deserialize(d)?;
        let numeric = matches!(raw, Raw::Int(_) | Raw::Float(_) | Raw::Bool(_) | Raw::Null);
        let name = match raw {
            Raw::Str(s) => s,
            Raw::Int(i) => i.to_string(),
            Raw::Float(f) => f.to_string(),
            Raw::Bool(b) => b.to_string(),
            Raw::Null => "null".to_owned(),
            Raw::Seq(_) | Raw::Map(_) => "<complex key>".to_owned(),
        };
        Ok(RawKey(name, numeric))
    }
}

// ---- conversion to the located tree -------------------------------------------------

/// Converts a saphyr location to a byte span in `file`. `text` is needed because
/// saphyr's offsets for scalars cover the value; for collections we extend the span
/// to the first character so labels point at something visible.
pub(crate) fn span_of(loc: &Location, file: FileId, text: &str) -> Span {
    let s = loc.span();
    match (s.byte_offset(), s.byte_len()) {
        (Some(o), Some(l)) => {
            let start = (o as usize).min(text.len());
            let end = (start + l as usize).min(text.len());
            Span::new(file, start, end)
        }
        _ => Span::new(file, 0, 0),
    }
}

/// A non-string scalar as written: a plain scalar's text (not quoted, not an alias).
fn key_text(loc: &Location, file: FileId, text: &str) -> Option<Box<str>> {
    let s = span_of(loc, file, text);
    let t = text.get(s.range())?.trim();
    let plain = !t.is_empty() && !t.starts_with(['"', '\'', '*', '&', '!']);
    plain.then(|| t.into())
}

fn convert(raw: Spanned<Raw>, file: FileId, text: &str) -> Node {
    let span = span_of(&raw.referenced, file, text);
    // A plain scalar YAML reads as a number or a boolean keeps its text: where a string
    // is expected (a name, a reference to one) `0x10` is not "16" and `on` not "true".
    let lexeme = match raw.value {
        Raw::Int(_) | Raw::Float(_) | Raw::Bool(_) => key_text(&raw.defined, file, text),
        _ => None,
    };
    let kind = match raw.value {
        Raw::Null => Kind::Null,
        Raw::Bool(b) => Kind::Bool(b),
        Raw::Int(i) => Kind::Int(i),
        Raw::Float(f) => Kind::Float(f),
        Raw::Str(s) => Kind::Str(s.into()),
        Raw::Seq(items) => Kind::Seq(items.into_iter().map(|n| convert(n, file, text)).collect()),
        Raw::Map(entries) => Kind::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let numeric = k.value.1.then(|| key_text(&k.defined, file, text));
                    let key = Key {
                        name: numeric.flatten().map_or(k.value.0, String::from).into(),
                        span: span_of(&k.referenced, file, text),
                    };
                    (key, convert(v, file, text))
                })
                .collect(),
        ),
    };
    Node { kind, span, lexeme }
}

/// Parses one YAML document into a located tree.
pub(crate) fn parse_tree(
    text: &str,
    file: FileId,
    options: serde_saphyr::Options,
) -> Result<Node, serde_saphyr::Error> {
    let raw: Spanned<Raw> = serde_saphyr::from_str_with_options(text, options)?;
    Ok(convert(raw, file, text))
}
