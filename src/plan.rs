//! `democ plan`: the per-flow predictions and the link-utilization table, as text,
//! Markdown or JSON (the same data in each).

mod indented;
pub(crate) mod sorted;

use std::fmt::Write as _;

use indented::Indented;

use crate::check::predict::{FlowPrediction, LinkUse, Plan};
use crate::compile::Session;
use crate::diag::Severity;

/// What the plan shows beside the predictions: the session's diagnostics (JSON), the
/// findings acknowledged by `allow:` or `expect: infeasible`, and whether to show each
/// flow's route and limits.
pub(crate) struct Extras {
    diagnostics: serde_json::Value,
    acknowledged: Vec<String>,
    detail: bool,
}

impl Extras {
    pub(crate) fn new(s: &Session, detail: bool) -> Extras {
        let items = s.diags.items();
        let acknowledged = items
            .iter()
            .filter(|d| d.severity == Severity::Note && d.code.severity() != Severity::Note)
            .map(|d| {
                format!(
                    "{} {}: {} ({})",
                    d.code.id,
                    crate::diag::render::location(&s.sources, d),
                    d.message,
                    d.notes.last().map_or("", String::as_str)
                )
            })
            .collect();
        Extras {
            diagnostics: crate::diag::render::to_value(&s.sources, items),
            acknowledged,
            detail,
        }
    }

    /// The plan alone, for a build's `plan.json`: diagnostics carry the spec's paths as
    /// given on the command line, and a build must not depend on where democ ran.
    pub(crate) fn none() -> Extras {
        Extras {
            diagnostics: serde_json::Value::Array(Vec::new()),
            acknowledged: Vec::new(),
            detail: true,
        }
    }
}

/// How a flow stands: the share of its demand it reaches, and whether that is a shortfall.
fn standing(f: &FlowPrediction) -> String {
    if !f.needs_rules.is_empty() {
        return "needs rules".to_owned();
    }
    let pct = format!("{:.0}%", 100.0 * f.predicted_gbps / f.demand_gbps.max(1e-9));
    match (f.feasible, f.expect_infeasible) {
        (true, _) => pct,
        (false, true) => format!("{pct} infeasible (expected)"),
        (false, false) => format!("{pct} INFEASIBLE"),
    }
}

/// Per flow: its route and every limit on its slowest pair, smallest first.
fn detail_lines(plan: &Plan) -> Vec<(String, Vec<String>)> {
    plan.flows
        .iter()
        .map(|f| {
            let mut lines = vec![format!(
                "route: {}",
                if f.path.is_empty() {
                    "(direct)".to_owned()
                } else {
                    f.path.join(" -> ")
                }
            )];
            lines.extend(
                f.limits
                    .iter()
                    .map(|l| format!("{:>8.1} Gbit/s  {}: {}", l.gbps, l.kind.name(), l.why)),
            );
            (f.name.clone(), lines)
        })
        .collect()
}

fn g(v: f64) -> String {
    format!("{v:.1}")
}

fn rows(plan: &Plan) -> (Vec<[String; 7]>, Vec<[String; 5]>) {
    let flows = plan
        .flows
        .iter()
        .map(|f| {
            [
                f.name.clone(),
                format!(
                    "{} x{} ({} stream{})",
                    f.protocol,
                    f.pairs,
                    f.streams_per_pair,
                    if f.streams_per_pair == 1 { "" } else { "s" }
                ),
                g(f.demand_gbps),
                g(f.predicted_gbps),
                standing(f),
                format!("{:.3}", f.rtt_ms),
                format!("{:?}: {}", f.bottleneck.kind, f.bottleneck.why)
                    .to_lowercase()
                    .replacen(&f.bottleneck.why.to_lowercase(), &f.bottleneck.why, 1),
            ]
        })
        .collect();
    let links = plan
        .links
        .iter()
        .map(|(_, u)| {
            [
                u.link.clone(),
                u.direction.clone(),
                g(u.load_gbps),
                g(u.capacity_gbps),
                format!("{:.0}%", u.utilization_pct),
            ]
        })
        .collect();
    (flows, links)
}

pub(crate) const FLOW_HEAD: [&str; 7] = [
    "flow",
    "kind",
    "demand Gbit/s",
    "predicted Gbit/s",
    "of demand",
    "RTT ms",
    "bottleneck",
];
pub(crate) const LINK_HEAD: [&str; 5] =
    ["link", "direction", "load Gbit/s", "capacity Gbit/s", "use"];

