//! Pass 4: feasibility. Each module checks one concern, reports located diagnostics,
//! and (where it bounds a flow) contributes a limit to the per-flow prediction.

pub(crate) mod bdp;
pub(crate) mod findings;
pub(crate) mod load;
pub(crate) mod mtu;
pub(crate) mod openflow;
pub(crate) mod optics;
pub(crate) mod otn;
pub(crate) mod pcie;
pub(crate) mod predict;
pub(crate) mod storage;

use crate::catalog::Db;
use crate::catalog::types::Physics;
use crate::compile::Front;
use crate::derive::paths::Routes;
use crate::derive::topology::Topology;
use crate::diag::Diags;
use crate::resolve::model::Model;

/// What every check reads.
pub(crate) struct Ctx<'a> {
    pub(crate) m: &'a Model,
    pub(crate) db: &'a Db,
    pub(crate) physics: &'a Physics,
    pub(crate) topology: &'a Topology,
    pub(crate) routes: &'a Routes,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(f: &'a Front) -> Option<Ctx<'a>> {
        Some(Ctx {
            m: &f.model,
            db: &f.db,
            physics: f.db.physics.as_ref()?,
            topology: &f.topology,
            routes: &f.routes,
        })
    }
}

/// Runs every check.
pub(crate) fn run(front: &Front, diags: &mut Diags) {
    let Some(cx) = Ctx::new(front) else { return };
    pcie::check(&cx, diags);
    optics::check(&cx, diags);
    otn::check(&cx, diags);
    mtu::check(&cx, diags);
    bdp::check(&cx, diags);
    openflow::check(&cx, diags);
    findings::check(&cx, diags);
}
