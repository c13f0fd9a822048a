//! OpenFlow rulesets from the flows and their paths. Every routed pair is walked once in
//! each direction its packets travel; on every switch where they enter through a port
//! under the controller, an IPv4 and an ARP rule match `in_port`, the ether type and the
//! two host addresses and send the packets out of the next hop's port (or to the legacy
//! pipeline with NORMAL where the vendor has it). Linear in hops: one map lookup each.
//!
//! Which packets travel where: a pair's data along its route; for a one-way flow the
//! replies come back along the same route reversed; a bidirectional flow routes the
//! return pair itself, and its replies ride that route.

pub(crate) mod arpless;
mod cookie;
mod numbering;
mod ports;
mod within;

use std::net::Ipv4Addr;

use crate::derive::ShowModel;
use crate::derive::paths::{Hop, Via};
use crate::diag::{Diagnostic, Diags, codes};
use crate::fxhash::{FxMap, FxSet};
use crate::ir::Switch;
use crate::ir::interface::Role;
use crate::ir::openflow::Mode;
use crate::ir::rules::{
    Actions, Direction, EtherType, FLOW_PRIORITY, Match, Meter, Miss, OfPort, Output, Rule, Ruleset,
};
use crate::resolve::model::{End, Model, NodeId, SwitchId};
use crate::spec::flow::Protocol;
use crate::vendor::Vendors;
use crate::vendor::profile::Profile;
use ports::PortMap;

/// A port under the controller: its number, or None when the port map gives it none.
type Number = Option<u32>;

/// One OpenFlow switch while its rules are made.
pub(crate) struct Table {
    /// Switch `s`'s index in the lab's switches (set by [`attach`] when the IR is kept).
    pos: usize,
    /// Port index -> number, for ports under the controller that are not LAG members.
    ports: FxMap<usize, Number>,
    /// Port-channel id -> number, for port-channels under the controller.
    lags: FxMap<u16, Number>,
    /// Rules may hand packets to the legacy pipeline.
    normal: bool,
    /// What the OS's agent accepts (None: no vendor data, nothing is checked).
    profile: Option<Profile>,
    /// The OpenFlow version the rules are written in.
    version: String,
    /// democ writes ARP rules here (`OfCaps::writes_arp`, which `arpless` also reads for
    /// the hosts' static neighbours).
    arp: bool,
    /// The switch's config lines its manual does not confirm, for its one W0305.
    pub(crate) unconfirmed_lines: Vec<String>,
    rules: Vec<Rule>,
    /// (ether type, in_port, arriving VLAN, src, dst) -> index in `rules`.
    index: FxMap<(EtherType, u32, Option<u16>, Ipv4Addr, Ipv4Addr), usize>,
    meters: Vec<Meter>,
    /// Flow index -> (index in `meters`, pair-directions metered here).
    meter_of: FxMap<usize, (usize, u32)>,
}

/// One direction of one pair's packets along a route.
struct Leg<'a> {
    flow: usize,
    pair: usize,
    /// The route's index in the flow's routes (for its segments' VLANs).
    route: usize,
    dir: Direction,
    hops: &'a [Hop],
    /// Walk `hops` backwards (the replies of a one-way pair).
    reversed: bool,
    /// Carries the flow's data (metered when the flow has a cap).
    data: bool,
    src: (usize, Ipv4Addr),
    dst: (usize, Ipv4Addr),
}

