//! One TCP stream's average rate under random loss, per congestion control, with the
//! models and their constants in the catalog (`physics.congestion`, `mathis_c`): Reno by
//! Mathis et al., CUBIC by RFC 9438's response function (never below Reno, its
//! Reno-friendly region), H-TCP by integrating the window growth Linux implements over
//! one loss cycle, BBR unbounded below its loss threshold. Every model uses the
//! deterministic loss model of RFC 9438 section 5: one loss every 1/p packets.

use crate::spec::catalog_file::{HtcpModel, Physics};
use crate::spec::flow::CongestionControl;

/// A lossy path as one stream sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lossy {
    /// Payload bytes per segment.
    pub(crate) mss: f64,
    pub(crate) rtt_ms: f64,
    /// The share of packets lost.
    pub(crate) p: f64,
}

impl Lossy {
    /// Segments per RTT to Gbit/s.
    fn gbps(self, window: f64) -> f64 {
        window * self.mss * 8.0 / (self.rtt_ms / 1000.0) / 1e9
    }
}

/// The model of `cc` under loss, as the plan names it.
pub(crate) fn model(cc: CongestionControl) -> &'static str {
    match cc {
        CongestionControl::Reno => "Mathis et al.: MSS / RTT x C / sqrt(p)",
        CongestionControl::Cubic => {
            "RFC 9438 section 5: (C (3 + beta) / (4 (1 - beta)))^(1/4) x RTT^(3/4) / p^(3/4) segments, at least Reno's"
        }
        CongestionControl::Htcp => {
            "H-TCP's window growth (Leith and Shorten; Linux tcp_htcp) over one loss cycle of 1/p packets"
        }
        CongestionControl::Bbr => {
            "BBR (Cardwell et al.): random loss below its threshold does not lower its rate"
        }
    }
}

/// One stream's average rate, Gbit/s, on `path` with `cc`; None when loss does not bound
/// it (no loss or no delay, or BBR below its threshold).
pub(crate) fn stream_gbps(ph: &Physics, cc: CongestionControl, path: Lossy) -> Option<f64> {
    if !(path.p > 0.0 && path.rtt_ms > 0.0 && path.mss > 0.0) {
        return None;
    }
    let reno = mathis_window(ph.mathis_c, path.p);
    let window = match cc {
        CongestionControl::Reno => reno,
        CongestionControl::Cubic => cubic_window(ph, path).max(reno),
        CongestionControl::Htcp => htcp_window(&ph.congestion.htcp, path).max(reno),
        CongestionControl::Bbr if path.p < ph.congestion.bbr.loss_threshold => return None,
        CongestionControl::Bbr => reno,
    };
    Some(path.gbps(window))
}

/// Mathis et al.: a Reno stream's average window in segments, C / sqrt(p).
fn mathis_window(c: f64, p: f64) -> f64 {
    c / p.sqrt()
}

/// RFC 9438 section 5: the average window in segments.
fn cubic_window(ph: &Physics, path: Lossy) -> f64 {
    let m = &ph.congestion.cubic;
    let rtt_s = path.rtt_ms / 1000.0;
    (m.c * (3.0 + m.beta) / (4.0 * (1.0 - m.beta))).powf(0.25) * rtt_s.powf(0.75)
        / path.p.powf(0.75)
}

