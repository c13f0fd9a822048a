//! democ: a declarative demo-network compiler.
//!
//! The pipeline (see ARCHITECTURE.md): parse -> resolve -> derive -> check -> lower ->
//! render -> write. Each pass collects every diagnostic it finds and the pipeline stops
//! at the end of a pass that reported an error. The library never prints.

#![forbid(unsafe_code)]

#[doc(hidden)]
pub mod api;
pub(crate) mod build_dir;
pub(crate) mod catalog;
pub(crate) mod check;
pub mod cli;
pub(crate) mod compile;
pub(crate) mod config_db;
pub(crate) mod csv;
pub(crate) mod derive;
pub mod diag;
pub(crate) mod emit;
pub(crate) mod escape;
pub(crate) mod fxhash;
pub(crate) mod host_tuning;
pub(crate) mod ir;
pub(crate) mod lab;
pub(crate) mod lock;
pub(crate) mod lower;
pub(crate) mod manifest;
pub(crate) mod monitor;
pub(crate) mod nvue;
pub(crate) mod plan;
pub(crate) mod read;
pub(crate) mod render;
pub(crate) mod report;
pub(crate) mod resolve;
pub(crate) mod rulesets;
pub(crate) mod session;
pub mod source;
pub(crate) mod spec;
pub(crate) mod stages;
pub mod synth;
#[cfg(test)]
pub(crate) mod testkit;
pub(crate) mod twin;
pub(crate) mod vendor;
pub(crate) mod verify;
pub(crate) mod write;
pub(crate) mod yaml;

pub use cli::run;

/// Runs `democ check` on spec bytes held in memory and returns the exit code the command
/// would have (0 clean, 1 spec errors, 2 usage or I/O problems), rendering the diagnostics
/// as text and JSON without printing them. For fuzzing and property tests; includes
/// resolve against the working folder.
pub fn check_bytes(bytes: &[u8]) -> i32 {
    let mut s = compile::Session::default();
    let input = compile::Input::Bytes {
        name: "fuzz.yaml",
        bytes,
    };
    // As `democ check` does: lowering finds what a vendor cannot do.
    let opts = compile::Options {
        checks_only: true,
        ..compile::Options::default()
    };
    match compile::lowered(input, &opts, &mut s) {
        Err(_) | Ok(Some(compile::Lowered { lab: Err(_), .. })) => return 2,
        Ok(_) => {}
    }
    s.diags.sort();
    let _ = diag::render::to_text(&s.sources, s.diags.items(), false);
    let _ = diag::render::to_json(&s.sources, s.diags.items());
    i32::from(s.diags.has_errors())
}
