//! The switches' lowering as jobs other threads may join: `check` and `build` lower on
//! a thread of their own beside the checks, and the checks' thread, once done, takes
//! the switches not yet lowered instead of waiting (sc16's lowering was the longer
//! side by about a third).

use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

use super::{Lx, qos, rules, vendor};
use crate::compile::Front;
use crate::diag::Diags;
use crate::ir::Switch;
use crate::par::Queue;
use crate::resolve::model::SwitchId;
use crate::spec::switch::OfMode;

/// Where lowering posts its switches' jobs for another thread to join.
#[derive(Default)]
pub(crate) struct Share<'a> {
    jobs: OnceLock<Jobs<'a>>,
}

impl<'a> Share<'a> {
    /// Lowers switches not yet taken, if lowering has posted them; returns at once
    /// otherwise (lowering then does them all itself).
    pub(crate) fn help(&self) {
        if let Some(jobs) = self.jobs.get() {
            jobs.work();
        }
    }

    /// Posts `jobs` for [`Share::help`]; gives them back if this share already holds
    /// another lowering's.
    pub(super) fn publish(&self, jobs: Jobs<'a>) -> Result<&Jobs<'a>, Box<Jobs<'a>>> {
        self.jobs.set(jobs).map_err(Box::new)?;
        Ok(self.jobs.get().expect("set just above"))
    }
}

/// One switch to lower: its id and the RDMA ports and LAGs its queues serve.
pub(super) type Job = (SwitchId, qos::Rdma);

/// Every switch's job and what they all read.
pub(super) struct Jobs<'a> {
    pub(super) front: &'a Front,
    pub(super) vendors: &'static vendor::Vendors,
    /// Each switch's OpenFlow datapath id.
    pub(super) dpids: Vec<Option<u64>>,
    pub(super) plan: crate::derive::bgp::Plan,
    /// Whether the IR is wanted (`build`); `check` wants only the findings.
    pub(super) keep: bool,
    pub(super) queue: Queue<Job, Done>,
}

/// What lowering one switch gave.
pub(super) struct Done {
    pub(super) sw: SwitchId,
    /// Its findings.
    pub(super) diags: Diags,
    /// None when democ has no vendor data for it; else its IR (when kept), its OpenFlow
    /// table, and what the table's port map found.
    pub(super) lowered: Option<(Option<Switch>, Option<rules::Table>, Diags)>,
}

impl Jobs<'_> {
    /// Lowers switches until none is left to take.
    pub(super) fn work(&self) {
        self.queue.work(|job| self.one(job));
    }

    fn one(&self, (sw, rdma): Job) -> Done {
        let m = &self.front.model;
        let s = &m.switches[sw];
        let mut diags = Diags::default();
        let Some((folder, f)) = self.vendors.flavour(&s.vendor, s.os.as_str()) else {
            diags.push(super::no_vendor_data(self.vendors, s));
            return Done {
                sw,
                diags,
                lowered: None,
            };
        };
        let ovs = s
            .openflow
            .as_ref()
            .filter(|o| o.mode == OfMode::Ovs)
            .and(f.openflow.as_ref())
            .and_then(|c| c.ovs.as_ref());
        // A platform's own speed arguments (EOS PAM4 cages) override the flavour's.
        let platform = s.platform.as_deref().and_then(|p| f.platforms.get(p));
        let merged: BTreeMap<String, String>;
        let speeds = match (ovs, platform) {
            (Some(o), _) => &o.speeds,
            (None, Some(p)) if !p.speeds.is_empty() => {
                merged = f
                    .speeds
                    .clone()
                    .into_iter()
                    .chain(p.speeds.clone())
                    .collect();
                &merged
            }
            _ => &f.speeds,
        };
        let mut lx = Lx {
            m,
            diags: &mut diags,
            sw,
            f,
            speeds,
            plan: &self.plan,
            segs: &self.front.segments,
            us_per_km: self.front.db.physics.as_ref().map(|p| p.fiber_us_per_km),
            reported: HashSet::new(),
            text: self.keep,
        };
        let ir = super::switch(&mut lx, folder, self.dpids[sw], rdma);
        let mut found = Diags::default();
        let table = rules::table(self.front, self.vendors, &ir, sw, &mut found);
        Done {
            sw,
            diags,
            lowered: Some((self.keep.then_some(ir), table, found)),
        }
    }
}
