//! A fast path for the located tree: builds it straight from the YAML parser's events
//! (granit-parser, which serde-saphyr itself runs on) instead of through serde's
//! `Spanned` machinery, which costs most of the time on large shows.
//!
//! It only accepts documents whose every scalar has one obvious reading (plain words,
//! decimal numbers, `true`/`false`, quoted text) and no anchors, aliases, tags, or
//! duplicate keys. Anything else returns `None` and the caller takes the serde-saphyr
//! path, which types every scalar and reports every error exactly as before. A test
//! checks that both paths build identical trees for every YAML file in the repository.

use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, Span as PSpan};

use super::node::{Key, Kind, Node};
use crate::fxhash::FxSet;
use crate::source::{FileId, Span};

enum Frame {
    Seq(Vec<Node>, Span),
    Map(Vec<(Key, Node)>, Option<Key>, Span),
}

fn span(file: FileId, s: &PSpan) -> Option<Span> {
    Some(Span::new(
        file,
        s.start.byte_offset()?,
        s.end.byte_offset()?,
    ))
}

/// The reading of a plain scalar, or None when it is not obvious.
fn plain(text: &str) -> Option<Kind> {
    match text {
        "true" => return Some(Kind::Bool(true)),
        "false" => return Some(Kind::Bool(false)),
        "" | "~" => return None,
        _ => {}
    }
    let bytes = text.as_bytes();
    let digits = |b: &[u8]| !b.is_empty() && b.iter().all(u8::is_ascii_digit);
    let (neg, body) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        _ => (false, bytes),
    };
    // Leading zeros, signs, exponents, hex or octal: let serde-saphyr decide.
    let no_leading_zero = |b: &[u8]| b.len() == 1 || b.first() != Some(&b'0');
    if digits(body) && no_leading_zero(body) {
        return text.parse::<i64>().ok().map(Kind::Int);
    }
    if let Some(dot) = body.iter().position(|&b| b == b'.') {
        let (int, frac) = (&body[..dot], &body[dot + 1..]);
        if digits(int) && no_leading_zero(int) && digits(frac) {
            return text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(Kind::Float);
        }
    }
    let _ = neg;
    // Text no YAML number, boolean or null spelling can be: it holds a character none of
    // them uses (a space, `/`, `(`, `,` ...).
    let numberish =
        |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_' | b':');
    if !bytes.iter().all(numberish) {
        return Some(Kind::Str(text.to_owned()));
    }
    // A word: starts with a letter and is no YAML 1.1 boolean or null spelling.
    let special = matches!(
        text.to_ascii_lowercase().as_str(),
        "yes" | "no" | "on" | "off" | "y" | "n" | "true" | "false" | "null" | "nan" | "inf"
    );
    if bytes[0].is_ascii_alphabetic() {
        return (!special).then(|| Kind::Str(text.to_owned()));
    }
    // Starting with a digit: still a word when no number syntax (decimal, exponent, hex,
    // octal, binary, sexagesimal, underscores) could read it: a letter none of them uses
    // (`100G`, `4x25G`), or several dots.
    let number_chars = |b: &u8| {
        b.is_ascii_hexdigit()
            || matches!(
                b,
                b'+' | b'-' | b'.' | b'_' | b':' | b'x' | b'X' | b'o' | b'O'
            )
    };
    let dots = bytes.iter().filter(|&&b| b == b'.').count();
    let not_a_number = !bytes.iter().all(number_chars) || dots >= 2;
    (bytes[0].is_ascii_digit() && not_a_number && !bytes.contains(&b'_'))
        .then(|| Kind::Str(text.to_owned()))
}

/// Builds the tree, or None when the document needs the full path.
pub(crate) fn parse(text: &str, file: FileId, max_depth: usize, max_nodes: usize) -> Option<Node> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    let mut nodes = 0usize;
    let mut docs = 0;
    for ev in Parser::new_from_str(text) {
        let (ev, sp) = ev.ok()?;
        let node = match ev {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Comment(..) => {
                continue;
            }
            Event::DocumentStart(..) => {
                docs += 1;
                if docs > 1 {
                    return None;
                }
                continue;
            }
            Event::Scalar(value, style, anchor, tag) => {
                if anchor != 0 || tag.is_some() {
                    return None;
                }
                let kind = match style {
                    ScalarStyle::Plain => plain(&value)?,
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                        Kind::Str(value.to_string())
                    }
                    _ => return None,
                };
                let lexeme =
                    matches!(kind, Kind::Int(_) | Kind::Float(_)).then(|| value.as_ref().into());
                Node {
                    kind,
                    span: span(file, &sp)?,
                    lexeme,
                }
            }
            Event::SequenceStart(_, anchor, tag) | Event::MappingStart(_, anchor, tag)
                if anchor != 0 || tag.is_some() =>
            {
                return None;
            }
            Event::SequenceStart(..) => {
                stack.push(Frame::Seq(Vec::new(), span(file, &sp)?));
                if stack.len() > max_depth {
                    return None;
                }
                continue;
            }
            Event::MappingStart(..) => {
                stack.push(Frame::Map(Vec::new(), None, span(file, &sp)?));
                if stack.len() > max_depth {
                    return None;
                }
                continue;
            }
            Event::SequenceEnd => match stack.pop()? {
                Frame::Seq(items, s) => Node {
                    kind: Kind::Seq(items),
                    span: s,
                    lexeme: None,
                },
                Frame::Map(..) => return None,
            },
            Event::MappingEnd => match stack.pop()? {
                Frame::Map(entries, None, s) => {
                    if has_duplicates(&entries) {
                        return None;
                    }
                    Node {
                        kind: Kind::Map(entries),
                        span: s,
                        lexeme: None,
                    }
                }
                _ => return None,
            },
            _ => return None,
        };
        nodes += 1;
        if nodes > max_nodes {
            return None;
        }
        match stack.last_mut() {
            None => root = Some(node),
            Some(Frame::Seq(items, _)) => items.push(node),
            Some(Frame::Map(entries, pending, _)) => match pending.take() {
                None => {
                    let name = match node.kind {
                        Kind::Str(s) => s,
                        Kind::Int(_) | Kind::Float(_) => node.lexeme.as_deref()?.to_owned(),
                        Kind::Bool(b) => b.to_string(),
                        _ => return None,
                    };
                    *pending = Some(Key {
                        name,
                        span: node.span,
                    });
                }
                Some(key) => entries.push((key, node)),
            },
        }
    }
    if !stack.is_empty() {
        return None;
    }
    Some(root.unwrap_or(Node {
        kind: Kind::Null,
        span: Span::new(file, 0, 0),
        lexeme: None,
    }))
}

