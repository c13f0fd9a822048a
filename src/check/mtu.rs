//! MTU along every routed flow pair, from the figures lowering writes
//! (src/derive/mtu.rs): host, link and WAN MTUs are IP packet sizes; switch port MTUs are
//! layer-2 frame sizes, so a port carries packets of its frame size minus its Ethernet
//! header, VLAN tags and FCS. A host MTU above a hop's is an error at the host's MTU; a
//! port whose frames cannot hold a host's packets is an error at the port's MTU.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use super::CheckInput;
use crate::derive::mtu::{self as figures, Origin, overhead};
use crate::derive::paths::PairRoute;
use crate::diag::{Diagnostic, Diags, codes, plural};
use crate::resolve::model::{End, Model, NodeId, SwitchId};
use crate::source::Span;

/// Per link, the largest IP packet it carries (its own IP MTU and the IP packet its
/// switch ports' frames hold, as configured), computed once so a route's MTU is a walk
/// over its hops.
#[derive(Debug, Default)]
pub(crate) struct Wire {
    links: Vec<(u32, u32)>,
}

impl Wire {
    pub(crate) fn new(m: &Model) -> Wire {
        Wire {
            links: m
                .links
                .iter()
                .map(|l| {
                    let ip = |e: End| match e.node {
                        NodeId::Switch(s) => figures::port(m, s, e.port, l).ip_by_frame,
                        NodeId::Host(_) => u32::MAX,
                    };
                    (
                        l.mtu.as_ref().map_or(u32::MAX, |x| x.value),
                        ip(l.a).min(ip(l.b)),
                    )
                })
                .collect(),
        }
    }

    /// The smallest link MTU and the smallest packet the ports' frames hold along a route.
    fn route(&self, m: &Model, pr: &PairRoute) -> (u32, u32) {
        let mut out = (u32::MAX, u32::MAX);
        for h in &pr.hops {
            for &l in h.via.links(m) {
                let (mtu, frame) = self.links[l];
                out = (out.0.min(mtu), out.1.min(frame));
            }
        }
        out
    }

    /// The largest IP packet a pair's route carries end to end: the hosts' MTUs, link
    /// and WAN MTUs, and every switch port's frame size minus its layer-2 overhead.
    pub(crate) fn path_mtu(&self, m: &Model, pr: &PairRoute) -> u32 {
        let (link, frame) = self.route(m, pr);
        m.hosts[pr.src]
            .mtu
            .value
            .min(m.hosts[pr.dst].mtu.value)
            .min(link)
            .min(frame)
    }

    /// Whether nothing on the route is below either host's MTU (no finding to look for).
    fn carries(&self, m: &Model, pr: &PairRoute) -> bool {
        let (link, frame) = self.route(m, pr);
        [pr.src, pr.dst].iter().all(|&h| {
            let mtu = m.hosts[h].mtu.value;
            link >= mtu && frame >= mtu
        })
    }
}

/// `x` or `x` and 3 other hosts.
fn some(names: &[String], other: &str) -> String {
    match names {
        [] => String::new(),
        [one] => format!("`{one}`"),
        [first, rest @ ..] => format!(
            "`{first}` and {}",
            plural(rest.len(), &format!("other {other}"))
        ),
    }
}

/// Values in order of discovery, found by key.
struct Ordered<K, V> {
    items: Vec<(K, V)>,
    index: HashMap<K, usize>,
}

