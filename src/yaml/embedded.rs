//! democ's own YAML data (catalog/, vendor files, host tuning, lab node kinds), read
//! at compile time: build.rs embeds each file's text and, when the fast reader takes
//! it, its located tree (yaml::packed), so a run rebuilds the tree from bytes instead
//! of reading YAML. These files are read on every run; the general parser was a third
//! of `democ check` on sc16, and the fast reader still a sixth.

use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use super::fast;
use super::node::{Kind, Node};
use crate::source::FileId;

/// One embedded YAML file.
pub(crate) struct File {
    /// Under the repository: `catalog/nics.yaml`, `templates/dell/vendor.yaml`.
    pub(crate) path: &'static str,
    pub(crate) text: &'static str,
    /// The tree build.rs read, or None when the file needs the general parser.
    pub(crate) packed: Option<&'static [u8]>,
    /// The same data as JSON (templates/ only), which [`data`] reads straight into its
    /// type: no tree, no `serde_json::Value` (0.8 M instructions of `democ check` on
    /// sc16 went on that for the vendor files).
    pub(crate) json: Option<&'static str>,
}

/// catalog/*.yaml, then every YAML file under templates/, each sorted by path.
pub(crate) const FILES: &[File] = &include!(concat!(env!("OUT_DIR"), "/embedded_data.rs"));

/// The embedded file at `path`.
pub(crate) fn file(path: &str) -> Option<&'static File> {
    FILES.iter().find(|f| f.path == path)
}

/// The tree of the embedded file at `path`, its spans in `id` (the file's text there),
/// when build.rs read it; None: read the text instead.
pub(crate) fn tree(path: &str, id: FileId) -> Option<Node> {
    super::packed::decode(file(path)?.packed?, id)
}

/// The embedded file at `path` as a `T`: from the JSON build.rs wrote of it, else through
/// the fast reader (a file with no JSON). An error names the file and comes from
/// serde-saphyr, which reads all of YAML, so a mistake in the data is reported as the
/// general parser says.
pub(crate) fn data<T: DeserializeOwned>(path: &str) -> Result<T, String> {
    let f = file(path).ok_or_else(|| format!("{path} is missing"))?;
    if let Some(t) = f.json.and_then(|j| serde_json::from_str(j).ok()) {
        return Ok(t);
    }
    if let Some(t) = quick(f.text) {
        return Ok(t);
    }
    serde_saphyr::from_str(f.text).map_err(|e| format!("{path}: {e}"))
}

/// The fast route alone (None when the text or its shape needs the general parser).
pub(crate) fn quick<T: DeserializeOwned>(text: &str) -> Option<T> {
    typed(fast::parse(text, FileId(0), 64, usize::MAX)?)
}

fn typed<T: DeserializeOwned>(node: Node) -> Option<T> {
    serde_json::from_value(value(node)?).ok()
}

fn value(n: Node) -> Option<Value> {
    Some(match n.kind {
        Kind::Null => Value::Null,
        Kind::Bool(b) => Value::Bool(b),
        Kind::Int(i) => Value::Number(i.into()),
        Kind::Float(f) => Value::Number(Number::from_f64(f)?),
        Kind::Str(s) => Value::String(s.to_string()),
        Kind::Seq(items) => Value::Array(items.into_iter().map(value).collect::<Option<_>>()?),
        Kind::Map(entries) => {
            let mut m = Map::with_capacity(entries.len());
            for (k, v) in entries {
                m.insert(k.name.to_string(), value(v)?);
            }
            Value::Object(m)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every YAML file democ embeds was read at compile time (a file that falls back
    /// is correct but costs the planner's loop milliseconds), and every one is listed:
    /// the catalog and all YAML under templates/.
    #[test]
    fn democs_own_data_is_read_at_compile_time() {
        for f in FILES {
            assert!(
                f.packed.is_some(),
                "{} falls back to the general parser",
                f.path
            );
            assert!(tree(f.path, FileId(1)).is_some(), "{}", f.path);
        }
        for (path, _) in crate::vendor::EMBEDDED {
            if path.ends_with(".yaml") {
                assert!(file(&format!("templates/{path}")).is_some(), "{path}");
            }
        }
        for (path, _) in crate::catalog::EMBEDDED {
            assert!(file(path).is_some(), "{path}");
        }
        assert!(crate::catalog::EMBEDDED.len() >= 8);
    }

    /// The typed vendor and lab data decode through the fast route too (serde_json is
    /// stricter than serde-saphyr about numbers where strings are expected).
    #[test]
    fn typed_data_decodes_through_the_fast_route() {
        use crate::vendor::{LabNodes, VendorFile};
        for (path, text) in crate::vendor::EMBEDDED {
            if path.ends_with("/vendor.yaml") {
                assert!(quick::<VendorFile>(text).is_some(), "templates/{path}");
            } else if *path == "containerlab.yaml" {
                assert!(quick::<LabNodes>(text).is_some(), "templates/{path}");
            }
        }
    }

    /// The JSON build.rs wrote holds the values the tree route reads, every float to
    /// the bit (serde_json parses floats without `float_roundtrip`), and it is written
    /// for every typed data file.
    #[test]
    fn the_json_holds_the_trees_values() {
        use crate::vendor::{LabNodes, VendorFile};
        for f in FILES.iter().filter(|f| f.path.starts_with("templates/")) {
            let json = f.json.unwrap_or_else(|| panic!("{} has no JSON", f.path));
            let from_json: Value = serde_json::from_str(json).expect("JSON parses");
            let tree = f
                .packed
                .and_then(|b| super::super::packed::decode(b, FileId(0)));
            let from_tree = value(tree.expect("packed")).expect("a value");
            assert_eq!(from_json, from_tree, "{}", f.path);
            let shown = |j: &Value| format!("{j:?}");
            assert_eq!(shown(&from_json), shown(&from_tree), "{}", f.path);
            if f.path.ends_with("/vendor.yaml") {
                let a: VendorFile = serde_json::from_str(json).expect("typed");
                let b: VendorFile = serde_json::from_value(from_tree).expect("typed");
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", f.path);
            } else if f.path.ends_with("/containerlab.yaml") {
                let a: LabNodes = serde_json::from_str(json).expect("typed");
                let b: LabNodes = serde_json::from_value(from_tree).expect("typed");
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", f.path);
            }
        }
    }

    /// The fast route reads the same values as serde-saphyr.
    #[test]
    fn both_routes_read_the_same_values() {
        for (path, text) in crate::vendor::EMBEDDED {
            if path.ends_with(".yaml") {
                let quick: Value = quick(text).expect("fast route");
                let full: Value = serde_saphyr::from_str(text).expect("parses");
                assert_eq!(quick, full, "templates/{path}");
            }
        }
    }
}
