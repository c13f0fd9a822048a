//! A WAN link with both `rtt_ms` and `length_km`: the declared RTT is the link's latency
//! (`derive::topology::link_latency_us`), and the fiber length only checks it. When the
//! two disagree by more than the catalog's margin, one of them is wrong (W0232).

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes};

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let p = cx.physics;
    for w in &cx.m.wans {
        let (Some(rtt), Some(len)) = (&w.rtt_ms, &w.length_km) else {
            continue;
        };
        let fiber_ms = 2.0 * len.value * p.fiber_us_per_km / 1000.0;
        if fiber_ms <= 0.0 || (rtt.value - fiber_ms).abs() <= p.rtt_length_margin * fiber_ms {
            continue;
        }
        let (what, help) = if rtt.value < fiber_ms {
            (
                "faster than light in that fiber",
                "the declared RTT is used: check `length_km` (the route's fiber length, not the distance as the crow flies) or measure the RTT again",
            )
        } else {
            (
                "more than the fiber adds",
                "the declared RTT is used: if the route is longer than written, correct `length_km` (it sets the optical budget too)",
            )
        };
        diags.push(
            Diagnostic::new(
                codes::RTT_LENGTH,
                rtt.span,
                format!(
                    "WAN `{}` declares an RTT of {} ms, but {} km of fiber give {fiber_ms:.2} ms",
                    w.name.value, rtt.value, len.value
                ),
            )
            .label(what)
            .also(len.span, format!("{} km of fiber", len.value))
            .help(help),
        );
    }
}
