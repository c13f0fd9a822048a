//! The SC16 show compiled into the binary: `democ check` with no argument has a show.

/// Files of examples/sc16, compiled in so `democ check` with no argument has a show to work on.
pub(crate) const EMBEDDED_SC16: &[(&str, &str)] =
    &include!(concat!(env!("OUT_DIR"), "/embedded_sc16.rs"));
pub(crate) const EMBEDDED_SC16_MAIN: &str = "examples/sc16/show.yaml";
