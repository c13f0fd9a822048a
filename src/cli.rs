//! Command line: parses arguments, runs the pipeline, renders, picks the exit code
//! (0 clean, 1 spec errors, 2 usage or I/O problems).

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::compile::{self, Input, Options, Session};
use crate::diag::{Severity, codes, plural, render};

mod built;
mod data;
mod diff;
mod init;
mod lab;
pub(crate) mod locate;
mod out;
mod push;
mod python;
pub(crate) mod stdout;
mod twin;
mod validate;
pub(crate) mod verify;

#[derive(Parser, Debug)]
#[command(
    name = "democ",
    version,
    about = "Declarative demo-network compiler: one YAML show spec to checked, vendor-ready configs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Only the subcommand given has its arguments built: the planner's `check` no longer
// builds every other subcommand's (83 of `check`'s page faults on sc16 were before it
// read a byte). Help, usage and errors read the same.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    /// Write a first show spec (`show.yaml`) from a few flags, or from questions on a
    /// terminal: sites, switches by catalog model, DTNs by chassis and NIC, the WAN, flows.
    /// It is checked before it is written.
    Init(init::InitArgs),
    /// Check a spec: syntax, references, ports, addressing, feasibility.
    Check(Common),
    /// Predict what every flow will reach and why; show link utilization (also for a
    /// show with feasibility errors: infeasible flows are shown with their limits).
    Plan(PlanArgs),
    /// Write every switch's IR (structured config) as one JSON document.
    Ir(out::IrArgs),
    /// Build every switch config, its IR and a manifest into a folder.
    Build(out::BuildArgs),
    /// Write the show report (`index.html`: topology, flows, links, optics, DTNs,
    /// cabling, findings) into a folder.
    Report(out::ReportArgs),
    /// Run the built show here: namespaces, Open vSwitch, FRR; test every flow.
    #[command(subcommand)]
    Twin(twin::TwinCmd),
    /// Deploy the build's containerlab lab here (Docker, containerlab, root) and test
    /// every flow through its containers with the twin's matrix.
    #[command(subcommand)]
    Lab(lab::LabCmd),
    /// What changed between two builds: per device, each file added, removed or
    /// changed, unified diffs of configs, rulesets and scripts, and the flow pairs whose
    /// path, RTT or MTU moved (exit 0 no change, 1 changes, 2 trouble).
    Diff(diff::DiffArgs),
    /// Take a build's configs to the switches through the NAPALM shim (validators/push):
    /// a dry run printing each device's diff unless `--commit`, which commits with a
    /// confirm timer, checks the device (facts, LLDP against the cabling) and confirms or
    /// rolls back. Credentials from DEMOC_PUSH_USER / DEMOC_PUSH_PASSWORD or a netrc, never
    /// arguments (exit 0 all ok, 1 a device failed, 2 trouble).
    Push(push::PushArgs),
    /// Run every check that applies to a build: containerlab's schema and references,
    /// the pyavd cross-check, the Batfish snapshot (and its questions with
    /// `--batfish-host` or BATFISH_HOST), the twin with `--twin`; each passed, failed or
    /// skipped with the reason (exit 0 none failed, 1 one failed, 2 not a build).
    Validate(validate::ValidateArgs),
    /// What the show measured against what the build planned: per flow, the rate its
    /// pairs reached (the host scripts' result files) against the prediction, with the
    /// likely causes of a shortfall; per link, counters against the predicted load; per
    /// optic, receive power against its floor; LLDP against the cabling (exit 0 every flow
    /// within tolerance, 1 otherwise, 2 trouble).
    Verify(verify::VerifyArgs),
    /// Where democ finds what it does not carry (containerlab's schema, the validators'
    /// Python), in search order, and which it uses; `--fetch` puts containerlab's schema
    /// into democ's data folder.
    Data(data::DataArgs),
    /// Write a synthetic show spec (benchmarks, scale tests).
    Synth {
        #[arg(long, value_enum, default_value_t = crate::synth::Shape::Ring)]
        shape: crate::synth::Shape,
        /// Number of switches.
        #[arg(long, default_value_t = 4)]
        switches: usize,
        /// DTNs per switch (at most 24).
        #[arg(long, default_value_t = 2)]
        hosts_per_switch: usize,
        /// Number of flows between random DTN pairs.
        #[arg(long, default_value_t = 8)]
        flows: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Arista EOS only (the netlab comparison).
        #[arg(long)]
        eos_only: bool,
    },
    /// Explain a diagnostic code (`E0101` or `unknown-reference`); without one, list
    /// every code.
    Explain { code: Option<String> },
    /// Print the JSON Schema of spec files.
    Schema,
    /// List the hardware catalog; with a NAME, show that entry in full (every figure
    /// and its source, as the catalog file writes it).
    Catalog {
        /// A model, NIC, CPU, chassis, drive, optic or cable name.
        name: Option<String>,
        /// Extra catalog folder.
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
}

