//! Max-min fair sharing of the resources among the routed pairs (progressive filling):
//! every pair's rate rises at the same pace until it reaches its own ceiling (its
//! demand, CPU, TCP window, LAG hashing) or a resource it crosses is full; then it stays
//! there and the others go on. A pair that asks for more than a link holds therefore
//! takes only what the others leave it, and never pushes them below their fair share
//! (sharing in proportion to demand let one oversized flow starve every flow beside it).
//!
//! Events (a pair reaching its ceiling, a resource filling up) come out of one heap;
//! each pair freezes once and touches its resources once: O(items log items).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What stopped a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Its own ceiling.
    Ceiling,
    /// The resource numbered so, full.
    Full(u32),
}

/// The problem: per pair its ceiling and the resources it uses with the coefficient its
/// rate counts with there (`items[pairs[p]..pairs[p + 1]]`); per resource its capacity
/// (None: unbounded).
pub(crate) struct Problem<'a> {
    pub(crate) ceilings: &'a [f64],
    pub(crate) pairs: &'a [usize],
    pub(crate) items: &'a [(u32, f64)],
    pub(crate) capacity: &'a [Option<f64>],
}

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
pub(crate) fn max_min(p: &Problem) -> Vec<(f64, Stop)> {
    let n = p.ceilings.len();
    let nres = p.capacity.len();
    // Which pairs use each resource (CSR), and per resource the coefficients of the
    // active pairs (`active`) and the load of the frozen ones (`frozen`).
    let mut start = vec![0usize; nres + 1];
    for &(r, _) in p.items {
        start[r as usize + 1] += 1;
    }
    for i in 0..nres {
        start[i + 1] += start[i];
    }
    let mut users = vec![0u32; start[nres]];
    let mut next = start.clone();
    let mut active = vec![0.0f64; nres];
    for q in 0..n {
        for &(r, c) in &p.items[p.pairs[q]..p.pairs[q + 1]] {
            users[next[r as usize]] = q as u32;
            next[r as usize] += 1;
            active[r as usize] += c;
        }
    }
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
            stopped.extend(
                users[start[id]..start[id + 1]]
                    .iter()
                    .map(|&q| q as usize)
                    .filter(|&q| out[q].is_none())
                    .map(|q| (q, Stop::Full(id as u32))),
            );
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn solve(ceilings: &[f64], uses: &[Vec<(u32, f64)>], caps: &[Option<f64>]) -> Vec<(f64, Stop)> {
        let mut pairs = vec![0];
        let mut items = Vec::new();
        for u in uses {
            items.extend_from_slice(u);
            pairs.push(items.len());
        }
        max_min(&Problem {
            ceilings,
            pairs: &pairs,
            items: &items,
            capacity: caps,
        })
    }

    /// The case that motivated it: a 400G flow and a 10G flow on one 100G link. In
    /// proportion to demand the 10G flow got 2.4G; max-min fair it gets all of its 10G.
    #[test]
    fn an_oversized_flow_does_not_starve_a_small_one() {
        let x = solve(
            &[400.0, 10.0],
            &[vec![(0, 1.0)], vec![(0, 1.0)]],
            &[Some(100.0)],
        );
        assert_eq!(x[1], (10.0, Stop::Ceiling));
        assert!((x[0].0 - 90.0).abs() < 1e-9 && x[0].1 == Stop::Full(0));
    }

    /// Ceilings, each pair's (resource, coefficient) items, capacities.
    type Case = (Vec<f64>, Vec<Vec<(u32, f64)>>, Vec<Option<f64>>);

    fn problem() -> impl Strategy<Value = Case> {
        (1usize..6, 1usize..12).prop_flat_map(|(nres, npairs)| {
            (
                proptest::collection::vec(0.0f64..200.0, npairs),
                proptest::collection::vec(
                    proptest::collection::btree_map(0..nres as u32, 0.25f64..2.0, 0..4)
                        .prop_map(|m| m.into_iter().collect::<Vec<_>>()),
                    npairs,
                ),
                proptest::collection::vec(proptest::option::weighted(0.8, 1.0f64..150.0), nres),
            )
        })
    }

    proptest! {
        /// Max-min fairness, by its definition: every pair stays within its ceiling,
        /// every resource within its capacity, and every pair below its ceiling crosses
        /// a full resource on which no other pair gets more than it does (so no pair
        /// could be raised without lowering one that has no more than it).
        #[test]
        fn allocation_is_max_min_fair((ceil, uses, caps) in problem()) {
            let x = solve(&ceil, &uses, &caps);
            let eps = 1e-6;
            let mut load = vec![0.0; caps.len()];
            for (q, u) in uses.iter().enumerate() {
                prop_assert!(x[q].0 <= ceil[q] + eps && x[q].0 >= 0.0);
                for &(r, c) in u {
                    load[r as usize] += c * x[q].0;
                }
            }
            for (r, cap) in caps.iter().enumerate() {
                if let Some(cap) = cap {
                    prop_assert!(load[r] <= cap + eps, "resource {r}: {} > {cap}", load[r]);
                }
            }
            for (q, u) in uses.iter().enumerate() {
                if x[q].0 >= ceil[q] - eps {
                    continue;
                }
                let bottleneck = u.iter().any(|&(r, _)| {
                    let r = r as usize;
                    caps[r].is_some_and(|cap| load[r] >= cap - eps)
                        && uses.iter().enumerate().all(|(o, ou)| {
                            !ou.iter().any(|&(s, _)| s as usize == r) || x[o].0 <= x[q].0 + eps
                        })
                });
                prop_assert!(bottleneck, "pair {q} at {} below its ceiling {} has no bottleneck", x[q].0, ceil[q]);
            }
        }
    }
}
