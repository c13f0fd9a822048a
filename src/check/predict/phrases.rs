//! The words for a shared resource, made once per resource and handed out shared: at
//! 100,000 flows the limits of every flow name the same few thousand links, NICs and
//! drives, and formatting each afresh (`res_name`, `capacity_why`, the capacity behind
//! it) was most of a full plan's work.

use std::cell::RefCell;
use std::sync::Arc;

use super::explain::{Why, capacity_why};
use super::{Inputs, capacity};
use crate::fxhash::FxMap;

/// Filled as the prediction asks: `check` explains only the flows that fall short.
pub(super) struct Phrases {
    /// Per resource number, its entry in `entries` (`NONE`: not asked for yet).
    slot: RefCell<Vec<u32>>,
    entries: RefCell<Vec<Entry>>,
    /// A pair's own limits by what they say (`key`): the pairs of one host, one rate,
    /// one RTT say the same.
    said: RefCell<FxMap<[u64; 6], Arc<str>>>,
    /// The text of a flow left unexplained, one allocation for all of them.
    empty: Arc<str>,
    /// Switch names as full plans list them on a flow's path, by switch number.
    switches: RefCell<Vec<Option<Arc<str>>>>,
}

const NONE: u32 = u32::MAX;

struct Entry {
    cap: f64,
    /// What the resource is and carries (`capacity_why`).
    base: Arc<str>,
    /// `base` with the demand sharing it, once asked for.
    oversubscribed: Option<Arc<str>>,
    /// The last payload note made, by (efficiency bits, MTU): the pairs crossing a
    /// resource mostly share one protocol and MTU, and comparing two numbers costs
    /// less than hashing the key `said` would use.
    payload: Option<(u64, u32, Arc<str>)>,
}

/// A resource's capacity and what it is and carries (`capacity_why`).
fn base(i: &Inputs, r: usize) -> (f64, String) {
    let res = i.loads.space.res(r);
    (
        capacity(i.cx, i.facts, i.loads, &res).map_or(0.0, |c| c.0),
        capacity_why(i.cx, i.facts, i.loads, &res),
    )
}

impl Phrases {
    /// For resources numbered below `n`.
    pub(super) fn new(n: usize) -> Phrases {
        Phrases {
            slot: RefCell::new(vec![NONE; n]),
            entries: RefCell::new(Vec::new()),
            said: RefCell::new(FxMap::default()),
            empty: Arc::from(""),
            switches: RefCell::new(Vec::new()),
        }
    }

    /// Switch `s`'s name, one allocation per switch.
    pub(super) fn switch(&self, m: &crate::resolve::model::Model, s: usize) -> Arc<str> {
        let mut names = self.switches.borrow_mut();
        if names.len() <= s {
            names.resize(m.switches.len().max(s + 1), None);
        }
        names[s]
            .get_or_insert_with(|| Arc::from(m.switches[s].name.value.as_str()))
            .clone()
    }

    pub(super) fn empty(&self) -> Arc<str> {
        self.empty.clone()
    }

    /// The words for `why` at `rate`, made by `make` the first time they are asked for.
    pub(super) fn said(&self, why: Why, rate: f64, make: impl FnOnce() -> Arc<str>) -> Arc<str> {
        let k = key(why, rate);
        if let Some(text) = self.said.borrow().get(&k) {
            return text.clone();
        }
        // Not borrowed while `make` runs, whatever it asks for.
        let text = make();
        self.said.borrow_mut().insert(k, text.clone());
        text
    }

    /// Why a pair stops at resource number `r` (`Why::Shared`): what it carries, and
    /// the demand sharing it when that is more, else the payload share of its wire.
    pub(super) fn shared(&self, i: &Inputs, r: usize, eff: f64, mtu: u32) -> Arc<str> {
        let mut slot = self.slot.borrow_mut();
        let mut entries = self.entries.borrow_mut();
        if slot[r] == NONE {
            slot[r] = entries.len() as u32;
            let (cap, base) = base(i, r);
            entries.push(Entry {
                cap,
                base: base.into(),
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

/// Everything the words of `why` at `rate` depend on, as bits: equal keys, equal words.
fn key(why: Why, rate: f64) -> [u64; 6] {
    let b = f64::to_bits;
    match why {
        Why::Demand => [0, b(rate), 0, 0, 0, 0],
        Why::Shared { res, eff, mtu } => [1, res as u64, b(eff), mtu.into(), 0, 0],
        Why::LagHash {
            lag,
            streams,
            used,
            by_address,
        } => [
            2,
            lag as u64,
            streams.into(),
            used as u64,
            by_address.into(),
            0,
        ],
        Why::Cpu {
            host,
            streams,
            per_stream,
            numa,
            gain,
        } => [
            3,
            host as u64,
            streams.into(),
            b(per_stream),
            numa.into(),
            b(gain),
        ],
        Why::Window { streams, rtt_ms } => [4, streams.into(), b(rtt_ms), 0, 0, 0],
        Why::BlackHole { host_mtu, path_mtu } => [5, host_mtu.into(), path_mtu.into(), 0, 0, 0],
        Why::Pacing { flow, pair } => [7, flow as u64, pair as u64, b(rate), 0, 0],
        Why::Loss {
            cc,
            streams,
            per_stream,
            loss,
            rtt_ms,
            mss: _,
        } => [
            6 | (cc as u64) << 8,
            streams.into(),
            b(per_stream),
            b(loss),
            b(rtt_ms),
            b(rate),
        ],
    }
}
