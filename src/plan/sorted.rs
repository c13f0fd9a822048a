//! A flow's prediction and a link's use written as a `serde_json::Value` of them prints
//! (keys sorted, `to_string_pretty`'s layout at their depth), but straight into the
//! output: building a `Value` (a `BTreeMap` and a `String` per key and per text) for
//! each of 100,000 flows was most of the time `plan.json` took, and serializing through
//! serde_json's escaper still was, for keys known here to need no escaping. The keys
//! must follow the structs' serde names; `tests::same_as_values` holds them to it.
//! `emit::flows_json` writes the flows' IR with the same pieces.

use std::io::Write as _;

use crate::check::predict::{FlowPrediction, Limit, LinkUse};

/// An object or array being written: its depth, and whether it has a member yet.
pub(crate) struct Open {
    depth: usize,
    first: bool,
}

const SPACES: &[u8] = b"                                ";

/// What goes before a member: a comma (not before the first), a newline and the
/// indentation, up to 32 levels deep as one copy.
const BREAK: &[u8] = b",\n                                                                ";

fn indent(out: &mut Vec<u8>, depth: usize) {
    let mut n = 2 * depth;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.extend_from_slice(&SPACES[..k]);
        n -= k;
    }
}

impl Open {
    pub(crate) fn new(out: &mut Vec<u8>, depth: usize, bracket: u8) -> Open {
        out.push(bracket);
        Open {
            depth: depth + 1,
            first: true,
        }
    }

    /// The separator and indentation before the next member.
    pub(crate) fn next(&mut self, out: &mut Vec<u8>) {
        match BREAK.get(usize::from(self.first)..2 + 2 * self.depth) {
            Some(b) => out.extend_from_slice(b),
            None => {
                out.extend_from_slice(if self.first { b"\n" } else { b",\n" });
                indent(out, self.depth);
            }
        }
        self.first = false;
    }

    /// A key (plain ASCII, no escapes) and its separator.
    pub(crate) fn key(&mut self, out: &mut Vec<u8>, k: &str) {
        self.next(out);
        out.push(b'"');
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(b"\": ");
    }

    pub(crate) fn close(self, out: &mut Vec<u8>, bracket: u8) {
        if !self.first {
            out.push(b'\n');
            indent(out, self.depth - 1);
        }
        out.push(bracket);
    }
}

/// Whether serde_json writes `s` as it is: no control character, quote or backslash.
/// Sixteen bytes at a time, each run tested without an early exit so the compiler
/// vectorizes it: a test and a branch per byte was 3 % of a large build.
fn plain(s: &str) -> bool {
    let clean = |c: &[u8]| {
        c.iter()
            .fold(true, |ok, &b| ok & (b >= 0x20) & (b != b'"') & (b != b'\\'))
    };
    let chunks = s.as_bytes().chunks_exact(16);
    let rest = chunks.remainder();
    chunks.into_iter().all(clean) && clean(rest)
}

/// A JSON string as serde_json escapes it: most need no escape and are copied whole.
pub(crate) fn string(out: &mut Vec<u8>, s: &str) {
    if plain(s) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Into memory: cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// A number as serde_json prints it (`null` when not finite).
pub(crate) fn number(out: &mut Vec<u8>, v: f64) {
    let bits = v.to_bits();
    WRITTEN.with_borrow_mut(|memo| {
        let (key, len, text) = &mut memo[slot(bits)];
        if *len > 0 && *key == bits {
            out.extend_from_slice(&text[..usize::from(*len)]);
            return;
        }
        let start = out.len();
        let _ = serde_json::to_writer(&mut *out, &v);
        let made = &out[start..];
        if let Ok(n) = u8::try_from(made.len()) {
            if made.len() <= text.len() {
                text[..made.len()].copy_from_slice(made);
                (*key, *len) = (bits, n);
            }
        }
    });
}

/// Slots of the memo of numbers written (2^MEMO_BITS).
const MEMO_BITS: u32 = 6;

/// The memo's slot for a number's bits: the top bits of their product with 2^64 over
/// the golden ratio (Fibonacci hashing), which spreads nearby values apart.
fn slot(bits: u64) -> usize {
    (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO_BITS)) as usize
}

thread_local! {
    /// Numbers written on this thread lately, by their bits, with their text (a length
    /// of 0: an empty slot). A plan states a few figures over and over (each link's
    /// capacity, each CPU's per-stream rate, the demands), 1.2 million times at 100,000
    /// flows, and formatting each afresh was 2 % of a large build.
    static WRITTEN: std::cell::RefCell<[(u64, u8, [u8; 24]); 1 << MEMO_BITS]> =
        const { std::cell::RefCell::new([(0, 0, [0; 24]); 1 << MEMO_BITS]) };
}

