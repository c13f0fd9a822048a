//! Entry points for the benchmarks (`benches/`): each function runs one stage of the
//! pipeline exactly as the CLI does, by calling the same functions; none holds logic of
//! its own. Not a stable API (hidden from the docs).

use std::path::Path;

use crate::compile::{self, Input, Options, Session, ShowModel};
use crate::emit::EmitError;
use crate::lower::error::LowerError;
use crate::render::{RenderError, Renderer};
use crate::spec::Spec;
use crate::spec::load::Loader;
use crate::write::OutFile;

/// A spec taken through the check pass: what `compile::front` returns, with its session.
pub struct Checked {
    session: Session,
    front: ShowModel,
}

impl Checked {
    /// Switches, hosts and flows of the resolved model.
    pub fn counts(&self) -> (usize, usize, usize) {
        let m = &self.front.model;
        (m.switches.len(), m.hosts.len(), m.flows.len())
    }
}

/// The embedded vendor templates, loaded once (`democ build` loads them on each run).
pub struct Templates(Renderer);

/// The files of a build, in memory (configs, IR, manifest).
pub struct Files(Vec<OutFile>);

impl Files {
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Total size in bytes.
    pub fn bytes(&self) -> usize {
        self.0.iter().map(|f| f.bytes.len()).sum()
    }
    /// How many files lie under a folder (`switches/`).
    pub fn under(&self, folder: &str) -> usize {
        self.0.iter().filter(|f| f.path.starts_with(folder)).count()
    }
}

/// The predictions of `democ plan`: flows predicted and resources loaded.
pub struct Planned {
    pub flows: usize,
    pub links: usize,
}

/// Why a stage did not give its result.
#[derive(Debug)]
pub struct Error(Cause);

#[derive(Debug)]
enum Cause {
    Compile(compile::CompileError),
    /// The show has errors: its diagnostics, rendered as text.
    Diagnostics(String),
    Lower(LowerError),
    Render(RenderError),
    Emit(EmitError),
    /// The report needs a prediction, and the show has no physics.
    NoPrediction,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Cause::Compile(e) => e.fmt(f),
            Cause::Diagnostics(text) => f.write_str(text),
            Cause::Lower(e) => e.fmt(f),
            Cause::Render(e) => e.fmt(f),
            Cause::Emit(e) => e.fmt(f),
            Cause::NoPrediction => f.write_str("no physics, no prediction"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Cause::Compile(e) => Some(e),
            Cause::Lower(e) => Some(e),
            Cause::Render(e) => Some(e),
            Cause::Emit(e) => Some(e),
            Cause::Diagnostics(_) | Cause::NoPrediction => None,
        }
    }
}

impl From<compile::CompileError> for Error {
    fn from(e: compile::CompileError) -> Error {
        Error(Cause::Compile(e))
    }
}

impl From<LowerError> for Error {
    fn from(e: LowerError) -> Error {
        Error(Cause::Lower(e))
    }
}

impl From<RenderError> for Error {
    fn from(e: RenderError) -> Error {
        Error(Cause::Render(e))
    }
}

impl From<EmitError> for Error {
    fn from(e: EmitError) -> Error {
        Error(Cause::Emit(e))
    }
}

/// The session's diagnostics as the error.
fn failed(s: &mut Session) -> Error {
    s.diags.sort();
    diagnostics(&s.sources, s)
}

fn diagnostics(sources: &crate::source::Sources, s: &Session) -> Error {
    Error(Cause::Diagnostics(crate::diag::render::to_text(
        sources,
        s.diags.items(),
        false,
    )))
}

/// The spec part of the `parse` stage: the YAML text read into spec types (the catalog,
/// a fixed cost, is not included). Returns how many diagnostics it reported.
pub fn parse(name: &str, bytes: &[u8]) -> usize {
    let mut s = Session::default();
    let mut spec = Spec::default();
    Loader::new(&mut s.sources, &mut s.diags, Default::default()).load_text(
        name,
        Path::new(""),
        bytes,
        &mut spec,
    );
    s.diags.items().len()
}

fn front(input: Input) -> Result<Checked, Error> {
    let mut session = Session::default();
    match compile::front(input, &Options::default(), &mut session)? {
        Some(front) => Ok(Checked { session, front }),
        None => Err(failed(&mut session)),
    }
}

/// Parse, resolve, derive and check a spec held in memory (`compile::front`).
pub fn check(name: &str, bytes: &[u8]) -> Result<Checked, Error> {
    front(Input::Bytes { name, bytes })
}

/// Parse, resolve, derive and check a spec file and its includes.
pub fn check_path(path: &Path) -> Result<Checked, Error> {
    front(Input::Path(path))
}

/// Routing and prediction: the topology graph and the flow routes built again from the
/// checked model (as `compile::front` builds them), then `check::predict::plan`.
pub fn plan(c: &Checked) -> Planned {
    let f = &c.front;
    let physics = f.db.physics.as_ref().expect("checked specs have physics");
    let pcie_dma =
        f.db.pcie_dma
            .as_ref()
            .expect("the embedded catalog has pcie_dma");
    let topology = crate::derive::topology::build(&f.model, physics.fiber_us_per_km);
    let mut diags = crate::diag::Diags::default();
    let routes = crate::derive::paths::route(&f.model, &topology, &mut diags);
    let cx = crate::check::CheckInput {
        m: &f.model,
        db: &f.db,
        physics,
        pcie_dma,
        routes: &routes,
        segments: &f.segments,
        wire: crate::check::mtu::Wire::new(&f.model),
        host_ends: crate::check::load::HostEnds::new(&f.model),
        ports: std::sync::OnceLock::new(),
        paced: std::sync::OnceLock::new(),
    };
    let (p, _) = crate::check::predict::plan(&cx);
    Planned {
        flows: p.flows.len(),
        links: p.links.len(),
    }
}

