//! Links, LAGs and WAN connections: endpoints resolved to ports, each port cabled once,
//! speeds agreed at both ends.

use super::Rx;
use super::model::{End, Lag, Link, LinkKind, Model, NodeId, Wan};
use crate::catalog::titles;
use crate::diag::{Diagnostic, codes, list, suggest};
use crate::source::Span;
use crate::spec::Spec;
use crate::spec::name::Endpoint;
use crate::spec::units::Rate;
use crate::spec::wan::{Fiber, WanKind};
use crate::yaml::decode::Located;

/// Resolves every (node, port) an endpoint names.
fn ends(rx: &mut Rx, m: &Model, ep: &Located<Endpoint>) -> Option<Vec<End>> {
    let pairs = ep.expand().ok()?;
    let mut out = Vec::with_capacity(pairs.len());
    let mut ok = true;
    for (node, port) in pairs {
        rx.named_ends.insert((node.clone(), port.clone()));
        let Some(&(id, _)) = rx.nodes.get(&node) else {
            if rx.unresolved.contains(&node) {
                return None;
            }
            let names: Vec<String> = rx.nodes.keys().cloned().collect();
            rx.unknown(
                ep.node_span,
                "switch or host",
                &node,
                names.iter().map(String::as_str),
            );
            return None;
        };
        let (index, ports) = match id {
            NodeId::Switch(i) => (&m.switches[i].port_index, &m.switches[i].ports),
            NodeId::Host(i) => (&m.hosts[i].port_index, &m.hosts[i].ports),
        };
        match index.get(&port) {
            Some(&p) => out.push(End { node: id, port: p }),
            None => {
                ok = false;
                let broken: Vec<&str> = ports
                    .iter()
                    .filter(|p| p.parent.as_deref() == Some(port.as_str()))
                    .map(|p| p.name.as_str())
                    .collect();
                let model = match id {
                    NodeId::Switch(i) => rx.db.switches.get(&m.switches[i].model),
                    NodeId::Host(_) => None,
                };
                let help = if let (Some(model), true) = (model, broken.is_empty()) {
                    let split: Vec<&str> =
                        ports.iter().filter_map(|p| p.parent.as_deref()).collect();
                    let named = match id {
                        NodeId::Switch(i) => {
                            let sw = &m.switches[i];
                            super::port_help::vendor_named(&sw.vendor, sw.os.as_str(), ports, &port)
                        }
                        NodeId::Host(_) => None,
                    };
                    super::port_help::help(model, &port, &split, named)
                } else if broken.is_empty() {
                    suggest(&port, ports.iter().map(|p| p.name.as_str()))
                } else {
                    format!(
                        "`{port}` is broken out; cable one of its subports: {}",
                        list(&broken)
                    )
                };
                let what = if matches!(id, NodeId::Host(_)) {
                    "host"
                } else {
                    "switch"
                };
                rx.diags.push(
                    Diagnostic::new(
                        codes::UNKNOWN_PORT,
                        ep.port_span,
                        format!("{what} `{node}` has no port `{port}`"),
                    )
                    .label("no such port")
                    .help(help),
                );
            }
        }
    }
    ok.then_some(out)
}

