//! `democ plan`: the per-flow predictions and the link-utilization table, as text,
//! Markdown or JSON (the same data in each).

use std::fmt::Write as _;

use serde::Serialize;

use crate::check::fabrics::FabricPrediction;
use crate::check::predict::{FlowPrediction, HostStorage, LinkUse, Plan, SiteSummary};
use crate::diag::Severity;
use crate::session::Session;

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
/// A flow below `SHORTFALL` of its demand is `SHORT`, the word of its finding (W0247, a
/// warning wherever it is reported); "infeasible" is kept for the feasibility errors
/// that `build --allow-infeasible` names.
fn standing(f: &FlowPrediction) -> String {
    if !f.needs_rules.is_empty() {
        return "needs rules".to_owned();
    }
    let pct = format!("{:.0}%", 100.0 * f.predicted_gbps / f.demand_gbps.max(1e-9));
    match (f.feasible, f.expect_infeasible) {
        (true, _) => pct,
        (false, true) => format!("{pct} short (expected)"),
        (false, false) => format!("{pct} SHORT"),
    }
}

/// What `SHORT` means, under the flow table of a plan that shows one.
fn short_note(plan: &Plan) -> Option<String> {
    plan.flows
        .iter()
        .any(|f| !f.feasible && !f.expect_infeasible && f.needs_rules.is_empty())
        .then(|| {
            format!(
                "SHORT: predicted below {:.0} % of the demand (W0247: a warning in check, plan and build alike; `--deny warnings` fails all three); feasibility errors ({}) are what makes a show infeasible",
                100.0 * crate::check::predict::SHORTFALL,
                crate::diag::codes::FEASIBILITY
                    .iter()
                    .map(|c| c.id)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
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
                    .map(|l| format!("{}  {}: {}", limit_rate(l.gbps), l.kind.name(), l.why)),
            );
            (f.name.clone(), lines)
        })
        .collect()
}

/// Above this a limit binds nothing democ models (the fastest port is 800G, the widest
/// LAG a few Tbit/s): a TCP window over a sub-microsecond RTT works out at millions of
/// Gbit/s, which is no limit, and is said so.
const NO_LIMIT_GBPS: f64 = 100_000.0;

/// A limit's rate in the detail lines, `no limit` when nothing could reach it.
fn limit_rate(gbps: f64) -> String {
    if gbps >= NO_LIMIT_GBPS {
        format!("{:>15}", "no limit")
    } else {
        format!("{gbps:>8.1} Gbit/s")
    }
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
                    "{} x{} ({} stream{}{}{})",
                    f.protocol,
                    f.pairs,
                    f.streams_per_pair,
                    if f.streams_per_pair == 1 { "" } else { "s" },
                    f.congestion_control
                        .map_or(String::new(), |c| format!(", {c}")),
                    if f.stripes > 1 {
                        format!(", striped over {} NIC ports", f.stripes)
                    } else {
                        String::new()
                    }
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

pub(crate) fn table<const N: usize>(out: &mut String, head: [&str; N], rows: &[[String; N]]) {
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
    if let Some(n) = short_note(plan) {
        let _ = writeln!(out, "note: {n}");
    }
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
    if !plan.lag_members.is_empty() {
        out.push('\n');
        table(&mut out, LAG_HEAD, &lag_rows(plan));
    }
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
                    let _ = writeln!(
                        out,
                        "  {}  {}",
                        limit_rate(l.gbps).trim_start(),
                        line(&l.why)
                    );
                }
            }
        }
    }
    out
}

const LAG_HEAD: [&str; 5] = [
    "port-channel",
    "model",
    "units",
    "per member Gbit/s",
    "hash",
];

