//! Pass 4: feasibility. Each module checks one concern, reports located diagnostics,
//! and (where it bounds a flow) contributes a limit to the per-flow prediction.

pub(crate) mod bdp;
pub(crate) mod bond_hash;
pub(crate) mod boundary;
pub(crate) mod cables;
pub(crate) mod cages;
pub(crate) mod client_ports;
pub(crate) mod congestion;
pub(crate) mod control;
pub(crate) mod dead;
pub(crate) mod direct;
pub(crate) mod fabrics;
pub(crate) mod findings;
pub(crate) mod hashing;
pub(crate) mod kernel_gain;
pub(crate) mod lag_duplicates;
pub(crate) mod lag_hashing;
pub(crate) mod lag_ids;
pub(crate) mod lag_members;
pub(crate) mod lag_placement;
pub(crate) mod load;
pub(crate) mod loss;
mod mgmt_reach;
pub(crate) mod middleboxes;
pub(crate) mod mtu;
pub(crate) mod openflow;
pub(crate) mod optics;
pub(crate) mod otn;
pub(crate) mod pacing;
pub(crate) mod pcie;
#[cfg(test)]
mod pcie_calibration;
pub(crate) mod pcie_dma;
pub(crate) mod pfc_reach;
pub(crate) mod predict;
#[cfg(test)]
mod props;
pub(crate) mod raid;
pub(crate) mod routes;
pub(crate) mod segments;
pub(crate) mod server_ports;
pub(crate) mod services;
pub(crate) mod share;
pub(crate) mod storage;
pub(crate) mod wan_rtt;

use crate::catalog::Catalog;
use crate::derive::ShowModel;
use crate::derive::paths::Routes;
use crate::diag::Diags;
use crate::resolve::model::Model;
use crate::spec::catalog_file::{PcieDma, Physics};

/// What every check reads.
pub(crate) struct CheckInput<'a> {
    pub(crate) m: &'a Model,
    pub(crate) db: &'a Catalog,
    pub(crate) physics: &'a Physics,
    /// The PCIe DMA model's figures (catalog `pcie_dma:`).
    pub(crate) pcie_dma: &'a PcieDma,
    pub(crate) routes: &'a Routes,
    pub(crate) segments: &'a crate::derive::segments::Segments,
    /// What limits packets on each link (for path MTUs).
    pub(crate) wire: mtu::Wire,
    /// The host NIC at each end of each link (for the prediction's per-pair loops).
    pub(crate) host_ends: load::HostEnds,
    /// Every test pair's ports, found on first use ([`CheckInput::test_ports`]).
    pub(crate) ports: std::sync::OnceLock<client_ports::Ports>,
    /// Every pair's paced rate, found on first use ([`CheckInput::paced`]).
    pub(crate) paced: std::sync::OnceLock<pacing::Paced>,
}

impl<'a> CheckInput<'a> {
    pub(crate) fn new(f: &'a ShowModel) -> Option<CheckInput<'a>> {
        Some(CheckInput {
            m: &f.model,
            db: &f.db,
            physics: f.db.physics.as_ref()?,
            pcie_dma: f.db.pcie_dma.as_ref()?,
            routes: &f.routes,
            segments: &f.segments,
            wire: mtu::Wire::new(&f.model),
            host_ends: load::HostEnds::new(&f.model),
            ports: std::sync::OnceLock::new(),
            paced: std::sync::OnceLock::new(),
        })
    }

    /// Every routed pair's server and client ports, as the host scripts run them.
    pub(crate) fn test_ports(&self) -> &client_ports::Ports {
        self.ports.get_or_init(|| client_ports::assign(self))
    }

    /// Every pair's paced rate on a sender whose kernel paces (None: paced at the demand).
    pub(crate) fn paced(&self) -> &pacing::Paced {
        self.paced.get_or_init(|| pacing::paced(self))
    }

    /// The largest IP packet a pair's route carries end to end.
    pub(crate) fn path_mtu(&self, pr: &crate::derive::paths::PairRoute) -> u32 {
        self.wire.path_mtu(self.m, pr)
    }
}

/// Runs every check, predicting at `detail`; the plan when that is `Full` and the show
/// has physics to predict with.
pub(crate) fn run(
    front: &ShowModel,
    diags: &mut Diags,
    detail: predict::Detail,
) -> Option<predict::Plan> {
    let cx = CheckInput::new(front)?;
    let mut clock = crate::stages::Stages::new();
    others(&cx, diags, &mut clock);
    let plan = findings::check(&cx, diags, detail);
    acknowledge(front, diags);
    clock.mark("  predict");
    plan
}

/// A check that reads only the context.
type Check = fn(&CheckInput, &mut Diags);

/// Every check but the prediction's findings, in the order their diagnostics come out,
/// in groups named for `DEMOC_TIMINGS`.
const OTHERS: &[(&[Check], &str)] = &[
    (&[pcie::check], "  pcie"),
    (
        &[optics::check, otn::check, cables::check, cages::check],
        "  optics",
    ),
    (
        &[
            lag_duplicates::check,
            pfc_reach::check,
            lag_ids::check,
            lag_placement::check,
            server_ports::check,
            mtu::check,
        ],
        "  mtu",
    ),
    (&[bdp::check], "  bdp"),
    (
        &[
            openflow::check,
            control::check,
            direct::check,
            raid::check,
            routes::check,
            segments::check,
            services::check,
            mgmt_reach::check,
            wan_rtt::check,
            middleboxes::check,
            boundary::check,
            dead::check,
        ],
        "  openflow",
    ),
];

fn others(cx: &CheckInput, diags: &mut Diags, clock: &mut crate::stages::Stages) {
    for (checks, stage) in OTHERS {
        for check in *checks {
            check(cx, diags);
        }
        clock.mark(stage);
    }
}

/// `allow:` lists: a warning whose code an entry allows, found within that entry, becomes
/// a note saying so (the plan lists it as acknowledged).
fn acknowledge(front: &ShowModel, diags: &mut Diags) {
    let allows = &front.model.allows;
    if allows.is_empty() {
        return;
    }
    for d in diags.items_mut() {
        if d.severity != crate::diag::Severity::Warning {
            continue;
        }
        let p = d.primary.span;
        let by = allows.iter().find(|a| {
            a.scope.file == p.file
                && a.scope.start <= p.start
                && p.end <= a.scope.end
                && a.codes.iter().any(|(c, _)| c.id == d.code.id)
        });
        if let Some(a) = by {
            d.severity = crate::diag::Severity::Note;
            d.notes.push(format!(
                "acknowledged by `allow: [{}]` on {}",
                d.code.id, a.what
            ));
        }
    }
}