/// The speed both ends agree on, or a diagnostic.
fn agree(
    rx: &mut Rx,
    m: &Model,
    a: End,
    b: End,
    want: Option<&Located<Rate>>,
    span: Span,
) -> Option<Rate> {
    let (pa, pb) = (m.port(a), m.port(b));
    if let Some(w) = want {
        for (p, e) in [(pa, a), (pb, b)] {
            if !p.speeds.contains(&w.value) {
                let allowed: Vec<String> = p.speeds.iter().map(ToString::to_string).collect();
                let allowed: Vec<&str> = allowed.iter().map(String::as_str).collect();
                rx.diags.push(
                    Diagnostic::new(
                        codes::PORT_SPEED,
                        w.span,
                        format!("`{}` cannot run at {}", m.end_name(e), w.value),
                    )
                    .label("requested speed")
                    .help(format!("this port runs at {}", list(&allowed))),
                );
                return None;
            }
        }
        return Some(w.value);
    }
    let fixed_a = pa.span.is_some() && pa.speeds.len() > 1 || pa.parent.is_some();
    let fixed_b = pb.span.is_some() && pb.speeds.len() > 1 || pb.parent.is_some();
    if pa.speed == pb.speed {
        return Some(pa.speed);
    }
    let a_follows = !fixed_a && (!fixed_b || pa.speeds.contains(&pb.speed));
    let b_follows = !fixed_b && pb.speeds.contains(&pa.speed);
    if a_follows || b_follows {
        let common = pa
            .speeds
            .iter()
            .copied()
            .filter(|s| pb.speeds.contains(s))
            .fold(None, |best: Option<Rate>, s| {
                Some(best.map_or(s, |b| if s.0 > b.0 { s } else { b }))
            });
        let choice = if fixed_a {
            Some(pa.speed).filter(|s| pb.speeds.contains(s))
        } else if fixed_b {
            Some(pb.speed).filter(|s| pa.speeds.contains(s))
        } else {
            common
        };
        if let Some(s) = choice {
            return Some(s);
        }
    }
    let mut d = Diagnostic::new(
        codes::LINK_SPEED_MISMATCH,
        span,
        format!(
            "`{}` runs at {} but `{}` runs at {}",
            m.end_name(a),
            pa.speed,
            m.end_name(b),
            pb.speed
        ),
    )
    .label("the two ends cannot agree on a speed");
    if let Some(s) = pa.span {
        d = d.also(s, format!("`{}` configured here", m.end_name(a)));
    }
    if let Some(s) = pb.span {
        d = d.also(s, format!("`{}` configured here", m.end_name(b)));
    }
    rx.diags.push(d.help(
        "break the faster port out to the slower speed, or set `speed:` to one both ports support",
    ));
    None
}

/// Where the two ends of a link are written: labels go on the endpoint at fault.
#[derive(Clone, Copy)]
struct Ends {
    a: Span,
    b: Span,
}

/// Claims both ports for link `id`, reporting reuse and self-links.
fn claim(rx: &mut Rx, m: &mut Model, a: End, b: End, id: usize, at: Ends) -> bool {
    if a.node == b.node {
        rx.diags.push(
            Diagnostic::new(
                codes::SELF_LINK,
                at.b,
                format!("both ends of this link are on `{}`", m.node_name(a.node)),
            )
            .label("loops back to the same device")
            .also(at.a, "the other end")
            .help("connect two different devices"),
        );
        return false;
    }
    let mut ok = true;
    for (e, span) in [(a, at.a), (b, at.b)] {
        if let Some(prev) = m.port(e).link {
            let first = if m.links[prev].a == e {
                m.links[prev].span_a
            } else {
                m.links[prev].span_b
            };
            rx.diags.push(
                Diagnostic::new(
                    codes::PORT_REUSED,
                    span,
                    format!("port `{}` is cabled twice", m.end_name(e)),
                )
                .label("second cable on this port")
                .also(first, "first cabled here")
                .help("every port carries one cable; pick a free port"),
            );
            ok = false;
        }
    }
    if ok {
        m.port_mut(a).link = Some(id);
        m.port_mut(b).link = Some(id);
    }
    ok
}

/// Undoes `claim` for a cable that is not added after all (its speeds disagree): its
/// ports must not point at a link id that the next cable takes, or that never exists.
fn release(m: &mut Model, a: End, b: End) {
    m.port_mut(a).link = None;
    m.port_mut(b).link = None;
}

struct Bundle {
    pairs: Vec<(End, End)>,
}

fn bundle(rx: &mut Rx, m: &Model, a: &Located<Endpoint>, b: &Located<Endpoint>) -> Option<Bundle> {
    let ea = ends(rx, m, a);
    let eb = ends(rx, m, b);
    let (ea, eb) = (ea?, eb?);
    if ea.len() != eb.len() {
        rx.diags.push(
            Diagnostic::new(
                codes::INVALID_VALUE,
                b.span,
                format!("`a` names {} port(s) but `b` names {}", ea.len(), eb.len()),
            )
            .label("different count")
            .also(a.span, "other end")
            .help("give both ends the same number of ports"),
        );
        return None;
    }
    Some(Bundle {
        pairs: ea.into_iter().zip(eb).collect(),
    })
}

