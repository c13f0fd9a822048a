//! `report/index.html`: the show for a planner, in one self-contained file (inline CSS
//! and SVG, no script, nothing fetched), readable on a laptop and printable: the
//! topology, each flow's route and limits, link utilization, optical budgets, PCIe and
//! NUMA per DTN, the cabling plan and bill of materials, the findings, and links to every
//! generated file. Every spec string goes through `escape::html`.

mod grid;
mod layout;
mod topology;

use std::fmt::Write as _;

use crate::check::Ctx;
use crate::check::predict::Plan;
use crate::compile::Front;
use crate::escape::html;
use crate::ir::Lab;

/// A finding as the report lists it.
pub(crate) struct Finding {
    pub(crate) severity: &'static str,
    pub(crate) code: &'static str,
    pub(crate) location: String,
    pub(crate) message: String,
}

impl Finding {
    /// The session's diagnostics, located relative to the main spec's folder `main_dir`
    /// (as the manifest names sources), so the report does not depend on where democ ran.
    pub(crate) fn all(s: &crate::compile::Session, main_dir: &str) -> Vec<Finding> {
        let prefix = format!("{main_dir}/");
        s.diags
            .items()
            .iter()
            .map(|d| Finding {
                severity: match d.severity {
                    crate::diag::Severity::Error => "error",
                    crate::diag::Severity::Warning => "warning",
                    crate::diag::Severity::Note => "note",
                },
                code: d.code.id,
                location: {
                    let at = crate::diag::render::location(&s.sources, d);
                    match at.strip_prefix(&prefix) {
                        Some(rest) if !main_dir.is_empty() => rest.to_owned(),
                        _ => at,
                    }
                },
                message: d.message.clone(),
            })
            .collect()
    }
}

const STYLE: &str = include_str!("report.css");

fn table(out: &mut String, head: &[&str], rows: impl IntoIterator<Item = Vec<String>>) {
    out.push_str("<table><thead><tr>");
    for h in head {
        let _ = write!(out, "<th>{}</th>", html(h));
    }
    out.push_str("</tr></thead><tbody>");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            // Cells are escaped by the callers (some hold markup of democ's own).
            let _ = write!(out, "<td>{c}</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>\n");
}

fn g(v: f64) -> String {
    format!("{v:.1}")
}

/// One flow's route as a small chain diagram: source, switches, destination.
fn route_svg(hops: &[String]) -> String {
    let widths: Vec<f64> = hops
        .iter()
        .map(|h| 7.2 * h.chars().count() as f64 + 16.0)
        .collect();
    let total: f64 = widths.iter().sum::<f64>() + 24.0 * hops.len().saturating_sub(1) as f64;
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="route" width="{total:.0}" height="28" viewBox="0 0 {total:.0} 28">"#
    );
    let mut x = 0.0;
    for (i, (h, w)) in hops.iter().zip(&widths).enumerate() {
        if i > 0 {
            let _ = write!(
                out,
                r#"<path class="hop" d="M{:.1} 14 L{x:.1} 14"/>"#,
                x - 24.0
            );
        }
        let class = if i == 0 || i + 1 == hops.len() {
            "dtn"
        } else {
            "switch"
        };
        let _ = write!(
            out,
            r#"<g class="{class}"><rect x="{x:.1}" y="2" width="{w:.1}" height="24" rx="4"/><text x="{:.1}" y="18">{}</text></g>"#,
            x + w / 2.0,
            html(h)
        );
        x += w + 24.0;
    }
    out.push_str("</svg>");
    out
}

/// Flows a report shows with a row and a section each. A larger show gets the flows
/// with the least headroom and counts of the rest: 100,000 flow sections made a 180 MB
/// page that no browser opens, and plan.json holds every flow.
const FLOWS_SHOWN: usize = 500;

/// The flows to show, by index: all of them in the show's order, or, past
/// `FLOWS_SHOWN`, the ones furthest below their demand first (ties in the show's order).
fn shown_flows(plan: &Plan) -> Vec<usize> {
    let mut shown: Vec<usize> = (0..plan.flows.len()).collect();
    if shown.len() > FLOWS_SHOWN {
        let headroom = |i: usize| {
            let f = &plan.flows[i];
            f.predicted_gbps / f.demand_gbps.max(1e-9)
        };
        shown.sort_by(|&a, &b| headroom(a).total_cmp(&headroom(b)).then(a.cmp(&b)));
        shown.truncate(FLOWS_SHOWN);
    }
    shown
}

