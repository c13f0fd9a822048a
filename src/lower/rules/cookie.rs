//! Cookies: 64 bits that name the flow, direction and pair of every rule, so rules can
//! be listed, counted, diffed and removed per flow (`cookie=C/MASK` in ovs-ofctl).
//!
//! `0xdc` (democ's tag) | 32-bit flow id | direction bit | 23-bit pair index.
//! The flow id is a hash of the flow's name, so adding, removing or reordering other
//! flows leaves a flow's cookies as they were; names whose hashes collide are told apart
//! by probing in name order (only they can move).

use crate::fxhash::FxSet;
use crate::ir::rules::Direction;

const TAG: u64 = 0xdc << 56;
const PAIR_BITS: u32 = 23;
const DIR_BIT: u64 = 1 << PAIR_BITS;

/// Mask selecting the tag and the flow.
pub(crate) const FLOW_MASK: u64 = !((1 << (PAIR_BITS + 1)) - 1);
/// Mask selecting the tag, the flow and the direction.
pub(crate) const DIRECTION_MASK: u64 = FLOW_MASK | DIR_BIT;
/// The table-miss entry's cookie: the tag and flow id 0, which no flow gets.
pub(crate) const TABLE_MISS: u64 = TAG;

pub(crate) fn hex(c: u64) -> String {
    format!("0x{c:016x}")
}

/// FNV-1a, 32 bits: stable across builds and platforms (unlike std's hasher).
fn fnv1a(bytes: &[u8], salt: u32) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes.iter().copied().chain(salt.to_le_bytes()) {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The flow id of each name (in the given order); never 0, all distinct.
pub(crate) fn flow_ids(names: &[&str]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|a, b| names[*a].cmp(names[*b]));
    let mut taken = FxSet::default();
    taken.insert(0u32);
    let mut out = vec![0; names.len()];
    for i in order {
        let mut salt = 0;
        let mut id = fnv1a(names[i].as_bytes(), salt);
        while !taken.insert(id) {
            salt += 1;
            id = fnv1a(names[i].as_bytes(), salt);
        }
        out[i] = id;
    }
    out
}

/// The cookie of one pair's rules in one direction. Pair indices beyond 23 bits wrap
/// (a flow has at most as many pairs as the show has hosts, far fewer).
pub(crate) fn cookie(flow: u32, dir: Direction, pair: usize) -> u64 {
    let d = match dir {
        Direction::Forward => 0,
        Direction::Reverse => DIR_BIT,
    };
    TAG | (u64::from(flow) << (PAIR_BITS + 1)) | d | (pair as u64 & (DIR_BIT - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_distinct_and_masks_select_them() {
        let a = flow_ids(&["x", "y", "z"]);
        let b = flow_ids(&["z", "new", "x", "y"]);
        assert_eq!(
            (a[0], a[1], a[2]),
            (b[2], b[3], b[0]),
            "other flows do not move an id"
        );
        assert_ne!(a[0], a[1]);
        let c = cookie(a[0], Direction::Reverse, 5);
        assert_eq!(c & FLOW_MASK, cookie(a[0], Direction::Forward, 0));
        assert_eq!(c & DIRECTION_MASK, cookie(a[0], Direction::Reverse, 0));
        assert_eq!(c >> 56, 0xdc);
        assert_ne!(c & FLOW_MASK, TABLE_MISS);
    }

    #[test]
    fn colliding_names_are_told_apart() {
        // Same name twice is the worst collision: the second probes to another id.
        let ids = flow_ids(&["same", "same"]);
        assert_ne!(ids[0], ids[1]);
        assert!(ids.iter().all(|&i| i != 0));
    }
}