fn table<const N: usize>(out: &mut String, head: [&str; N], rows: &[[String; N]]) {
    let mut w: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let n = cells.len();
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i + 1 == n {
                    (*c).to_string()
                } else {
                    format!("{c:<width$}", width = w[i])
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let _ = writeln!(out, "{}", line(head.to_vec()));
    for r in rows {
        let _ = writeln!(out, "{}", line(r.iter().map(String::as_str).collect()));
    }
}

pub(crate) fn text(plan: &Plan, x: &Extras) -> String {
    let (f, l) = rows(plan);
    use crate::escape::line;
    // Spec text on one line: a newline in a title must not start a line of its own.
    let venue = if plan.venue.is_empty() {
        String::new()
    } else {
        format!(", {}", line(&plan.venue))
    };
    let mut out = format!(
        "show {} ({}{venue}): {} sites, {} flows, {} loaded link directions\n\n",
        line(&plan.show),
        line(&plan.title),
        plan.sites.len(),
        plan.flows.len(),
        plan.links.len()
    );
    table(&mut out, FLOW_HEAD, &f);
    for n in rule_notes(plan) {
        let _ = writeln!(out, "note: {n}");
    }
    if let Some(e) = external_note(plan) {
        let _ = writeln!(out, "note: {}", line(&e));
    }
    for a in &x.acknowledged {
        let _ = writeln!(out, "acknowledged: {a}");
    }
    if x.detail {
        for (name, lines) in detail_lines(plan) {
            let _ = writeln!(out, "\nflow {name}");
            for l in lines {
                let _ = writeln!(out, "  {l}");
            }
        }
    }
    out.push('\n');
    table(&mut out, LINK_HEAD, &l);
    if !plan.storage.is_empty() {
        out.push('\n');
        table(&mut out, STORAGE_HEAD, &storage_rows(plan));
    }
    if !plan.fabrics.is_empty() {
        out.push('\n');
        table(&mut out, FABRIC_HEAD, &fabric_rows(plan));
        if x.detail {
            for f in &plan.fabrics {
                let _ = writeln!(out, "\nfabric {}", line(&f.name));
                for l in &f.limits {
                    let _ = writeln!(out, "  {} Gbit/s  {}", g(l.gbps), line(&l.why));
                }
            }
        }
    }
    out
}

const FABRIC_HEAD: [&str; 7] = [
    "fabric",
    "transport",
    "target",
    "initiators",
    "drives",
    "Gbit/s",
    "bottleneck",
];

/// One row per NVMe-oF fabric: what its initiators can read together, and why.
fn fabric_rows(plan: &Plan) -> Vec<[String; 7]> {
    plan.fabrics
        .iter()
        .map(|f| {
            [
                f.name.clone(),
                f.transport.to_owned(),
                f.target.clone(),
                f.initiators.len().to_string(),
                f.drives.to_string(),
                g(f.predicted_gbps),
                f.bottleneck.why.to_string(),
            ]
        })
        .collect()
}

/// The switches owned by others, in words, when there are any.
fn external_note(plan: &Plan) -> Option<String> {
    (!plan.external.is_empty()).then(|| {
        let names: Vec<String> = plan.external.iter().map(|s| format!("`{s}`")).collect();
        format!(
            "external (owned by others; modelled for feasibility, no config written or pushed): {}",
            names.join(", ")
        )
    })
}

/// One line per flow forwarded only by OpenFlow rules nobody writes.
fn rule_notes(plan: &Plan) -> Vec<String> {
    plan.flows
        .iter()
        .filter(|f| !f.needs_rules.is_empty())
        .map(|f| {
            let sw: Vec<String> = f.needs_rules.iter().map(|s| format!("`{s}`")).collect();
            format!(
                "`{}` is forwarded only by OpenFlow rules on {}; democ writes none, so it moves nothing until the controller installs them",
                f.name,
                sw.join(", ")
            )
        })
        .collect()
}

const STORAGE_HEAD: [&str; 5] = ["host", "drives", "read Gbit/s", "write Gbit/s", "bound"];

fn storage_rows(plan: &Plan) -> Vec<[String; 5]> {
    plan.storage
        .iter()
        .map(|s| {
            [
                s.host.clone(),
                s.drives.to_string(),
                g(s.read_gbps),
                g(s.write_gbps),
                s.read_bound.clone(),
            ]
        })
        .collect()
}

fn md_row(cells: &[String]) -> String {
    format!(
        "| {} |\n",
        cells
            .iter()
            .map(|c| crate::escape::markdown(c))
            .collect::<Vec<_>>()
            .join(" | ")
    )
}

pub(crate) fn markdown(plan: &Plan, x: &Extras) -> String {
    let (f, l) = rows(plan);
    // Spec text is escaped, not put in a code span: a backtick in it would close the span.
    let mut out = format!(
        "# Plan for {}\n\n## Flows\n\n",
        crate::escape::markdown(&plan.show)
    );
    out += &md_row(&FLOW_HEAD.map(String::from));
    out += &md_row(&FLOW_HEAD.map(|_| "---".to_string()));
    for r in &f {
        out += &md_row(r);
    }
    let mut notes = rule_notes(plan);
    notes.extend(external_note(plan));
    if !notes.is_empty() {
        out.push('\n');
        for n in notes {
            let _ = writeln!(out, "- {n}");
        }
    }
    if !x.acknowledged.is_empty() {
        out += "\n## Acknowledged\n\n";
        for a in &x.acknowledged {
            let _ = writeln!(out, "- {}", crate::escape::markdown(a));
        }
    }
    if x.detail {
        out += "\n## Routes and limits\n";
        for (name, lines) in detail_lines(plan) {
            let _ = writeln!(out, "\n### {}\n", crate::escape::markdown(&name));
            for l in lines {
                let _ = writeln!(out, "- {}", crate::escape::markdown(l.trim_start()));
            }
        }
    }
    out += "\n## Links\n\n";
    out += &md_row(&LINK_HEAD.map(String::from));
    out += &md_row(&LINK_HEAD.map(|_| "---".to_string()));
    for r in &l {
        out += &md_row(r);
    }
    if !plan.storage.is_empty() {
        out += "\n## Storage\n\n";
        out += &md_row(&STORAGE_HEAD.map(String::from));
        out += &md_row(&STORAGE_HEAD.map(|_| "---".to_string()));
        for r in &storage_rows(plan) {
            out += &md_row(r);
        }
    }
    if !plan.fabrics.is_empty() {
        out += "\n## NVMe over Fabrics\n\n";
        out += &md_row(&FABRIC_HEAD.map(String::from));
        out += &md_row(&FABRIC_HEAD.map(|_| "---".to_string()));
        for r in &fabric_rows(plan) {
            out += &md_row(r);
        }
    }
    out
}

pub(crate) fn json(plan: &Plan, x: &Extras) -> String {
    // serde_json writes UTF-8 only.
    String::from_utf8(json_bytes(plan, x)).unwrap_or_default()
}

/// The plan as JSON, the bytes `serde_json::to_string_pretty` gives for it as one
/// `Value` (keys sorted), written without building one.
pub(crate) fn json_bytes(plan: &Plan, x: &Extras) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(4096 + plan.flows.len() * 2048);
    // Into memory (no sink): cannot fail.
    let _ = json_into(plan, x, &mut out, None);
    out
}

