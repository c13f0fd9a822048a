//! democ: a declarative demo-network compiler.
//!
//! The pipeline (see ARCHITECTURE.md): parse -> resolve -> derive -> check -> lower ->
//! render -> write. Each pass collects every diagnostic it finds and the pipeline stops
//! at the end of a pass that reported an error. The library never prints.

pub(crate) mod catalog;
pub(crate) mod check;
pub mod cli;
pub(crate) mod compile;
pub(crate) mod derive;
pub mod diag;
pub(crate) mod emit;
pub(crate) mod ir;
pub(crate) mod lower;
pub(crate) mod manifest;
pub(crate) mod plan;
pub(crate) mod render;
pub(crate) mod resolve;
pub mod source;
pub(crate) mod spec;
pub mod synth;
pub(crate) mod write;
pub(crate) mod yaml;

pub use cli::run;