/// What a large show's report says of the flows it does not list.
fn flow_summary(out: &mut String, plan: &Plan, shown: usize) {
    let below = plan
        .flows
        .iter()
        .filter(|f| f.predicted_gbps < f.demand_gbps)
        .count();
    let infeasible = plan.flows.iter().filter(|f| !f.feasible).count();
    let mut kinds = std::collections::BTreeMap::new();
    for f in &plan.flows {
        *kinds.entry(f.bottleneck.kind.name()).or_insert(0usize) += 1;
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = writeln!(
        out,
        "<p class=\"summary\">{} flows: {} below their demand, {} infeasible; bottlenecks: {}. The {} with the least headroom are listed below; <a href=\"../plan.json\">plan.json</a> holds every flow's prediction and limits.</p>",
        plan.flows.len(),
        below,
        infeasible,
        html(&kinds.join(", ")),
        shown
    );
}

fn flows(out: &mut String, front: &Front, plan: &Plan) {
    out.push_str("<section id=\"flows\"><h2>Flows</h2>\n");
    let shown = shown_flows(plan);
    if shown.len() < plan.flows.len() {
        flow_summary(out, plan, shown.len());
    }
    let rows = shown.iter().map(|&i| {
        let f = &plan.flows[i];
        let pct = 100.0 * f.predicted_gbps / f.demand_gbps.max(1e-9);
        let standing = match (f.feasible, f.expect_infeasible) {
            (true, _) => format!("{pct:.0}%"),
            (false, true) => format!("{pct:.0}% infeasible (expected)"),
            (false, false) => format!("<strong class=\"bad\">{pct:.0}% infeasible</strong>"),
        };
        vec![
            format!("<a href=\"#flow-{i}\">{}</a>", html(&f.name)),
            html(&format!("{} x{}", f.protocol, f.pairs)),
            g(f.demand_gbps),
            g(f.predicted_gbps),
            standing,
            format!("{:.3}", f.rtt_ms),
            html(&f.bottleneck.why),
        ]
    });
    table(out, &crate::plan::FLOW_HEAD, rows);
    let m = &front.model;
    for &i in &shown {
        let f = &plan.flows[i];
        let mut hops = Vec::new();
        if let Some(&(a, b)) = m.flows.get(i).and_then(|mf| mf.pairs.first()) {
            hops.push(m.hosts[a].name.value.clone());
            hops.extend(f.path.iter().map(|s| s.to_string()));
            hops.push(m.hosts[b].name.value.clone());
        }
        let _ = write!(
            out,
            "<div class=\"flow\" id=\"flow-{i}\"><h3>{}</h3>{}<ol class=\"limits\">",
            html(&f.name),
            route_svg(&hops)
        );
        for l in &f.limits {
            let _ = write!(
                out,
                "<li><b>{} Gbit/s</b> {}: {}</li>",
                g(l.gbps),
                html(l.kind.name()),
                html(&l.why)
            );
        }
        out.push_str("</ol></div>\n");
    }
    out.push_str("</section>\n");
}

fn links(out: &mut String, plan: &Plan) {
    out.push_str("<section id=\"links\"><h2>Link utilization</h2>\n");
    let rows = plan.links.iter().map(|(_, u)| {
        vec![
            html(&u.link),
            html(&u.direction),
            g(u.load_gbps),
            g(u.capacity_gbps),
            format!(
                "<span class=\"{}\">{:.0}%</span>",
                topology::load_class(Some(u.utilization_pct)),
                u.utilization_pct
            ),
        ]
    });
    table(out, &crate::plan::LINK_HEAD, rows);
    out.push_str("</section>\n");
}

fn optics(out: &mut String, cx: &Ctx) {
    use crate::check::optics::{Plant, budget};
    use crate::resolve::model::LinkKind;
    use crate::spec::wan::WanKind;
    use crate::yaml::decode::Sp;
    out.push_str("<section id=\"optics\"><h2>Optical budgets</h2>\n");
    let m = cx.m;
    let required = if m.settings.margin_db.value.is_nan() {
        cx.physics.default_margin_db
    } else {
        m.settings.margin_db.value
    };
    let row = |label: String, a: &Sp<String>, b: &Sp<String>, plant: Plant| {
        let (oa, ob) = (cx.db.optics.get(a)?, cx.db.optics.get(b)?);
        let bud = budget(oa, ob, plant, cx.physics).ok()?;
        let margin = bud.margin_db();
        let class = if margin < 0.0 {
            "u-over"
        } else if margin < required && !bud.channel_limit {
            "u-high"
        } else {
            "u-low"
        };
        Some(vec![
            html(&label),
            html(&if a.value == b.value {
                a.value.clone()
            } else {
                format!("{} / {}", a.value, b.value)
            }),
            format!("{:.3}", plant.length_km),
            g(bud.available_db),
            g(bud.loss_db),
            format!("<span class=\"{class}\">{}</span>", g(margin)),
        ])
    };
    // The optics of an OTN or circuit hand-off face the carrier's equipment, not each
    // other over the WAN's length: their fiber is the client run, listed after the links.
    let links = m.links.iter().enumerate().filter_map(|(i, l)| {
        if let LinkKind::Wan(w) = l.kind {
            if m.wans[w].kind != WanKind::DarkFiber {
                return None;
            }
        }
        let plant = Plant {
            length_km: l.length_km,
            connectors: l.connectors,
            splices: l.splices,
        };
        let label = format!("{} {}", lab_id(m, i), m.link_name(i));
        row(label, l.optic_a.as_ref()?, l.optic_b.as_ref()?, plant)
    });
    let runs = m.client_runs().enumerate().filter_map(|(k, (i, _, r))| {
        let plant = Plant {
            length_km: r.length_km,
            connectors: r.connectors,
            splices: r.splices,
        };
        let label = format!(
            "{} `client_{}` run of {}",
            lab_id(m, m.links.len() + k),
            r.end,
            m.link_name(i)
        );
        row(label, &r.optic, &r.transponder_optic, plant)
    });
    table(
        out,
        &["link", "optics", "km", "budget dB", "loss dB", "margin dB"],
        links.chain(runs),
    );
    let _ = writeln!(out, "<p>Required margin: {} dB.</p></section>", g(required));
}

fn lab_id(m: &crate::resolve::model::Model, i: usize) -> String {
    format!(
        "{}-{:03}",
        crate::lower::text::name_like(&m.settings.name),
        i + 1
    )
}

fn hosts(out: &mut String, cx: &Ctx) {
    use crate::check::pcie::{Use, nic_link, usable_gbps};
    out.push_str("<section id=\"hosts\"><h2>PCIe and NUMA per DTN</h2>\n");
    let m = cx.m;
    let facts = crate::check::predict::host_facts(cx);
    let rows = m.hosts.iter().zip(&facts).flat_map(|(h, f)| {
        h.nics.iter().enumerate().map(move |(n, nic)| {
            let link = nic_link(cx, h, n);
            let lanes = link
                .as_ref()
                .map(|(l, _)| l.to_string())
                .unwrap_or_default();
            let usable = link
                .as_ref()
                // The NIC's lower direction, as the line-rate check uses.
                .and_then(|(l, _)| usable_gbps(cx, h, *l, Use::Nic).ok())
                .map(g)
                .unwrap_or_default();
            let socket = f
                .nic_socket
                .get(n)
                .copied()
                .flatten()
                .map_or(String::new(), |s| s.to_string());
            let drives = if f.io.drives > 0 {
                format!(
                    "{} drives on socket {:?}, read {} / write {} Gbit/s",
                    f.io.drives,
                    f.io.sockets,
                    g(f.io.read_gbps),
                    g(f.io.write_gbps)
                )
            } else {
                String::new()
            };
            vec![
                html(&h.name.value),
                html(&format!(
                    "{} / {} x{}",
                    h.chassis.value, h.cpu.value, h.sockets
                )),
                html(&format!("{} in slot {}", nic.model.value, nic.slot.value)),
                html(&lanes),
                usable,
                socket,
                html(&drives),
            ]
        })
    });
    table(
        out,
        &[
            "host",
            "chassis / CPU",
            "NIC",
            "PCIe link",
            "usable Gbit/s",
            "NIC socket",
            "NVMe",
        ],
        rows,
    );
    out.push_str("</section>\n");
}

fn cabling(out: &mut String, lab: &Lab) {
    out.push_str("<section id=\"cabling\"><h2>Cabling plan</h2>\n<p><a href=\"../cabling.csv\">cabling.csv</a>, <a href=\"../bom.csv\">bom.csv</a></p>\n");
    let end = |e: &crate::ir::cabling::CableEnd| {
        let port = match &e.subport {
            Some(k) => format!("{}:{}:{k}", e.device, e.port),
            None => format!("{}:{}", e.device, e.port),
        };
        html(&match &e.optic {
            Some(o) => format!("{port} [{o}]"),
            None => port,
        })
    };
    let rows = lab.cabling.cables.iter().map(|c| {
        vec![
            html(&c.id),
            html(&c.kind),
            html(&c.speed),
            html(&c.media),
            c.length_m.map_or(String::new(), |l| format!("{l}")),
            end(&c.a),
            end(&c.b),
            html(&c.notes),
        ]
    });
    table(
        out,
        &["id", "kind", "speed", "media", "m", "a", "b", "notes"],
        rows,
    );
    out.push_str("<h3>Bill of materials (totals)</h3>\n");
    let rows = lab
        .cabling
        .bom
        .iter()
        .filter(|l| l.site == "total")
        .map(|l| {
            vec![
                html(&l.category),
                html(&l.part),
                l.length_m.map_or(String::new(), |v| format!("{v}")),
                l.quantity.to_string(),
                l.spares.to_string(),
            ]
        });
    table(out, &["category", "part", "m", "quantity", "spares"], rows);
    out.push_str("</section>\n");
}

fn findings(out: &mut String, items: &[Finding]) {
    out.push_str("<section id=\"findings\"><h2>Findings</h2>\n");
    if items.is_empty() {
        out.push_str("<p>None.</p>");
    }
    let rows = items.iter().map(|f| {
        vec![
            format!("<span class=\"{}\">{}</span>", f.severity, f.severity),
            f.code.to_owned(),
            html(&f.location),
            html(&f.message),
        ]
    });
    table(out, &["", "code", "where", "what"], rows);
    out.push_str("</section>\n");
}

fn files(out: &mut String, files: &[&str]) {
    out.push_str("<section id=\"files\"><h2>Generated files</h2><ul class=\"files\">\n");
    for f in files {
        let _ = writeln!(out, "<li><a href=\"../{0}\">{0}</a></li>", html(f));
    }
    out.push_str("</ul></section>\n");
}

/// The whole report. `generated`: every other file of the build, by path.
pub(crate) fn html_report(
    front: &Front,
    plan: &Plan,
    lab: &Lab,
    found: &[Finding],
    generated: &[&str],
) -> String {
    body(front, plan, lab, found).map_or_else(String::new, |b| finish(b, generated))
}

/// The report up to its list of files, which a build knows only once the rest is made
/// (so the body is made beside the other files). None: the show has no physics.
pub(crate) fn body(front: &Front, plan: &Plan, lab: &Lab, found: &[Finding]) -> Option<String> {
    let cx = Ctx::new(front)?;
    let m = &front.model;
    let mut out = String::with_capacity(256 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{} — democ report</title><style>{STYLE}</style></head><body>\n",
        html(&m.settings.name)
    );
    let _ = write!(
        out,
        "<header><h1>{}</h1><p>{}{}</p><p>{} sites, {} switches, {} DTNs, {} cables, {} flows</p><nav><a href=\"#topology\">topology</a> <a href=\"#flows\">flows</a> <a href=\"#links\">links</a> <a href=\"#optics\">optics</a> <a href=\"#hosts\">DTNs</a> <a href=\"#cabling\">cabling</a> <a href=\"#findings\">findings</a> <a href=\"#files\">files</a></nav></header>",
        html(&m.settings.name),
        html(&m.settings.title),
        if m.settings.venue.is_empty() {
            String::new()
        } else {
            format!(", {}", html(&m.settings.venue))
        },
        m.sites.len(),
        m.switches.len(),
        m.hosts.len(),
        m.links.len(),
        m.flows.len()
    );
    out.push('\n');
    out.push_str("<section id=\"topology\"><h2>Topology</h2><p class=\"legend\"><span class=\"u-low\">under 50%</span> <span class=\"u-mid\">50-90%</span> <span class=\"u-high\">90-100%</span> <span class=\"u-over\">over 100%</span> <span class=\"u-idle\">no flow</span></p><div class=\"diagram\">");
    out.push_str(&topology::svg(m, plan, cx.physics.fiber_us_per_km));
    out.push_str("</div></section>\n");
    flows(&mut out, front, plan);
    links(&mut out, plan);
    optics(&mut out, &cx);
    hosts(&mut out, &cx);
    cabling(&mut out, lab);
    findings(&mut out, found);
    Some(out)
}

/// The report's body, its list of files (`generated`: every other file of the build, by
/// path) and its footer.
pub(crate) fn finish(mut out: String, generated: &[&str]) -> String {
    files(&mut out, generated);
    out.push_str("<footer>democ ");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("</footer></body></html>\n");
    out
}
