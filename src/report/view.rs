//! What the report shows, as data the templates print (`templates/report/`): every
//! section's rows in the order they appear, numbers as numbers (the template chooses
//! their precision), spec text as it is (the template's autoescape makes it safe).

use serde::Serialize;

use super::topology::{self, Diagram};
use super::{Finding, Measured, MeasuredRow};
use crate::check::CheckInput;
use crate::check::predict::Plan;
use crate::derive::ShowModel;
use crate::ir::Lab;

/// The page up to its list of files.
#[derive(Serialize)]
pub(crate) struct Page<'a> {
    show: Show<'a>,
    counts: Counts,
    topology: Diagram,
    flows: Flows<'a>,
    links: Links<'a>,
    /// Whether the flows and links carry what was measured (`report --results`).
    measured: bool,
    optics: Optics,
    hosts: Vec<Nic<'a>>,
    cabling: Cabling<'a>,
    /// The W0305 findings: what each switch relies on that its manual does not confirm,
    /// to try on the switch or a lab unit before the show.
    unconfirmed: Vec<&'a Finding>,
    findings: &'a [Finding],
}

#[derive(Serialize)]
struct Show<'a> {
    name: &'a str,
    title: &'a str,
    venue: &'a str,
}

#[derive(Serialize)]
struct Counts {
    sites: usize,
    switches: usize,
    dtns: usize,
    cables: usize,
    flows: usize,
}

#[derive(Serialize)]
struct Flows<'a> {
    head: Vec<&'static str>,
    /// Set when some flows are left out (see `FLOWS_SHOWN`).
    summary: Option<FlowSummary>,
    shown: Vec<Flow<'a>>,
}

#[derive(Serialize)]
struct FlowSummary {
    flows: usize,
    below_demand: usize,
    short: usize,
    /// How many flows each kind of limit bounds, by kind.
    bottlenecks: Vec<(&'static str, usize)>,
    shown: usize,
}

#[derive(Serialize)]
struct Flow<'a> {
    /// Its index in the show: the anchor its row links to.
    index: usize,
    name: &'a str,
    protocol: &'static str,
    pairs: usize,
    demand_gbps: f64,
    predicted_gbps: f64,
    /// Predicted over demand, percent.
    pct: f64,
    feasible: bool,
    expect_infeasible: bool,
    rtt_ms: f64,
    why: &'a str,
    route: Route,
    measured: Option<&'a MeasuredRow>,
    limits: Vec<Limit<'a>>,
}

#[derive(Serialize)]
struct Limit<'a> {
    gbps: f64,
    kind: &'static str,
    why: &'a str,
}

/// One flow's route as a small chain diagram: source, switches, destination.
#[derive(Serialize)]
struct Route {
    width: f64,
    hops: Vec<Hop>,
}

#[derive(Serialize)]
struct Hop {
    name: String,
    class: &'static str,
    x: f64,
    width: f64,
    /// The middle of its box, where its name is centred.
    mid: f64,
    /// Where the line from the previous hop starts (none for the first).
    line_from: Option<f64>,
}

#[derive(Serialize)]
struct Links<'a> {
    head: Vec<&'static str>,
    rows: Vec<LinkRow<'a>>,
}

#[derive(Serialize)]
struct LinkRow<'a> {
    measured: Option<&'a MeasuredRow>,
    link: &'a str,
    direction: &'a str,
    load_gbps: f64,
    capacity_gbps: f64,
    utilization_pct: f64,
    class: &'static str,
}

#[derive(Serialize)]
struct Optics {
    rows: Vec<Budget>,
    /// The planned margin (`show.defaults.optics_margin_db`).
    required_db: f64,
    /// Why some rows require none (`check::optics::CHANNEL_LIMIT_RULE`).
    channel_rule: &'static str,
}

