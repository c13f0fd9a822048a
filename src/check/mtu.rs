//! MTU along every routed flow pair. Host, link and WAN MTUs are IP packet sizes (what
//! `ip link set mtu` takes and what circuit providers quote); switch port MTUs are layer-2
//! frame sizes (the catalog's `max_mtu`), so a port carries packets of its MTU minus
//! [`L2_OVERHEAD_BYTES`]. A host MTU above a hop's is an error at the host's MTU; a port
//! whose frames cannot hold a host's packets is an error at the port's MTU.

use std::collections::{HashMap, HashSet};

use super::Ctx;
use crate::derive::paths::{PairRoute, Via};
use crate::diag::{Code, Diagnostic, Diags, codes};
use crate::resolve::model::{LinkId, LinkKind, Model, NodeId, SwitchId};
use crate::source::Span;

/// Bytes a switch port's frame MTU must hold beyond the IP packet: the Ethernet header
/// (destination, source, EtherType: 14, IEEE 802.3 clause 3.1.1), one 802.1Q tag (4, IEEE
/// 802.1Q clause 9.3) and the frame check sequence (4, IEEE 802.3 clause 3.2.9). These are
/// protocol definitions, not hardware figures, so they live here and not in the catalog.
pub(crate) const L2_OVERHEAD_BYTES: u32 = 14 + 4 + 4;

/// Where a switch port's frame MTU was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The port's override (`ports: { 1/1: { mtu: ... } }`).
    Port(Span),
    /// `show.defaults.switch_mtu`.
    Show(Span),
    /// The model's maximum (span: the switch's `model:`).
    Model(Span),
}

impl Origin {
    fn span(self) -> Span {
        match self {
            Origin::Port(s) | Origin::Show(s) | Origin::Model(s) => s,
        }
    }
}

/// A switch port's frame MTU: its override, else the show's switch MTU (at most the
/// model's maximum), else the model's maximum.
pub(crate) fn port_frame_mtu(m: &Model, s: SwitchId, port: usize) -> (u32, Origin) {
    let sw = &m.switches[s];
    let p = &sw.ports[port];
    match (p.mtu, p.span, &m.settings.switch_mtu) {
        (Some(mtu), Some(span), _) => (mtu, Origin::Port(span)),
        (_, _, Some(show)) if show.value <= sw.max_mtu => (show.value, Origin::Show(show.span)),
        _ => (sw.max_mtu, Origin::Model(sw.model.span)),
    }
}

/// Links a hop rides on (every member of a LAG).
fn hop_links(m: &Model, via: Via) -> Vec<LinkId> {
    match via {
        Via::Link(l) => vec![l],
        Via::Lag(g) => m.lags[g].members.clone(),
    }
}

/// The largest IP packet a pair's route carries end to end: the hosts' MTUs, link and
/// WAN MTUs, and every switch port's frame MTU minus the layer-2 overhead.
pub(crate) fn path_mtu(m: &Model, pr: &PairRoute) -> u32 {
    let mut mtu = m.hosts[pr.src].mtu.value.min(m.hosts[pr.dst].mtu.value);
    for h in &pr.hops {
        for l in hop_links(m, h.via) {
            let link = &m.links[l];
            if let Some(x) = &link.mtu {
                mtu = mtu.min(x.value);
            }
            for e in [link.a, link.b] {
                if let NodeId::Switch(s) = e.node {
                    mtu = mtu.min(port_frame_mtu(m, s, e.port).0.saturating_sub(L2_OVERHEAD_BYTES));
                }
            }
        }
    }
    mtu
}

fn link_name(m: &Model, l: LinkId) -> String {
    let link = &m.links[l];
    match link.kind {
        LinkKind::Wan(w) => format!("WAN link `{}`", m.wans[w].name.value),
        LinkKind::Lan => format!("link `{}` -- `{}`", m.end_name(link.a), m.end_name(link.b)),
    }
}

/// `x` or `x` and 3 others.
fn some(names: &[String], other: &str) -> String {
    match names {
        [] => String::new(),
        [one] => format!("`{one}`"),
        [first, rest @ ..] => format!("`{first}` and {} other {other}{}", rest.len(), if rest.len() == 1 { "" } else { "s" }),
    }
}

/// One finding, grouped by its two spans (hosts of a range share theirs).
struct Group {
    code: Code,
    primary: Span,
    secondary: Span,
    /// Hosts (or ports) the finding is about, in order of discovery.
    names: Vec<String>,
    /// Host MTU, and the limit it runs into (IP MTU of a link, or a port's frame MTU).
    mtu: u32,
    limit: u32,
    what: String,
    flow: Span,
    flow_name: String,
    origin: Option<Origin>,
}

