//! What the build's plan predicts for each flow (`plan.json`), and whether the twin can
//! check it at a scale. Rate-limiting every link to its capacity / N scales what the
//! links allow, and nothing else: a host's PCIe, CPU or drives keep their speed, the
//! twin's round trip is a fraction of a millisecond whatever the WAN's, it drops only
//! what its shapers drop, and its Open vSwitch bonds hash with OVS's own function.
//! So only a flow limited by a link, or by its own demand (run paced at demand / N),
//! is scored; every other flow runs and is listed with the reason it is not scored.

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
    if !matches!(f.protocol.as_str(), "tcp" | "rdma") {
        return Score::Listed(format!(
            "a {} flow: the twin measures TCP transfers only",
            f.protocol
        ));
    }
    if f.predicted_gbps <= 0.0 {
        return Score::Listed("predicted to carry nothing".into());
    }
    match b.kind.as_str() {
        "link" => Score::Link,
        "demand" => Score::Demand,
        "lag" => Score::Listed(
            "limited by a LAG's hash: the twin's bonds hash with Open vSwitch's function, not the switch's"
                .into(),
        ),
        "pcie" | "cpu" | "storage" | "pacing" => Score::Listed(format!(
            "limited by the host ({}, {:.1} Gbit/s), which does not scale with the links",
            b.kind, b.gbps
        )),
        "window" | "loss" => Score::Listed(format!(
            "limited by {} over its {:.1} ms RTT: the twin's RTT is a fraction of a millisecond and it loses nothing but what its shapers drop, so this limit does not scale",
            if b.kind == "window" { "the TCP window" } else { "packet loss" },
            f.rtt_ms
        )),
        other => Score::Listed(format!("limited by `{other}`, which the twin does not emulate")),
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
