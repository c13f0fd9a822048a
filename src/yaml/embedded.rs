//! democ's own YAML data (catalog/, vendor files, host tuning, lab node kinds), read by
//! serde-saphyr at compile time (build.rs) and embedded as JSON: these files are read on
//! every run, and reading their YAML was most of `democ check` on sc16. The texts stay
//! embedded too (catalog::EMBEDDED, vendor::EMBEDDED): diagnostics and `democ catalog
//! NAME` point into them.

use serde::de::DeserializeOwned;

use super::error::EmbeddedError;

/// One section of an embedded catalog file (`switches:`, `physics:`).
pub(crate) struct Section {
    /// The file's index in catalog::EMBEDDED.
    pub(crate) file: u32,
    pub(crate) name: &'static str,
    /// Its entries by name (a singleton's fields), in the file's order.
    pub(crate) entries: &'static [Entry],
}

/// One entry of a catalog section.
pub(crate) struct Entry {
    pub(crate) name: &'static str,
    /// Where the name is written in the file (byte offsets).
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// The entry's value.
    pub(crate) json: &'static str,
}

/// Every section of catalog/*.yaml, file by file in catalog::EMBEDDED's order.
pub(crate) const CATALOG: &[Section] = &include!(concat!(env!("OUT_DIR"), "/catalog_sections.rs"));

/// Every YAML file under templates/ as JSON, by path under the repository.
const DATA: &[(&str, &str)] = &include!(concat!(env!("OUT_DIR"), "/data_json.rs"));

/// The embedded data file at `path` (`templates/dell/vendor.yaml`) as a `T`.
pub(crate) fn data<T: DeserializeOwned>(path: &str) -> Result<T, EmbeddedError> {
    let (_, json) =
        DATA.iter()
            .find(|(p, _)| *p == path)
            .ok_or_else(|| EmbeddedError::Missing {
                path: path.to_owned(),
            })?;
    serde_json::from_str(json).map_err(|e| EmbeddedError::Shape {
        path: path.to_owned(),
        error: std::sync::Arc::new(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every YAML file under templates/ is converted, and each typed one reads the same
    /// from its JSON as serde-saphyr reads it from the YAML (serde_json is stricter about
    /// numbers where strings are expected, and floats must survive to the bit).
    #[test]
    fn the_json_reads_as_the_yaml() {
        use crate::vendor::{LabNodes, VendorFile};
        fn same<T: DeserializeOwned + std::fmt::Debug>(path: &str, text: &str) {
            let json: T = data(&format!("templates/{path}")).expect("JSON reads");
            let yaml: T = serde_saphyr::from_str(text).expect("YAML reads");
            assert_eq!(format!("{json:?}"), format!("{yaml:?}"), "{path}");
        }
        for (path, text) in crate::vendor::EMBEDDED {
            if !path.ends_with(".yaml") {
                continue;
            }
            assert!(
                DATA.iter().any(|(p, _)| *p == format!("templates/{path}")),
                "{path}"
            );
            let json: serde_json::Value = data(&format!("templates/{path}")).expect("JSON");
            let yaml: serde_json::Value = serde_saphyr::from_str(text).expect("YAML");
            assert_eq!(json, yaml, "{path}");
            if path.ends_with("/vendor.yaml") {
                same::<VendorFile>(path, text);
            } else if *path == "containerlab.yaml" {
                same::<LabNodes>(path, text);
            }
        }
        let files: Vec<u32> = CATALOG.iter().map(|s| s.file).collect();
        assert!(files.is_sorted());
        assert_eq!(
            files.last().map(|&f| f as usize + 1),
            Some(crate::catalog::EMBEDDED.len())
        );
    }
}