pub(super) fn positive(rx: &mut Rx, v: Option<&Located<f64>>, what: &str) -> f64 {
    match v {
        // NaN is refused too: `l.value > 0.0` is false for it.
        Some(l) if l.value.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) => {
            rx.diags.push(
                Diagnostic::new(
                    codes::INVALID_VALUE,
                    l.span,
                    format!("{what} must be greater than zero"),
                )
                .label("zero or negative")
                .help(format!(
                    "give the length as measured, greater than zero ({what})"
                )),
            );
            0.0
        }
        Some(l) => l.value,
        None => 0.0,
    }
}

fn lan(rx: &mut Rx, m: &mut Model, spec: &Spec) {
    // At least one link each (a range or a bundle is more): grown from empty, the
    // largest synth show's 11,000 were copied at each of 14 doublings.
    m.links.reserve(spec.links.len() + spec.wan.len());
    for l in &spec.links {
        let Some(b) = bundle(rx, m, &l.a, &l.b) else {
            continue;
        };
        let length_km = positive(rx, l.length_m.as_ref(), "a cable length") / 1000.0;
        let lag = l.lag.as_ref().map(|lag| {
            m.lags.push(Lag {
                id: lag.id.value,
                id_span: lag.id.span,
                lacp: lag
                    .lacp
                    .as_ref()
                    .map_or(crate::spec::link::Lacp::Active, |x| x.value),
                lacp_span: lag.lacp.as_ref().map(|x| x.span),
                openflow_placed: lag
                    .placement
                    .as_ref()
                    .filter(|p| p.value == crate::spec::link::Placement::Openflow)
                    .map(|p| p.span),
                members: Vec::new(),
                span: lag.span,
            });
            m.lags.len() - 1
        });
        for (a, bb) in b.pairs {
            let id = m.links.len();
            if !claim(
                rx,
                m,
                a,
                bb,
                id,
                Ends {
                    a: l.a.span,
                    b: l.b.span,
                },
            ) {
                continue;
            }
            let Some(speed) = agree(rx, m, a, bb, l.speed.as_ref(), l.a.span) else {
                release(m, a, bb);
                continue;
            };
            m.port_mut(a).speed = speed;
            m.port_mut(bb).speed = speed;
            if let Some(g) = lag {
                m.lags[g].members.push(id);
            }
            let boxes = super::middleboxes::inline(l.middleboxes.as_ref(), l.mtu.as_ref());
            let held = super::no_os::device_cap(m, [a, bb], speed);
            m.links.push(Link {
                a,
                b: bb,
                kind: LinkKind::Lan,
                capacity: boxes
                    .capacity
                    .map_or(held, |c| Rate(c.bps().min(held.bps()))),
                cable_rate: speed,
                media: l.media.as_ref().map(|x| x.value),
                optic_a: l.optic.clone(),
                optic_b: l.optic_b.clone().or_else(|| l.optic.clone()),
                length_km,
                length_span: l.length_m.as_ref().map(|x| x.span),
                connectors: l.connectors.as_ref().map_or(2, |c| c.value),
                cords: l.connectors.as_ref().map_or(1, |c| c.value + 1),
                splices: l.splices.as_ref().map_or(0, |c| c.value),
                lag,
                mode: l.mode.as_ref().map(|x| x.value),
                vlan: l.vlan.as_ref().map(|x| x.value),
                vlans: l.vlans.iter().flatten().map(|v| v.value).collect(),
                subnet: l.subnet.clone(),
                mtu: super::middleboxes::mtu(l.mtu.clone(), &boxes),
                rtt_one_way_us: None,
                inline_latency_us: boxes.latency_us,
                middleboxes: boxes.boxes,
                description: l.description.as_ref().map(|d| d.value.clone()),
                span_a: l.a.span,
                span_b: l.b.span,
                span: l.span,
            });
        }
    }
}

