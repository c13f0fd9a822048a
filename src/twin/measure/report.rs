//! `twin/measure.json` and the table `twin test --measure` prints: per flow and per
//! link, the plan's prediction at the scale (rates / N) against what the twin carried.

use std::io::Write;

use serde::Serialize;

use super::super::load::Figures;
use super::super::report::Machine;

/// How far a scored measurement may be from the prediction (a fraction of it).
pub(crate) const TOLERANCE: f64 = 0.15;

#[derive(Debug, Serialize)]
pub(crate) struct Measurement {
    pub(crate) show: String,
    /// Every link carries its capacity divided by this.
    pub(crate) scale: f64,
    /// Seconds the counters were read over (after the transfers' start was left out).
    pub(crate) seconds: f64,
    /// `DEVICE:PORT=RATE` of each `--throttle`.
    pub(crate) throttles: Vec<String>,
    /// Every scored flow and link within the tolerance.
    pub(crate) passed: bool,
    pub(crate) tolerance_pct: f64,
    pub(crate) flows: Vec<FlowMeasure>,
    pub(crate) links: Vec<LinkMeasure>,
    pub(crate) machine: Machine,
    pub(crate) notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct FlowMeasure {
    pub(crate) flow: String,
    pub(crate) pairs: usize,
    pub(crate) streams_per_pair: u32,
    /// The algorithm the senders ran (None: the kernel's default, see `detail`).
    pub(crate) congestion_control: Option<String>,
    /// The plan's limit (`link`, `demand`, `lag`, `pcie`, ...) and its words.
    pub(crate) limit: String,
    pub(crate) limit_why: String,
    /// The plan's rate, Gbit/s, and divided by the scale, Mbit/s.
    pub(crate) predicted_gbps: f64,
    pub(crate) predicted_mbps: f64,
    /// Payload received, summed over the pairs; None: a pair's transfer failed.
    pub(crate) measured_mbps: Option<f64>,
    pub(crate) error_pct: Option<f64>,
    /// Compared with the prediction (a link or demand limit).
    pub(crate) scored: bool,
    /// Why it is not scored.
    pub(crate) not_scored: Option<String>,
    /// Scored and within the tolerance.
    pub(crate) passed: bool,
    /// The link of its path whose shaper was busiest, and how busy (percent of its rate).
    pub(crate) bottleneck: Option<String>,
    pub(crate) bottleneck_pct: Option<f64>,
    /// Missed on a saturated machine: not tested.
    pub(crate) overloaded: Option<Figures>,
    pub(crate) detail: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct LinkMeasure {
    pub(crate) link: String,
    pub(crate) flows: Vec<String>,
    /// What its shapers let through, Mbit/s at the line (members summed).
    pub(crate) shaped_mbps: f64,
    /// `--throttle`'s rate on it, unscaled.
    pub(crate) throttled: Option<String>,
    /// The flows' predictions over it, scaled, Mbit/s of payload.
    pub(crate) predicted_mbps: f64,
    /// Payload it carried, Mbit/s (its counters less each frame's headers).
    pub(crate) measured_mbps: f64,
    /// Percent of the shaped rate its frames used.
    pub(crate) utilization_pct: f64,
    /// Payload per member of a port-channel, Mbit/s, in port order.
    pub(crate) members_mbps: Vec<f64>,
    /// Every flow over it is scored.
    pub(crate) scored: bool,
    pub(crate) passed: bool,
}

/// Within the tolerance of the prediction.
pub(crate) fn within(predicted: f64, measured: f64) -> bool {
    (measured - predicted).abs() <= TOLERANCE * predicted
}

/// `99.0M`, `1.25G`, `850k`, rates of a scaled twin.
pub(crate) fn mbit(mbps: f64) -> String {
    if mbps >= 1000.0 {
        format!("{:.2}G", mbps / 1000.0)
    } else if mbps >= 1.0 {
        format!("{mbps:.1}M")
    } else {
        format!("{:.0}k", mbps * 1000.0)
    }
}

impl Measurement {
    /// The table: flows, then links.
    pub(crate) fn print(&self, out: &mut dyn Write) {
        let _ = writeln!(
            out,
            "{:<16} {:<7} {:>10} {:>10} {:>7}  {:<44} result",
            "flow", "limit", "predicted", "measured", "error", "busiest link (shaper use)"
        );
        for f in &self.flows {
            let result = match (&f.not_scored, f.passed, &f.overloaded) {
                (Some(why), _, _) => format!("not scored: {why}"),
                (None, true, _) => "pass".into(),
                (None, false, Some(o)) => format!("not tested: machine overloaded ({})", o.text()),
                (None, false, None) => format!(
                    "FAIL: not within {:.0} % of the prediction{}",
                    100.0 * TOLERANCE,
                    f.bottleneck
                        .as_ref()
                        .map_or(String::new(), |b| format!("; bottleneck: {b}"))
                ),
            };
            let _ = writeln!(
                out,
                "{:<16} {:<7} {:>10} {:>10} {:>7}  {:<44} {result}",
                f.flow,
                f.limit,
                mbit(f.predicted_mbps),
                f.measured_mbps.map_or("FAIL".into(), mbit),
                f.error_pct.map_or(String::new(), |e| format!("{e:+.1}%")),
                f.bottleneck.as_ref().map_or("-".into(), |b| format!(
                    "{b} ({:.0} %)",
                    f.bottleneck_pct.unwrap_or(0.0)
                )),
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:<44} {:>9} {:>10} {:>10} {:>6}  flows",
            "link", "shaped", "predicted", "measured", "use"
        );
        for l in &self.links {
            let mark = match (l.scored, l.passed) {
                (false, _) => " (not scored)",
                (true, true) => "",
                (true, false) => " FAIL",
            };
            let throttled = l
                .throttled
                .as_ref()
                .map_or(String::new(), |t| format!(" [throttled to {t}]"));
            let members = if l.members_mbps.len() > 1 {
                format!(
                    " members: {}",
                    l.members_mbps
                        .iter()
                        .map(|m| mbit(*m))
                        .collect::<Vec<_>>()
                        .join(" / ")
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{:<44} {:>9} {:>10} {:>10} {:>5.0}%  {}{mark}{throttled}{members}",
                l.link,
                mbit(l.shaped_mbps),
                mbit(l.predicted_mbps),
                mbit(l.measured_mbps),
                l.utilization_pct,
                l.flows.join(", ")
            );
        }
        let _ = out.flush();
    }
}
