//! Shared fixtures for unit tests.

pub(crate) mod checks;

use std::path::Path;

use crate::compile::{Input, Options, Session, ShowModel, front};
use crate::ir::Lab;

/// The render fixture (one switch per OS flavour), checked and lowered.
pub(crate) fn render_fixture() -> (ShowModel, Lab) {
    let mut s = Session::default();
    let f = front(
        Input::Path(Path::new("tests/fixtures/render/show.yaml")),
        &Options::default(),
        &mut s,
    )
    .expect("reads the fixture")
    .expect("the fixture checks clean");
    let lab = crate::lower::lower(&f, &mut s.diags).expect("vendor data");
    (f, lab)
}