fn has_duplicates(entries: &[(Key, Node)]) -> bool {
    if entries.len() < 16 {
        return entries
            .iter()
            .enumerate()
            .any(|(i, (k, _))| entries[..i].iter().any(|(j, _)| j.name == k.name));
    }
    let mut seen: FxSet<&str> = FxSet::default();
    entries.iter().any(|(k, _)| !seen.insert(k.name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::node::parse_tree;

    fn same(a: &Node, b: &Node, path: &str) -> Result<(), String> {
        if a.span != b.span || a.lexeme != b.lexeme {
            return Err(format!(
                "{path}: span/lexeme {:?}/{:?} vs {:?}/{:?}",
                a.span, a.lexeme, b.span, b.lexeme
            ));
        }
        match (&a.kind, &b.kind) {
            (Kind::Null, Kind::Null) => Ok(()),
            (Kind::Bool(x), Kind::Bool(y)) if x == y => Ok(()),
            (Kind::Int(x), Kind::Int(y)) if x == y => Ok(()),
            (Kind::Float(x), Kind::Float(y)) if x == y => Ok(()),
            (Kind::Str(x), Kind::Str(y)) if x == y => Ok(()),
            (Kind::Seq(x), Kind::Seq(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .try_for_each(|(i, (p, q))| same(p, q, &format!("{path}[{i}]"))),
            (Kind::Map(x), Kind::Map(y)) if x.len() == y.len() => {
                x.iter().zip(y).try_for_each(|((kp, p), (kq, q))| {
                    if kp.name != kq.name || kp.span != kq.span {
                        return Err(format!(
                            "{path}: key {:?}@{:?} vs {:?}@{:?}",
                            kp.name, kp.span, kq.name, kq.span
                        ));
                    }
                    same(p, q, &format!("{path}.{}", kp.name))
                })
            }
            (x, y) => Err(format!("{path}: {x:?} vs {y:?}")),
        }
    }

    fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                yaml_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                out.push(p);
            }
        }
    }

    /// The fast path builds exactly the tree the serde-saphyr path builds, for every
    /// YAML file in the repository it accepts (and it must accept the examples).
    #[test]
    fn fast_and_full_paths_agree() {
        let mut files = Vec::new();
        for d in [
            "examples",
            "catalog",
            "tests/bad",
            "tests/fixtures",
            "templates",
        ] {
            yaml_files(std::path::Path::new(d), &mut files);
        }
        files.sort();
        assert!(files.len() > 50, "found {}", files.len());
        let mut accepted = 0;
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let Some(fast) = parse(text, FileId(0), 64, usize::MAX) else {
                continue;
            };
            let full = parse_tree(text, FileId(0), serde_saphyr::Options::default())
                .unwrap_or_else(|e| {
                    panic!(
                        "{}: the fast path accepted what serde-saphyr refuses: {e}",
                        f.display()
                    )
                });
            if let Err(e) = same(&fast, &full, "") {
                panic!("{}: {e}", f.display());
            }
            accepted += 1;
        }
        for f in files.iter().filter(|f| f.starts_with("examples")) {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            assert!(
                parse(&text, FileId(0), 64, usize::MAX).is_some(),
                "{} should take the fast path",
                f.display()
            );
        }
        assert!(accepted > 20, "only {accepted} files took the fast path");
    }

    #[test]
    fn ambiguous_scalars_take_the_full_path() {
        for t in [
            "a: yes",
            "a: off",
            "a: 0x10",
            "a: 012",
            "a: 1e3",
            "a: ~",
            "a: null",
            "a: &x 1",
            "a: !!str 1",
            "a: 1\na: 2",
            "a: .inf",
            "a: |\n  x\n",
        ] {
            assert!(parse(t, FileId(0), 64, usize::MAX).is_none(), "{t}");
        }
        assert!(parse("a: [1, -2, 3.5, x, \"y\", true]", FileId(0), 64, usize::MAX).is_some());
    }
}
