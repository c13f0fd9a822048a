//! YAML: the located tree and the typed decoder that walks it.
pub(crate) mod decode;
pub(crate) mod fast;
pub(crate) mod node;