/// Adds every OpenFlow switch's port numbers and ruleset. `tables[s]` is switch s's
/// [`table`] (None if it runs no OpenFlow or was not lowered). `built` is the lab's
/// switches with `at[s]`, switch s's index among them, when the IR is kept; without
/// it (`check`) the rules are made for their diagnostics alone.
pub(crate) fn attach(
    front: &ShowModel,
    mut tables: Vec<Option<Table>>,
    mut built: Option<(&mut [Switch], &[Option<usize>])>,
    diags: &mut Diags,
) {
    let m = &front.model;
    if let Some((_, at)) = &built {
        for (s, t) in tables.iter_mut().enumerate() {
            if let (Some(t), Some(pos)) = (t, at[s]) {
                t.pos = pos;
            }
        }
    }
    // No switch runs OpenFlow: no pair has a rule to place (the walk below would look
    // up every pair's ends and hops for nothing).
    if tables.iter().all(Option::is_none) {
        return;
    }
    let ids = flow_ids(m);
    let mut g = Gen {
        m,
        pins: &front.routes.pins,
        segments: &front.segments,
        tables: &mut tables,
        ids: &ids,
        reported: FxSet::default(),
        unqueued: FxSet::default(),
        diags,
    };
    for (fi, f) in m.flows.iter().enumerate() {
        let routes = &front.routes.flows[fi].pairs;
        let n = f.pairs.len();
        for (j, pr) in routes.iter().enumerate() {
            let (dir, pair) = if j < n {
                (Direction::Forward, j)
            } else {
                (Direction::Reverse, j - n)
            };
            let Some((src, dst)) = crate::derive::lag_placement::ends(m, pr) else {
                continue;
            };
            g.leg(&Leg {
                flow: fi,
                pair,
                route: j,
                dir,
                hops: &pr.hops,
                reversed: false,
                data: true,
                src,
                dst,
            });
            if !f.bidirectional {
                g.leg(&Leg {
                    flow: fi,
                    pair,
                    route: j,
                    dir: Direction::Reverse,
                    hops: &pr.hops,
                    reversed: true,
                    data: false,
                    src: dst,
                    dst: src,
                });
            }
        }
    }
    let metered: Vec<u32> = front
        .routes
        .flows
        .iter()
        .map(|r| r.pairs.len() as u32)
        .collect();
    for (s, t) in tables.into_iter().enumerate() {
        if let Some(t) = t {
            let sw = built.as_mut().map(|(switches, _)| &mut switches[t.pos]);
            finish(front, s, t, &metered, sw, diags);
        }
    }
}

/// Each flow's id in its rules' cookies (the model's flow order).
fn flow_ids(m: &Model) -> Vec<u32> {
    let names: Vec<&str> = m.flows.iter().map(|f| f.name.value.as_str()).collect();
    cookie::flow_ids(&names)
}

/// Each flow's cookie with the mask that selects it (both directions, every pair): what
/// `ir/flows/flows.json` states and `democ twin test` counts, so the flows and the
/// rulesets share one cookie scheme.
pub(crate) fn flow_cookies(m: &Model) -> (Vec<String>, String) {
    let ids = flow_ids(m);
    let cookies = ids
        .iter()
        .map(|&id| cookie::hex(cookie::cookie(id, Direction::Forward, 0) & cookie::FLOW_MASK))
        .collect();
    (cookies, cookie::hex(cookie::FLOW_MASK))
}

/// The switch's port map applied to its ports and port-channels under the controller,
/// from its IR `sw` (taken right after the switch is lowered, so `check` need not keep
/// the IR); None when it runs no OpenFlow.
pub(crate) fn table(
    front: &ShowModel,
    vendors: &Vendors,
    sw: &Switch,
    s: SwitchId,
    diags: &mut Diags,
) -> Option<Table> {
    let m = &front.model;
    let of = sw.openflow.as_ref()?;
    let ms = &m.switches[s];
    let caps = vendors
        .flavour(&ms.vendor, ms.os.as_str())
        .and_then(|(_, f)| f.openflow.as_ref());
    let scheme = PortMap::of(front.db.switches.get(&ms.model.value));
    let map = numbering::numbers(ms, sw, caps.map(|c| &c.port_numbers), scheme, diags);
    let normal = of.mode == Mode::Hybrid && caps.is_some_and(|c| c.normal);
    let mut t = Table {
        pos: 0,
        ports: FxMap::default(),
        lags: FxMap::default(),
        normal,
        profile: caps.map(|c| c.profile.clone()),
        version: of.version.clone(),
        arp: caps.is_none_or(|c| c.writes_arp(&of.version)),
        unconfirmed_lines: Vec::new(),
        rules: Vec::new(),
        index: FxMap::default(),
        meters: Vec::new(),
        meter_of: FxMap::default(),
    };
    let mut seen: FxSet<u32> = FxSet::default();
    let mut clash = |n: Number, who: &str, diags: &mut Diags| {
        if n.is_some_and(|n| !seen.insert(n)) {
            diags.push(
                Diagnostic::new(codes::OPENFLOW_PORT_NUMBER, ms.model.span, format!("the port map of `{}` gives `{who}` an OpenFlow port number another port of `{}` already has", ms.model.value, ms.name.value))
                    .label("this model's port map")
                    .help("set `openflow.port_numbers: { step, lag_base }` in the model's catalog entry so no two ports share a number"),
            );
        }
    };
    for (i, intf) in sw.interfaces.iter().enumerate() {
        if intf.role == Role::Openflow && intf.lag.is_none() {
            let n = map.port(&intf.port);
            clash(n, &intf.name, diags);
            t.ports.insert(i, n);
        }
    }
    for c in sw.port_channels.iter().filter(|c| c.role == Role::Openflow) {
        let n = map.lag(c.id);
        clash(n, &c.name, diags);
        t.lags.insert(c.id, n);
    }
    Some(t)
}

