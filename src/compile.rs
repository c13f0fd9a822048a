//! The pipeline as one function per command stage. The library never prints:
//! callers render the session's diagnostics.

use std::path::{Path, PathBuf};

use crate::catalog;
use crate::catalog::error::CatalogError;
use crate::check::predict::Detail;
use crate::diag::Diags;
use crate::ir::Lab;
use crate::lower::error::LowerError;
use crate::resolve::model::Model;
use crate::spec::Spec;
use crate::spec::error::LoadError;
use crate::spec::load::{Limits, Loader};

pub(crate) use crate::derive::ShowModel;
pub use crate::session::Session;
pub(crate) use crate::spec::examples::{EMBEDDED_SC16, EMBEDDED_SC16_MAIN};
pub(crate) use crate::stages::Stages;

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub catalog_dir: Option<PathBuf>,
    pub deny_warnings: bool,
    pub limits: Limits,
    /// Folders includes may resolve into besides the main spec's (`--allow-include-outside`).
    pub include_roots: Vec<PathBuf>,
    /// `build --allow-infeasible`: feasibility errors (`codes::FEASIBILITY`) become
    /// warnings.
    pub allow_infeasible: bool,
    /// What to do with the spec's address lock.
    pub lock: LockMode,
    /// `check`: lower only as far as diagnostics go (the switches' IR); no lab is made.
    pub checks_only: bool,
    /// `build`: the checks predict every flow in full (its route and every limit) and
    /// keep the plan, which plan.json and the report show ([`Lowered::prediction`]);
    /// otherwise they explain only the flows that fall short, the cheaper pass. The
    /// lab is then lowered without the flows' IR, which the build writes from the
    /// routes (`emit::files`).
    pub full_prediction: bool,
}

/// The address lock of a spec file (`democ.lock` beside it, see `lock::path_for`). A
/// spec held in memory, and the embedded example, have none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LockMode {
    /// Keep the assignments of the lock when there is one.
    #[default]
    Read,
    /// `--locked`: as `Read`, and E0132 when the lock would change.
    Locked,
    /// `--no-lock`: allocate as if there were no lock, and never write one.
    Ignore,
}

/// Where the spec comes from.
pub enum Input<'a> {
    Path(&'a Path),
    /// The embedded examples/sc16 show.
    Embedded,
    /// A spec held in memory (tests, fuzzing); includes resolve against the working folder.
    Bytes {
        name: &'a str,
        bytes: &'a [u8],
    },
}

/// Why the pipeline could not start on a show: a usage or I/O problem (exit 2). What
/// is wrong in the show itself is a diagnostic in the session.
#[derive(Debug)]
pub(crate) enum CompileError {
    /// The main file or an `--allow-include-outside` folder could not be read.
    Load(LoadError),
    /// `--catalog DIR` could not be read.
    Catalog(CatalogError),
    /// The catalog (a `--catalog` that replaced it) has no `physics:` section.
    NoPhysics,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::Load(e) => e.fmt(f),
            CompileError::Catalog(e) => e.fmt(f),
            CompileError::NoPhysics => f.write_str(
                "the catalog has no `physics:` section (it ships in catalog/physics.yaml)",
            ),
        }
    }
}

impl std::error::Error for CompileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompileError::Load(e) => Some(e),
            CompileError::Catalog(e) => Some(e),
            CompileError::NoPhysics => None,
        }
    }
}

impl From<LoadError> for CompileError {
    fn from(e: LoadError) -> CompileError {
        CompileError::Load(e)
    }
}

impl From<CatalogError> for CompileError {
    fn from(e: CatalogError) -> CompileError {
        CompileError::Catalog(e)
    }
}

/// Parse + resolve + derive + check. `Err` is a usage/IO problem (exit 2);
/// spec problems are diagnostics in the session.
pub(crate) fn front(
    input: Input,
    opts: &Options,
    s: &mut Session,
) -> Result<Option<ShowModel>, CompileError> {
    let Some(front) = checked(input, opts, s)? else {
        return Ok(None);
    };
    Ok(apply_severity_flags(front, opts, s))
}

/// A checked front end and its lowering.
pub(crate) struct Lowered {
    pub(crate) front: ShowModel,
    /// `Err`: the vendor data is broken (an internal error); `Ok(None)`: lowering
    /// reported errors (they are in the session), or `Options::checks_only`.
    pub(crate) lab: Result<Option<Lab>, LowerError>,
    /// The checks' prediction with `Options::full_prediction` (None without physics).
    pub(crate) prediction: Option<crate::check::predict::Plan>,
}

/// [`front`] and lowering. Lowering's result and diagnostics count only when the
/// checks pass.
pub(crate) fn lowered(
    input: Input,
    opts: &Options,
    s: &mut Session,
) -> Result<Option<Lowered>, CompileError> {
    let Some(front) = derived(input, opts, s)? else {
        return Ok(None);
    };
    let mut clock = Stages::new();
    let detail = if opts.full_prediction {
        Detail::Full
    } else {
        Detail::Shortfalls
    };
    // The checks and lowering read the same front end and report into diagnostics of
    // their own: side by side on two cores.
    let mut lower_diags = Diags::default();
    let diags = &mut s.diags;
    let (prediction, lab) = rayon::join(
        || crate::check::run(&front, diags, detail),
        || {
            if opts.checks_only {
                crate::lower::checks(&front, &mut lower_diags).map(|()| None)
            } else if opts.full_prediction {
                crate::lower::lower_but_flows(&front, &mut lower_diags).map(Some)
            } else {
                crate::lower::lower(&front, &mut lower_diags).map(Some)
            }
        },
    );
    clock.mark("check and lower");
    let Some(front) = apply_severity_flags(front, opts, s) else {
        return Ok(None);
    };
    let lab = lab.map(|lab| {
        s.diags.append(lower_diags);
        if opts.deny_warnings {
            s.diags.deny_warnings();
        }
        lab.filter(|_| !s.diags.has_errors())
    });
    Ok(Some(Lowered {
        front,
        lab,
        prediction,
    }))
}

