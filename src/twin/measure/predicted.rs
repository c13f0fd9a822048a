//! What the build's plan predicts for each flow (`plan.json`), and whether the twin can
//! check it at a scale: only a flow limited by a link, or by its own demand (run paced
//! at demand / N), is scored; every other flow runs and is listed with the reason it is
//! not scored (`crate::verify::not_comparable`, which `democ verify` applies to the
//! twin's results too).

use serde::Deserialize;

use crate::build_dir::{BuildDir, MAX_BYTES};

/// The fields of a plan's flow that the measurement reads (plan.json holds more).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Predicted {
    pub(crate) name: String,
    pub(crate) protocol: String,
    #[serde(default)]
    pub(crate) congestion_control: Option<String>,
    pub(crate) streams_per_pair: u32,
    pub(crate) predicted_gbps: f64,
    pub(crate) bottleneck: Bound,
    #[serde(default)]
    pub(crate) rtt_ms: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Bound {
    pub(crate) kind: String,
    pub(crate) gbps: f64,
    #[serde(default)]
    pub(crate) why: String,
}

#[derive(Deserialize)]
struct PlanFile {
    flows: Vec<Predicted>,
}

/// Every flow's prediction, from the build's `plan.json`.
pub(crate) fn read(dir: &BuildDir) -> Result<Vec<Predicted>, String> {
    let plan: PlanFile = super::super::build::read(dir, "plan.json", MAX_BYTES)
        .map_err(|e| format!("{e} (the measurement compares against the build's plan)"))?;
    Ok(plan.flows)
}

/// Whether a flow is scored, and how it runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Score {
    /// Limited by a link: its senders run unpaced, the shapers limit it.
    Link,
    /// Limited by its demand: its senders are paced at demand / N.
    Demand,
    /// Runs unpaced, listed with why it is not scored.
    Listed(String),
}

impl Score {
    pub(crate) fn scored(&self) -> bool {
        !matches!(self, Score::Listed(_))
    }
}

pub(crate) fn score(f: &Predicted) -> Score {
    let b = &f.bottleneck;
    let why =
        crate::verify::not_comparable(&f.protocol, f.predicted_gbps, &b.kind, b.gbps, f.rtt_ms);
    match (why, b.kind.as_str()) {
        (Some(why), _) => Score::Listed(why),
        (None, "demand") => Score::Demand,
        (None, _) => Score::Link,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(protocol: &str, kind: &str) -> Predicted {
        Predicted {
            name: "f".into(),
            protocol: protocol.into(),
            congestion_control: Some("cubic".into()),
            streams_per_pair: 1,
            predicted_gbps: 10.0,
            bottleneck: Bound {
                kind: kind.into(),
                gbps: 10.0,
                why: String::new(),
            },
            rtt_ms: 30.0,
        }
    }

    #[test]
    fn only_link_and_demand_limits_scale_with_the_links() {
        assert_eq!(score(&flow("tcp", "link")), Score::Link);
        assert_eq!(score(&flow("rdma", "demand")), Score::Demand);
        for kind in [
            "lag", "pcie", "cpu", "storage", "window", "loss", "mtu", "pacing",
        ] {
            assert!(!score(&flow("tcp", kind)).scored(), "{kind}");
        }
        assert!(!score(&flow("udp", "link")).scored());
        let Score::Listed(why) = score(&flow("tcp", "window")) else {
            panic!("listed")
        };
        assert!(why.contains("30.0 ms RTT"), "{why}");
    }
}
