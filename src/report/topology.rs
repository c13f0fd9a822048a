//! The topology diagram: sites as clusters, switches and DTN groups as nodes, one path
//! per cable coloured by its predicted utilization, labels with speed (and for WAN links
//! kind, length and RTT). Positions from `layout`; `templates/report/topology.svg.j2`
//! draws the SVG, where every element carries a class a test or a stylesheet can find.

use std::collections::BTreeMap;

use serde::Serialize;

use super::grid;
use super::labels;
use super::layout::place;
use crate::check::load::Res;
use crate::check::predict::Plan;
use crate::resolve::model::{LinkKind, Model, NodeId};

/// A node of the diagram: a switch, or the DTNs of one site cabled to one switch.
struct Node {
    label: String,
    class: &'static str,
    site: usize,
    /// Its title (tooltip): every DTN of a group.
    title: String,
}

/// The drawing as `topology.svg.j2` prints it: boxes by their top-left corners.
#[derive(Serialize)]
pub(crate) struct Diagram {
    width: f64,
    height: f64,
    sites: Vec<SiteBox>,
    /// The cables between each two nodes, with one label.
    bundles: Vec<Bundle>,
    nodes: Vec<NodeBox>,
}

#[derive(Serialize)]
struct SiteBox {
    name: String,
    title: String,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    title_x: f64,
    title_y: f64,
}

#[derive(Serialize)]
struct Bundle {
    cables: Vec<Cable>,
    label: String,
    label_x: f64,
    label_y: f64,
}

/// One cable's line, offset from its neighbours in a bundle.
#[derive(Serialize)]
struct Cable {
    class: &'static str,
    /// The link's number in the show (from 1).
    number: usize,
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    /// Its ends (`switch:port`).
    a: String,
    b: String,
    /// Predicted utilization, none when no flow is routed over it.
    used_pct: Option<f64>,
}

#[derive(Serialize)]
struct NodeBox {
    class: &'static str,
    label: String,
    title: String,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    text_x: f64,
    text_y: f64,
}

const H: f64 = 30.0;
/// The most nodes a site is drawn with the layered layout; a larger site goes in a grid
/// (`grid.rs`: the layered layout's time grows faster than linearly).
const LAYERED_MAX: usize = 120;
const PAD: f64 = 16.0;
const TITLE: f64 = 22.0;

fn width(label: &str) -> f64 {
    7.2 * label.chars().count() as f64 + 18.0
}

/// A host name without its trailing number: the stem DTN groups are named by.
fn stem(name: &str) -> &str {
    name.trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches('-')
}

/// The diagram's nodes and which node each switch and host is.
fn nodes(m: &Model) -> (Vec<Node>, Vec<usize>, Vec<usize>) {
    let mut out: Vec<Node> = m
        .switches
        .iter()
        .map(|s| Node {
            label: s.name.value.clone(),
            class: "switch",
            site: s.site,
            title: if s.external {
                format!(
                    "{} ({}, external: democ writes no config)",
                    s.name.value, s.model.value
                )
            } else {
                format!("{} ({})", s.name.value, s.model.value)
            },
        })
        .collect();
    let sw_node: Vec<usize> = (0..m.switches.len()).collect();
    // Hosts by (site, the switch their first port is cabled to, name stem).
    let mut groups: BTreeMap<(usize, Option<usize>, &str), Vec<usize>> = BTreeMap::new();
    for (i, h) in m.hosts.iter().enumerate() {
        let sw = h.ports.iter().filter_map(|p| p.link).find_map(|l| {
            let l = &m.links[l];
            [l.a.node, l.b.node].into_iter().find_map(|n| match n {
                NodeId::Switch(s) => Some(s),
                NodeId::Host(_) => None,
            })
        });
        groups
            .entry((h.site, sw, stem(&h.name.value)))
            .or_default()
            .push(i);
    }
    let mut host_node = vec![0; m.hosts.len()];
    for ((site, _, stem), hosts) in groups {
        let names: Vec<&str> = hosts
            .iter()
            .map(|&h| m.hosts[h].name.value.as_str())
            .collect();
        let label = match names.len() {
            1 => names[0].to_owned(),
            n => format!("{stem} x{n}"),
        };
        for &h in &hosts {
            host_node[h] = out.len();
        }
        out.push(Node {
            label,
            class: "dtn",
            site,
            title: names.join(", "),
        });
    }
    (out, sw_node, host_node)
}

