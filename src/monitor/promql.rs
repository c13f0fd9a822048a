//! PromQL text: label values quoted so that no name can end a string or a selector, and
//! the counter rates a switch's collector exposes, in Gbit/s.

use super::watch::{Collector, Point};

/// A PromQL string literal (double quotes; backslash, quote and line breaks escaped).
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The metric a collector names a port counter by, and its switch and port labels.
/// gnmic's Prometheus output joins the OpenConfig path with `_` after its
/// `metric-prefix` and turns each list key into a `<list>_<key>` label, with the
/// target's name as `source`; snmp_exporter's `if_mib` module exposes IF-MIB's 64-bit
/// counters with the `ifName` lookup, and democ's scrape config adds `device`.
fn counter(c: Collector, what: Counter) -> (&'static str, &'static str, &'static str) {
    match (c, what) {
        (Collector::Gnmi, Counter::InOctets) => (
            "democ_interfaces_interface_state_counters_in_octets",
            "source",
            "interface_name",
        ),
        (Collector::Gnmi, Counter::OutOctets) => (
            "democ_interfaces_interface_state_counters_out_octets",
            "source",
            "interface_name",
        ),
        (Collector::Gnmi, Counter::OutDiscards) => (
            "democ_interfaces_interface_state_counters_out_discards",
            "source",
            "interface_name",
        ),
        (Collector::Snmp, Counter::InOctets) => ("ifHCInOctets", "device", "ifName"),
        (Collector::Snmp, Counter::OutOctets) => ("ifHCOutOctets", "device", "ifName"),
        (Collector::Snmp, Counter::OutDiscards) => ("ifOutDiscards", "device", "ifName"),
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Counter {
    InOctets,
    OutOctets,
    OutDiscards,
}

/// One port's counter as a selector.
pub(crate) fn selector(p: &Point, what: Counter) -> String {
    let (metric, dev, port) = counter(p.collector, what);
    format!(
        "{metric}{{{dev}={},{port}={}}}",
        quoted(&p.switch),
        quoted(&p.port)
    )
}

/// The rate of the octets the points carry, summed, in Gbit/s. Each point is its own
/// term (`or vector(0)` keeps a sum whose other terms have no series yet defined), so
/// switches watched by different collectors add up.
pub(crate) fn gbps(points: &[Point]) -> String {
    let terms: Vec<String> = points
        .iter()
        .map(|p| {
            let what = if p.outgoing {
                Counter::OutOctets
            } else {
                Counter::InOctets
            };
            format!("(sum(rate({}[1m])) or vector(0))", selector(p, what))
        })
        .collect();
    format!("({}) * 8 / 1e9", terms.join(" + "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_cannot_end_the_string() {
        assert_eq!(quoted(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(quoted("x\ny"), r#""x\ny""#);
    }

    #[test]
    fn points_of_two_collectors_add_up() {
        let a = Point {
            switch: "sw1".into(),
            port: "Ethernet1/1".into(),
            collector: Collector::Gnmi,
            outgoing: true,
        };
        let b = Point {
            switch: "sw2".into(),
            port: "hundredGigE 1/1".into(),
            collector: Collector::Snmp,
            outgoing: false,
        };
        assert_eq!(
            gbps(&[a, b]),
            "((sum(rate(democ_interfaces_interface_state_counters_out_octets{source=\"sw1\",interface_name=\"Ethernet1/1\"}[1m])) or vector(0)) + (sum(rate(ifHCInOctets{device=\"sw2\",ifName=\"hundredGigE 1/1\"}[1m])) or vector(0))) * 8 / 1e9"
        );
    }
}