/// One fiber's optical budget: a link's, or an OTN client run's.
#[derive(Serialize)]
struct Budget {
    /// The link's lab id (`<show>-001`).
    id: String,
    link: String,
    /// `a` or `b` for a client run.
    client_end: Option<&'static str>,
    optic_a: String,
    /// The other end's optic when it differs.
    optic_b: Option<String>,
    km: f64,
    available_db: f64,
    loss_db: f64,
    margin_db: f64,
    /// What `check` requires of this row (`Budget::required`): the planned margin, or
    /// none on a maximum-channel-loss rating.
    required_db: f64,
    class: &'static str,
}

/// One NIC of a DTN, with its host's facts.
#[derive(Serialize)]
struct Nic<'a> {
    host: &'a str,
    chassis: &'a str,
    cpu: &'a str,
    sockets: u8,
    model: &'a str,
    slot: &'a str,
    /// The negotiated PCIe link (`Gen4 x16`), empty when unknown.
    pcie: String,
    usable_gbps: Option<f64>,
    socket: Option<u8>,
    drives: u32,
    drive_sockets: Vec<u8>,
    read_gbps: f64,
    write_gbps: f64,
}

#[derive(Serialize)]
struct Cabling<'a> {
    cables: Vec<Cable<'a>>,
    /// The bill of materials' totals.
    bom: Vec<Part<'a>>,
}

#[derive(Serialize)]
struct Cable<'a> {
    id: &'a str,
    kind: &'a str,
    speed: &'a str,
    media: &'a str,
    /// As the CSV prints it, empty when not declared.
    length_m: String,
    a: End<'a>,
    b: End<'a>,
    notes: &'a str,
}

#[derive(Serialize)]
struct End<'a> {
    device: &'a str,
    port: &'a str,
    subport: Option<&'a str>,
    optic: Option<&'a str>,
}

impl<'a> End<'a> {
    fn of(e: &'a crate::ir::cabling::CableEnd) -> End<'a> {
        End {
            device: &e.device,
            port: &e.port,
            subport: e.subport.as_deref(),
            optic: e.optic.as_deref(),
        }
    }
}

#[derive(Serialize)]
struct Part<'a> {
    category: &'a str,
    part: &'a str,
    length_m: String,
    quantity: u32,
    spares: u32,
}

/// Flows a report shows with a row and a section each. A larger show gets the flows
/// with the least headroom and counts of the rest: 100,000 flow sections made a 180 MB
/// page that no browser opens, and plan.json holds every flow.
const FLOWS_SHOWN: usize = 500;

/// The page's data. None: the show has no physics.
pub(crate) fn page<'a>(
    front: &'a ShowModel,
    plan: &'a Plan,
    lab: &'a Lab,
    found: &'a [Finding],
    measured: Option<&'a Measured>,
) -> Option<Page<'a>> {
    let cx = CheckInput::new(front)?;
    let m = &front.model;
    Some(Page {
        show: Show {
            name: &m.settings.name,
            title: &m.settings.title,
            venue: &m.settings.venue,
        },
        counts: Counts {
            sites: m.sites.len(),
            switches: m.switches.len(),
            dtns: m.hosts.len(),
            cables: m.links.len(),
            flows: m.flows.len(),
        },
        topology: topology::diagram(m, plan, cx.physics.fiber_us_per_km),
        flows: flows(front, plan, measured),
        links: links(plan, measured),
        measured: measured.is_some(),
        optics: optics(&cx),
        hosts: hosts(&cx),
        cabling: cabling(lab),
        unconfirmed: found
            .iter()
            .filter(|f| f.code == crate::diag::codes::UNCONFIRMED.id)
            .collect(),
        findings: found,
    })
}

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
fn flow_summary(plan: &Plan, shown: usize) -> FlowSummary {
    let mut kinds = std::collections::BTreeMap::new();
    for f in &plan.flows {
        *kinds.entry(f.bottleneck.kind.name()).or_insert(0usize) += 1;
    }
    FlowSummary {
        flows: plan.flows.len(),
        below_demand: plan
            .flows
            .iter()
            .filter(|f| f.predicted_gbps < f.demand_gbps)
            .count(),
        short: plan.flows.iter().filter(|f| !f.feasible).count(),
        bottlenecks: kinds.into_iter().collect(),
        shown,
    }
}