#[derive(Default)]
struct Found {
    groups: Vec<Group>,
    index: HashMap<(&'static str, Span, Other), usize>,
}

/// What a group is keyed on besides its code and primary span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Other {
    Span(Span),
    Model(String),
}

impl Found {
    fn add(&mut self, g: Group, name: String) {
        // A model's limit is one finding per host, whichever switch of that model hit it.
        let other = match g.origin {
            Some(Origin::Model(_)) => Other::Model(g.what.clone()),
            _ => Other::Span(g.secondary),
        };
        let key = (g.code.id, g.primary, other);
        match self.index.get(&key) {
            Some(&i) => {
                if !self.groups[i].names.contains(&name) {
                    self.groups[i].names.push(name);
                }
            }
            None => {
                self.index.insert(key, self.groups.len());
                self.groups.push(Group { names: vec![name], ..g });
            }
        }
    }
}

fn pair(cx: &Ctx, flow: usize, pr: &PairRoute, found: &mut Found) {
    let m = cx.m;
    let f = &m.flows[flow];
    for h in [pr.src, pr.dst] {
        let host = &m.hosts[h];
        let mtu = host.mtu.value;
        let base = |code, primary, secondary, limit, what: String, origin| Group {
            code,
            primary,
            secondary,
            names: Vec::new(),
            mtu,
            limit,
            what,
            flow: f.name.span,
            flow_name: f.name.value.clone(),
            origin,
        };
        for hop in &pr.hops {
            for l in hop_links(m, hop.via) {
                let link = &m.links[l];
                if let Some(x) = link.mtu.as_ref().filter(|x| x.value < mtu) {
                    found.add(base(codes::PATH_MTU, host.mtu.span, x.span, x.value, link_name(m, l), None), host.name.value.clone());
                }
                for e in [link.a, link.b] {
                    let NodeId::Switch(s) = e.node else { continue };
                    let (frame, origin) = port_frame_mtu(m, s, e.port);
                    if frame >= mtu.saturating_add(L2_OVERHEAD_BYTES) {
                        continue;
                    }
                    let (g, who) = match origin {
                        Origin::Model(span) => {
                            let model = m.switches[s].model.value.clone();
                            (base(codes::FRAME_MTU, host.mtu.span, span, frame, model, Some(origin)), host.name.value.clone())
                        }
                        _ => (base(codes::FRAME_MTU, origin.span(), host.mtu.span, frame, String::new(), Some(origin)), m.end_name(e)),
                    };
                    found.add(g, who);
                }
            }
        }
    }
}

fn host_mtu_label(cx: &Ctx, span: Span, mtu: u32) -> String {
    if span == cx.m.settings.host_mtu.span { format!("the show's host MTU, {mtu}") } else { format!("MTU {mtu}") }
}

fn report(cx: &Ctx, g: &Group) -> Diagnostic {
    let on_route = format!("on the route of flow `{}`", g.flow_name);
    let need = g.mtu.saturating_add(L2_OVERHEAD_BYTES);
    if g.code == codes::PATH_MTU {
        return Diagnostic::new(g.code, g.primary, format!("MTU {} of {} is above the {} bytes {} carries", g.mtu, some(&g.names, "host"), g.limit, g.what))
            .label(host_mtu_label(cx, g.primary, g.mtu))
            .also(g.secondary, format!("{} carries at most {}", g.what, g.limit))
            .also(g.flow, on_route)
            .help(format!("lower the host MTU to {} or less, or raise the `mtu:` of {}", g.limit, g.what));
    }
    match g.origin {
        Some(Origin::Model(_)) => Diagnostic::new(
            g.code,
            g.primary,
            format!("MTU {} of {} needs {need}-byte frames but `{}` takes at most {}", g.mtu, some(&g.names, "host"), g.what, g.limit),
        )
        .label(host_mtu_label(cx, g.primary, g.mtu))
        .also(g.secondary, format!("the model's largest frame is {}", g.limit))
        .also(g.flow, on_route)
        .help(format!(
            "lower the host MTU to {} or less (a frame adds {L2_OVERHEAD_BYTES} bytes: Ethernet header, 802.1Q tag, FCS)",
            g.limit.saturating_sub(L2_OVERHEAD_BYTES)
        )),
        _ => Diagnostic::new(
            g.code,
            g.primary,
            format!("{} take frames of at most {} bytes, too small for {need}-byte frames", some(&g.names, "port"), g.limit),
        )
        .label(format!("frame MTU {}", g.limit))
        .also(g.secondary, format!("hosts send {}-byte packets here", g.mtu))
        .also(g.flow, on_route)
        .help(format!(
            "raise the port MTU to {need} or more (the packet plus {L2_OVERHEAD_BYTES} bytes of Ethernet header, 802.1Q tag and FCS), or lower the host MTU to {}",
            g.limit.saturating_sub(L2_OVERHEAD_BYTES)
        )),
    }
}

