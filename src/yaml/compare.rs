//! Whether two located trees are the same, spans and number spellings included: the
//! fast path must build exactly what the full path builds (tests, the fuzz target).

use super::fast;
use super::node::{Kind, Node};
use super::tree::parse_tree;
use crate::source::FileId;

/// Reads `text` both ways; Err names the first difference when the fast path accepts
/// a document and builds another tree than the full path, or accepts what it refuses.
pub(crate) fn paths_agree(text: &str) -> Result<(), String> {
    let Some(quick) = fast::parse(text, FileId(0), 64, usize::MAX) else {
        return Ok(());
    };
    let full = parse_tree(text, FileId(0), serde_saphyr::Options::default())
        .map_err(|e| format!("the fast path accepted what serde-saphyr refuses: {e}"))?;
    same(&quick, &full, "")
}

pub(crate) fn same(a: &Node, b: &Node, path: &str) -> Result<(), String> {
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