/// Predicted utilization of each link, percent (the busier direction; a LAG member its
/// LAG's), None when nothing is routed over it.
pub(crate) fn utilization(m: &Model, plan: &Plan) -> Vec<Option<f64>> {
    let mut out = vec![None; m.links.len()];
    let mut put = |l: usize, u: f64| {
        let x: &mut Option<f64> = &mut out[l];
        *x = Some(x.map_or(u, |v| v.max(u)));
    };
    for (r, u) in &plan.links {
        match r {
            Res::Link(l, _) => put(*l, u.utilization_pct),
            Res::Lag(g, _) => {
                for &l in &m.lags[*g].members {
                    put(l, u.utilization_pct);
                }
            }
            _ => {}
        }
    }
    out
}

/// The CSS class of a utilization.
pub(crate) fn load_class(u: Option<f64>) -> &'static str {
    match u {
        None => "u-idle",
        Some(u) if u > 100.0 + 1e-6 => "u-over",
        Some(u) if u >= 90.0 => "u-high",
        Some(u) if u >= 50.0 => "u-mid",
        Some(_) => "u-low",
    }
}

/// What a link's label says: speed, and for a WAN link its kind, length and RTT.
fn link_label(m: &Model, l: usize, fiber_us_per_km: f64) -> String {
    let link = &m.links[l];
    match link.kind {
        LinkKind::Lan => link.capacity.to_string(),
        LinkKind::Wan(w) => {
            let wan = &m.wans[w];
            let rtt =
                2.0 * crate::derive::topology::link_latency_us(m, l, fiber_us_per_km) / 1000.0;
            let len = if link.length_km > 0.0 {
                format!(" {:.0} km", link.length_km)
            } else {
                String::new()
            };
            format!(
                "{} {} {}{len} RTT {rtt:.1} ms",
                wan.name.value,
                wan.kind.as_str(),
                link.capacity
            )
        }
    }
}

