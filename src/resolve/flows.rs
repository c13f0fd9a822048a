//! Flows and NVMe fabrics: host ranges paired up, explicit paths resolved.

use super::Rx;
use super::model::{Fabric, Flow, HostId, Model, NodeId};
use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::spec::Spec;
use crate::spec::flow::Store;
use crate::spec::name::{MAX_PAIRS, Pattern};
use crate::spec::show::Routing;
use crate::yaml::decode::Located;

fn hosts_of(rx: &mut Rx, p: &Located<Pattern>) -> Option<Vec<HostId>> {
    // A single name (nearly every flow's ends) is looked up as written, without the
    // list of one copied name that expanding it makes.
    if p.range.is_none() {
        return Some(vec![host_named(rx, p, &p.prefix)?]);
    }
    p.expand()
        .iter()
        .map(|name| host_named(rx, p, name))
        .collect()
}

/// The host `name` (of the pattern `p`), or None with the error reported.
fn host_named(rx: &mut Rx, p: &Located<Pattern>, name: &str) -> Option<HostId> {
    match rx.nodes.get(name) {
        Some(&(NodeId::Host(h), _)) => Some(h),
        Some(&(NodeId::Switch(_), _)) => {
            rx.diags.push(
                Diagnostic::new(
                    codes::UNKNOWN_REF,
                    p.span,
                    format!("`{name}` is a switch, not a host"),
                )
                .label("flows and fabrics connect hosts")
                .help("name the DTNs at each end"),
            );
            None
        }
        None => {
            let hosts: Vec<String> = rx
                .nodes
                .iter()
                .filter(|(_, (id, _))| matches!(id, NodeId::Host(_)))
                .map(|(k, _)| k.clone())
                .collect();
            rx.unknown(p.span, "host", name, hosts.iter().map(String::as_str));
            None
        }
    }
}

/// Sources and sinks paired up: one with many, or one to one; Err: how many of each
/// when they cannot be.
fn pair_up(from: Vec<HostId>, to: Vec<HostId>) -> Result<Vec<(HostId, HostId)>, (usize, usize)> {
    Ok(match (from.len(), to.len()) {
        (1, _) => to.iter().map(|&t| (from[0], t)).collect(),
        (_, 1) => from.iter().map(|&s| (s, to[0])).collect(),
        (a, b) if a == b => from.into_iter().zip(to).collect(),
        (a, b) => return Err((a, b)),
    })
}

fn pairs(
    rx: &mut Rx,
    f: &Located<crate::spec::flow::Flow>,
    from: Vec<HostId>,
    to: Vec<HostId>,
) -> Option<Vec<(HostId, HostId)>> {
    let out = match pair_up(from, to) {
        Ok(out) => out,
        Err((a, b)) => {
            rx.diags.push(
                Diagnostic::new(codes::INVALID_VALUE, f.to.span, format!("`from` names {a} hosts and `to` names {b}"))
                    .label("cannot pair these up")
                    .also(f.from.span, "sources")
                    .help("use ranges of the same length (paired one to one) or a single host on one side"),
            );
            return None;
        }
    };
    if let Some(&(s, _)) = out.iter().find(|(s, t)| s == t) {
        let _ = s;
        rx.diags.push(
            Diagnostic::new(
                codes::SELF_LINK,
                f.to.span,
                "a flow goes from a host to itself",
            )
            .label("same host at both ends")
            .also(f.from.span, "source")
            .help("a flow needs two different hosts"),
        );
        return None;
    }
    Some(out)
}

/// E0009 at the flow whose pairs take the show past [`MAX_PAIRS`].
fn too_many_pairs(rx: &mut Rx, f: &Located<crate::spec::flow::Flow>, total: usize) {
    rx.diags.push(
        Diagnostic::new(
            codes::LIMIT,
            f.to.span,
            format!("this flow brings the show to {total} host pairs, above the limit of {MAX_PAIRS}"),
        )
        .label("too many pairs")
        .also(f.from.span, "sources")
        .help(format!("the flows of a show make at most {MAX_PAIRS} host pairs together: shorten the ranges or split the show")),
    );
}

fn path(rx: &mut Rx, f: &crate::spec::flow::Flow) -> Option<Option<Vec<Located<usize>>>> {
    let Some(p) = &f.path else { return Some(None) };
    let mut out: Vec<Located<usize>> = Vec::new();
    let mut visited: crate::fxhash::FxMap<usize, Span> = crate::fxhash::FxMap::default();
    for hop in p {
        match rx.nodes.get(hop.as_str()) {
            Some(&(NodeId::Switch(s), _)) => {
                // A path through a switch twice is a forwarding loop: the switch would
                // need two rules for one match, and every lap loads its links again.
                if let Some(&first) = visited.get(&s) {
                    rx.diags.push(
                        Diagnostic::new(
                            codes::PATH_LOOP,
                            hop.span,
                            format!("the path visits `{}` twice", hop.value),
                        )
                        .label("second visit")
                        .also(first, "first visit")
                        .help("list each switch of the path once, in the order the traffic crosses them"),
                    );
                    return None;
                }
                visited.insert(s, hop.span);
                out.push(Located::new(s, hop.span));
            }
            None if rx.unresolved.contains(hop.as_str()) => return None,
            _ => {
                let sw: Vec<String> = rx
                    .nodes
                    .iter()
                    .filter(|(_, (id, _))| matches!(id, NodeId::Switch(_)))
                    .map(|(k, _)| k.clone())
                    .collect();
                rx.unknown(hop.span, "switch", hop, sw.iter().map(String::as_str));
                return None;
            }
        }
    }
    Some(Some(out))
}

