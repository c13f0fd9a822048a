//! A twin's measurement as verify reads it: `democ twin test --measure` leaves its
//! results in the host scripts' format beside `twin-scale.json`, the conditions of the
//! run. Every link carried its capacity / `scale` (a throttled one its throttle /
//! `scale`), so verify multiplies what the twin measured by the scale and judges it
//! against the plan as it stands; a flow whose plan limit does not shrink with the links
//! (a host's PCIe, CPU or drives, the WAN's RTT and loss, a LAG's hash) cannot be
//! compared, and is listed with the reason.

use serde::{Deserialize, Serialize};

use super::located::{Bad, Text};

/// The stamp's file name in a twin's results folder.
pub(crate) const FILE: &str = "twin-scale.json";

/// The conditions of one twin measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TwinRun {
    /// The show the twin ran.
    pub(crate) show: String,
    /// Every link carried its capacity divided by this.
    pub(crate) scale: f64,
    /// When the transfers started (`20261129T023100Z`, as the results' names carry it).
    pub(crate) started: String,
    /// Seconds each transfer was measured for.
    pub(crate) seconds: u64,
    /// Cables shaped below their declared speed for this run.
    #[serde(default)]
    pub(crate) throttles: Vec<Throttled>,
}

/// `--throttle DEVICE:PORT=RATE`: the cable at that end carried RATE each way (before
/// the scale).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Throttled {
    pub(crate) device: String,
    pub(crate) port: String,
    pub(crate) gbps: f64,
}

const HELP: &str = "`democ twin test --measure` writes twin-scale.json beside its results (`{\"show\", \"scale\", \"started\", \"seconds\", \"throttles\"}`); measure again rather than edit it";

/// The stamp as written; Err: not the twin's stamp, or a scale that is not a positive
/// number.
pub(crate) fn read(t: &Text) -> Result<TwinRun, Bad> {
    let v = t.json("the twin's stamp")?;
    let run: TwinRun = serde_json::from_value(v)
        .map_err(|e| t.bad(t.at("{"), format!("not the twin's stamp: {e}"), HELP))?;
    if !(run.scale.is_finite() && run.scale >= 1.0) {
        return Err(t.bad(
            t.at_key("scale"),
            format!("scale {} is not a number of at least 1", run.scale),
            HELP,
        ));
    }
    if let Some(th) = run
        .throttles
        .iter()
        .find(|th| !(th.gbps.is_finite() && th.gbps > 0.0))
    {
        return Err(t.bad(
            t.at_key("throttles"),
            format!(
                "the throttle at `{}:{}` carries {} Gbit/s: not a positive rate",
                th.device, th.port, th.gbps
            ),
            HELP,
        ));
    }
    Ok(run)
}

impl TwinRun {
    /// The throttle on the cable at either end, Gbit/s before the scale.
    pub(crate) fn throttle(&self, a: (&str, &str), b: Option<(&str, &str)>) -> Option<f64> {
        self.throttles
            .iter()
            .find(|t| {
                let at = (t.device.as_str(), t.port.as_str());
                at == a || Some(at) == b
            })
            .map(|t| t.gbps)
    }
}

/// Why a flow limited by `kind` cannot be compared at a scale (None: it can). The twin
/// shapes the links and nothing else: a host's PCIe, CPU and drives keep their speed, its
/// round trip is a fraction of a millisecond whatever the WAN's, it loses only what its
/// shapers drop, and Open vSwitch's bonds hash with their own function. Only a flow
/// limited by a link, or by its demand (which the twin paces at demand / N), scales.
pub(crate) fn not_comparable(
    protocol: &str,
    predicted_gbps: f64,
    kind: &str,
    limit_gbps: f64,
    rtt_ms: f64,
) -> Option<String> {
    if !matches!(protocol, "tcp" | "rdma") {
        return Some(format!(
            "a {protocol} flow: the twin measures TCP transfers only"
        ));
    }
    if predicted_gbps <= 0.0 {
        return Some("predicted to carry nothing".into());
    }
    match kind {
        "link" | "demand" => None,
        "lag" => Some(
            "limited by a LAG's hash: the twin's bonds hash with Open vSwitch's function, not the switch's"
                .into(),
        ),
        "pcie" | "cpu" | "storage" | "pacing" => Some(format!(
            "limited by the host ({kind}, {limit_gbps:.1} Gbit/s), which does not scale with the links"
        )),
        "window" | "loss" => Some(format!(
            "limited by {} over its {rtt_ms:.1} ms RTT: the twin's RTT is a fraction of a millisecond and it loses nothing but what its shapers drop, so this limit does not scale",
            if kind == "window" { "the TCP window" } else { "packet loss" },
        )),
        other => Some(format!(
            "limited by `{other}`, which the twin does not emulate"
        )),
    }
}