pub(crate) fn integer(out: &mut Vec<u8>, v: impl std::fmt::Display) {
    let _ = write!(out, "{v}");
}

/// A text, or `null`.
pub(crate) fn optional(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

fn boolean(out: &mut Vec<u8>, v: bool) {
    out.extend_from_slice(if v { b"true" } else { b"false" });
}

fn strings<'s>(out: &mut Vec<u8>, depth: usize, items: impl Iterator<Item = &'s str>) {
    let mut a = Open::new(out, depth, b'[');
    for s in items {
        a.next(out);
        string(out, s);
    }
    a.close(out, b']');
}

/// An array `depth` levels deep, each item written a level deeper by `item`.
pub(crate) fn array<T>(
    out: &mut Vec<u8>,
    depth: usize,
    items: &[T],
    item: fn(&mut Vec<u8>, usize, &T),
) {
    let mut a = Open::new(out, depth, b'[');
    for x in items {
        a.next(out);
        item(out, depth + 1, x);
    }
    a.close(out, b']');
}

// Each limit written afresh: a memo of the bytes of limits written before (by their
// words' address, rate, kind and depth) missed the cache twice per limit at 100,000
// flows (its table, then its bytes), where writing reads the words once; plan.json
// took about a sixth less CPU without it (perf samples, largest build).
fn limit(out: &mut Vec<u8>, depth: usize, l: &Limit) {
    let mut o = Open::new(out, depth, b'{');
    if let Some(fix) = &l.fix {
        o.key(out, "fix");
        string(out, fix);
    }
    o.key(out, "gbps");
    number(out, l.gbps);
    o.key(out, "kind");
    string(out, l.kind.name());
    o.key(out, "why");
    string(out, &l.why);
    o.close(out, b'}');
}

/// A flow's prediction, `depth` levels deep.
pub(crate) fn flow(out: &mut Vec<u8>, depth: usize, f: &FlowPrediction) {
    let mut o = Open::new(out, depth, b'{');
    let inner = depth + 1;
    o.key(out, "bottleneck");
    limit(out, inner, &f.bottleneck);
    o.key(out, "demand_gbps");
    number(out, f.demand_gbps);
    o.key(out, "expect_infeasible");
    boolean(out, f.expect_infeasible);
    o.key(out, "feasible");
    boolean(out, f.feasible);
    o.key(out, "limits");
    array(out, inner, &f.limits, limit);
    o.key(out, "name");
    string(out, &f.name);
    o.key(out, "needs_rules");
    strings(out, inner, f.needs_rules.iter().map(String::as_str));
    o.key(out, "numa_remote");
    optional(out, f.numa_remote);
    o.key(out, "pairs");
    integer(out, f.pairs);
    o.key(out, "path");
    strings(out, inner, f.path.iter().map(|s| &**s));
    o.key(out, "predicted_gbps");
    number(out, f.predicted_gbps);
    o.key(out, "protocol");
    string(out, f.protocol);
    o.key(out, "rtt_ms");
    number(out, f.rtt_ms);
    o.key(out, "streams_per_pair");
    integer(out, f.streams_per_pair);
    o.close(out, b'}');
}