/// Only the prediction (`check::predict::plan` on the routes already derived).
pub fn predict(c: &Checked) -> Planned {
    let cx = crate::check::CheckInput::new(&c.front).expect("checked specs have physics");
    let (p, _) = crate::check::predict::plan(&cx);
    Planned {
        flows: p.flows.len(),
        links: p.links.len(),
    }
}

/// Loads the embedded templates (`Renderer::new` without overrides).
pub fn templates() -> Result<Templates, Error> {
    Ok(Templates(Renderer::new(None)?))
}

/// Lowering, rendering and assembling the files in memory (`emit::lab`, `emit::files`).
pub fn lower_render(c: &Checked, t: &Templates, main: &str) -> Result<Files, Error> {
    let mut s = Session::default();
    let Some(lab) = crate::emit::lab(&c.front, &mut s, false)? else {
        return Err(failed(&mut s));
    };
    let dir = crate::emit::main_dir(Some(Path::new(main)));
    // The benchmarks time rendering; the plan is timed by `check`.
    let plan = crate::emit::prediction(&c.front);
    let files = crate::emit::files(
        &lab,
        &t.0,
        &c.session,
        &dir,
        None,
        Some((&c.front, plan.as_ref())),
        None,
    )?;
    Ok(Files(files))
}

/// Everything `democ build` does but writing: templates, front end, lowering, rendering.
pub fn build(name: &str, bytes: &[u8]) -> Result<Files, Error> {
    let t = templates()?;
    let c = check(name, bytes)?;
    lower_render(&c, &t, name)
}

/// `build` for a spec file and its includes (`examples/sc16/show.yaml`).
pub fn build_path(path: &Path) -> Result<Files, Error> {
    let t = templates()?;
    let c = check_path(path)?;
    lower_render(&c, &t, &path.to_string_lossy())
}

/// A checked show lowered to the IR, with its DTN scripts' IR (`build --hosts`) and the
/// prediction the report shows: the input of each output kind's bench.
pub struct Lowered {
    lab: crate::ir::Lab,
    plan: Option<crate::check::predict::Plan>,
}

impl Lowered {
    /// OpenFlow switches and DTNs of the lab.
    pub fn counts(&self) -> (usize, usize) {
        let openflow = self.lab.switches.iter().filter(|s| s.openflow.is_some());
        (openflow.count(), self.lab.hosts.len())
    }
}

/// Lowers a checked show as `democ build --hosts` does, and predicts it once.
pub fn lower(c: &Checked) -> Result<Lowered, Error> {
    let mut session = Session::default();
    let Some(mut lab) = crate::emit::lab(&c.front, &mut session, false)? else {
        // Lowering's spans point into the checked session's sources.
        session.diags.sort();
        return Err(diagnostics(&c.session.sources, &session));
    };
    lab.hosts = crate::lower::hosts(&c.front)?;
    let plan = crate::emit::prediction(&c.front);
    Ok(Lowered { lab, plan })
}

/// One kind of output file of a build (what `emit::files` assembles).
#[derive(Clone, Copy, Debug)]
pub enum Output {
    /// Every switch's config (rendered from its template).
    Configs,
    /// The OpenFlow rulesets: ovs-ofctl flow and meter files, OpenDaylight bodies.
    Rulesets,
    /// Every DTN's script (rendered from its template).
    HostScripts,
    /// report/index.html, from the prediction made beforehand.
    Report,
    /// cabling.csv and bom.csv.
    Cabling,
}

/// The files of one output kind, in memory: their count and bytes.
pub fn output(
    c: &Checked,
    l: &Lowered,
    t: &Templates,
    kind: Output,
) -> Result<(usize, usize), Error> {
    let lab = &l.lab;
    let texts: Vec<String> = match kind {
        Output::Configs => lab
            .switches
            .iter()
            .map(|sw| t.0.switch(sw, &lab.show))
            .collect::<Result<_, _>>()?,
        Output::Rulesets => crate::rulesets::files(lab)
            .into_iter()
            .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
            .collect(),
        Output::HostScripts => lab
            .hosts
            .iter()
            .map(|h| t.0.host(h, &lab.show))
            .collect::<Result<_, _>>()?,
        Output::Report => {
            let plan = l.plan.as_ref().ok_or(Error(Cause::NoPrediction))?;
            // The front end's findings: their spans point into the checked session's
            // sources (lowering's own session holds none).
            let found = crate::report::Finding::all(&c.session, "");
            vec![crate::report::html_report(
                &c.front,
                plan,
                lab,
                &found,
                &[],
                None,
            )]
        }
        Output::Cabling => vec![
            crate::csv::cabling(&lab.cabling),
            crate::csv::bom(&lab.cabling),
        ],
    };
    Ok((texts.len(), texts.iter().map(String::len).sum()))
}
