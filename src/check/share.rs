//! Max-min fair sharing of the resources among the routed pairs (progressive filling):
//! every pair's rate rises at the same pace until it reaches its own ceiling (its
//! demand, CPU, TCP window, LAG hashing) or a resource it crosses is full; then it stays
//! there and the others go on. A pair that asks for more than a link holds therefore
//! takes only what the others leave it, and never pushes them below their fair share
//! (sharing in proportion to demand let one oversized flow starve every flow beside it).
//!
//! Events come in order of level from two sources: the pairs' ceilings, sorted once,
//! and the level each resource fills at, in an indexed heap (`fills`) updated once per
//! step for each resource the step's frozen pairs touched. Each pair freezes once and
//! touches its resources once: O(items log resources).

mod fills;
#[cfg(test)]
mod reference;
mod users;

use fills::Fills;
use users::Users;

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

/// The pairs' ceilings, and (`fills::key` of the ceiling, pair) in order.
type Sorted = (Vec<f64>, Vec<(u64, u32)>);

/// The pairs' ceilings (never below zero) and the pairs sorted once by (level, pair),
/// the order the events of the first implementation came in (`reference`). Sorted as
/// plain integers: `fills::key` orders as `total_cmp` does, and comparing (key, pair)
/// tuples costs less than looking both ceilings up in every comparison.
fn sorted_ceilings(p: &Problem) -> Sorted {
    let ceiling: Vec<f64> = p.ceilings.iter().map(|c| c.max(0.0)).collect();
    let mut order: Vec<(u64, u32)> = ceiling
        .iter()
        .enumerate()
        .map(|(q, &c)| (fills::key(c), q as u32))
        .collect();
    order.sort_unstable();
    (ceiling, order)
}

/// Each pair's rate and what stopped it.
pub(crate) fn max_min(p: &Problem) -> Vec<(f64, Stop)> {
    let n = p.ceilings.len();
    let nres = p.capacity.len();
    // Which pairs use each resource, and per resource the coefficients of the active
    // pairs (`active`) and the load of the frozen ones (`frozen`); the ceilings never
    // move, so they are sorted once.
    let users = Users::new(p);
    let (ceiling, order) = sorted_ceilings(p);
    let (mut active, mut frozen) = (users.active.clone(), vec![0.0f64; nres]);
    // Full resources are out of `fills` for good.
    let mut full = vec![false; nres];
    let mut out: Vec<Option<(f64, Stop)>> = vec![None; n];
    let fill = |r: usize, active: &[f64], frozen: &[f64]| {
        let cap = p.capacity[r]?;
        (active[r] > 1e-12).then(|| ((cap - frozen[r]) / active[r]).max(0.0))
    };
    let mut fills = Fills::new(nres);
    for r in 0..nres {
        fills.set(r, fill(r, &active, &frozen));
    }
    let mut level: f64 = 0.0;
    let mut stopped = Vec::new();
    // Resources whose fill level the step changed (`touched[r]`: listed already).
    let (mut dirty, mut touched) = (Vec::new(), vec![false; nres]);
    let mut k = 0;
    loop {
        while k < n && out[order[k].1 as usize].is_some() {
            k += 1;
        }
        let pair = order
            .get(k)
            .map(|&(_, q)| (q as usize, ceiling[q as usize]));
        // A ceiling reached at the same level as a resource fills counts as the ceiling.
        let at = match (pair, fills.first()) {
            (Some((q, c)), Some((_, l))) if c.total_cmp(&l).is_le() => {
                stopped.push((q, Stop::Ceiling));
                c
            }
            (_, Some((r, l))) => {
                fills.take(r);
                full[r] = true;
                stopped.extend(users.stopped_by(r, &out));
                l
            }
            (Some((q, c)), None) => {
                stopped.push((q, Stop::Ceiling));
                c
            }
            (None, None) => break,
        };
        // Levels only rise: rounding must not hand a pair less than one stopped before.
        level = level.max(at);
        for (q, why) in stopped.drain(..) {
            // A pair listing a resource twice is among its users twice.
            if out[q].is_some() {
                continue;
            }
            out[q] = Some((level, why));
            for &(r, c) in &p.items[p.pairs[q]..p.pairs[q + 1]] {
                let r = r as usize;
                active[r] -= c;
                frozen[r] += c * level;
                if !full[r] && !touched[r] {
                    touched[r] = true;
                    dirty.push(r);
                }
            }
        }
        // Once per step: the level a resource fills at depends only on its sums after
        // every pair the step froze.
        for r in dirty.drain(..) {
            touched[r] = false;
            fills.set(r, fill(r, &active, &frozen));
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

    /// Problems rich in ties (levels on a coarse grid, equal capacities) and in pairs
    /// listing a resource twice, where the order events are taken in shows.
    fn tied_problem() -> impl Strategy<Value = Case> {
        (1usize..8, 1usize..40).prop_flat_map(|(nres, npairs)| {
            (
                proptest::collection::vec((0u8..12).prop_map(|x| f64::from(x) * 5.0), npairs),
                proptest::collection::vec(
                    proptest::collection::vec(
                        (0..nres as u32, (1u8..5).prop_map(|x| f64::from(x) * 0.5)),
                        0..5,
                    ),
                    npairs,
                ),
                proptest::collection::vec(
                    proptest::option::weighted(0.8, (0u8..10).prop_map(|x| f64::from(x) * 10.0)),
                    nres,
                ),
            )
        })
    }

    fn same_bits(a: &[(f64, Stop)], b: &[(f64, Stop)]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.0.to_bits() == y.0.to_bits() && x.1 == y.1)
    }

    /// Each pair's rate and stop.
    type Shares = Vec<(f64, Stop)>;

    /// The problem solved by both implementations: (this one, the reference).
    fn both(case: &Case) -> (Shares, Shares) {
        let (ceil, uses, caps) = case;
        let mut pairs = vec![0];
        let mut items = Vec::new();
        for u in uses {
            items.extend_from_slice(u);
            pairs.push(items.len());
        }
        let p = Problem {
            ceilings: ceil,
            pairs: &pairs,
            items: &items,
            capacity: caps,
        };
        (max_min(&p), reference::max_min(&p))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The sorted ceilings and the indexed heap give the first implementation's
        /// every bit: same rates, same stops.
        #[test]
        fn same_bits_as_the_reference_with_ties(case in tied_problem()) {
            let (new, old) = both(&case);
            prop_assert!(same_bits(&new, &old), "{new:?} != {old:?}");
        }

        #[test]
        fn same_bits_as_the_reference(case in problem()) {
            let (new, old) = both(&case);
            prop_assert!(same_bits(&new, &old), "{new:?} != {old:?}");
        }
    }
}
