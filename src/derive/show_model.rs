//! The front end's result: the catalog, the resolved model and what derive found in it,
//! read by the checks, lowering, the plan and the report. It lives here, with the last
//! pass that makes it, so that the later passes need not import the driver.

use crate::catalog::Catalog;
use crate::derive::paths::Routes;
use crate::resolve::model::Model;

/// What a successful front end produces.
pub(crate) struct ShowModel {
    pub(crate) db: Catalog,
    pub(crate) model: Model,
    pub(crate) routes: Routes,
    /// The VLAN of every segment of every route (derive::segments).
    pub(crate) segments: crate::derive::segments::Segments,
}
