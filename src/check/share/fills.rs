//! The level at which each resource fills up, as an indexed min-heap: one entry per
//! resource, moved in place when its level changes. The heap of events it replaces
//! pushed a new entry at every change and skipped the stale ones when popped, so it
//! grew with every item of every frozen pair (`BinaryHeap::pop` was 10-13 % of a build).

/// Resources ordered by (level, number): the number breaks ties, so the smallest entry
/// does not depend on the order the levels were set in.
pub(super) struct Fills {
    /// (`key` of the level, resource): kept in the heap itself, so sifting compares
    /// integers in place instead of looking each level up (half of `max_min` before).
    heap: Vec<(u64, u32)>,
    /// Where each resource sits in `heap` (`ABSENT`: not in it).
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

/// An integer that orders as `f64::total_cmp` orders the levels: positive numbers keep
/// their bits above the negative ones, negative ones are flipped so larger magnitudes
/// come first.
pub(super) fn key(level: f64) -> u64 {
    let b = level.to_bits();
    if b >> 63 == 1 { !b } else { b | 1 << 63 }
}

/// The level `key` was made from.
fn level(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

impl Fills {
    pub(super) fn new(n: usize) -> Fills {
        Fills {
            heap: Vec::with_capacity(n),
            pos: vec![ABSENT; n],
        }
    }

    /// The resource that fills first, with its level.
    pub(super) fn first(&self) -> Option<(usize, f64)> {
        self.heap.first().map(|&(k, r)| (r as usize, level(k)))
    }

    /// Sets resource `r` to fill at `level`, or takes it out (None: it fills never).
    pub(super) fn set(&mut self, r: usize, level: Option<f64>) {
        let at = self.pos[r];
        match (level, at) {
            (Some(l), ABSENT) => {
                self.heap.push((key(l), r as u32));
                let last = self.heap.len() - 1;
                self.pos[r] = last as u32;
                self.up(last);
            }
            (Some(l), _) => {
                // Only one way can move: max-min raises the levels, mostly.
                let (at, k) = (at as usize, key(l));
                let old = std::mem::replace(&mut self.heap[at].0, k);
                if k > old {
                    self.down(at);
                } else {
                    self.up(at);
                }
            }
            (None, ABSENT) => {}
            (None, _) => self.remove(at as usize),
        }
    }

    /// Takes resource `r` out, if it is in.
    pub(super) fn take(&mut self, r: usize) {
        self.set(r, None);
    }

    fn place(&mut self, i: usize, e: (u64, u32)) {
        self.heap[i] = e;
        self.pos[e.1 as usize] = i as u32;
    }

    fn remove(&mut self, i: usize) {
        let r = self.heap[i].1;
        self.pos[r as usize] = ABSENT;
        let last = self.heap.pop().expect("an entry to remove");
        if i < self.heap.len() {
            self.place(i, last);
            let j = self.up(i);
            self.down(j);
        }
    }

    /// Moves the entry at `i` toward the root while it is smaller; returns where it ends.
    fn up(&mut self, mut i: usize) -> usize {
        let e = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if e >= self.heap[parent] {
                break;
            }
            self.place(i, self.heap[parent]);
            i = parent;
        }
        self.place(i, e);
        i
    }

    fn down(&mut self, mut i: usize) {
        let e = self.heap[i];
        let n = self.heap.len();
        loop {
            let mut child = 2 * i + 1;
            if child >= n {
                break;
            }
            if child + 1 < n && self.heap[child + 1] < self.heap[child] {
                child += 1;
            }
            if self.heap[child] >= e {
                break;
            }
            self.place(i, self.heap[child]);
            i = child;
        }
        self.place(i, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `key` orders as `total_cmp` and gives the level back.
        #[test]
        fn key_orders_as_total_cmp(a in proptest::num::f64::ANY, b in proptest::num::f64::ANY) {
            prop_assert_eq!(key(a).cmp(&key(b)), a.total_cmp(&b));
            prop_assert_eq!(level(key(a)).to_bits(), a.to_bits());
        }

        /// After any sequence of sets and removals the first entry is the smallest
        /// (level, number) of those in.
        #[test]
        fn first_is_the_smallest(ops in proptest::collection::vec((0usize..12, proptest::option::weighted(0.8, 0u8..6)), 0..80)) {
            let mut f = Fills::new(12);
            let mut model: Vec<Option<f64>> = vec![None; 12];
            for (r, l) in ops {
                let l = l.map(f64::from);
                f.set(r, l);
                model[r] = l;
                let want = model
                    .iter()
                    .enumerate()
                    .filter_map(|(r, l)| l.map(|l| (r, l)))
                    .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                prop_assert_eq!(f.first(), want);
            }
        }
    }
}