/// Host MTUs above their NICs' maximum, and a show switch MTU above a model's maximum.
fn capabilities(cx: &Ctx, diags: &mut Diags) {
    let m = cx.m;
    let mut seen = HashSet::new();
    for h in &m.hosts {
        for nic in &h.nics {
            let Some(max) = cx.db.nics.get(&nic.model).and_then(|n| n.max_mtu) else { continue };
            if h.mtu.value > max && seen.insert((h.mtu.span, nic.model.span)) {
                diags.push(
                    Diagnostic::new(codes::CAPABILITY, h.mtu.span, format!("MTU {} of `{}` is above the {max} its NIC `{}` takes", h.mtu.value, h.name.value, nic.model.value))
                        .label(host_mtu_label(cx, h.mtu.span, h.mtu.value))
                        .also(nic.model.span, format!("takes at most {max}"))
                        .help(format!("use an MTU of {max} or less")),
                );
            }
        }
    }
    let Some(show) = &m.settings.switch_mtu else { return };
    for sw in &m.switches {
        if show.value > sw.max_mtu && seen.insert((show.span, sw.model.span)) {
            diags.push(
                Diagnostic::new(codes::CAPABILITY, show.span, format!("switch MTU {} is above the {} of `{}` (`{}`)", show.value, sw.max_mtu, sw.name.value, sw.model.value))
                    .label("too large for this model")
                    .also(sw.model.span, format!("takes frames of at most {}", sw.max_mtu))
                    .help(format!("use a switch MTU of {} or less; the model's maximum is used meanwhile", sw.max_mtu)),
            );
        }
    }
}

/// Checks the MTU of every routed pair.
pub(crate) fn check(cx: &Ctx, diags: &mut Diags) {
    capabilities(cx, diags);
    let mut found = Found::default();
    for (i, fr) in cx.routes.flows.iter().enumerate() {
        for pr in &fr.pairs {
            pair(cx, i, pr, &mut found);
        }
    }
    for g in &found.groups {
        diags.push(report(cx, g));
    }
}

#[cfg(test)]
mod tests {
    use super::super::optics::testkit;
    use super::*;

    fn spec(wan: &str) -> String {
        testkit::two_sites(&format!("optic: 100gbase-lr4, length_km: 5{wan}"), "")
    }

    #[test]
    fn jumbo_path_is_clean() {
        let text = spec("");
        assert!(testkit::run(&text, check).is_empty());
        let f = testkit::front(&text);
        assert_eq!(path_mtu(&f.model, &f.routes.flows[0].pairs[0]), 9000);
    }

    #[test]
    fn a_1500_circuit_limits_the_path() {
        let text = spec(", mtu: 1500");
        assert_eq!(testkit::run(&text, check), ["E0225"]);
        let f = testkit::front(&text);
        assert_eq!(path_mtu(&f.model, &f.routes.flows[0].pairs[0]), 1500);
    }

    #[test]
    fn switch_frames_must_hold_the_packet_and_the_header() {
        let show = spec("").replace("defaults:", "defaults:\n    switch_mtu: 9000");
        assert_eq!(testkit::run(&show, check), ["E0226"]);
        let fits = spec("").replace("defaults:", "defaults:\n    switch_mtu: 9022");
        assert!(testkit::run(&fits, check).is_empty());
        // One finding per host (each wrote its own MTU), whichever switch of the model hit it.
        let host = spec("").replace("memory_gb: 256,", "memory_gb: 256, mtu: 9216,");
        assert_eq!(testkit::run(&host, check), ["E0226", "E0226"]);
    }

    #[test]
    fn show_switch_mtu_above_the_model() {
        let text = spec("").replace("defaults:", "defaults:\n    switch_mtu: 9600");
        assert_eq!(testkit::run(&text, check), ["E0113"]);
    }
}
