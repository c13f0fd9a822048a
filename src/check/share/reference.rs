//! The first implementation of `max_min`, one binary heap of every event with stale
//! entries skipped, kept to prove the faster one gives the same bits (`share::tests`).

use super::users::Users;
use super::{Problem, Stop};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A heap entry: level at which `what` happens; smallest level first.
#[derive(PartialEq)]
struct Event {
    level: f64,
    /// Pairs first (a ceiling reached at the same level as a resource fills counts as
    /// the ceiling), then resources; `stamp` tells stale resource entries apart.
    what: (u8, u32),
    stamp: u32,
}

impl Eq for Event {}

impl Ord for Event {
    fn cmp(&self, o: &Self) -> Ordering {
        o.level
            .total_cmp(&self.level)
            .then_with(|| o.what.cmp(&self.what))
            .then_with(|| o.stamp.cmp(&self.stamp))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Each pair's rate and what stopped it.
pub(super) fn max_min(p: &Problem) -> Vec<(f64, Stop)> {
    let n = p.ceilings.len();
    let nres = p.capacity.len();
    // Which pairs use each resource, and per resource the coefficients of the active
    // pairs (`active`) and the load of the frozen ones (`frozen`).
    let users = Users::new(p);
    let mut active = users.active.clone();
    let mut frozen = vec![0.0f64; nres];
    let mut stamp = vec![0u32; nres];
    let mut full = vec![false; nres];
    let mut out: Vec<Option<(f64, Stop)>> = vec![None; n];
    let mut heap = BinaryHeap::with_capacity(n + nres);
    for (q, &c) in p.ceilings.iter().enumerate() {
        heap.push(Event {
            level: c.max(0.0),
            what: (0, q as u32),
            stamp: 0,
        });
    }
    let fill = |r: usize, active: &[f64], frozen: &[f64], stamp: &[u32]| {
        let cap = p.capacity[r]?;
        (active[r] > 1e-12).then(|| Event {
            level: ((cap - frozen[r]) / active[r]).max(0.0),
            what: (1, r as u32),
            stamp: stamp[r],
        })
    };
    for r in 0..nres {
        heap.extend(fill(r, &active, &frozen, &stamp));
    }
    let mut level: f64 = 0.0;
    let mut stopped = Vec::new();
    while let Some(e) = heap.pop() {
        let (kind, id) = (e.what.0, e.what.1 as usize);
        stopped.clear();
        if kind == 0 {
            if out[id].is_some() {
                continue;
            }
            stopped.push((id, Stop::Ceiling));
        } else {
            if full[id] || e.stamp != stamp[id] {
                continue;
            }
            full[id] = true;
            stopped.extend(users.stopped_by(id, &out));
        }
        // Levels only rise: rounding must not hand a pair less than one stopped before.
        level = level.max(e.level);
        for &(q, why) in &stopped {
            if out[q].is_some() {
                continue;
            }
            out[q] = Some((level, why));
            for &(r, c) in &p.items[p.pairs[q]..p.pairs[q + 1]] {
                let r = r as usize;
                active[r] -= c;
                frozen[r] += c * level;
                if !full[r] {
                    stamp[r] += 1;
                    heap.extend(fill(r, &active, &frozen, &stamp));
                }
            }
        }
    }
    out.into_iter()
        .map(|x| x.unwrap_or((0.0, Stop::Ceiling)))
        .collect()
}