/// A link direction's use, `depth` levels deep, its flows by name (`names` maps a
/// flow's index; those without a name are left out).
pub(crate) fn link<'a>(
    out: &mut Vec<u8>,
    depth: usize,
    u: &LinkUse,
    names: impl Fn(usize) -> Option<&'a str>,
) {
    let mut o = Open::new(out, depth, b'{');
    o.key(out, "capacity_gbps");
    number(out, u.capacity_gbps);
    o.key(out, "direction");
    string(out, &u.direction);
    o.key(out, "flows");
    strings(out, depth + 1, u.flows.iter().filter_map(|&i| names(i)));
    o.key(out, "link");
    string(out, &u.link);
    o.key(out, "load_gbps");
    number(out, u.load_gbps);
    o.key(out, "utilization_pct");
    number(out, u.utilization_pct);
    o.close(out, b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::predict::LimitKind;

    /// `v` as `to_string_pretty` prints it, nested `depth` levels deep.
    fn pretty(v: &serde_json::Value, depth: usize) -> String {
        let pad = format!("\n{}", "  ".repeat(depth));
        serde_json::to_string_pretty(v).unwrap().replace('\n', &pad)
    }

    fn written(write: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        write(&mut out);
        String::from_utf8(out).unwrap()
    }

    fn limit(fix: Option<&str>, gbps: f64) -> Limit {
        Limit {
            kind: LimitKind::Lag,
            gbps,
            why: "a \"quoted\"\nwhy \\ é".into(),
            fix: fix.map(str::to_owned),
        }
    }

    /// Remembered or not, a number is written as serde_json writes it: each value three
    /// times in a row (the last two from the memo), then each between two writes of
    /// another value in its slot (the key tells them apart), over values that share
    /// slots, signed zeros, non-finite values and the longest texts.
    #[test]
    fn numbers_as_serde_json_writes_them() {
        let mut values = vec![
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            f64::MAX,
            -f64::MAX,
            5e-324,
            99.0042044700155,
            2863311.5293333335,
            0.4,
            68.0,
            1e21,
            123456789012345680.0,
        ];
        // Bit patterns over the whole range, so that many share a slot.
        let mut x: u64 = 0x0123_4567_89ab_cdef;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            values.push(f64::from_bits(x));
        }
        let check = |v: f64| {
            let want = serde_json::to_string(&v).unwrap();
            assert_eq!(written(|o| number(o, v)), want, "{v:e}");
        };
        for &v in &values {
            for _ in 0..3 {
                check(v);
            }
        }
        // Each value between two writes of another in its slot: the second write of
        // the first finds the other's text there and must not take it.
        let mut by_slot = vec![Vec::new(); 1 << MEMO_BITS];
        for &v in &values {
            by_slot[slot(v.to_bits())].push(v);
        }
        let mut pairs = 0;
        for run in &by_slot {
            for w in run.windows(2).filter(|w| w[0].to_bits() != w[1].to_bits()) {
                check(w[0]);
                check(w[1]);
                check(w[0]);
                pairs += 1;
            }
        }
        assert!(pairs > 1000, "only {pairs} pairs of values shared a slot");
    }

    /// The run-at-a-time test says what a test per byte says, wherever the byte is.
    #[test]
    fn plain_is_the_bytewise_test() {
        let bytewise = |s: &str| s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\');
        for len in 0..40 {
            let clean = "é".repeat(len / 2) + &"a".repeat(len % 2);
            assert!(plain(&clean) && bytewise(&clean));
            for at in 0..clean.len() {
                if !clean.is_char_boundary(at) {
                    continue;
                }
                for bad in ["\"", "\\", "\n", "\u{1f}", "\u{0}"] {
                    let s = format!("{}{bad}{}", &clean[..at], &clean[at..]);
                    assert_eq!(plain(&s), bytewise(&s), "{s:?}");
                    assert!(!plain(&s));
                }
                let s = format!("{}\u{7f} ~{}", &clean[..at], &clean[at..]);
                assert!(plain(&s) && bytewise(&s));
            }
        }
    }

    /// Written in place, a flow and a link print as their `Value`s do (the reference:
    /// serde's derived fields, sorted by `serde_json`'s map), at any depth.
    #[test]
    fn same_as_values() {
        let mut f = FlowPrediction {
            name: "f-1\t".into(),
            protocol: "tcp",
            pairs: 2,
            streams_per_pair: 3,
            demand_gbps: 10.0,
            predicted_gbps: 9.5,
            feasible: true,
            expect_infeasible: false,
            bottleneck: limit(Some("fix it"), 1.25),
            limits: vec![limit(None, f64::NAN), limit(Some("x"), f64::INFINITY)],
            rtt_ms: 0.006,
            path: vec!["a".into(), "b".into()],
            numa_remote: Some("drives and a NIC"),
            needs_rules: vec!["sw".into()],
        };
        for _ in 0..2 {
            let want = serde_json::to_value(&f).unwrap();
            for depth in [0, 2, 20] {
                assert_eq!(written(|o| flow(o, depth, &f)), pretty(&want, depth));
            }
            f.bottleneck.fix = None;
            f.limits.clear();
            f.path.clear();
            f.numa_remote = None;
        }
        let u = LinkUse {
            link: "a:p0 -> b:1/1".into(),
            direction: "a->b".into(),
            load_gbps: 3.0,
            capacity_gbps: 100.0,
            utilization_pct: 3.0,
            flows: vec![0, 7, 1],
        };
        let names = ["x", "y"];
        let mut want = serde_json::to_value(&u).unwrap();
        want["flows"] = serde_json::json!(["x", "y"]);
        assert_eq!(
            written(|o| link(o, 2, &u, |i| names.get(i).copied())),
            pretty(&want, 2)
        );
    }
}
