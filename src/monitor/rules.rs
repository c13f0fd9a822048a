//! Prometheus rules from the plan: recording rules that put each watched link
//! direction's and flow's measured rate beside the plan's figure for it, each optic's
//! receive power beside its floor and overload, and five alerts over them (a link above
//! its planned load, frames discarded on a planned link, a running flow below its
//! prediction, an optic below its floor or above its overload). The thresholds are
//! series, so one alert covers every link.

use std::collections::BTreeMap;

use serde::Serialize;

use super::promql::{Counter, gbps, quoted, selector};
use super::watch::{Collector, Point};

/// How far a measurement may be from the plan before an alert fires: `democ verify`'s
/// default tolerance, so that the alerts and a later `verify` agree.
pub(crate) const TOLERANCE: f64 = 0.10;

/// Below this share of its prediction a flow is taken as not running (between test
/// runs), not as short.
const RUNNING: f64 = 0.05;

#[derive(Serialize)]
pub(crate) struct RuleFile {
    pub(crate) groups: Vec<Group>,
}

#[derive(Serialize)]
pub(crate) struct Group {
    pub(crate) name: String,
    pub(crate) rules: Vec<Rule>,
}

#[derive(Serialize, Default)]
pub(crate) struct Rule {
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    alert: Option<String>,
    expr: String,
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    hold: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    labels: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    annotations: BTreeMap<String, String>,
}

fn record(name: &str, expr: String, key: &str, value: &str) -> Rule {
    Rule {
        record: Some(name.to_owned()),
        expr,
        labels: BTreeMap::from([(key.to_owned(), value.to_owned())]),
        ..Rule::default()
    }
}

/// A number as PromQL reads it (no exponent for ordinary rates, full precision).
fn number(x: f64) -> String {
    let mut s = format!("{x:.6}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "-0" { "0".to_owned() } else { s }
}

/// A link direction's measurement and planned load.
pub(crate) fn link(name: &str, point: &Point, planned_gbps: f64) -> Vec<Rule> {
    let mut out = vec![
        record(
            "democ:link_gbps",
            gbps(std::slice::from_ref(point)),
            "link",
            name,
        ),
        record(
            "democ:link_planned_gbps",
            format!("vector({})", number(planned_gbps)),
            "link",
            name,
        ),
    ];
    if point.outgoing {
        out.push(record(
            "democ:link_out_discards",
            format!(
                "sum(increase({}[5m])) or vector(0)",
                selector(point, Counter::OutDiscards)
            ),
            "link",
            name,
        ));
    }
    out
}

/// A flow's measurement at its senders' switch ports and its prediction.
pub(crate) fn flow(name: &str, points: &[Point], predicted_gbps: f64) -> Vec<Rule> {
    vec![
        record("democ:flow_gbps", gbps(points), "flow", name),
        record(
            "democ:flow_planned_gbps",
            format!("vector({})", number(predicted_gbps)),
            "flow",
            name,
        ),
    ]
}

/// An optic's lowest lane receive power and its floor, and where the catalog gives the
/// receiver's overload, its highest lane and that ceiling. Only gNMI switches: the
/// OpenConfig transceiver state is the one source democ reads per lane.
pub(crate) fn optic(
    switch: &str,
    port: &str,
    floor_dbm: f64,
    ceiling_dbm: Option<f64>,
) -> Vec<Rule> {
    let sel = format!(
        "democ_components_component_transceiver_physical_channels_channel_state_input_power_instant{{source={},component_name={}}}",
        quoted(switch),
        quoted(port)
    );
    let label = |mut r: Rule| {
        r.labels.insert("switch".to_owned(), switch.to_owned());
        r
    };
    let mut out = vec![
        label(record(
            "democ:optic_rx_dbm",
            format!("min({sel})"),
            "port",
            port,
        )),
        label(record(
            "democ:optic_rx_floor_dbm",
            format!("vector({})", number(floor_dbm)),
            "port",
            port,
        )),
    ];
    if let Some(c) = ceiling_dbm {
        out.push(label(record(
            "democ:optic_rx_max_dbm",
            format!("max({sel})"),
            "port",
            port,
        )));
        out.push(label(record(
            "democ:optic_rx_ceiling_dbm",
            format!("vector({})", number(c)),
            "port",
            port,
        )));
    }
    out
}

fn alert(name: &str, expr: String, hold: &str, summary: &str) -> Rule {
    Rule {
        alert: Some(name.to_owned()),
        expr,
        hold: Some(hold.to_owned()),
        labels: BTreeMap::from([("severity".to_owned(), "warning".to_owned())]),
        annotations: BTreeMap::from([("summary".to_owned(), summary.to_owned())]),
        ..Rule::default()
    }
}

/// The alerts over the recorded series.
pub(crate) fn alerts() -> Vec<Rule> {
    let above = number(1.0 + TOLERANCE);
    let below = number(1.0 - TOLERANCE);
    let running = number(RUNNING);
    vec![
        alert(
            "DemocLinkAbovePlan",
            format!("democ:link_gbps > on(link) (democ:link_planned_gbps * {above})"),
            "2m",
            "{{ $labels.link }} carries {{ $value | printf \"%.1f\" }} Gbit/s, more than the plan's load for it: traffic the plan does not know, or a hash that piles streams on this member",
        ),
        alert(
            "DemocLinkDiscards",
            "democ:link_out_discards > 0".to_owned(),
            "1m",
            "{{ $labels.link }} discarded {{ $value }} frames in 5 minutes",
        ),
        alert(
            "DemocFlowBelowPlan",
            format!(
                "(democ:flow_gbps < on(flow) (democ:flow_planned_gbps * {below})) and on(flow) (democ:flow_gbps > on(flow) (democ:flow_planned_gbps * {running}))"
            ),
            "2m",
            "flow {{ $labels.flow }} runs at {{ $value | printf \"%.1f\" }} Gbit/s, below its prediction: `democ verify` on its results names the likely cause",
        ),
        alert(
            "DemocOpticRxLow",
            "democ:optic_rx_dbm < on(switch, port) democ:optic_rx_floor_dbm".to_owned(),
            "1m",
            "{{ $labels.switch }} {{ $labels.port }} receives {{ $value | printf \"%.1f\" }} dBm, below its optic's floor: clean or replace the fiber or the optic",
        ),
        alert(
            "DemocOpticRxHigh",
            "democ:optic_rx_max_dbm > on(switch, port) democ:optic_rx_ceiling_dbm".to_owned(),
            "1m",
            "{{ $labels.switch }} {{ $labels.port }} receives {{ $value | printf \"%.1f\" }} dBm, above its optic's overload: an attenuator is missing on a short run",
        ),
    ]
}

/// Whether a point's collector gives per-lane optic power democ reads.
pub(crate) fn reads_optics(c: Collector) -> bool {
    c == Collector::Gnmi
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_read_as_written() {
        assert_eq!(number(40.0), "40");
        assert_eq!(number(99.09271962823634), "99.09272");
        assert_eq!(number(-14.4), "-14.4");
        assert_eq!(number(0.0), "0");
    }
}