/// After the checks: warnings as errors when asked, feasibility errors as warnings when
/// allowed; the front end when nothing failed.
fn apply_severity_flags(front: ShowModel, opts: &Options, s: &mut Session) -> Option<ShowModel> {
    if opts.deny_warnings {
        s.diags.deny_warnings();
    }
    if opts.allow_infeasible {
        for d in s.diags.items_mut() {
            if d.severity == crate::diag::Severity::Error
                && crate::diag::codes::FEASIBILITY.contains(&d.code)
            {
                d.severity = crate::diag::Severity::Warning;
                d.notes.push("built anyway: `--allow-infeasible`".into());
            }
        }
    }
    (!s.diags.has_errors()).then_some(front)
}

/// Parse + resolve + derive + check, and the front end even when the checks found errors:
/// `democ plan` predicts through infeasibility (`None` only when the spec does not parse,
/// resolve or route).
pub(crate) fn checked(
    input: Input,
    opts: &Options,
    s: &mut Session,
) -> Result<Option<ShowModel>, CompileError> {
    let Some(front) = derived(input, opts, s)? else {
        return Ok(None);
    };
    let mut clock = Stages::new();
    crate::check::run(&front, &mut s.diags, Detail::Shortfalls);
    clock.mark("check");
    if opts.deny_warnings {
        s.diags.deny_warnings();
    }
    Ok(Some(front))
}

/// Reads the spec and its includes into `spec`.
fn parse(input: Input, opts: &Options, s: &mut Session, spec: &mut Spec) -> Result<(), LoadError> {
    let mut loader = Loader::new(&mut s.sources, &mut s.diags, opts.limits);
    loader.allow_outside(&opts.include_roots)?;
    match input {
        Input::Path(p) => loader.load_main(p, spec),
        Input::Bytes { name, bytes } => {
            loader.confine_to(Path::new(""));
            loader.main_text(
                Path::new(name).to_path_buf(),
                name,
                Path::new(""),
                bytes,
                spec,
            );
            Ok(())
        }
        Input::Embedded => {
            loader.embedded = Some(EMBEDDED_SC16);
            loader.load_main(Path::new(EMBEDDED_SC16_MAIN), spec)
        }
    }
}

/// Parse + resolve + derive: everything before the checks.
fn derived(
    input: Input,
    opts: &Options,
    s: &mut Session,
) -> Result<Option<ShowModel>, CompileError> {
    let mut clock = Stages::new();
    let lock_path = match (&input, opts.lock) {
        (_, LockMode::Ignore) | (Input::Embedded | Input::Bytes { .. }, _) => None,
        (Input::Path(p), _) => Some(crate::lock::path_for(p)),
    };
    let mut spec = Spec::default();
    let base = catalog::load(
        &mut s.sources,
        &mut s.diags,
        opts.catalog_dir.as_deref(),
        None,
    );
    parse(input, opts, s, &mut spec)?;
    let base = base?;
    clock.mark("parse");
    if s.diags.has_errors() {
        return Ok(None);
    }
    let mut db = base;
    for c in std::mem::take(&mut spec.catalogs) {
        db.absorb(c);
    }
    let Some(mut model) = crate::resolve::resolve(&spec, &db, &mut s.diags) else {
        return Ok(None);
    };
    // Nothing reads the spec again.
    drop(spec);
    clock.mark("resolve");
    if s.diags.has_errors() {
        return Ok(None);
    }
    let Some(physics) = db.physics.as_ref() else {
        return Err(CompileError::NoPhysics);
    };
    if !addresses(&mut model, lock_path, opts, s) {
        return Ok(None);
    }
    crate::derive::roles::assign(&mut model, &mut s.diags);
    clock.mark("  addresses");
    let topology = crate::derive::topology::build(&model, physics.fiber_us_per_km);
    clock.mark("  topology");
    let mut routes = crate::derive::paths::route(&model, &topology, &mut s.diags);
    routes.pins = crate::derive::lag_placement::derive(&model, &routes);
    clock.mark("derive");
    if s.diags.has_errors() {
        return Ok(None);
    }
    let segments = crate::derive::segments::derive(&model, &routes);
    Ok(Some(ShowModel {
        db,
        model,
        routes,
        segments,
    }))
}

/// Allocates addresses, keeping the lock at `lock_path` (when given) and recording what it would hold now in the session; false when
/// the lock cannot be read (E0130).
fn addresses(
    model: &mut Model,
    lock_path: Option<PathBuf>,
    opts: &Options,
    s: &mut Session,
) -> bool {
    let Some(path) = lock_path else {
        crate::derive::addressing::assign(model, None, &mut s.diags);
        return true;
    };
    let read = crate::lock::read::file(&path, &opts.limits, &mut s.sources, &mut s.diags);
    let Ok(read) = read else {
        return false;
    };
    let next =
        crate::derive::addressing::assign(model, read.as_ref().map(|r| &r.lock), &mut s.diags);
    if opts.lock == LockMode::Locked {
        let old = read.as_ref().map(|r| &r.lock);
        let name = crate::lock::display(&path);
        if let Some(d) = crate::lock::outdated::check(old, &next, &name) {
            s.diags.push(d);
        }
    }
    let (old, old_text) = match read {
        Some(r) => (Some((r.lock, r.file)), Some(r.text)),
        None => (None, None),
    };
    s.lock = Some(crate::lock::Locking {
        path,
        old,
        old_text,
        next,
    });
    true
}
