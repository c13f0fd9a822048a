//! Which pairs use each resource (compressed rows), and per resource the sum of the
//! coefficients its pairs count with there: what both implementations start from.

use super::{Problem, Stop};

pub(super) struct Users {
    /// Users of resource `r`: `users[start[r]..start[r + 1]]`.
    start: Vec<usize>,
    users: Vec<u32>,
    /// Per resource, the sum of its pairs' coefficients (all active at the start).
    pub(super) active: Vec<f64>,
}

impl Users {
    pub(super) fn new(p: &Problem) -> Users {
        let nres = p.capacity.len();
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
        for q in 0..p.ceilings.len() {
            for &(r, c) in &p.items[p.pairs[q]..p.pairs[q + 1]] {
                users[next[r as usize]] = q as u32;
                next[r as usize] += 1;
                active[r as usize] += c;
            }
        }
        Users {
            start,
            users,
            active,
        }
    }

    /// The pairs using resource `r`, a pair once per item naming it.
    pub(super) fn of(&self, r: usize) -> impl Iterator<Item = usize> + '_ {
        self.users[self.start[r]..self.start[r + 1]]
            .iter()
            .map(|&q| q as usize)
    }

    /// The pairs using resource `r` that `out` has not stopped yet, each stopped by it.
    pub(super) fn stopped_by<'a>(
        &'a self,
        r: usize,
        out: &'a [Option<(f64, Stop)>],
    ) -> impl Iterator<Item = (usize, Stop)> + 'a {
        self.of(r)
            .filter(|&q| out[q].is_none())
            .map(move |q| (q, Stop::Full(r as u32)))
    }
}