/// The model's flow from the spec's, its ends and path resolved.
fn flow(
    f: &Located<crate::spec::flow::Flow>,
    pairs: Vec<(HostId, HostId)>,
    path: Option<Vec<Located<usize>>>,
    (routing, cc): (Routing, crate::spec::flow::CongestionControl),
) -> Flow {
    Flow {
        name: f.name.clone(),
        pairs,
        stripes: Vec::new(),
        stripe_width: 1,
        pin: f.pin.as_ref().map_or((None, None), |p| {
            (
                p.sender.as_ref().map(|s| s.value),
                p.receiver.as_ref().map(|s| s.value),
            )
        }),
        rate: f.rate.clone(),
        protocol: f.protocol.clone(),
        streams: f.streams.clone(),
        source: f.source.as_ref().map_or(Store::Memory, |s| s.value),
        sink: f.sink.as_ref().map_or(Store::Memory, |s| s.value),
        path,
        routing: f.routing.as_ref().map_or(routing, |r| r.value),
        bidirectional: f.bidirectional.as_ref().is_some_and(|b| b.value),
        cap: f.cap.clone(),
        expect_infeasible: f.expect.is_some(),
        cc: f.congestion_control.as_ref().map_or(cc, |c| c.value),
        span: f.span,
        from_span: f.from.span,
        to_span: f.to.span,
        pick_ports: f.pick_ports.as_ref().is_some_and(|b| b.value),
    }
}

pub(super) fn resolve(spec: &Spec, rx: &mut Rx, m: &mut Model) {
    let mut seen: crate::fxhash::FxMap<&str, Span> = crate::fxhash::FxMap::default();
    seen.reserve(spec.flows.len());
    // Grown one flow at a time, the list was copied at each of its 17 doublings on the
    // largest synth show (a fifth of resolving its flows).
    m.flows.reserve(spec.flows.len());
    let mut total_pairs = 0usize;
    for f in &spec.flows {
        let valid = {
            let mut cx = crate::yaml::decode::DecodeContext { diags: rx.diags };
            crate::spec::name::check_name(&mut cx, &f.name)
        };
        if let Some(&first) = seen.get(f.name.as_str()) {
            rx.duplicate(f.name.span, first, "flow", &f.name);
        }
        seen.insert(&f.name.value, f.name.span);
        let from = hosts_of(rx, &f.from);
        let to = hosts_of(rx, &f.to);
        let path = path(rx, f);
        if let Some(s) = &f.streams {
            if s.value == 0 {
                rx.diags.push(
                    Diagnostic::new(
                        codes::INVALID_VALUE,
                        s.span,
                        "a flow needs at least one stream",
                    )
                    .label("zero")
                    .help("set `streams: 1` or more, or leave it out"),
                );
            }
        }
        let (Some(from), Some(to), Some(path), true) = (from, to, path, valid) else {
            continue;
        };
        let Some(pairs) = pairs(rx, f, from, to) else {
            continue;
        };
        total_pairs += pairs.len();
        if total_pairs > MAX_PAIRS {
            too_many_pairs(rx, f, total_pairs);
            return;
        }
        let mut flow = flow(
            f,
            pairs,
            path,
            (m.settings.routing, m.settings.congestion_control),
        );
        if let Some(ports) = &f.stripe {
            super::stripes::stripe(rx, m, &mut flow, ports);
        }
        if let Some(p) = &f.pin {
            super::stripes::pinned_sockets(rx, m, &flow, p);
        }
        m.flows.push(flow);
    }
    let mut seen: crate::fxhash::FxMap<String, Span> = crate::fxhash::FxMap::default();
    for fab in &spec.fabrics {
        // A fabric's name becomes file names (`fabrics/<name>/`) and part of its NQN:
        // the same safe characters as every other name.
        {
            let mut cx = crate::yaml::decode::DecodeContext { diags: rx.diags };
            crate::spec::name::check_name(&mut cx, &fab.name);
        }
        if let Some(&first) = seen.get(fab.name.as_str()) {
            rx.duplicate(fab.name.span, first, "NVMe fabric", &fab.name);
        }
        seen.insert(fab.name.value.clone(), fab.name.span);
        let target = hosts_of(
            rx,
            &Located::new(
                Pattern {
                    prefix: fab.target.value.clone(),
                    range: None,
                    suffix: String::new(),
                },
                fab.target.span,
            ),
        );
        let mut initiators = Vec::new();
        for i in &fab.initiators {
            initiators.extend(hosts_of(rx, i).unwrap_or_default());
        }
        let Some(target) = target.and_then(|t| t.first().copied()) else {
            continue;
        };
        if m.hosts[target].nvme.is_empty() {
            rx.diags.push(
                Diagnostic::new(
                    codes::CAPABILITY,
                    fab.target.span,
                    format!("target `{}` has no NVMe drives", fab.target.value),
                )
                .label("nothing to export")
                .help("add `nvme:` to the target host or pick another target"),
            );
        }
        if let Some(&i) = initiators.iter().find(|&&i| i == target) {
            let _ = i;
            rx.diags.push(
                Diagnostic::new(
                    codes::SELF_LINK,
                    fab.span,
                    "the target is also listed as an initiator",
                )
                .label("target and initiator are the same host")
                .help("remove the target from `initiators`"),
            );
        }
        m.fabrics.push(Fabric {
            name: fab.name.clone(),
            transport: fab.transport.value,
            target,
            target_span: fab.target.span,
            drives: fab.drives.clone(),
            initiators,
            port: fab.port.as_ref().map_or(4420, |p| p.value),
        });
    }
}