/// H-TCP's average window in segments: after a loss the window is beta x W and grows
/// alpha(t) / RTT segments a second, t the time since the loss; the cycle ends when it
/// has carried 1/p packets, at W. Packets carried grow with the cycle's length, so the
/// length is found by bisection.
fn htcp_window(m: &HtcpModel, path: Lossy) -> f64 {
    let rtt_s = path.rtt_ms / 1000.0;
    let rho = (path.rtt_ms / m.rtt_ref_ms).clamp(m.rho_min, m.rho_max);
    let alpha = |t: f64| {
        let u = t - m.delta_l_s;
        let f = if u > 0.0 {
            1.0 + m.a * u + m.b * u * u
        } else {
            1.0
        };
        2.0 * (1.0 - m.beta) * (rho * f).max(1.0)
    };
    // Over a cycle of `len` seconds: the window gained, and the packets carried.
    let cycle = |len: f64| -> (f64, f64) {
        const STEPS: usize = 256;
        let dt = len / STEPS as f64;
        let (mut gained, mut area) = (0.0, 0.0);
        let mut prev = alpha(0.0);
        for i in 1..=STEPS {
            let next = alpha(dt * i as f64);
            let g = gained + (prev + next) / 2.0 * dt / rtt_s;
            area += (gained + g) / 2.0 * dt;
            gained = g;
            prev = next;
        }
        let w = gained / (1.0 - m.beta);
        (w, (m.beta * w * len + area) / rtt_s)
    };
    let want = 1.0 / path.p;
    let mut hi = rtt_s.max(1e-3);
    while cycle(hi).1 < want && hi < 1e7 {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if cycle(mid).1 < want {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let len = (lo + hi) / 2.0;
    // Average window: packets carried per RTT over the cycle.
    want * rtt_s / len
}

/// The first of the other congestion controls that carries `per_pair` Gbit/s with
/// `streams` streams on `path`, with its rate per stream (None: unbounded).
pub(crate) fn reaches(
    ph: &Physics,
    cc: CongestionControl,
    path: Lossy,
    streams: u32,
    per_pair: f64,
) -> Option<CongestionControl> {
    CongestionControl::TABLE
        .iter()
        .map(|&(_, other)| other)
        .filter(|&other| other != cc)
        .find(|&other| {
            stream_gbps(ph, other, path).is_none_or(|g| g * f64::from(streams) >= per_pair)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn physics() -> &'static Physics {
        Box::leak(Box::new(crate::testkit::checks::physics()))
    }

    /// L. Cottrell, "Throughput versus loss" (SLAC, 2000), works the Mathis bound with
    /// C = 1: MSS 1460 bytes, RTT 37.29 ms, loss 0.001 give 1460 / 0.03729 / sqrt(0.001)
    /// = 1.238 MB/s, 9.90 Mbit/s; the paper's C = sqrt(3/2) at MSS 1460, RTT 100 ms,
    /// p = 1e-4 gives 14.3 Mbit/s.
    #[test]
    fn reno_is_the_worked_example_of_cottrell() {
        let at = |mss, rtt_ms, p| Lossy { mss, rtt_ms, p };
        let g = at(1460.0, 37.29, 0.001).gbps(mathis_window(1.0, 0.001));
        assert!((g * 1e3 - 9.905).abs() < 0.01, "{} Mbit/s", g * 1e3);
        let g = at(1460.0, 100.0, 1e-4).gbps(mathis_window(1.5f64.sqrt(), 1e-4));
        assert!((g * 1e3 - 14.305).abs() < 0.01, "{} Mbit/s", g * 1e3);
        let ph = physics();
        let lossless = at(1460.0, 100.0, 0.0);
        assert_eq!(stream_gbps(ph, CongestionControl::Reno, lossless), None);
    }

    /// RFC 9438 section 5.1, Table 1 (RTT 0.1 s): CUBIC with C = 0.4 averages 1054
    /// segments at p = 1e-5 and 187 at 1e-4; Reno's 379 and 120 there (RFC 3649's
    /// 1.2 / sqrt(p); democ's C is 1.22).
    #[test]
    fn cubic_follows_the_table_of_rfc_9438() {
        let ph = physics();
        let w = |p| {
            cubic_window(
                ph,
                Lossy {
                    mss: 1.0,
                    rtt_ms: 100.0,
                    p,
                },
            )
        };
        assert!((w(1e-5) - 1054.0).abs() < 2.0, "{}", w(1e-5));
        assert!((w(1e-4) - 187.0).abs() < 1.0, "{}", w(1e-4));
        // Table 2 (RTT 0.01 s, p = 1e-6): the Reno-friendly region, 1200 segments.
        let short = Lossy {
            mss: 1500.0,
            rtt_ms: 10.0,
            p: 1e-6,
        };
        let g = stream_gbps(ph, CongestionControl::Cubic, short).unwrap();
        let reno = stream_gbps(ph, CongestionControl::Reno, short).unwrap();
        assert_eq!(g, reno);
    }

    /// With H-TCP's growth switched off past delta_l (a = b = 0, rho = 1, beta = 0.5) the
    /// cycle is Reno's, whose average window under deterministic loss is sqrt(3 / (2p)).
    #[test]
    fn htcp_without_its_growth_is_reno() {
        let m = HtcpModel {
            delta_l_s: 1.0,
            a: 0.0,
            b: 0.0,
            beta: 0.5,
            rtt_ref_ms: 100.0,
            rho_min: 1.0,
            rho_max: 1.0,
        };
        let path = Lossy {
            mss: 1.0,
            rtt_ms: 50.0,
            p: 1e-5,
        };
        let w = htcp_window(&m, path);
        let reno = (1.5f64 / 1e-5).sqrt();
        assert!((w / reno - 1.0).abs() < 1e-3, "{w} vs {reno}");
    }

    /// On a long lossy path each loss-based algorithm's order is what its growth says:
    /// Reno < CUBIC < H-TCP; BBR is not bounded below 15 % loss and is above it.
    #[test]
    fn the_algorithms_order_on_a_long_lossy_path() {
        let ph = physics();
        let path = Lossy {
            mss: 8948.0,
            rtt_ms: 100.0,
            p: 1e-5,
        };
        let g = |cc| stream_gbps(ph, cc, path).unwrap();
        let (reno, cubic, htcp) = (
            g(CongestionControl::Reno),
            g(CongestionControl::Cubic),
            g(CongestionControl::Htcp),
        );
        assert!(reno < cubic && cubic < htcp, "{reno} {cubic} {htcp}");
        assert_eq!(stream_gbps(ph, CongestionControl::Bbr, path), None);
        let heavy = Lossy { p: 0.2, ..path };
        assert!(stream_gbps(ph, CongestionControl::Bbr, heavy).is_some());
        assert_eq!(
            reaches(ph, CongestionControl::Reno, path, 1, 10.0),
            Some(CongestionControl::Bbr)
        );
    }
}
