//! YAML: the located tree serde-saphyr builds, the typed decoder that walks it, and
//! democ's own YAML data, converted to JSON at build time.
pub(crate) mod decode;
pub(crate) mod embedded;
pub(crate) mod error;
pub(crate) mod node;
pub(crate) mod tree;