impl<K: Hash + Eq, V> Default for Ordered<K, V> {
    fn default() -> Self {
        Ordered {
            items: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq + Clone, V> Ordered<K, V> {
    fn entry(&mut self, key: K, new: impl FnOnce() -> V) -> &mut V {
        let items = &mut self.items;
        let i = *self.index.entry(key.clone()).or_insert_with(|| {
            items.push((key, new()));
            items.len() - 1
        });
        &mut self.items[i].1
    }
}

fn push_new<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// A hop that limits packets: where its MTU is written, the MTU and its name.
#[derive(Clone, PartialEq)]
struct Limit {
    span: Span,
    value: u32,
    what: String,
}

/// The first flow a finding was seen on: its name's span and the name.
type FlowRef = (Span, String);

/// E0225: the hosts sharing one MTU setting, and every hop on their routes below it.
struct PathFinding {
    mtu: u32,
    hosts: Vec<String>,
    limits: Vec<Limit>,
    flow: FlowRef,
}

/// E0226 at a port MTU setting (override or show default): the ports it sets on the
/// routes, and the largest host MTU sent through them (with where that MTU is written).
struct PortFinding {
    frame: u32,
    ports: Vec<String>,
    host: (u32, Span),
    /// The largest layer-2 overhead among the ports (a tagged port adds 4 bytes).
    overhead: u32,
    flow: FlowRef,
}

/// E0226 at a host MTU the model's largest frame cannot carry.
struct ModelFinding {
    mtu: u32,
    hosts: Vec<String>,
    model: String,
    model_span: Span,
    frame: u32,
    overhead: u32,
    flow: FlowRef,
}

#[derive(Default)]
struct Found {
    path: Ordered<Span, PathFinding>,
    port: Ordered<Span, PortFinding>,
    model: Ordered<(Span, String), ModelFinding>,
}

impl Found {
    fn pair(&mut self, m: &Model, flow: FlowRef, pr: &PairRoute) {
        for h in [pr.src, pr.dst] {
            let host = &m.hosts[h];
            let mtu = host.mtu.value;
            for hop in &pr.hops {
                for &l in hop.via.links(m) {
                    let link = &m.links[l];
                    if let Some(x) = link.mtu.as_ref().filter(|x| x.value < mtu) {
                        let f = self.path.entry(host.mtu.span, || PathFinding {
                            mtu,
                            hosts: Vec::new(),
                            limits: Vec::new(),
                            flow: flow.clone(),
                        });
                        push_new(&mut f.hosts, host.name.value.clone());
                        push_new(
                            &mut f.limits,
                            Limit {
                                span: x.span,
                                value: x.value,
                                what: m.link_name(l),
                            },
                        );
                    }
                    for e in [link.a, link.b] {
                        let NodeId::Switch(s) = e.node else { continue };
                        let port = figures::port(m, s, e.port, link);
                        if port.ip_by_frame < mtu {
                            self.frame(
                                m,
                                (host.name.value.clone(), mtu, host.mtu.span),
                                s,
                                e,
                                port,
                                &flow,
                            );
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn frame(
        &mut self,
        m: &Model,
        host: (String, u32, Span),
        s: SwitchId,
        e: End,
        port: figures::PortMtu,
        flow: &FlowRef,
    ) {
        let (name, mtu, mtu_span) = host;
        let (frame, extra) = (port.frame, overhead(port.tags));
        match port.origin {
            Origin::Model(model_span) => {
                let model = m.switches[s].model.value.clone();
                let f = self
                    .model
                    .entry((mtu_span, model.clone()), || ModelFinding {
                        mtu,
                        hosts: Vec::new(),
                        model,
                        model_span,
                        frame,
                        overhead: extra,
                        flow: flow.clone(),
                    });
                f.overhead = f.overhead.max(extra);
                push_new(&mut f.hosts, name);
            }
            Origin::Port(span) | Origin::Show(span) => {
                let f = self.port.entry(span, || PortFinding {
                    frame,
                    ports: Vec::new(),
                    host: (mtu, mtu_span),
                    overhead: extra,
                    flow: flow.clone(),
                });
                f.overhead = f.overhead.max(extra);
                push_new(&mut f.ports, m.end_name(e));
                if mtu > f.host.0 {
                    f.host = (mtu, mtu_span);
                    f.flow = flow.clone();
                }
            }
        }
    }
}

/// `, 802.1Q tag` when the overhead counts a tag.
fn tag_words(overhead: u32) -> &'static str {
    if overhead > figures::overhead(0) {
        ", 802.1Q tag"
    } else {
        ""
    }
}

fn host_mtu_label(cx: &CheckInput, span: Span, mtu: u32) -> String {
    if span == cx.m.settings.host_mtu.span {
        format!("hosts get MTU {mtu} from the show")
    } else {
        format!("MTU {mtu}")
    }
}

fn on_route(d: Diagnostic, flow: &FlowRef) -> Diagnostic {
    d.also(flow.0, format!("on the route of flow `{}`", flow.1))
}

fn path_report(cx: &CheckInput, span: Span, f: &PathFinding) -> Diagnostic {
    let mut limits = f.limits.clone();
    limits.sort_by_key(|l| l.value);
    let tight = &limits[0];
    let mut d = Diagnostic::new(
        codes::PATH_MTU,
        span,
        format!(
            "MTU {} of {} is above the {} bytes {} carries",
            f.mtu,
            some(&f.hosts, "host"),
            tight.value,
            tight.what
        ),
    )
    .label(host_mtu_label(cx, span, f.mtu));
    for l in &limits {
        d = d.also(l.span, format!("{} carries at most {}", l.what, l.value));
    }
    let raise = if limits.len() == 1 {
        format!("the `mtu:` of {}", tight.what)
    } else {
        "the `mtu:` of every hop labelled here".to_owned()
    };
    on_route(d, &f.flow).help(format!(
        "lower the host MTU to {} or less, or raise {raise}",
        tight.value
    ))
}

fn port_report(span: Span, f: &PortFinding) -> Diagnostic {
    let need = f.host.0.saturating_add(f.overhead);
    let verb = if f.ports.len() == 1 { "takes" } else { "take" };
    let d = Diagnostic::new(
        codes::FRAME_MTU,
        span,
        format!("{} {verb} frames of at most {} bytes, too small for the {need}-byte frames of {}-byte packets", some(&f.ports, "port"), f.frame, f.host.0),
    )
    .label(format!("frame MTU {}", f.frame))
    .also(f.host.1, format!("hosts send {}-byte packets", f.host.0));
    on_route(d, &f.flow).help(format!(
        "raise the port MTU to {need} or more (the packet plus {} bytes of Ethernet header{} and FCS), or lower the host MTU to {}",
        f.overhead,
        tag_words(f.overhead),
        f.frame.saturating_sub(f.overhead)
    ))
}

fn model_report(cx: &CheckInput, span: Span, f: &ModelFinding) -> Diagnostic {
    let need = f.mtu.saturating_add(f.overhead);
    let d = Diagnostic::new(
        codes::FRAME_MTU,
        span,
        format!(
            "MTU {} of {} needs {need}-byte frames but `{}` takes at most {}",
            f.mtu,
            some(&f.hosts, "host"),
            f.model,
            f.frame
        ),
    )
    .label(host_mtu_label(cx, span, f.mtu))
    .also(
        f.model_span,
        format!("the model's largest frame is {}", f.frame),
    );
    on_route(d, &f.flow).help(format!(
        "lower the host MTU to {} or less (a frame adds {} bytes: Ethernet header{} and FCS)",
        f.frame.saturating_sub(f.overhead),
        f.overhead,
        tag_words(f.overhead)
    ))
}

/// Host MTUs above their NICs' maximum, and a show switch MTU above a model's maximum.
fn capabilities(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let mut seen = HashSet::new();
    for h in &m.hosts {
        for nic in &h.nics {
            let Some(max) = cx.db.nics.get(&nic.model).and_then(|n| n.max_mtu) else {
                continue;
            };
            if h.mtu.value > max && seen.insert((h.mtu.span, nic.model.span)) {
                diags.push(
                    Diagnostic::new(
                        codes::CAPABILITY,
                        h.mtu.span,
                        format!(
                            "MTU {} of {} is above the {max} its NIC `{}` takes",
                            h.mtu.value,
                            h.shown(),
                            nic.model.value
                        ),
                    )
                    .label(host_mtu_label(cx, h.mtu.span, h.mtu.value))
                    .also(nic.model.span, format!("takes at most {max}"))
                    .help(format!("use an MTU of {max} or less")),
                );
            }
        }
    }
    let Some(show) = &m.settings.switch_mtu else {
        return;
    };
    let mut models = HashSet::new();
    for sw in &m.switches {
        if show.value > sw.max_mtu && models.insert(sw.model.value.as_str()) {
            diags.push(
                Diagnostic::new(
                    codes::CAPABILITY,
                    show.span,
                    format!(
                        "switch MTU {} is above the {} of `{}` (`{}`)",
                        show.value, sw.max_mtu, sw.name.value, sw.model.value
                    ),
                )
                .label("too large for this model")
                .also(
                    sw.model.span,
                    format!("takes frames of at most {}", sw.max_mtu),
                )
                .help(format!(
                    "use a switch MTU of {} or less; the model's maximum is used meanwhile",
                    sw.max_mtu
                )),
            );
        }
    }
}

/// Checks the MTU of every routed pair.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    capabilities(cx, diags);
    let mut found = Found::default();
    for (fr, f) in cx.routes.flows.iter().zip(&cx.m.flows) {
        for pr in fr.pairs.iter().filter(|pr| !cx.wire.carries(cx.m, pr)) {
            found.pair(cx.m, (f.name.span, f.name.value.clone()), pr);
        }
    }
    for (span, f) in &found.path.items {
        diags.push(path_report(cx, *span, f));
    }
    for (span, f) in &found.port.items {
        diags.push(port_report(*span, f));
    }
    for ((span, _), f) in &found.model.items {
        diags.push(model_report(cx, *span, f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::checks;

    fn spec(wan: &str) -> String {
        checks::two_sites(&format!("optic: 100gbase-lr4, length_km: 5{wan}"), "")
    }

    #[test]
    fn jumbo_path_is_clean() {
        let text = spec("");
        assert!(checks::run(&text, check).is_empty());
        let f = checks::front(&text);
        assert_eq!(
            Wire::new(&f.model).path_mtu(&f.model, &f.routes.flows[0].pairs[0]),
            9000
        );
    }

    #[test]
    fn a_1500_circuit_limits_the_path() {
        let text = spec(", mtu: 1500");
        assert_eq!(checks::run(&text, check), ["E0225"]);
        let f = checks::front(&text);
        assert_eq!(
            Wire::new(&f.model).path_mtu(&f.model, &f.routes.flows[0].pairs[0]),
            1500
        );
    }

    #[test]
    fn switch_frames_must_hold_the_packet_and_the_header() {
        let show = spec("").replace("defaults:", "defaults:\n    switch_mtu: 9000");
        assert_eq!(checks::run(&show, check), ["E0226"]);
        let fits = spec("").replace("defaults:", "defaults:\n    switch_mtu: 9022");
        assert!(checks::run(&fits, check).is_empty());
        // One finding per host (each wrote its own MTU), whichever switch of the model hit it.
        let host = spec("").replace("memory_gb: 256,", "memory_gb: 256, mtu: 9216,");
        assert_eq!(checks::run(&host, check), ["E0226", "E0226"]);
    }

    #[test]
    fn show_switch_mtu_above_the_model() {
        let text = spec("").replace("defaults:", "defaults:\n    switch_mtu: 9600");
        assert_eq!(checks::run(&text, check), ["E0113"]);
    }
}