/// One row per LAG direction: its members' loads and how they are known.
fn lag_rows(plan: &Plan) -> Vec<[String; 5]> {
    plan.lag_members
        .iter()
        .map(|l| {
            [
                l.lag.clone(),
                l.model.to_owned(),
                l.units.to_string(),
                l.members_gbps
                    .iter()
                    .map(|&x| g(x))
                    .collect::<Vec<_>>()
                    .join(" / "),
                l.hash.clone(),
            ]
        })
        .collect()
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

/// The switches owned by others, and the devices with no switch OS, in words, when
/// there are any.
fn external_note(plan: &Plan) -> Option<String> {
    let names = |v: &[String]| {
        v.iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let owned = (!plan.external.is_empty()).then(|| {
        format!(
            "external (owned by others; modelled for feasibility, no config written or pushed): {}",
            names(&plan.external)
        )
    });
    let no_os = (!plan.no_os.is_empty()).then(|| {
        format!(
            "no switch OS (a hop at its `throughput:`; no config written, programmed with its own tools; the twin bridges its ports): {}",
            names(&plan.no_os)
        )
    });
    match (owned, no_os) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
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
    let mut notes: Vec<String> = short_note(plan).into_iter().collect();
    notes.extend(rule_notes(plan));
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
    if !plan.lag_members.is_empty() {
        out += "\n## LAG members\n\n";
        out += &md_row(&LAG_HEAD.map(String::from));
        out += &md_row(&LAG_HEAD.map(|_| "---".to_string()));
        for r in &lag_rows(plan) {
            out += &md_row(r);
        }
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

/// The plan as pretty JSON and a newline.
pub(crate) fn json_bytes(plan: &Plan, x: &Extras) -> Vec<u8> {
    let mut out = Vec::new();
    // Into memory: cannot fail.
    let _ = json_to(plan, x, &mut out);
    out
}

/// [`json_bytes`] written to `w` as it is made: a build's plan.json (hundreds of
/// megabytes on the largest shows) is never whole in memory.
pub(crate) fn json_to(plan: &Plan, x: &Extras, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let doc = Document {
        acknowledged: &x.acknowledged,
        diagnostics: &x.diagnostics["diagnostics"],
        errors: &x.diagnostics["errors"],
        external: &plan.external,
        fabrics: &plan.fabrics,
        flows: &plan.flows,
        lag_members: &plan.lag_members,
        links: plan
            .links
            .iter()
            .map(|(_, u)| LinkJson {
                link: u,
                flows: FlowNames(&u.flows, &plan.flows),
            })
            .collect(),
        show: &plan.show,
        sites: &plan.sites,
        storage: &plan.storage,
        title: &plan.title,
        venue: &plan.venue,
        warnings: &x.diagnostics["warnings"],
    };
    crate::ir::write_json(w, &doc)
}

/// plan.json: the plan with the session's diagnostics and acknowledged findings.
#[derive(Serialize)]
struct Document<'a> {
    acknowledged: &'a [String],
    diagnostics: &'a serde_json::Value,
    errors: &'a serde_json::Value,
    external: &'a [String],
    fabrics: &'a [FabricPrediction],
    flows: &'a [FlowPrediction],
    /// Per LAG direction, its members' loads; absent when the show has no LAG in use.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    lag_members: &'a [crate::check::lag_members::LagMembers],
    links: Vec<LinkJson<'a>>,
    show: &'a str,
    sites: &'a [SiteSummary],
    storage: &'a [HostStorage],
    title: &'a str,
    venue: &'a str,
    warnings: &'a serde_json::Value,
}

/// A link direction's use with the flows loading it by name.
#[derive(Serialize)]
struct LinkJson<'a> {
    #[serde(flatten)]
    link: &'a LinkUse,
    flows: FlowNames<'a>,
}

/// Flows by index, written as their names (an index past the plan's flows is left out).
struct FlowNames<'a>(&'a [usize], &'a [FlowPrediction]);

impl Serialize for FlowNames<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .iter()
                .filter_map(|&i| self.1.get(i).map(|f| f.name.as_str())),
        )
    }
}

#[cfg(test)]
mod limit_tests {
    use super::limit_rate;

    #[test]
    fn an_unbounded_limit_says_no_limit() {
        assert_eq!(limit_rate(10_002_835.0), "       no limit");
        assert_eq!(limit_rate(400.0), "   400.0 Gbit/s");
        assert_eq!(limit_rate(400.0).len(), limit_rate(1e9).len());
    }
}
