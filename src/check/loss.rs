//! TCP on lossy paths: a loss-based stream (CUBIC, Reno) halves its window at each loss,
//! so on a path losing a fraction p of its packets it averages at most
//! MSS / RTT x C / sqrt(p) (Mathis et al. 1997; C in the catalog's physics). BBR paces
//! at the bottleneck rate it measures and is not bounded so by random loss.

use crate::derive::paths::PairRoute;
use crate::resolve::model::{LinkKind, Model};

/// The share of packets a pair's path loses: one minus the product of what each lossy
/// WAN hop delivers.
pub(crate) fn path_loss(m: &Model, pr: &PairRoute) -> f64 {
    let delivered: f64 = pr
        .hops
        .iter()
        .filter_map(|h| {
            let &l = h.via.links(m).first()?;
            let LinkKind::Wan(w) = m.links[l].kind else {
                return None;
            };
            m.wans[w].loss.as_ref().map(|p| 1.0 - p.value)
        })
        .product();
    (1.0 - delivered).max(0.0)
}

/// The Mathis bound on one loss-based stream, Gbit/s: `mss` payload bytes per segment,
/// `rtt_ms`, loss `p`, constant `c`. None without loss or delay (no bound).
pub(crate) fn mathis_gbps(mss: f64, rtt_ms: f64, p: f64, c: f64) -> Option<f64> {
    (p > 0.0 && rtt_ms > 0.0 && mss > 0.0)
        .then(|| mss * 8.0 / (rtt_ms / 1000.0) * c / p.sqrt() / 1e9)
}

/// Streams of `per_stream` Gbit/s each that carry `demand` Gbit/s.
pub(crate) fn streams_for(demand: f64, per_stream: f64) -> u32 {
    if per_stream <= 0.0 {
        return u32::MAX;
    }
    (demand / per_stream).ceil().clamp(1.0, f64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// L. Cottrell, "Throughput versus loss" (SLAC, 2000), works the bound with C = 1:
    /// MSS 1460 bytes, RTT 37.29 ms, loss 0.001 give 1460 / 0.03729 / sqrt(0.001)
    /// = 1.238 MB/s, 9.90 Mbit/s.
    #[test]
    fn the_worked_example_of_cottrell() {
        let g = mathis_gbps(1460.0, 37.29, 0.001, 1.0).unwrap();
        assert!((g * 1e3 - 9.905).abs() < 0.01, "{} Mbit/s", g * 1e3);
    }

    /// The paper's constant, C = sqrt(3/2): MSS 1460, RTT 100 ms, p = 1e-4 (one packet
    /// in 10,000) give 11.68 x 1.2247 = 14.3 Mbit/s per stream.
    #[test]
    fn the_mathis_constant_scales_the_bound() {
        let g = mathis_gbps(1460.0, 100.0, 1e-4, 1.5f64.sqrt()).unwrap();
        assert!((g * 1e3 - 14.305).abs() < 0.01, "{} Mbit/s", g * 1e3);
        assert_eq!(mathis_gbps(1460.0, 100.0, 0.0, 1.22), None);
        assert_eq!(streams_for(10.0, 0.55), 19);
    }
}
