//! The OpenFlow control channel: every OpenFlow switch must reach its controller.
//! Out of band (`show.management.controller_via: mgmt`, the default) the switch talks
//! from its management port, so it needs a management address, and the controller must
//! sit on the management network or beyond its gateway, never on a data-plane address
//! (E0250, E0251). In band, the control channel rides data ports, and a port under
//! OpenFlow forwards nothing until the controller has installed flows: every port from
//! the switch to the controller's own port must be legacy-forwarded (E0252).

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::Ipv4Addr;

use super::CheckInput;
use crate::derive::roles::under_openflow;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{End, LinkId, Model, NodeId, SwitchId};
use crate::source::Span;
use crate::spec::show::ControllerVia;

/// A switch's controller address and where it is written.
fn controller(m: &Model, s: SwitchId) -> Option<(Ipv4Addr, u16, Span)> {
    let of = m.switches[s].openflow.as_ref()?;
    let c = of.controller?;
    let span = match &m.settings.controller {
        Some(show) if show.value == c => show.span,
        _ => of.span,
    };
    Some((c.addr, c.port, span))
}

/// Hosts' data-plane addresses: address -> (host port end).
fn data_addresses(m: &Model) -> HashMap<Ipv4Addr, End> {
    let mut out = HashMap::new();
    for (h, host) in m.hosts.iter().enumerate() {
        for (i, p) in host.ports.iter().enumerate() {
            if let Some(a) = p.address {
                out.entry(a.addr).or_insert(End {
                    node: NodeId::Host(h),
                    port: i,
                });
            }
        }
    }
    out
}

/// Checks every OpenFlow switch's path to its controller.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let data = data_addresses(m);
    let mut seen = HashSet::new();
    let mut inband = None;
    for s in 0..m.switches.len() {
        let Some((addr, port, span)) = controller(m, s) else {
            continue;
        };
        match m.settings.management.controller_via {
            ControllerVia::Mgmt => out_of_band(m, s, (addr, port, span), &data, &mut seen, diags),
            ControllerVia::Inband => {
                let paths = inband.get_or_insert_with(Paths::default);
                in_band(m, s, (addr, span), &data, paths, &mut seen, diags);
            }
        }
    }
}