/// The topology's drawing, placed.
pub(crate) fn diagram(m: &Model, plan: &Plan, fiber_us_per_km: f64) -> Diagram {
    let (nodes, sw_node, host_node) = nodes(m);
    let node_of = |n: NodeId| match n {
        NodeId::Switch(s) => sw_node[s],
        NodeId::Host(h) => host_node[h],
    };
    // Each site's nodes laid out alone.
    let mut local: Vec<Vec<usize>> = vec![Vec::new(); m.sites.len()];
    let mut index = vec![0; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        index[i] = local[n.site].len();
        local[n.site].push(i);
    }
    let mut pairs: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, l) in m.links.iter().enumerate() {
        let (a, b) = (node_of(l.a.node), node_of(l.b.node));
        pairs.entry((a.min(b), a.max(b))).or_default().push(i);
    }
    // Each site's own links, in one pass over all of them.
    let mut inside: Vec<Vec<(usize, usize)>> = vec![Vec::new(); m.sites.len()];
    for &(a, b) in pairs.keys() {
        if nodes[a].site == nodes[b].site {
            inside[nodes[a].site].push((index[a], index[b]));
        }
    }
    let mut site_pos = Vec::with_capacity(m.sites.len());
    let mut site_size = Vec::with_capacity(m.sites.len());
    for (s, members) in local.iter().enumerate() {
        let sizes: Vec<(f64, f64)> = members
            .iter()
            .map(|&n| (width(&nodes[n].label), H))
            .collect();
        let edges = &inside[s];
        let (pos, (w, h)) = if sizes.len() > LAYERED_MAX {
            grid::place(&sizes, edges)
        } else {
            place(&sizes, edges, false)
        };
        let title = width(&site_title(m, s));
        site_pos.push(pos);
        site_size.push(((w + 2.0 * PAD).max(title), h + 2.0 * PAD + TITLE));
    }
    let site_edges: Vec<(usize, usize)> = pairs
        .keys()
        .map(|&(a, b)| (nodes[a].site, nodes[b].site))
        .filter(|(a, b)| a != b)
        .collect();
    let padded: Vec<(f64, f64)> = site_size
        .iter()
        .map(|&(w, h)| (w + 30.0, h + 40.0))
        .collect();
    // Sites in ranks from left to right: a show's hub with its many booths and remote
    // sites becomes a column beside a column, not one row as wide as all of them.
    let (centres, (tw, th)) = place(&padded, &site_edges, true);
    // Absolute centre of every node.
    let origin: Vec<(f64, f64)> = centres
        .iter()
        .zip(&site_size)
        .map(|(&(x, y), &(w, h))| (x - w / 2.0 + 15.0, y - h / 2.0 + 20.0))
        .collect();
    let at: Vec<(f64, f64)> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let (ox, oy) = origin[n.site];
            let (x, y) = site_pos[n.site][index[i]];
            (ox + PAD + x, oy + PAD + TITLE + y)
        })
        .collect();
    let util = utilization(m, plan);
    let sites = m
        .sites
        .iter()
        .enumerate()
        .map(|(s, site)| {
            let (x, y) = origin[s];
            let (w, h) = site_size[s];
            SiteBox {
                name: site.name.value.clone(),
                title: site_title(m, s),
                x,
                y,
                w,
                h,
                title_x: x + 8.0,
                title_y: y + 16.0,
            }
        })
        .collect();
    let mut bundles = pairs
        .iter()
        .map(|(&(a, b), links)| {
            let ((x1, y1), (x2, y2)) = (at[a], at[b]);
            let (dx, dy) = (x2 - x1, y2 - y1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (nx, ny) = (-dy / len, dx / len);
            let n = links.len() as f64;
            let cables = links
                .iter()
                .enumerate()
                .map(|(k, &l)| {
                    let off = (k as f64 - (n - 1.0) / 2.0) * 2.5;
                    Cable {
                        class: load_class(util[l]),
                        number: l + 1,
                        x1: x1 + nx * off,
                        y1: y1 + ny * off,
                        x2: x2 + nx * off,
                        y2: y2 + ny * off,
                        a: m.end_name(m.links[l].a),
                        b: m.end_name(m.links[l].b),
                        used_pct: util[l],
                    }
                })
                .collect();
            let first = links[0];
            let label = if links.len() > 1 {
                format!("{}x {}", links.len(), link_label(m, first, fiber_us_per_km))
            } else {
                link_label(m, first, fiber_us_per_km)
            };
            Bundle {
                cables,
                label,
                label_x: 0.0,
                label_y: 0.0,
            }
        })
        .collect::<Vec<_>>();
    let boxes: Vec<NodeBox> = nodes
        .into_iter()
        .zip(at.iter().copied())
        .map(|(node, (x, y))| {
            let w = width(&node.label);
            NodeBox {
                x: x - w / 2.0,
                y: y - H / 2.0,
                w,
                h: H,
                text_x: x,
                text_y: y + 4.5,
                class: node.class,
                label: node.label,
                title: node.title,
            }
        })
        .collect();
    // Labels where they cover no node and no other label (the nodes are drawn on top).
    let rects: Vec<labels::Rect> = boxes
        .iter()
        .map(|n| labels::Rect {
            x: n.x,
            y: n.y,
            w: n.w,
            h: n.h,
        })
        .collect();
    let lines: Vec<_> = pairs
        .keys()
        .zip(&bundles)
        .map(|(&(a, b), bundle)| (at[a], at[b], bundle.label.chars().count()))
        .collect();
    for (bundle, (x, y)) in bundles.iter_mut().zip(labels::place(&rects, &lines)) {
        bundle.label_x = x;
        bundle.label_y = y;
    }
    Diagram {
        width: tw.max(1.0),
        height: th.max(1.0),
        sites,
        bundles,
        nodes: boxes,
    }
}

fn site_title(m: &Model, s: usize) -> String {
    let site = &m.sites[s];
    match (&site.booth, &site.location) {
        (Some(b), _) => format!("{} (booth {b})", site.name.value),
        (None, Some(l)) => format!("{} ({l})", site.name.value),
        _ => site.name.value.clone(),
    }
}