fn need<T>(rx: &mut Rx, v: Option<T>, w: &crate::spec::wan::Wan, field: &str) -> Option<T> {
    if v.is_none() {
        rx.diags.push(
            Diagnostic::new(
                codes::MISSING_FIELD,
                w.kind.span,
                format!("a `{}` WAN link needs `{field}`", w.kind.as_str()),
            )
            .label(format!("`{field}` is missing for this kind"))
            .help(format!("add `{field}:` to `{}`", w.name.value)),
        );
    }
    v
}

fn wan(rx: &mut Rx, m: &mut Model, spec: &Spec) {
    let mut seen: crate::fxhash::FxMap<String, Span> = crate::fxhash::FxMap::default();
    for w in &spec.wan {
        let valid = {
            let mut cx = crate::yaml::decode::DecodeContext { diags: rx.diags };
            crate::spec::name::check_name(&mut cx, &w.name)
        };
        if let Some(&first) = seen.get(w.name.as_str()) {
            rx.duplicate(w.name.span, first, "WAN link", &w.name);
            continue;
        }
        seen.insert(w.name.value.clone(), w.name.span);
        let Some(b) = bundle(rx, m, &w.a, &w.b) else {
            continue;
        };
        if !valid {
            continue;
        }
        let wid = m.wans.len();
        let length = positive(rx, w.length_km.as_ref(), "a fiber length");
        let client_rate = match w.kind.value {
            WanKind::Otn => need(rx, w.client.as_ref(), w, "client").and_then(|c| {
                let r = crate::spec::units::parse_rate(c).ok();
                if r.is_none() {
                    rx.diags.push(
                        Diagnostic::new(
                            codes::INVALID_VALUE,
                            c.span,
                            format!("`{}` is not an OTN client signal", c.value),
                        )
                        .label("unknown client")
                        .help("write the Ethernet client: `10GE`, `40GE` or `100GE`"),
                    );
                }
                r
            }),
            WanKind::DarkFiber => {
                need(rx, w.optic.as_ref(), w, "optic");
                need(rx, w.length_km.as_ref(), w, "length_km");
                None
            }
            WanKind::Circuit => {
                need(rx, w.capacity.as_ref(), w, "capacity");
                None
            }
        };
        let rtt_us = w.rtt_ms.as_ref().map(|r| r.value * 1000.0);
        let runs = super::client_runs::resolve(rx, w);
        let optic_at = |k: usize| {
            runs[k]
                .as_ref()
                .map(|r| r.optic.clone())
                .or_else(|| w.optic.clone())
        };
        let mut links = Vec::new();
        for (a, bb) in b.pairs {
            let id = m.links.len();
            if !claim(
                rx,
                m,
                a,
                bb,
                id,
                Ends {
                    a: w.a.span,
                    b: w.b.span,
                },
            ) {
                continue;
            }
            let want =
                client_rate.map(|r| Located::new(r, w.client.as_ref().map_or(w.span, |c| c.span)));
            let Some(speed) = agree(rx, m, a, bb, want.as_ref(), w.a.span) else {
                release(m, a, bb);
                continue;
            };
            m.port_mut(a).speed = speed;
            m.port_mut(bb).speed = speed;
            let capacity = match (&w.capacity, w.kind.value) {
                (Some(c), WanKind::Circuit) => Rate(c.value.0.min(speed.0)),
                _ => speed,
            };
            let cable_rate = capacity;
            let capacity = super::no_os::device_cap(m, [a, bb], capacity);
            links.push(id);
            let boxes = super::middleboxes::inline(w.middleboxes.as_ref(), w.mtu.as_ref());
            m.links.push(Link {
                a,
                b: bb,
                kind: LinkKind::Wan(wid),
                cable_rate,
                capacity: boxes
                    .capacity
                    .map_or(capacity, |c| Rate(c.bps().min(capacity.bps()))),
                media: None,
                optic_a: optic_at(0),
                optic_b: optic_at(1),
                length_km: length,
                length_span: None,
                connectors: w.connectors.as_ref().map_or(2, |c| c.value),
                // A WAN's fiber is the carrier's or the plant's, not cords to order.
                cords: 1,
                splices: w.splices.as_ref().map_or(0, |c| c.value),
                lag: None,
                mode: None,
                vlan: w.vlan.as_ref().map(|v| v.value),
                vlans: Vec::new(),
                subnet: None,
                mtu: super::middleboxes::mtu(w.mtu.clone(), &boxes),
                rtt_one_way_us: rtt_us.map(|r| r / 2.0),
                inline_latency_us: boxes.latency_us,
                middleboxes: boxes.boxes,
                description: w.description.as_ref().map(|d| d.value.clone()),
                span_a: w.a.span,
                span_b: w.b.span,
                span: w.span,
            });
        }
        m.wans.push(Wan {
            name: w.name.clone(),
            kind: w.kind.value,
            links,
            client: w.client.clone(),
            optic: w.optic.clone(),
            length_km: w.length_km.clone(),
            fiber: w.fiber.as_ref().map_or(Fiber::Smf, |f| f.value),
            splices: w.splices.as_ref().map_or(0, |c| c.value),
            connectors: w.connectors.as_ref().map_or(2, |c| c.value),
            capacity: w.capacity.clone(),
            vlan: w.vlan.as_ref().map(|v| v.value),
            rtt_ms: w.rtt_ms.clone(),
            loss: w.loss.clone(),
            mtu: w.mtu.clone(),
            provisioning: w.provisioning.as_ref().map(|p| p.value),
            peer_asn: w
                .peer_asn
                .as_ref()
                .and_then(|p| u32::try_from(p.value).ok()),
            description: w.description.as_ref().map(|d| d.value.clone()),
            client_runs: runs,
            span: w.span,
        });
    }
}

