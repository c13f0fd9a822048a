//! Entry points for the benchmarks (`benches/`): each function runs one stage of the
//! pipeline exactly as the CLI does, by calling the same functions; none holds logic of
//! its own. Not a stable API (hidden from the docs).

use std::path::Path;

use crate::compile::{self, Front, Input, Options, Session};
use crate::render::Renderer;
use crate::spec::Spec;
use crate::spec::load::Loader;
use crate::write::OutFile;

/// A spec taken through the check pass: what `compile::front` returns, with its session.
pub struct Checked {
    session: Session,
    front: Front,
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
}

/// The predictions of `democ plan`: flows predicted and resources loaded.
pub struct Planned {
    pub flows: usize,
    pub links: usize,
}

fn failed(s: &mut Session) -> String {
    s.diags.sort();
    crate::diag::render::to_text(&s.sources, s.diags.items(), false)
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

fn front(input: Input) -> Result<Checked, String> {
    let mut session = Session::default();
    match compile::front(input, &Options::default(), &mut session)? {
        Some(front) => Ok(Checked { session, front }),
        None => Err(failed(&mut session)),
    }
}

/// Parse, resolve, derive and check a spec held in memory (`compile::front`).
pub fn check(name: &str, bytes: &[u8]) -> Result<Checked, String> {
    front(Input::Bytes { name, bytes })
}

/// Parse, resolve, derive and check a spec file and its includes.
pub fn check_path(path: &Path) -> Result<Checked, String> {
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
    let cx = crate::check::Ctx {
        m: &f.model,
        db: &f.db,
        physics,
        pcie_dma,
        routes: &routes,
        segments: &f.segments,
        wire: crate::check::mtu::Wire::new(&f.model),
    };
    let (p, _) = crate::check::predict::plan(&cx);
    Planned {
        flows: p.flows.len(),
        links: p.links.len(),
    }
}

/// Only the prediction (`check::predict::plan` on the routes already derived).
pub fn predict(c: &Checked) -> Planned {
    let cx = crate::check::Ctx::new(&c.front).expect("checked specs have physics");
    let (p, _) = crate::check::predict::plan(&cx);
    Planned {
        flows: p.flows.len(),
        links: p.links.len(),
    }
}

/// Loads the embedded templates (`Renderer::new` without overrides).
pub fn templates() -> Result<Templates, String> {
    Renderer::new(None).map(Templates)
}

/// Lowering, rendering and assembling the files in memory (`emit::lab`, `emit::files`).
pub fn lower_render(c: &Checked, t: &Templates, main: &str) -> Result<Files, String> {
    let mut s = Session::default();
    let Some(lab) = crate::emit::lab(&c.front, &mut s, false)? else {
        return Err(failed(&mut s));
    };
    let dir = crate::emit::main_dir(Some(Path::new(main)));
    // The benchmarks time rendering; the plan is timed by `check`.
    crate::emit::files(&lab, &t.0, &c.session, &dir, None, Some(&c.front)).map(Files)
}

/// Everything `democ build` does but writing: templates, front end, lowering, rendering.
pub fn build(name: &str, bytes: &[u8]) -> Result<Files, String> {
    let t = templates()?;
    let c = check(name, bytes)?;
    lower_render(&c, &t, name)
}

/// `build` for a spec file and its includes (`examples/sc16/show.yaml`).
pub fn build_path(path: &Path) -> Result<Files, String> {
    let t = templates()?;
    let c = check_path(path)?;
    lower_render(&c, &t, &path.to_string_lossy())
}