/// [`json_bytes`] written to `w` as it is made, a block of elements at a time: a
/// build's plan.json (196 MB at 100,000 flows) never whole in memory.
pub(crate) fn json_to(plan: &Plan, x: &Extras, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(2 * BLOCK);
    json_into(plan, x, &mut out, Some(w))
}

/// Bytes gathered before a streamed plan goes to its writer (a few in tests, so they
/// hand over blocks mid-array).
const BLOCK: usize = if cfg!(test) { 64 } else { 1 << 20 };

/// The plan's JSON into `out`; with a `sink`, the large arrays are written serially and
/// `out` handed to it whenever a block is full, and at the end.
fn json_into(
    plan: &Plan,
    x: &Extras,
    out: &mut Vec<u8>,
    mut sink: Option<&mut dyn std::io::Write>,
) -> std::io::Result<()> {
    let names = |i: usize| plan.flows.get(i).map(|f| f.name.as_str());
    // Keys in order, as serde_json's sorted maps print them; the large arrays one
    // element at a time (a whole 100,000-flow plan as one `Value` was 2 GB and most
    // of a large build's time), each element serialized in place (`sorted`).
    out.push(b'{');
    let fields: [(&str, Field); 13] = [
        ("acknowledged", Field::One(value(&x.acknowledged))),
        (
            "diagnostics",
            Field::One(x.diagnostics["diagnostics"].clone()),
        ),
        ("errors", Field::One(x.diagnostics["errors"].clone())),
        ("external", Field::One(value(&plan.external))),
        ("fabrics", Field::One(value(&plan.fabrics))),
        ("flows", Field::Flows),
        ("links", Field::Links),
        ("show", Field::One(value(&plan.show))),
        ("sites", Field::One(value(&plan.sites))),
        ("storage", Field::One(value(&plan.storage))),
        ("title", Field::One(value(&plan.title))),
        ("venue", Field::One(value(&plan.venue))),
        ("warnings", Field::One(x.diagnostics["warnings"].clone())),
    ];
    for (i, (key, field)) in fields.into_iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n  \"" } else { b",\n  \"" });
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\": ");
        let flow = |out: &mut Vec<u8>, f: &FlowPrediction| sorted::flow(out, 2, f);
        let link = |out: &mut Vec<u8>, l: &(_, LinkUse)| sorted::link(out, 2, &l.1, names);
        match (field, sink.as_deref_mut()) {
            (Field::One(v), _) => pretty_at(out, &v, 1),
            (Field::Flows, None) => elements(out, &plan.flows, flow),
            (Field::Links, None) => elements(out, &plan.links, link),
            (Field::Flows, Some(w)) => {
                streamed(out, &plan.flows, w, flow, |k| ahead_flow(plan, k))?
            }
            (Field::Links, Some(w)) => {
                streamed(out, &plan.links, w, link, |k| ahead_link(plan, k))?
            }
        }
    }
    out.extend_from_slice(b"\n}\n");
    match sink {
        Some(w) => w.write_all(out),
        None => Ok(()),
    }
}