#[derive(Args, Debug)]
struct Common {
    /// The show's main YAML file (default: the embedded examples/sc16 show).
    spec: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Extra catalog folder (YAML files with catalog sections).
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Treat warnings as errors: `--deny warnings`.
    #[arg(long, value_name = "warnings")]
    deny: Option<Deny>,
    /// Colour in diagnostics: auto, always, never.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Let includes read below DIR too (includes are confined to the spec's folder).
    #[arg(long, value_name = "DIR")]
    allow_include_outside: Vec<PathBuf>,
    /// Fail (E0132) when the address lock beside the spec (`democ.lock`) would change:
    /// for CI.
    #[arg(long, conflicts_with = "no_lock")]
    locked: bool,
    /// Ignore the address lock: allocate every address afresh, and `build` writes none.
    #[arg(long)]
    no_lock: bool,
}

#[derive(Args, Debug)]
struct PlanArgs {
    #[command(flatten)]
    common: Common,
    /// Per flow, its route and every limit on it (text and Markdown; JSON always has them).
    #[arg(long)]
    detail: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Deny {
    Warnings,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Color {
    Auto,
    Always,
    Never,
}

/// The spec a folder holds by convention (the examples' main files are `show.yaml`).
const LOCAL_SPEC: &str = "show.yaml";

impl Common {
    fn options(&self) -> Options {
        Options {
            catalog_dir: self.catalog.clone(),
            deny_warnings: self.deny.is_some(),
            include_roots: self.allow_include_outside.clone(),
            lock: match (self.locked, self.no_lock) {
                (true, _) => compile::LockMode::Locked,
                (false, true) => compile::LockMode::Ignore,
                (false, false) => compile::LockMode::Read,
            },
            ..Options::default()
        }
    }

    /// The spec named on the command line; else `show.yaml` in the current folder; else
    /// the embedded SC16 show, said plainly on stderr (a planner who forgot the argument
    /// must not think their own show was checked).
    fn input(&self) -> Input<'_> {
        if let Some(p) = self.spec.as_deref() {
            return Input::Path(p);
        }
        let here = std::path::Path::new(LOCAL_SPEC);
        if here.is_file() {
            eprintln!("note: no spec given: using ./{LOCAL_SPEC}");
            return Input::Path(here);
        }
        eprintln!(
            "note: no spec given and no ./{LOCAL_SPEC} here: using the SC16 example built into democ (examples/sc16); name your spec to use yours"
        );
        Input::Embedded
    }

    fn color(&self) -> bool {
        match self.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
}

/// Prints a session's diagnostics in the chosen format; returns the exit code they imply.
fn report(s: &mut Session, c: &Common, json_to_stdout: bool) -> i32 {
    s.diags.sort();
    let items = s.diags.items();
    if c.format == Format::Json && json_to_stdout {
        crate::cli::stdout::put(&format!("{}\n", render::to_json(&s.sources, items)));
    } else if !items.is_empty() {
        let text = render::to_text(&s.sources, items, c.color());
        let errors = s.diags.count(Severity::Error);
        let warnings = s.diags.count(Severity::Warning);
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{text}");
        let _ = writeln!(
            err,
            "{}: {} and {}",
            if errors > 0 { "failed" } else { "checked" },
            plural(errors, "error"),
            plural(warnings, "warning")
        );
    }
    i32::from(s.diags.has_errors())
}

fn check(c: &Common) -> i32 {
    let mut s = Session::default();
    // What a vendor cannot do is found while lowering: run it so `check` reports
    // everything `build` would, without writing anything.
    let opts = Options {
        checks_only: true,
        ..c.options()
    };
    match compile::lowered(c.input(), &opts, &mut s) {
        Err(e) => usage(&e),
        Ok(Some(compile::Lowered { lab: Err(e), .. })) => usage(&e),
        Ok(lowered) => {
            let code = report(&mut s, c, true);
            if code == 0 && c.format == Format::Text {
                if let Some(l) = &lowered {
                    let m = &l.front.model;
                    eprintln!(
                        "ok: {} ({}, {}, {}, {})",
                        crate::escape::line(&m.settings.name),
                        plural(m.switches.len(), "switch"),
                        plural(m.hosts.len(), "host"),
                        plural(m.links.len(), "link"),
                        plural(m.flows.len(), "flow")
                    );
                }
            }
            // The process ends right after: the system takes the memory back at once,
            // where freeing the model, routes and segments piece by piece would not
            // (`build` leaves its own too).
            std::mem::forget(lowered);
            code
        }
    }
}

fn plan(a: &PlanArgs) -> i32 {
    let c = &a.common;
    let mut s = Session::default();
    // Through feasibility errors: the plan is how an infeasible show explains itself.
    match compile::checked(c.input(), &c.options(), &mut s) {
        Err(e) => usage(&e),
        Ok(front) => {
            // Diagnostics go to stderr so stdout stays the plan in the chosen format.
            let code = report(&mut s, c, false);
            let Some(front) = front else { return code };
            let Some(cx) = crate::check::CheckInput::new(&front) else {
                return code;
            };
            let (p, _) = crate::check::predict::plan(&cx);
            let extras = crate::plan::Extras::new(&s, a.detail);
            let out = match c.format {
                Format::Text => crate::plan::text(&p, &extras),
                Format::Json => crate::plan::json(&p, &extras),
                Format::Markdown => crate::plan::markdown(&p, &extras),
            };
            // Titles, venues and names are spec text: never raw to a terminal.
            crate::cli::stdout::put(&crate::escape::lines(&out));
            code
        }
    }
}

pub(crate) fn usage(message: &(impl std::fmt::Display + ?Sized)) -> i32 {
    // Messages name paths and spec text.
    eprintln!("error: {}", crate::escape::line(&message.to_string()));
    2
}

fn explain(code: Option<&str>) -> i32 {
    let Some(code) = code else {
        let mut out = String::new();
        for c in codes::ALL {
            let first = c.explain.split(". ").next().unwrap_or(c.explain);
            let first = first.trim_end_matches('.');
            out.push_str(&format!(
                "{} {:<26} {:<7} {first}.\n",
                c.id,
                c.name,
                format!("{:?}", c.severity())
            ));
        }
        crate::cli::stdout::put(&out);
        return 0;
    };
    match codes::find(code) {
        Some(c) => {
            crate::cli::stdout::put(&format!(
                "{} ({}), {:?} by default\n\n{}\n",
                c.id,
                c.name,
                c.severity(),
                c.explain
            ));
            0
        }
        None => usage(&format!(
            "no diagnostic code `{code}`; codes look like `E0101` or `unknown-reference`"
        )),
    }
}

fn catalog(name: Option<&str>, dir: Option<PathBuf>) -> i32 {
    let mut s = Session::default();
    let db = match crate::catalog::load(&mut s.sources, &mut s.diags, dir.as_deref(), None) {
        Ok(db) => db,
        Err(e) => return usage(&e),
    };
    if s.diags.has_errors() {
        eprint!("{}", render::to_text(&s.sources, s.diags.items(), false));
        return 1;
    }
    let Some(name) = name else {
        crate::cli::stdout::put(&crate::escape::lines(&crate::catalog::listing(&db)));
        return 0;
    };
    let mut found = crate::catalog::entry::find(&db, name);
    if found.is_empty() {
        // A part number or a vendor's spelling: the entries whose key or title hold it.
        for (what, entries) in crate::catalog::lookup::tables(&db) {
            for key in crate::catalog::lookup::matches(&entries, name) {
                found.extend(
                    crate::catalog::entry::find(&db, key)
                        .into_iter()
                        .filter(|(w, _)| *w == what),
                );
            }
        }
        if found.is_empty() {
            return usage(&format!(
                "no catalog entry `{name}`, and none whose name or title holds it; `democ catalog` lists every name"
            ));
        }
        eprintln!("`{name}` is no catalog name; the entries whose name or title hold it:");
    }
    for (what, key) in found {
        crate::cli::stdout::put(&crate::escape::lines(&crate::catalog::entry::text(
            &s.sources, what, key,
        )));
    }
    0
}

/// `--format` where a command does not print in that format is a usage error, not
/// silently ignored: `check` prints diagnostics as text or JSON; `ir` always prints
/// JSON and `build` writes files in their own formats (`why` says which).
fn refuse_format(command: &str, c: &Common, takes: &[Format], why: &str) -> Option<i32> {
    if takes.contains(&c.format) {
        return None;
    }
    let name = format!("{:?}", c.format).to_lowercase();
    Some(usage(&format!(
        "`democ {command}` does not take `--format {name}` ({why})"
    )))
}

/// Runs democ with the given arguments and returns the process exit code.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let argv: Vec<OsString> = args.into_iter().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        Command::Init(a) => init::run(&a, &argv),
        Command::Check(c) => refuse_format(
            "check",
            &c,
            &[Format::Text, Format::Json],
            "it prints text or json",
        )
        .unwrap_or_else(|| check(&c)),
        Command::Plan(a) => plan(&a),
        Command::Ir(a) => refuse_format(
            "ir",
            &a.common,
            &[Format::Text, Format::Json],
            "it always prints JSON",
        )
        .unwrap_or_else(|| out::ir(&a)),
        Command::Build(a) => refuse_format(
            "build",
            &a.common,
            &[Format::Text],
            "it writes files in their own formats",
        )
        .unwrap_or_else(|| out::build(&a)),
        Command::Report(a) => refuse_format("report", &a.common, &[Format::Text], "it writes HTML")
            .unwrap_or_else(|| out::report_only(&a)),
        Command::Twin(t) => twin::run(&t),
        Command::Lab(l) => lab::run(&l),
        Command::Diff(a) => diff::run(&a),
        Command::Push(a) => push::run(&a),
        Command::Validate(a) => validate::run(&a),
        Command::Verify(a) => verify::run(&a),
        Command::Data(a) => data::run(&a),
        Command::Explain { code } => explain(code.as_deref()),
        Command::Synth {
            shape,
            switches,
            hosts_per_switch,
            flows,
            seed,
            eos_only,
        } => {
            let p = crate::synth::Params {
                shape,
                switches,
                hosts_per_switch,
                flows,
                seed,
                eos_only,
            };
            crate::cli::stdout::put(&crate::synth::generate(&p));
            0
        }
        Command::Schema => {
            crate::cli::stdout::put(&crate::catalog::editor::spec_schema());
            0
        }
        Command::Catalog { name, catalog: dir } => catalog(name.as_deref(), dir),
    }
}
