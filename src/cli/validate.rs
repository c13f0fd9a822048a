//! `democ validate BUILD_DIR [--format text|json] [--batfish-host HOST] [--twin]
//! [--require-all]`: runs every check that applies to a build and says, per validator,
//! passed, failed (with the first lines of why), not run (it applies, but something it
//! needs is missing here: with the command that fixes it) or skipped (it does not apply,
//! or was not asked for), then a summary. Exit 1 when any failed (or, with
//! `--require-all`, was not run), 0 otherwise, 2 when BUILD_DIR is not a build. One module per validator; the
//! checks themselves live where they already did (validators/, crate::twin), except the
//! containerlab one, which is small enough to do here.

mod avd;
mod batfish;
mod clab;
mod cumulus;
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
    /// containerlab's JSON Schema (default: DEMOC_CLAB_SCHEMA, then democ's data folder,
    /// containerlab's installation, beside democ's checkout; `democ data` shows where).
    #[arg(long, value_name = "PATH")]
    clab_schema: Option<PathBuf>,
    /// Fail (exit 1) when a check that applies could not be run here.
    #[arg(long)]
    require_all: bool,
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
        clab::check(&build, super::locate::clab_schema(a.clab_schema.as_deref())),
        avd::check(&py, &a.build),
        sonic::check(&py, &a.build),
        cumulus::check(&py, &a.build),
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
    exit_code(&all, a.require_all)
}

/// 1 when a check failed, or with `require_all` was not run; else 0.
fn exit_code(all: &[Outcome], require_all: bool) -> i32 {
    i32::from(
        all.iter()
            .any(|o| o.status == Status::Failed || (require_all && o.status == Status::NotRun)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_run_fails_only_when_every_check_is_required() {
        let all = [
            Outcome::passed("a", "fine"),
            Outcome::not_run("b", "no schema", "democ data --fetch"),
            Outcome::skipped("c", "not asked"),
        ];
        assert_eq!(exit_code(&all, false), 0);
        assert_eq!(exit_code(&all, true), 1);
        let text = outcome::text(&all);
        assert!(
            text.contains("b  not run: no schema\n     fix: democ data --fetch\n"),
            "{text}"
        );
        assert!(
            text.ends_with("validate: 1 passed, 0 failed, 1 not run, 1 skipped\n"),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&outcome::json(&all)).unwrap();
        assert_eq!(json["not_run"], 1);
        assert_eq!(json["validators"][1]["status"], "not run");
        assert_eq!(json["validators"][1]["fix"], "democ data --fetch");
        assert!(json["validators"][0].get("fix").is_none());
    }
}
