//! The verify report as text, Markdown or JSON (the same data in each).

use std::fmt::Write as _;

use super::judge::Report;
use crate::escape::{line, markdown};

fn opt(v: Option<f64>) -> String {
    v.map_or("-".to_owned(), |v| format!("{v:.1}"))
}

fn flow_rows(r: &Report) -> Vec<[String; 5]> {
    r.flows
        .iter()
        .map(|f| {
            [
                line(&f.flow).into_owned(),
                format!("{:.1}", f.predicted_gbps),
                opt(f.measured_gbps),
                format!("{}/{}", f.pairs_measured, f.pairs),
                f.status.to_uppercase(),
            ]
        })
        .collect()
}

const FLOW_HEAD: [&str; 5] = [
    "flow",
    "predicted Gbit/s",
    "measured Gbit/s",
    "pairs",
    "status",
];
const LINK_HEAD: [&str; 5] = [
    "link",
    "predicted Gbit/s",
    "measured Gbit/s",
    "discards",
    "status",
];

fn link_rows(r: &Report) -> Vec<[String; 5]> {
    r.links
        .iter()
        .filter(|l| l.status != "unmeasured")
        .map(|l| {
            [
                line(&l.link).into_owned(),
                format!("{:.1}", l.predicted_gbps),
                opt(l.measured_gbps),
                l.discards.map_or("-".into(), |d| format!("{d:.0}")),
                match l.throttled_gbps {
                    Some(t) => format!("{} (throttled to {t} Gbit/s)", l.status.to_uppercase()),
                    None => l.status.to_uppercase(),
                },
            ]
        })
        .collect()
}

fn other_lines(r: &Report) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for o in &r.optics {
        out.push((
            "optic",
            format!(
                "{} {} ({}): rx {:.1} dBm, floor {}{}: {}",
                o.switch,
                o.port,
                o.optic,
                o.rx_dbm,
                o.floor_dbm
                    .map_or("unknown (not in the embedded catalog)".into(), |f| format!(
                        "{f:.1} dBm"
                    )),
                o.ceiling_dbm
                    .map_or(String::new(), |c| format!(", overload {c:.1} dBm")),
                o.status.to_uppercase()
            ),
        ));
    }
    for l in &r.lldp {
        out.push((
            "lldp",
            format!(
                "{} {}: planned {}{}, seen {}: {}",
                l.switch,
                l.port,
                l.planned.as_deref().unwrap_or("nothing"),
                l.cable
                    .as_ref()
                    .map_or(String::new(), |c| format!(" (cable {c})")),
                l.seen.as_deref().unwrap_or("nothing"),
                l.status.to_uppercase()
            ),
        ));
    }
    let fits = r.mtu.iter().filter(|m| m.status == "ok").count();
    if fits > 0 {
        out.push(("mtu", format!("{fits} pairs' segments fit the planned MTU")));
    }
    for m in r.mtu.iter().filter(|m| m.status != "ok") {
        out.push((
            "mtu",
            format!(
                "{} {} -> {}: planned {}, the connection's segments imply {}: {}",
                m.flow,
                m.src,
                m.dst,
                m.planned,
                m.implied,
                m.status.to_uppercase()
            ),
        ));
    }
    out
}

fn summary(r: &Report) -> String {
    let ok = r.flows.iter().filter(|f| f.status == "ok").count();
    let apart = r
        .flows
        .iter()
        .filter(|f| f.status == "not comparable")
        .count();
    let mut s = format!(
        "{ok} of {} flows within {}% of the plan",
        r.flows.len() - apart,
        r.tolerance_pct
    );
    if apart > 0 {
        s += &format!(", {apart} not comparable at the twin's scale");
    }
    s
}

/// What a twin's results are: the scale its rates are multiplied by, and its throttles.
fn twin_line(r: &Report) -> Option<String> {
    let t = r.twin.as_ref()?;
    let throttles: Vec<String> = t
        .throttles
        .iter()
        .map(|x| format!("{}:{} at {} Gbit/s", x.device, x.port, x.gbps))
        .collect();
    Some(format!(
        "a twin's measurement (`democ twin test --measure`, started {}): every link at its capacity / {}, so measured rates are multiplied by {} and set against the plan{}",
        t.started,
        t.scale,
        t.scale,
        if throttles.is_empty() {
            String::new()
        } else {
            format!("; throttled in this run: {}", throttles.join(", "))
        }
    ))
}

/// A flow's explanation: why it is short (`short`), or why a twin cannot compare it
/// (`not comparable`).
fn explained(f: &super::judge::FlowVerdict) -> Option<(&str, &'static str, Vec<String>)> {
    if let Some(why) = &f.not_comparable {
        let c = format!("{why}; the plan's bottleneck: {}", f.planned_bottleneck);
        return Some((&f.flow, "not comparable", vec![c]));
    }
    (!f.causes.is_empty()).then(|| (f.flow.as_str(), "short", f.causes.clone()))
}

pub(crate) fn text(r: &Report) -> String {
    let mut out = format!(
        "verify show {}: {} result files read ({} other files skipped), tolerance {}%\n\n",
        line(&r.show),
        r.files,
        r.skipped,
        r.tolerance_pct
    );
    if let Some(t) = twin_line(r) {
        let _ = writeln!(out, "{}\n", line(&t));
    }
    crate::plan::table(&mut out, FLOW_HEAD, &flow_rows(r));
    for (flow, what, causes) in r.flows.iter().filter_map(explained) {
        let _ = writeln!(out, "\nflow {} is {what}:", line(flow));
        for c in &causes {
            let _ = writeln!(out, "  - {}", line(c));
        }
    }
    let links = link_rows(r);
    if !links.is_empty() {
        out.push('\n');
        crate::plan::table(&mut out, LINK_HEAD, &links);
    }
    let others = other_lines(r);
    if !others.is_empty() {
        out.push('\n');
        for (k, l) in others {
            let _ = writeln!(out, "{k}: {}", line(&l));
        }
    }
    let _ = writeln!(out, "\n{}", summary(r));
    out
}

fn md_table(out: &mut String, head: &[&str], rows: &[[String; 5]]) {
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(head.len()));
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| markdown(c)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
}

pub(crate) fn markdown_report(r: &Report) -> String {
    let mut out = format!(
        "# Verify: {}\n\n{}\n\n## Flows\n\n",
        markdown(&r.show),
        summary(r)
    );
    if let Some(t) = twin_line(r) {
        let _ = writeln!(out, "{}\n", markdown(&t));
    }
    md_table(&mut out, &FLOW_HEAD, &flow_rows(r));
    for (flow, what, causes) in r.flows.iter().filter_map(explained) {
        let tail = if what == "short" {
            ""
        } else {
            ": not comparable"
        };
        let _ = writeln!(out, "\n### {}{tail}\n", markdown(flow));
        for c in &causes {
            let _ = writeln!(out, "- {}", markdown(c));
        }
    }
    let links = link_rows(r);
    if !links.is_empty() {
        out += "\n## Links\n\n";
        md_table(&mut out, &LINK_HEAD, &links);
    }
    let others = other_lines(r);
    if !others.is_empty() {
        out += "\n## Optics, neighbours, MTU\n\n";
        for (k, l) in others {
            let _ = writeln!(out, "- {k}: {}", markdown(&l));
        }
    }
    out
}

pub(crate) fn json(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
    s.push('\n');
    s
}