fn flows<'a>(front: &'a ShowModel, plan: &'a Plan, measured: Option<&'a Measured>) -> Flows<'a> {
    let m = &front.model;
    let shown = shown_flows(plan);
    let summary = (shown.len() < plan.flows.len()).then(|| flow_summary(plan, shown.len()));
    let shown = shown
        .into_iter()
        .map(|i| {
            let f = &plan.flows[i];
            let mut hops = Vec::new();
            if let Some(&(a, b)) = m.flows.get(i).and_then(|mf| mf.pairs.first()) {
                hops.push(m.hosts[a].name.value.clone());
                hops.extend(f.path.iter().map(|s| s.to_string()));
                hops.push(m.hosts[b].name.value.clone());
            }
            Flow {
                index: i,
                name: &f.name,
                protocol: f.protocol,
                pairs: f.pairs,
                demand_gbps: f.demand_gbps,
                predicted_gbps: f.predicted_gbps,
                pct: 100.0 * f.predicted_gbps / f.demand_gbps.max(1e-9),
                feasible: f.feasible,
                expect_infeasible: f.expect_infeasible,
                rtt_ms: f.rtt_ms,
                why: &f.bottleneck.why,
                route: route(hops),
                measured: measured.and_then(|m| m.flows.get(&f.name)),
                limits: f
                    .limits
                    .iter()
                    .map(|l| Limit {
                        gbps: l.gbps,
                        kind: l.kind.name(),
                        why: &l.why,
                    })
                    .collect(),
            }
        })
        .collect();
    let mut head = crate::plan::FLOW_HEAD.to_vec();
    if measured.is_some() {
        head.extend(["measured Gbit/s", "measured"]);
    }
    Flows {
        head,
        summary,
        shown,
    }
}

/// Boxes as wide as their names, 24 apart.
fn route(names: Vec<String>) -> Route {
    const GAP: f64 = 24.0;
    let last = names.len().saturating_sub(1);
    let mut x = 0.0;
    let mut hops = Vec::with_capacity(names.len());
    for (i, name) in names.into_iter().enumerate() {
        let width = 7.2 * name.chars().count() as f64 + 16.0;
        hops.push(Hop {
            class: if i == 0 || i == last { "dtn" } else { "switch" },
            x,
            width,
            mid: x + width / 2.0,
            line_from: (i > 0).then_some(x - GAP),
            name,
        });
        x += width + GAP;
    }
    let width = hops.iter().map(|h| h.width).sum::<f64>() + GAP * last as f64;
    Route { width, hops }
}

fn links<'a>(plan: &'a Plan, measured: Option<&'a Measured>) -> Links<'a> {
    let mut head = crate::plan::LINK_HEAD.to_vec();
    if measured.is_some() {
        head.extend(["measured Gbit/s", "measured"]);
    }
    Links {
        head,
        rows: plan
            .links
            .iter()
            .map(|(_, u)| LinkRow {
                measured: measured.and_then(|m| m.links.get(&u.link)),
                link: &u.link,
                direction: &u.direction,
                load_gbps: u.load_gbps,
                capacity_gbps: u.capacity_gbps,
                utilization_pct: u.utilization_pct,
                class: topology::load_class(Some(u.utilization_pct)),
            })
            .collect(),
    }
}