struct Gen<'a> {
    m: &'a Model,
    pins: &'a crate::derive::lag_placement::Pins,
    segments: &'a crate::derive::segments::Segments,
    tables: &'a mut [Option<Table>],
    ids: &'a [u32],
    /// (flow, switch) pairs already reported as unruled.
    reported: FxSet<(usize, SwitchId)>,
    /// (flow, switch) pairs already reported as set no queue.
    unqueued: FxSet<(usize, SwitchId)>,
    diags: &'a mut Diags,
}

/// The VLAN tags of a rule's frames as they arrive and as they leave.
#[derive(Clone, Copy)]
struct Tags {
    arrive: Option<u16>,
    leave: Option<u16>,
}

/// What a hop rides on at one switch, under the controller or not.
enum At {
    Of(Number),
    Legacy(String),
}

impl Gen<'_> {
    /// The port a hop rides at switch `s`, for the leg between `ends`' addresses.
    fn at(&self, s: SwitchId, via: Via, ends: (Ipv4Addr, Ipv4Addr)) -> At {
        let t = self.tables[s].as_ref();
        // A LAG placed by OpenFlow is no port-channel: the pair's member is the port.
        let pinned = match via {
            Via::Lag(g) if self.m.pinned(g) => self.pins.member(g, ends.0, ends.1),
            _ => None,
        };
        match pinned.map_or(via, Via::Link) {
            Via::Link(l) => {
                let link = &self.m.links[l];
                let me = NodeId::Switch(s);
                let end: End = if link.a.node == me { link.a } else { link.b };
                match t.and_then(|t| t.ports.get(&end.port)) {
                    Some(n) => At::Of(*n),
                    None => At::Legacy(self.m.end_name(end)),
                }
            }
            Via::Lag(g) => {
                let id = self.m.lags[g].id;
                match t.and_then(|t| t.lags.get(&id)) {
                    Some(n) => At::Of(*n),
                    None => At::Legacy(format!(
                        "port-channel {id} of `{}`",
                        self.m.switches[s].name.value
                    )),
                }
            }
        }
    }

    /// The rules of one leg on every OpenFlow switch it enters through the controller's ports.
    fn leg(&mut self, leg: &Leg) {
        let n = leg.hops.len();
        // A capped flow is metered on the first switch of the leg whose agent has meters.
        let mut metered = false;
        for k in 1..n {
            // Forward: hop k-1 enters the switch, hop k leaves it. Reversed: hop n-k
            // enters (travelled backwards), hop n-k-1 leaves.
            let (hi, ho) = if leg.reversed {
                (n - k, n - k - 1)
            } else {
                (k - 1, k)
            };
            let (into, out) = (leg.hops[hi].via, leg.hops[ho].via);
            let s = if leg.reversed {
                leg.hops[hi].from
            } else {
                leg.hops[hi].to
            };
            let NodeId::Switch(s) = s else { continue };
            if self.tables[s].is_none() {
                continue;
            }
            let ends = (leg.src.1, leg.dst.1);
            let At::Of(in_port) = self.at(s, into, ends) else {
                continue;
            };
            let output = match (self.at(s, out, ends), in_port) {
                (At::Of(Some(p)), Some(_)) => Output::Port { number: p },
                (At::Legacy(_), Some(_)) if self.tables[s].as_ref().is_some_and(|t| t.normal) => {
                    Output::Normal
                }
                (at, _) => {
                    let why = match (at, in_port) {
                        (_, None) | (At::Of(None), _) => {
                            "a port it crosses has no OpenFlow number in the model's port map"
                                .to_owned()
                        }
                        (At::Legacy(p), _) => format!(
                            "it leaves through `{p}`, which is not under the controller, and `{}` has no NORMAL action",
                            self.m.switches[s].os.as_str()
                        ),
                        (At::Of(Some(_)), _) => String::new(),
                    };
                    self.unruled(leg.flow, s, why);
                    continue;
                }
            };
            let Some(in_port) = in_port else { continue };
            let meter = if leg.data && !metered {
                self.meter(s, leg.flow)
            } else {
                None
            };
            metered |= meter.is_some();
            let tags = Tags {
                arrive: self.tag(leg, s, hi),
                leave: match output {
                    // The legacy pipeline tags what it sends by its own VLAN config.
                    Output::Normal => None,
                    Output::Port { .. } => self.tag(leg, s, ho),
                },
            };
            self.rule(s, leg, in_port, tags, output, meter);
        }
    }

    /// The VLAN tag a leg's frames carry on hop `hop` where it meets switch `s`: its
    /// segment's VLAN when that link is tagged there.
    fn tag(&self, leg: &Leg, s: SwitchId, hop: usize) -> Option<u16> {
        let link = *leg.hops[hop].via.links(self.m).first()?;
        if !self.segments.tagged_at(self.m, link, s) {
            return None;
        }
        self.segments.hop_vlan(leg.flow, leg.route, hop)
    }

    fn unqueued(&mut self, s: SwitchId, flow: usize) {
        if !self.unqueued.insert((flow, s)) {
            return;
        }
        let (f, sw) = (&self.m.flows[flow], &self.m.switches[s]);
        let os = sw.os.as_str();
        self.diags.push(
            Diagnostic::new(codes::VENDOR_MANUAL, f.name.span, format!("RoCE flow `{}`'s OpenFlow rules on `{}` set no egress queue: `{os}`'s agent has no queue action its manual confirms", f.name.value, sw.name.value))
                .label("its packets leave in the queue the switch's own classification picks")
                .also(sw.name.span, format!("`{}` runs `{os}`", sw.name.value))
                .help(format!("keep the lossless class on `{}` by its DSCP trust and PFC (the config's QoS section), or carry the flow over TCP", sw.name.value)),
        );
    }

    fn unruled(&mut self, flow: usize, s: SwitchId, why: String) {
        if !self.reported.insert((flow, s)) {
            return;
        }
        let (f, sw) = (&self.m.flows[flow], &self.m.switches[s]);
        self.diags.push(
            Diagnostic::new(codes::OPENFLOW_HOP_UNRULED, f.name.span, format!("no OpenFlow rule can carry flow `{}` across `{}`: {why}", f.name.value, sw.name.value))
                .label("enters an OpenFlow port of this switch")
                .also(sw.name.span, format!("`{}` runs `{}`", sw.name.value, sw.os.as_str()))
                .help(format!("put both ports of the hop under the controller, keep both legacy, or route the flow around `{}` (`path:`)", sw.name.value)),
        );
    }

    /// The flow's meter on this switch (made on first use), when the flow has a cap.
    fn meter(&mut self, s: SwitchId, flow: usize) -> Option<u32> {
        let f = &self.m.flows[flow];
        f.cap.as_ref()?;
        let t = self.tables[s].as_mut()?;
        if !t.meters_allowed() {
            return None;
        }
        let (i, n) = t.meter_of.entry(flow).or_insert_with(|| {
            t.meters.push(Meter {
                id: t.meters.len() as u32 + 1,
                flow: f.name.value.clone(),
                rate_kbps: 0,
            });
            (t.meters.len() - 1, 0)
        });
        *n += 1;
        Some(t.meters[*i].id)
    }

    /// Adds the IPv4 and ARP rules, or finds them already there for another flow.
    fn rule(
        &mut self,
        s: SwitchId,
        leg: &Leg,
        in_port: u32,
        tags: Tags,
        output: Output,
        meter: Option<u32>,
    ) {
        let f = &self.m.flows[leg.flow];
        let cookie = cookie::cookie(self.ids[leg.flow], leg.dir, leg.pair);
        let mut queue =
            (f.protocol.value == Protocol::Rdma).then_some(self.m.settings.pfc_priority);
        if queue.is_some() && !self.tables[s].as_ref().is_some_and(Table::queues_allowed) {
            // The agent cannot pick the queue: the rule forwards, and the lossless class
            // rests on the switch classifying the hosts' marking itself.
            queue = None;
            self.unqueued(s, leg.flow);
        }
        // Where the agent cannot match ARP's addresses, no ARP rule is written: the
        // hosts of every pair crossing it hold static neighbours (`arpless_pairs`).
        let arp = self.tables[s].as_ref().is_some_and(|t| t.arp);
        let types: &[EtherType] = if arp {
            &[EtherType::Ipv4, EtherType::Arp]
        } else {
            &[EtherType::Ipv4]
        };
        for &ether_type in types {
            let actions = match ether_type {
                EtherType::Ipv4 => Actions {
                    meter,
                    pop_vlan: tags.arrive.is_some(),
                    push_vlan: tags.leave,
                    queue,
                    output,
                },
                EtherType::Arp => Actions {
                    meter: None,
                    pop_vlan: tags.arrive.is_some(),
                    push_vlan: tags.leave,
                    queue: None,
                    output,
                },
            };
            let key = (ether_type, in_port, tags.arrive, leg.src.1, leg.dst.1);
            let Some(t) = self.tables[s].as_mut() else {
                return;
            };
            if let Some(&i) = t.index.get(&key) {
                let r = &mut t.rules[i];
                if r.actions == actions {
                    if r.flow != f.name.value && !r.shared_with.contains(&f.name.value) {
                        r.shared_with.push(f.name.value.clone());
                    }
                    continue;
                }
                let other = r.flow.clone();
                self.conflict(s, leg, &other);
                return;
            }
            t.index.insert(key, t.rules.len());
            t.rules.push(Rule {
                cookie: cookie::hex(cookie),
                priority: FLOW_PRIORITY,
                flow: f.name.value.clone(),
                pair: leg.pair as u32,
                direction: leg.dir,
                from_host: self.m.hosts[leg.src.0].name.value.clone(),
                to_host: self.m.hosts[leg.dst.0].name.value.clone(),
                matches: Match {
                    in_port,
                    vlan: tags.arrive,
                    ether_type,
                    src: leg.src.1.to_string(),
                    dst: leg.dst.1.to_string(),
                },
                actions,
                shared_with: Vec::new(),
            });
        }
    }

    fn conflict(&mut self, s: SwitchId, leg: &Leg, other: &str) {
        if !self.reported.insert((leg.flow, s)) {
            return;
        }
        let (f, sw) = (&self.m.flows[leg.flow], &self.m.switches[s]);
        let (a, b) = (
            &self.m.hosts[leg.src.0].name.value,
            &self.m.hosts[leg.dst.0].name.value,
        );
        let mut d = Diagnostic::new(codes::OPENFLOW_RULE_CONFLICT, f.name.span, format!("flows `{other}` and `{}` both carry `{a}` -> `{b}` into `{}` through the same port, but on to different ports", f.name.value, sw.name.value))
            .label("needs a rule with the same priority and match as another flow's");
        if let Some(o) = self.m.flows.iter().find(|x| x.name.value == other) {
            d = d.also(o.name.span, "the other flow");
        }
        self.diags.push(d.help(format!(
            "give both flows the same `path:` through `{}`, or merge them",
            sw.name.value
        )));
    }
}

