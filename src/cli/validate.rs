//! `democ validate BUILD_DIR [--format text|json] [--batfish-host HOST] [--twin]`: runs
//! every check that applies to a build and says, per validator, passed, failed (with the
//! first lines of why) or skipped (with the reason), then a summary. Exit 1 when any
//! failed, 0 otherwise, 2 when BUILD_DIR is not a build. One module per validator; the
//! checks themselves live where they already did (validators/, crate::twin), except the
//! containerlab one, which is small enough to do here.

mod avd;
mod batfish;
mod clab;
mod outcome;
mod pymod;
mod sonic;
mod twin;

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use outcome::{Outcome, Status};

#[derive(Args, Debug)]
pub(crate) struct ValidateArgs {
    /// A `democ build` output folder.
    build: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// A running Batfish service to ask the questions (default: BATFISH_HOST). Without
    /// one only the offline snapshot is built.
    #[arg(long, value_name = "HOST")]
    batfish_host: Option<String>,
    /// Also bring the twin up, test every flow and take it down (root, Linux, a
    /// `build --hosts` folder).
    #[arg(long)]
    twin: bool,
    /// containerlab's JSON Schema (default: ../shared/schemas/clab.schema.json beside
    /// democ's checkout).
    #[arg(long, value_name = "PATH")]
    clab_schema: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Text,
    Json,
}

pub(crate) fn run(a: &ValidateArgs) -> i32 {
    let build = match crate::build_dir::BuildDir::open(&a.build) {
        Ok(b) if b.has("manifest.json") => b,
        Ok(_) => {
            return super::usage(&format!(
                "{}: no manifest.json; `democ validate` takes a `democ build` output folder",
                a.build.display()
            ));
        }
        Err(e) => return super::usage(&e),
    };
    // An empty BATFISH_HOST is no host: `BATFISH_HOST= democ validate` turns it off.
    let host = a
        .batfish_host
        .clone()
        .or_else(|| std::env::var("BATFISH_HOST").ok())
        .filter(|h| !h.is_empty());
    let py = super::python::python();
    let mut all = vec![
        clab::check(&build, a.clab_schema.as_deref()),
        avd::check(&py, &a.build),
        sonic::check(&py, &a.build),
    ];
    all.extend(batfish::check(&py, &a.build, host.as_deref()));
    all.push(if a.twin {
        twin::check(&a.build)
    } else {
        Outcome::skipped("twin", "not asked (--twin runs it: root, Linux)")
    });
    match a.format {
        Format::Text => crate::cli::stdout::put(&outcome::text(&all)),
        Format::Json => crate::cli::stdout::put(&format!("{}\n", outcome::json(&all))),
    }
    i32::from(all.iter().any(|o| o.status == Status::Failed))
}