fn optics(cx: &CheckInput) -> Optics {
    use crate::check::optics::{Plant, budget};
    use crate::resolve::model::LinkKind;
    use crate::spec::wan::WanKind;
    use crate::yaml::decode::Located;
    let m = cx.m;
    let required = if m.settings.margin_db.value.is_nan() {
        cx.physics.default_margin_db
    } else {
        m.settings.margin_db.value
    };
    let row =
        |id: String, link: usize, client_end, a: &Located<String>, b: &Located<String>, plant| {
            let (oa, ob) = (cx.db.optics.get(a)?, cx.db.optics.get(b)?);
            let bud = budget(oa, ob, plant, cx.physics).ok()?;
            let margin = bud.margin_db();
            let required_db = bud.required(required);
            Some(Budget {
                id,
                link: m.link_name(link),
                client_end,
                optic_a: a.value.clone(),
                optic_b: (a.value != b.value).then(|| b.value.clone()),
                km: plant.length_km,
                available_db: bud.available_db,
                loss_db: bud.loss_db,
                margin_db: margin,
                required_db,
                class: if margin < 0.0 {
                    "u-over"
                } else if margin < required_db {
                    "u-high"
                } else {
                    "u-low"
                },
            })
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
        let (a, b) = (l.optic_a.as_ref()?, l.optic_b.as_ref()?);
        row(lab_id(m, i), i, None, a, b, plant)
    });
    let runs = m.client_runs().enumerate().filter_map(|(k, (i, _, r))| {
        let plant = Plant {
            length_km: r.length_km,
            connectors: r.connectors,
            splices: r.splices,
        };
        let id = lab_id(m, m.links.len() + k);
        row(id, i, Some(r.end), &r.optic, &r.transponder_optic, plant)
    });
    Optics {
        rows: links.chain(runs).collect(),
        required_db: required,
        channel_rule: crate::check::optics::CHANNEL_LIMIT_RULE,
    }
}

fn lab_id(m: &crate::resolve::model::Model, i: usize) -> String {
    format!(
        "{}-{:03}",
        crate::lower::safe_text::name_like(&m.settings.name),
        i + 1
    )
}

fn hosts<'a>(cx: &CheckInput<'a>) -> Vec<Nic<'a>> {
    use crate::check::pcie::{Use, nic_link, usable_gbps};
    let m = cx.m;
    let facts = crate::check::predict::host_facts(cx);
    let mut out = Vec::new();
    for (h, f) in m.hosts.iter().zip(&facts) {
        for (n, nic) in h.nics.iter().enumerate() {
            let link = nic_link(cx, h, n);
            out.push(Nic {
                host: &h.name.value,
                chassis: &h.chassis.value,
                cpu: &h.cpu.value,
                sockets: h.sockets,
                model: &nic.model.value,
                slot: &nic.slot.value,
                pcie: link
                    .as_ref()
                    .map(|(l, _)| l.to_string())
                    .unwrap_or_default(),
                // The NIC's lower direction, as the line-rate check uses.
                usable_gbps: link.and_then(|(l, _)| usable_gbps(cx, h, l, Use::Nic).ok()),
                socket: f.nic_socket.get(n).copied().flatten(),
                drives: f.io.drives,
                drive_sockets: f.io.sockets.clone(),
                read_gbps: f.io.read_gbps,
                write_gbps: f.io.write_gbps,
            });
        }
    }
    out
}

fn cabling(lab: &Lab) -> Cabling<'_> {
    let length = |l: Option<f64>| l.map_or(String::new(), |l| format!("{l}"));
    Cabling {
        cables: lab
            .cabling
            .cables
            .iter()
            .map(|c| Cable {
                id: &c.id,
                kind: &c.kind,
                speed: &c.speed,
                media: &c.media,
                length_m: length(c.length_m),
                a: End::of(&c.a),
                b: End::of(&c.b),
                notes: &c.notes,
            })
            .collect(),
        bom: lab
            .cabling
            .bom
            .iter()
            .filter(|l| l.site == "total")
            .map(|l| Part {
                category: &l.category,
                part: &l.part,
                length_m: length(l.length_m),
                quantity: l.quantity,
                spares: l.spares,
            })
            .collect(),
    }
}
