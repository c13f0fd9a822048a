//! Typed reading of democ's own YAML data (vendor files, host tuning, lab node kinds):
//! through the fast reader when the text is in its subset, else serde-saphyr. These
//! files are read on every run, and the general parser was a third of `democ check`
//! on sc16.

use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use super::fast;
use super::node::{Kind, Node};
use crate::source::FileId;

/// `text` as a `T`; an error names `what` (the file) and comes from serde-saphyr, which
/// reads all of YAML, so a mistake in the data is reported as the general parser says.
pub(crate) fn from_str<T: DeserializeOwned>(what: &str, text: &str) -> Result<T, String> {
    if let Some(t) = quick(text) {
        return Ok(t);
    }
    serde_saphyr::from_str(text).map_err(|e| format!("{what}: {e}"))
}

/// The fast route alone (None when the text or its shape needs the general parser).
pub(crate) fn quick<T: DeserializeOwned>(text: &str) -> Option<T> {
    let node = fast::parse(text, FileId(0), 64, usize::MAX)?;
    serde_json::from_value(value(node)?).ok()
}

fn value(n: Node) -> Option<Value> {
    Some(match n.kind {
        Kind::Null => Value::Null,
        Kind::Bool(b) => Value::Bool(b),
        Kind::Int(i) => Value::Number(i.into()),
        Kind::Float(f) => Value::Number(Number::from_f64(f)?),
        Kind::Str(s) => Value::String(s),
        Kind::Seq(items) => Value::Array(items.into_iter().map(value).collect::<Option<_>>()?),
        Kind::Map(entries) => {
            let mut m = Map::with_capacity(entries.len());
            for (k, v) in entries {
                m.insert(k.name, value(v)?);
            }
            Value::Object(m)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every YAML file under templates/ reads through the fast route (a file that
    /// falls back is correct but costs the planner's loop milliseconds).
    #[test]
    fn democs_own_data_takes_the_fast_route() {
        for (path, text) in crate::lower::vendor::EMBEDDED {
            if path.ends_with(".yaml") {
                assert!(
                    quick::<serde::de::IgnoredAny>(text).is_some(),
                    "templates/{path} falls back to the general parser"
                );
            }
        }
    }

    /// The typed vendor and lab data decode through the fast route too (serde_json is
    /// stricter than serde-saphyr about numbers where strings are expected).
    #[test]
    fn typed_data_decodes_through_the_fast_route() {
        use crate::lower::vendor::{LabNodes, VendorFile};
        for (path, text) in crate::lower::vendor::EMBEDDED {
            if path.ends_with("/vendor.yaml") {
                assert!(quick::<VendorFile>(text).is_some(), "templates/{path}");
            } else if *path == "containerlab.yaml" {
                assert!(quick::<LabNodes>(text).is_some(), "templates/{path}");
            }
        }
    }

    /// The fast route reads the same values as serde-saphyr.
    #[test]
    fn both_routes_read_the_same_values() {
        for (path, text) in crate::lower::vendor::EMBEDDED {
            if path.ends_with(".yaml") {
                let quick: Value = quick(text).expect("fast route");
                let full: Value = serde_saphyr::from_str(text).expect("parses");
                assert_eq!(quick, full, "templates/{path}");
            }
        }
    }
}