/// [`elements`] on one thread, `out` handed to `w` whenever it holds a block; `ahead`
/// told each element's number before it is written.
fn streamed<T>(
    out: &mut Vec<u8>,
    items: &[T],
    w: &mut dyn std::io::Write,
    write: impl Fn(&mut Vec<u8>, &T),
    ahead: impl Fn(usize),
) -> std::io::Result<()> {
    if items.is_empty() {
        out.extend_from_slice(b"[]");
        return Ok(());
    }
    out.push(b'[');
    for (k, v) in items.iter().enumerate() {
        out.extend_from_slice(if k == 0 { b"\n    " } else { b",\n    " });
        ahead(k);
        write(out, v);
        if out.len() >= BLOCK {
            w.write_all(out)?;
            out.clear();
        }
    }
    out.extend_from_slice(b"\n  ]");
    Ok(())
}

/// How many elements ahead of the one being written a streamed array asks for the
/// memory it will read (`prefetch`). Asking 2 ahead took the largest plan.json from
/// about 360 to 300 ms on its thread (the flows' words 40 ms, the links' flow names
/// 25; task timings, 6-7 turns each); 4 ahead gained half as much on the flows, lines
/// asked for too early gone again when needed.
const AHEAD: usize = 2;

/// Flow `k`'s turn: the words of flow `k + AHEAD`'s limits, each a text shared by the
/// flows naming one resource and so anywhere in memory.
fn ahead_flow(plan: &Plan, k: usize) {
    if let Some(f) = plan.flows.get(k + AHEAD) {
        crate::prefetch::line(f.bottleneck.why.as_ptr());
        for l in &f.limits {
            crate::prefetch::line(l.why.as_ptr());
        }
    }
}

/// Link `k`'s turn: where the names of the flows crossing link `k + 2 AHEAD` are kept
/// (each prediction's `name`), then the names of those crossing `k + AHEAD`, whose
/// records were asked for `AHEAD` turns before.
fn ahead_link(plan: &Plan, k: usize) {
    if let Some((_, u)) = plan.links.get(k + 2 * AHEAD) {
        for f in u.flows.iter().filter_map(|&i| plan.flows.get(i)) {
            // The field's address only: nothing of the prediction is read here.
            crate::prefetch::line(&raw const f.name);
        }
    }
    if let Some((_, u)) = plan.links.get(k + AHEAD) {
        for f in u.flows.iter().filter_map(|&i| plan.flows.get(i)) {
            crate::prefetch::line(f.name.as_ptr());
        }
    }
}

/// A top-level field of the plan: one value, or a large array written element by element.
enum Field {
    One(serde_json::Value),
    Flows,
    Links,
}

/// An array one level deep, each element written in place (two levels deep) by `write`.
fn elements<T>(out: &mut Vec<u8>, items: &[T], write: impl Fn(&mut Vec<u8>, &T)) {
    if items.is_empty() {
        out.extend_from_slice(b"[]");
        return;
    }
    out.push(b'[');
    for (k, v) in items.iter().enumerate() {
        out.extend_from_slice(if k == 0 { b"\n    " } else { b",\n    " });
        write(out, v);
    }
    out.extend_from_slice(b"\n  ]");
}

/// `v` as `serde_json::to_string_pretty` prints it `depth` levels deep, written in place.
fn pretty_at<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T, depth: usize) {
    let mut ser = serde_json::Serializer::with_formatter(out, Indented::at(depth));
    // Writing into memory cannot fail, and the plan holds nothing serde_json refuses
    // (its maps have string keys).
    let _ = serde::Serialize::serialize(v, &mut ser);
}

/// Any serializable value as a `serde_json::Value` (its maps' keys sorted).
fn value<T: serde::Serialize + ?Sized>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or_default()
}