fn out_of_band(
    m: &Model,
    s: SwitchId,
    (addr, port, span): (Ipv4Addr, u16, Span),
    data: &HashMap<Ipv4Addr, End>,
    seen: &mut HashSet<(Span, &'static str)>,
    diags: &mut Diags,
) {
    let sw = &m.switches[s];
    let net = &m.settings.management;
    let pools = &m.settings.pools;
    let on_data = data.get(&addr).copied().or_else(|| {
        [&pools.dtn, &pools.p2p]
            .into_iter()
            .flatten()
            .any(|p| p.contains(addr))
            .then_some(End {
                node: NodeId::Switch(s),
                port: usize::MAX,
            })
    });
    if let Some(end) = on_data {
        if seen.insert((span, "data")) {
            diags.push(data_plane(m, (addr, port), span, end));
        }
        return;
    }
    if sw.mgmt.is_none() {
        let of_span = sw.openflow.as_ref().map_or(sw.name.span, |o| o.span);
        if seen.insert((of_span, "mgmt")) {
            diags.push(
                Diagnostic::new(
                    codes::MANAGEMENT_ROUTE,
                    of_span,
                    format!(
                        "`{}` reaches its controller out of band but has no management address",
                        sw.name.value
                    ),
                )
                .label("OpenFlow switch without a management address")
                .also(span, format!("controller {addr}"))
                .help(format!(
                    "give `{}` a `mgmt:` address, or set `addressing: {{ mgmt: <prefix> }}` so democ assigns one",
                    sw.name.value
                )),
            );
        }
        return;
    }
    let inside = pools.mgmt.as_ref().is_some_and(|p| p.contains(addr));
    if !inside && net.gateway.is_none() && seen.insert((span, "gateway")) {
        let network = pools
            .mgmt
            .as_ref()
            .map_or("the management network".to_owned(), |p| {
                format!("the management network {}", p.value)
            });
        diags.push(
            Diagnostic::new(
                codes::MANAGEMENT_ROUTE,
                span,
                format!("controller {addr} is outside {network}, and no gateway leads off it"),
            )
            .label("switches cannot route to this address from their management port")
            .help("add `show.management: { gateway: <router on the management network> }`, or give the controller an address on the management network"),
        );
    }
}

/// E0250: the switches would talk out of band to a data-plane address.
fn data_plane(m: &Model, (addr, port): (Ipv4Addr, u16), span: Span, end: End) -> Diagnostic {
    let mut d = Diagnostic::new(
        codes::CONTROLLER_DATA_PLANE,
        span,
        format!("controller {addr} is a data-plane address, but the switches reach their controller out of band"),
    )
    .label("a data-plane address");
    let inband = "set `show.management: { controller_via: inband }` if every port from the switches to the controller is legacy-forwarded";
    let mut help = format!("give the controller an address on the management network; or {inband}");
    if let NodeId::Host(h) = end.node {
        let host = &m.hosts[h];
        let at = host
            .addresses
            .get(&end.port)
            .map_or(host.name.span, |a| a.span);
        d = d.also(at, format!("the data port of `{}`", host.name.value));
        if let Some(mg) = &host.mgmt {
            help = format!(
                "point the switches at `{}`'s management address: `controller: \"{}:{port}\"`; or {inband}",
                host.name.value, mg.value
            );
        }
    }
    d.help(help)
}

/// A breadth-first tree over the cabling from the controller's port: for every device,
/// the link toward the controller. One search serves every switch.
#[derive(Default)]
struct Paths {
    /// Per device, (link, the device's end of it) toward the root.
    toward: HashMap<NodeId, (LinkId, End)>,
    root: Option<NodeId>,
}

impl Paths {
    fn grow(&mut self, m: &Model, root: NodeId) {
        if self.root == Some(root) {
            return;
        }
        let mut adj: HashMap<NodeId, Vec<(LinkId, End, End)>> = HashMap::new();
        for (l, link) in m.links.iter().enumerate() {
            adj.entry(link.a.node)
                .or_default()
                .push((l, link.a, link.b));
            adj.entry(link.b.node)
                .or_default()
                .push((l, link.b, link.a));
        }
        self.toward.clear();
        self.root = Some(root);
        let mut queue = VecDeque::from([root]);
        let mut seen = HashSet::from([root]);
        while let Some(n) = queue.pop_front() {
            // Hosts other than the root do not forward.
            if matches!(n, NodeId::Host(_)) && n != root {
                continue;
            }
            for &(l, _, other) in adj.get(&n).map_or(&[][..], Vec::as_slice) {
                if seen.insert(other.node) {
                    self.toward.insert(other.node, (l, other));
                    queue.push_back(other.node);
                }
            }
        }
    }

    /// The ports from `s` to the root, in the order the control channel crosses them.
    fn ports(&self, m: &Model, s: SwitchId) -> Option<Vec<End>> {
        let mut out = Vec::new();
        let mut cur = NodeId::Switch(s);
        while Some(cur) != self.root {
            let &(l, mine) = self.toward.get(&cur)?;
            let link = &m.links[l];
            let other = if link.a == mine { link.b } else { link.a };
            out.push(mine);
            out.push(other);
            cur = other.node;
        }
        Some(out)
    }
}

#[allow(clippy::too_many_arguments)]
fn in_band(
    m: &Model,
    s: SwitchId,
    (addr, span): (Ipv4Addr, Span),
    data: &HashMap<Ipv4Addr, End>,
    paths: &mut Paths,
    seen: &mut HashSet<(Span, &'static str)>,
    diags: &mut Diags,
) {
    let sw = &m.switches[s];
    let via = m.settings.management.via_span;
    let Some(&home) = data.get(&addr) else {
        if seen.insert((span, "inband-host")) {
            diags.push(
                Diagnostic::new(
                    codes::INBAND_OPENFLOW,
                    span,
                    format!("in-band controller {addr} is no host's data address, so democ cannot follow the control channel"),
                )
                .label("not the address of any declared host port")
                .also(via, "in band chosen here")
                .help("declare the controller host with `addresses: { <port>: <address>/<len> }`, or reach it out of band (`controller_via: mgmt`)"),
            );
        }
        return;
    };
    paths.grow(m, home.node);
    let of_span = sw.openflow.as_ref().map_or(sw.name.span, |o| o.span);
    let Some(ports) = paths.ports(m, s) else {
        if seen.insert((of_span, "inband-path")) {
            diags.push(
                Diagnostic::new(
                    codes::INBAND_OPENFLOW,
                    of_span,
                    format!(
                        "`{}` has no cabled path to its in-band controller {addr}",
                        sw.name.value
                    ),
                )
                .label("cannot reach the controller")
                .also(via, "in band chosen here")
                .help("cable the switch to the controller's network, or reach it out of band (`controller_via: mgmt`)"),
            );
        }
        return;
    };
    let first = ports.iter().find(|e| match e.node {
        NodeId::Switch(t) => under_openflow(m, t, e.port),
        NodeId::Host(_) => false,
    });
    let Some(&port) = first else { return };
    if !seen.insert((of_span, "inband-of")) {
        return;
    }
    let name = m.end_name(port);
    let link = m.port(port).link.map_or(of_span, |l| m.links[l].span);
    diags.push(
        Diagnostic::new(
            codes::INBAND_OPENFLOW,
            of_span,
            format!(
                "`{}` reaches its controller {addr} in band through `{name}`, an OpenFlow port",
                sw.name.value
            ),
        )
        .label("the control channel would start behind a port that forwards nothing yet")
        .also(link, format!("`{name}` is under OpenFlow"))
        .also(via, "in band chosen here")
        .help(format!(
            "keep every port from `{}` to the controller legacy-forwarded (give `{name}`'s link a `mode:`), or reach the controller out of band (`controller_via: mgmt`)",
            sw.name.value
        )),
    );
}