/// Sorts, sizes and checks one switch's rules and writes them into its IR.
fn finish(
    front: &ShowModel,
    s: SwitchId,
    mut t: Table,
    metered: &[u32],
    sw: Option<&mut Switch>,
    diags: &mut Diags,
) {
    let m = &front.model;
    let ms = &m.switches[s];
    for (&flow, &(i, n)) in &t.meter_of {
        let f = &m.flows[flow];
        if let Some(cap) = &f.cap {
            let share = f64::from(n) / f64::from(metered[flow].max(1));
            t.meters[i].rate_kbps = (cap.value.bps() * share / 1000.0).ceil().max(1.0) as u64;
        }
    }
    let caps = front
        .db
        .switches
        .get(&ms.model.value)
        .and_then(|x| x.openflow.as_ref());
    let span = ms.openflow.as_ref().map_or(ms.name.span, |o| o.span);
    if let Some(size) = caps.map(|c| c.table_size).filter(|&n| n > 0) {
        let need = t.rules.len() + 1;
        if need > size as usize {
            diags.push(
                Diagnostic::new(codes::OPENFLOW_TABLE, span, format!("OpenFlow switch `{}` needs {need} flow entries but `{}` holds {size}", ms.name.value, ms.model.value))
                    .label(format!("{} rules for the flows, plus the table-miss entry", t.rules.len()))
                    .help(format!("route some pairs around `{}` (`path:` on the flows), or use a model with a larger OpenFlow table", ms.name.value)),
            );
        }
    }
    let meters = caps.and_then(|c| c.meters).unwrap_or(0);
    if t.meters.len() > meters as usize {
        let first = t.meter_of.keys().min().copied().unwrap_or(0);
        let at = m.flows[first].cap.as_ref().map_or(span, |c| c.span);
        let n = t.meters.len();
        let plural = if n == 1 { "meter" } else { "meters" };
        diags.push(
            Diagnostic::new(codes::OPENFLOW_METERS, at, format!("`{}` needs {n} OpenFlow {plural} for capped flows but `{}` has {meters}", ms.name.value, ms.model.value))
                .label("a capped flow metered there")
                .help(format!("drop `cap:` from some flows, or meter them on another switch (`path:` around `{}`)", ms.name.value)),
        );
    }
    if let Some(p) = &t.profile {
        let lags: FxSet<u32> = t.lags.values().flatten().copied().collect();
        within::check(
            m,
            s,
            &t.rules,
            &within::Agent {
                profile: p,
                normal: t.normal,
                version: &t.version,
                lags: &lags,
            },
            &t.unconfirmed_lines,
            span,
            diags,
        );
    }
    t.rules.sort_by(|a, b| {
        (&a.cookie, a.matches.ether_type, a.matches.in_port).cmp(&(
            &b.cookie,
            b.matches.ether_type,
            b.matches.in_port,
        ))
    });
    // Without the IR (`check`), the rules were made for the diagnostics above.
    let Some(sw) = sw else {
        return;
    };
    let isolated_ports = if t.normal {
        isolated(m, s, sw, &t)
    } else {
        Vec::new()
    };
    let Some(of) = sw.openflow.as_mut() else {
        return;
    };
    let mut numbers: Vec<OfPort> = sw
        .interfaces
        .iter()
        .enumerate()
        .filter_map(|(i, intf)| {
            t.ports.get(&i).copied().flatten().map(|number| OfPort {
                interface: intf.name.clone(),
                number,
            })
        })
        .collect();
    numbers.extend(sw.port_channels.iter().filter_map(|c| {
        t.lags.get(&c.id).copied().flatten().map(|number| OfPort {
            interface: c.name.clone(),
            number,
        })
    }));
    of.port_numbers = numbers;
    of.ruleset = Ruleset {
        version: t.version,
        isolated_ports,
        table_miss_cookie: cookie::hex(cookie::TABLE_MISS),
        table_miss: if t.normal { Miss::Normal } else { Miss::Drop },
        cookie_mask: cookie::hex(cookie::FLOW_MASK),
        direction_mask: cookie::hex(cookie::DIRECTION_MASK),
        rules: t.rules,
        meters: t.meters,
    };
}

