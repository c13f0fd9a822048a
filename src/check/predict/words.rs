//! The words for a shared resource, made once per resource and handed out shared: at
//! 100,000 flows the limits of every flow name the same few thousand links, NICs and
//! drives, and formatting each afresh (`res_name`, `capacity_why`, the capacity behind
//! it) was most of a full plan's work.

use std::cell::RefCell;
use std::sync::Arc;

use super::{Inputs, capacity, capacity_why};
use crate::check::load::Res;

/// Filled as the prediction asks: `check` explains only the flows that fall short.
pub(super) struct Words {
    /// Per resource number, its entry in `entries` (`NONE`: not asked for yet).
    slot: RefCell<Vec<u32>>,
    entries: RefCell<Vec<Entry>>,
    /// The text of a flow left unexplained, one allocation for all of them.
    empty: Arc<str>,
}

const NONE: u32 = u32::MAX;

struct Entry {
    cap: f64,
    /// What the resource is and carries (`capacity_why`).
    base: Arc<str>,
    /// `base` with the demand sharing it, once asked for.
    oversubscribed: Option<Arc<str>>,
    /// The last payload note made, by (efficiency bits, MTU): the pairs crossing a
    /// resource mostly share one protocol and MTU.
    payload: Option<(u64, u32, Arc<str>)>,
}

impl Words {
    /// For resources numbered below `n`.
    pub(super) fn new(n: usize) -> Words {
        Words {
            slot: RefCell::new(vec![NONE; n]),
            entries: RefCell::new(Vec::new()),
            empty: Arc::from(""),
        }
    }

    pub(super) fn empty(&self) -> Arc<str> {
        self.empty.clone()
    }

    /// Why a pair stops at resource `res` (`Why::Shared`): what it carries, and the
    /// demand sharing it when that is more, else the payload share of its wire.
    pub(super) fn shared(&self, i: &Inputs, res: Res, eff: f64, mtu: u32) -> Arc<str> {
        let r = i.loads.space.index(res);
        let mut slot = self.slot.borrow_mut();
        let mut entries = self.entries.borrow_mut();
        if slot[r] == NONE {
            slot[r] = entries.len() as u32;
            entries.push(Entry {
                cap: capacity(i.cx, i.facts, i.loads, &res).map_or(0.0, |c| c.0),
                base: capacity_why(i.cx, i.facts, i.loads, &res).into(),
                oversubscribed: None,
                payload: None,
            });
        }
        let e = &mut entries[slot[r] as usize];
        let demand = i.loads.demand_at(r) / 1e9;
        if demand > e.cap + 1e-9 {
            let base = &e.base;
            return e
                .oversubscribed
                .get_or_insert_with(|| {
                    format!("{base}, shared by {demand:.0} Gbit/s of demand").into()
                })
                .clone();
        }
        if !(i.loads.space.is_wire(r) && eff < 1.0) {
            return e.base.clone();
        }
        match &e.payload {
            Some((bits, m, text)) if *bits == eff.to_bits() && *m == mtu => text.clone(),
            _ => {
                let text: Arc<str> =
                    format!("{} ({:.1}% payload at MTU {mtu})", e.base, eff * 100.0).into();
                e.payload = Some((eff.to_bits(), mtu, text.clone()));
                text
            }
        }
    }
}
