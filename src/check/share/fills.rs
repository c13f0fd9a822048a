//! The level at which each resource fills up, as an indexed min-heap: one entry per
//! resource, moved in place when its level changes. The heap of events it replaces
//! pushed a new entry at every change and skipped the stale ones when popped, so it
//! grew with every item of every frozen pair.
//!
//! Max-min raises levels, nearly always: a pair frozen at the current level leaves more
//! room on every resource it crosses for the pairs still rising there. A raised level
//! is therefore only noted (`now`) and the entry left where it was, below where it
//! belongs; it is moved down once it reaches the top, if it ever does. Most never do
//! before they change again, so deferring the move saves most of the heap's work. A
//! lowered level (rounding) still moves up at once, so an entry never sits
//! above its level, and the top, once current, is the smallest.

/// Resources ordered by (level, number): the number breaks ties, so the smallest entry
/// does not depend on the order the levels were set in.
pub(super) struct Fills {
    /// (`key` of a level at most the resource's, resource): kept in the heap itself, so
    /// sifting compares integers in place instead of looking each level up (half of
    /// `max_min` before).
    heap: Vec<(u64, u32)>,
    /// Where each resource sits in `heap` (`ABSENT`: not in it).
    pos: Vec<u32>,
    /// Each resource's `key` of its level as last set (`NEVER`: it fills never).
    now: Vec<u64>,
}

const ABSENT: u32 = u32::MAX;

/// The level of a resource that fills never. No level's `key` is this: only a NaN's
/// could be, and levels are never NaN (they are clamped with `max`, which drops one).
const NEVER: u64 = u64::MAX;

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
            now: vec![NEVER; n],
        }
    }

    /// The resource that fills first, with its level: the top once it is current.
    pub(super) fn first(&mut self) -> Option<(usize, f64)> {
        loop {
            let &(k, r) = self.heap.first()?;
            match self.now[r as usize] {
                now if now == k => return Some((r as usize, level(k))),
                NEVER => self.remove(0),
                now => {
                    self.heap[0].0 = now;
                    self.down(0);
                }
            }
        }
    }

    /// Sets resource `r` to fill at `level`, or takes it out (None: it fills never).
    pub(super) fn set(&mut self, r: usize, level: Option<f64>) {
        let k = level.map_or(NEVER, key);
        self.now[r] = k;
        let at = self.pos[r];
        if at == ABSENT {
            if k != NEVER {
                self.heap.push((k, r as u32));
                let last = self.heap.len() - 1;
                self.pos[r] = last as u32;
                self.up(last);
            }
        } else if k < self.heap[at as usize].0 {
            self.heap[at as usize].0 = k;
            self.up(at as usize);
        }
    }

    /// Takes resource `r` out, if it is in.
    pub(super) fn take(&mut self, r: usize) {
        self.now[r] = NEVER;
        if self.pos[r] != ABSENT {
            self.remove(self.pos[r] as usize);
        }
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
