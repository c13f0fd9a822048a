//! Every limit that binds a pair, not only the first found: when a LAG member and the
//! receiver's NIC both stop a pair at 9.9 Gbit/s, raising one of them changes nothing,
//! so the bottleneck must name both (issue 13 §5).
//!
//! Under max-min sharing a resource binds a pair when it is full and no pair crossing it
//! got more (the textbook bottleneck of max-min fairness); a ceiling of the pair's own
//! binds when the pair got all of it.

use super::{Inputs, LimitKind, PairCeiling, Why};

/// Two limits closer than this share of the rate are the same limit: what one of them
/// lets through, the other does too at the precision the plan prints (0.1 Gbit/s of 100).
const TIE: f64 = 1e-3;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TIE * a.abs().max(b.abs())
}

/// Per resource, whether the shares fill it and the largest share of a pair crossing it.
pub(super) struct Saturation {
    full: Vec<bool>,
    top: Vec<f64>,
}

impl Saturation {
    /// From the pairs' items (`coef`, weighted as the sharing counted them), the
    /// capacities and the shares.
    pub(super) fn new(
        pairs: &[usize],
        coef: &[(u32, f64)],
        capacity: &[Option<f64>],
        shares: &[(f64, super::Stop)],
    ) -> Saturation {
        let mut load = vec![0.0f64; capacity.len()];
        let mut top = vec![0.0f64; capacity.len()];
        for (q, &(got, _)) in shares.iter().enumerate() {
            for &(r, c) in &coef[pairs[q]..pairs[q + 1]] {
                load[r as usize] += c * got;
                top[r as usize] = top[r as usize].max(got);
            }
        }
        let full = load
            .iter()
            .zip(capacity)
            .map(|(&l, c)| c.is_some_and(|c| l >= c * (1.0 - TIE)))
            .collect();
        Saturation { full, top }
    }
}

/// The limits besides `first` that bind pair `p` at the rate it got; `own` are the
/// pair's own ceilings, as `ceiling` found them.
pub(super) fn also_binding(
    i: &Inputs,
    p: usize,
    c: &PairCeiling,
    got: f64,
    sat: &Saturation,
    own: &[(f64, LimitKind, Why)],
) -> Vec<(LimitKind, Why)> {
    let mut out: Vec<(LimitKind, Why)> = own
        .iter()
        .filter(|&&(g, _, w)| close(g, got) && !matches!(w, Why::Demand))
        .map(|&(_, k, w)| (k, w))
        .collect();
    for &(r, _) in i.used.of(p) {
        let r = r as usize;
        let Some((_, kind)) = i.caps[r] else { continue };
        if sat.full[r] && (got >= sat.top[r] || close(got, sat.top[r])) {
            let why = Why::Shared {
                res: r,
                eff: c.eff,
                mtu: c.mtu,
            };
            out.push((kind, why));
        }
    }
    out
}
