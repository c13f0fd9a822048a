//! Builds the front end of a test spec (parse, resolve, derive; no checks) against the
//! embedded catalog/physics.yaml and the fixture catalog of tests/fixtures/check/catalog.yaml
//! only, so unit tests do not move when the embedded hardware tables grow. Shared by the
//! unit tests of the checks.

use std::path::Path;

use crate::catalog::Catalog;
use crate::check::CheckInput;
use crate::compile::{Session, ShowModel};
use crate::diag::{Diags, render};
use crate::spec::Spec;
use crate::spec::catalog_file::Physics;
use crate::spec::load::{Limits, Loader};

const CATALOG: &str = include_str!("../../tests/fixtures/check/catalog.yaml");

/// Two sites, one switch and one DTN each, joined by `wan1`; `{wan}` and `{flow}` are
/// extra fields of the WAN link and the flow.
const TWO_SITES: &str = r#"
show:
  name: t
  defaults:
    openflow: { controller: "10.0.0.10:6653" }
  addressing: { dtn: 10.16.0.0/16, p2p: 10.255.0.0/24 }
sites:
  booth: { kind: booth }
  remote: { kind: remote }
switches:
  sw1: { site: booth, model: t-sw32 }
  sw2: { site: remote, model: t-sw32 }
hosts:
  dtn1: { site: booth, chassis: t-box, cpu: t-cpu, memory_gb: 256, nics: [{ model: t-nic100, slot: s1, ports: [p0] }] }
  dtn2: { site: remote, chassis: t-box, cpu: t-cpu, memory_gb: 256, nics: [{ model: t-nic100, slot: s1, ports: [p0] }] }
links:
  - { a: "dtn1:p0", b: "sw1:1/1", media: dac }
  - { a: "dtn2:p0", b: "sw2:1/1", media: dac }
wan:
  - { name: wan1, kind: dark-fiber, a: "sw1:1/32", b: "sw2:1/32", {wan} }
flows:
  - { name: f1, from: dtn1, to: dtn2, rate: 80G, protocol: tcp {flow} }
"#;

pub(crate) fn two_sites(wan: &str, flow: &str) -> String {
    let flow = if flow.is_empty() {
        String::new()
    } else {
        format!(", {flow}")
    };
    TWO_SITES.replace("{wan}", wan).replace("{flow}", &flow)
}

fn render(s: &Session) -> String {
    render::to_text(&s.sources, s.diags.items(), false)
}

/// The front end of `yaml`; panics with the rendered diagnostics if it does not pass.
pub(crate) fn front(yaml: &str) -> ShowModel {
    let mut s = Session::default();
    let mut spec = Spec::default();
    {
        let mut loader = Loader::new(&mut s.sources, &mut s.diags, Limits::default());
        for (name, text) in crate::catalog::EMBEDDED
            .iter()
            .filter(|(n, _)| n.ends_with("physics.yaml"))
        {
            loader.load_catalog(name, text.as_bytes(), &mut spec);
        }
        loader.load_text("catalog.yaml", Path::new(""), CATALOG.as_bytes(), &mut spec);
        loader.load_text("show.yaml", Path::new(""), yaml.as_bytes(), &mut spec);
    }
    let mut db = Catalog::default();
    for c in std::mem::take(&mut spec.catalogs) {
        db.absorb(c);
    }
    assert!(!s.diags.has_errors(), "{}", render(&s));
    let mut model = crate::resolve::resolve(&spec, &db, &mut s.diags).expect("resolves");
    crate::derive::addressing::assign(&mut model, None, &mut s.diags);
    let us_per_km = db.physics.as_ref().map_or(5.0, |p| p.fiber_us_per_km);
    let topology = crate::derive::topology::build(&model, us_per_km);
    let routes = crate::derive::paths::route(&model, &topology, &mut s.diags);
    assert!(!s.diags.has_errors(), "{}", render(&s));
    let segments = crate::derive::segments::derive(&model, &routes);
    ShowModel {
        db,
        model,
        routes,
        segments,
    }
}

/// Runs one check on `yaml`; the codes it reported, in order.
pub(crate) fn run(yaml: &str, check: fn(&CheckInput, &mut Diags)) -> Vec<&'static str> {
    let f = front(yaml);
    let cx = CheckInput::new(&f).expect("the fixture catalog has physics");
    let mut diags = Diags::default();
    check(&cx, &mut diags);
    diags.items().iter().map(|d| d.code.id).collect()
}

pub(crate) fn physics() -> Physics {
    let f = front(&two_sites("optic: 100gbase-lr4, length_km: 5", ""));
    f.db.physics.expect("the fixture catalog has physics")
}