/// The OpenFlow numbers of this switch's members of LAGs placed by OpenFlow: with a
/// NORMAL table miss their unmatched packets (broadcasts, other hosts' ARP, IPv6 ND)
/// would be flooded over every parallel member and back (found in review against the
/// Onyx manual's hybrid ports); democ's rules are all that may cross them.
fn isolated(m: &Model, s: SwitchId, sw: &Switch, t: &Table) -> Vec<u32> {
    let members: FxSet<&str> = (0..m.lags.len())
        .filter(|&g| m.pinned(g))
        .flat_map(|g| &m.lags[g].members)
        .flat_map(|&l| [m.links[l].a, m.links[l].b])
        .filter(|e| e.node == crate::resolve::model::NodeId::Switch(s))
        .map(|e| m.port(e).name.as_str())
        .collect();
    let mut ports: Vec<u32> = sw
        .interfaces
        .iter()
        .enumerate()
        .filter(|(_, intf)| members.contains(intf.port.as_str()))
        .filter_map(|(i, _)| t.ports.get(&i).copied().flatten())
        .collect();
    ports.sort_unstable();
    ports
}

impl Table {
    /// The version's queue action (`enqueue` in 1.0, `set_queue` after) is not ruled out.
    fn queues_allowed(&self) -> bool {
        self.profile.as_ref().is_none_or(|p| {
            let q = if self.version == "1.0" {
                p.enqueue
            } else {
                p.set_queue
            };
            q != crate::vendor::Support::No
        })
    }

    /// Meters are OpenFlow 1.3's, on agents whose profile does not rule them out.
    fn meters_allowed(&self) -> bool {
        self.version != "1.0"
            && self
                .profile
                .as_ref()
                .is_none_or(|p| p.meter != crate::vendor::Support::No)
    }
}
