//! `democ verify BUILD_DIR RESULTS... [--format text|json|markdown] [--tolerance PCT]`:
//! measured against planned (see `crate::verify`). Exit 0 when every flow reached its
//! prediction within the tolerance, 1 otherwise, 2 on usage or I/O problems, a result
//! file that could not be read among them (each with its located diagnostic).

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::diag::render;

#[derive(Args, Debug)]
pub(crate) struct VerifyArgs {
    /// The `democ build` folder the show runs.
    build: PathBuf,
    /// Result folders (the host scripts' DEMOC_LOG, switch state saved beside them) or
    /// result files.
    #[arg(required = true)]
    results: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// How far below its prediction a flow may fall and still pass, percent.
    #[arg(long, default_value_t = 10.0, value_parser = tolerance)]
    tolerance: f64,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Markdown,
}

pub(crate) fn tolerance(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=100.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not a percentage from 0 to 100"))
    }
}

pub(crate) fn run(a: &VerifyArgs) -> i32 {
    let o = match crate::verify::run(&a.build, &a.results, a.tolerance) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let out = match a.format {
        Format::Text => crate::verify::print::text(&o.report),
        Format::Json => crate::verify::print::json(&o.report),
        Format::Markdown => crate::verify::print::markdown_report(&o.report),
    };
    crate::cli::stdout::put(&out);
    if !o.diags.items().is_empty() {
        let color = std::io::stderr().is_terminal();
        eprint!("{}", render::to_text(&o.sources, o.diags.items(), color));
        return 2;
    }
    if o.report.passed() { 0 } else { 1 }
}
