//! YAML: the located tree and the typed decoder that walks it.
pub(crate) mod asked;
pub(crate) mod compare;
pub(crate) mod decode;
pub(crate) mod embedded;
pub(crate) mod fast;
pub(crate) mod halves;
pub(crate) mod node;
pub(crate) mod packed;
pub(crate) mod scalar;
pub(crate) mod text;
pub(crate) mod tree;