pub(super) fn resolve(spec: &Spec, rx: &mut Rx, m: &mut Model) {
    lan(rx, m, spec);
    wan(rx, m, spec);
    optics_known(rx, m);
    uncabled_host_ports(rx, m);
}

/// W0122: a NIC port a host names but no link cables. Hosts declared as a range share
/// the port's span: one warning for them all.
fn uncabled_host_ports(rx: &mut Rx, m: &Model) {
    // Per declaring span: the first host and how many of its range share the fault.
    let mut by_span: Vec<(crate::source::Span, &str, &str, usize)> = Vec::new();
    for h in &m.hosts {
        for p in h.ports.iter().filter(|p| p.link.is_none()) {
            if rx
                .named_ends
                .contains(&(h.name.value.clone(), p.name.clone()))
            {
                continue;
            }
            let Some(span) = p.span else { continue };
            match by_span.iter_mut().find(|e| e.0 == span) {
                Some(e) => e.3 += 1,
                None => by_span.push((span, &h.name.value, &p.name, 1)),
            }
        }
    }
    for (span, h, p, n) in by_span {
        let others = match n {
            1 => String::new(),
            2 => " (and on 1 more host of its range)".to_owned(),
            n => format!(" (and on {} more hosts of its range)", n - 1),
        };
        rx.diags.push(
            Diagnostic::new(
                codes::UNCABLED_PORT,
                span,
                format!("port `{h}:{p}` is declared but not cabled{others}"),
            )
            .label("no link names this port")
            .help(format!(
                "add a link from `{h}:{p}` to a switch port, or drop `{p}` from the NIC's `ports:`"
            )),
        );
    }
}

fn optics_known(rx: &mut Rx, m: &Model) {
    let mut reported = crate::fxhash::FxSet::default();
    let on_links = m.links.iter().flat_map(|l| [&l.optic_a, &l.optic_b]);
    let transponders = m
        .wans
        .iter()
        .flat_map(|w| w.client_runs.iter().flatten())
        .map(|r| &r.transponder_optic);
    for o in on_links.flatten().chain(transponders) {
        if rx.db.optics.get(o).is_none() && reported.insert((o.span, o.value.clone())) {
            rx.unknown_model(o.span, "optic", o, &titles(&rx.db.optics, |x| &x.title));
        }
    }
}
