//! Pass 2 output: names turned into typed ids, catalog entries attached.
//! Everything later (derive, check, lower) reads this, never the spec.

use crate::fxhash::FxMap as HashMap;
use std::net::Ipv4Addr;
use std::sync::Arc;

use crate::source::Span;
use crate::spec::addr::{Controller, Prefix};
use crate::spec::fabric::Transport;
use crate::spec::flow::{Protocol, Store};
use crate::spec::link::{Lacp, Media, PortMode};
use crate::spec::show::{ControllerVia, Routing};
use crate::spec::site::SiteKind;
use crate::spec::switch::{Fec, OfMode, Os};
use crate::spec::units::Rate;
use crate::spec::wan::{Fiber, Provisioning, WanKind};
use crate::yaml::decode::Located;

pub(crate) type SiteId = usize;
pub(crate) type SwitchId = usize;
pub(crate) type HostId = usize;
pub(crate) type LinkId = usize;
pub(crate) type WanId = usize;
pub(crate) type LagId = usize;

/// A switch or a host: anything with cabled ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub(crate) enum NodeId {
    Switch(SwitchId),
    Host(HostId),
}

/// One end of a link: a node and the index of its port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct End {
    pub(crate) node: NodeId,
    pub(crate) port: usize,
}

/// Show-wide settings after defaults are applied.
#[derive(Debug)]
pub(crate) struct Settings {
    pub(crate) name: String,
    pub(crate) title: String,
    pub(crate) venue: String,
    pub(crate) host_mtu: Located<u32>,
    pub(crate) switch_mtu: Option<Located<u32>>,
    pub(crate) controller: Option<Located<Controller>>,
    pub(crate) of_version: Located<String>,
    /// `defaults.openflow.placeholder_port_map: true`, where written.
    pub(crate) placeholder_port_map: Option<Span>,
    /// `defaults.openflow.restconf` (default `rfc8040`).
    pub(crate) restconf: crate::spec::show::Restconf,
    pub(crate) margin_db: Located<f64>,
    pub(crate) warn_utilization: f64,
    pub(crate) routing: Routing,
    /// `defaults.congestion_control` (default `cubic`).
    pub(crate) congestion_control: crate::spec::flow::CongestionControl,
    pub(crate) dtn_vlan: u16,
    pub(crate) pfc_priority: u8,
    /// The spec's `pcie_mps` (absent: the chassis's, else the catalog default).
    pub(crate) pcie_mps: Option<u32>,
    pub(crate) hop_latency_us: f64,
    /// Spares in the bill of materials, percent.
    pub(crate) spares_percent: f64,
    pub(crate) pools: Pools,
    pub(crate) management: ManagementNet,
    pub(crate) services: Services,
}

/// `show.services`, defaults applied: what every switch is pointed at.
#[derive(Debug, Default)]
pub(crate) struct Services {
    pub(crate) ntp: Vec<Located<Ipv4Addr>>,
    pub(crate) syslog: Vec<Located<Ipv4Addr>>,
    pub(crate) snmp: Option<Snmp>,
    pub(crate) sflow: Option<Sflow>,
    pub(crate) lldp: bool,
    /// `gnmi: true`, where it is written.
    pub(crate) gnmi: Option<Span>,
}

#[derive(Debug)]
pub(crate) struct Snmp {
    pub(crate) community: String,
    /// Where the community is written.
    pub(crate) community_span: Span,
    pub(crate) traps: Vec<Located<Ipv4Addr>>,
}

#[derive(Debug)]
pub(crate) struct Sflow {
    pub(crate) collector: Located<Ipv4Addr>,
    pub(crate) port: u16,
    pub(crate) sample_rate: Located<u32>,
    pub(crate) polling_s: u32,
}

impl Services {
    /// Every address a switch sends to from its management port, with where it is written.
    pub(crate) fn addresses(&self) -> impl Iterator<Item = &Located<Ipv4Addr>> {
        self.ntp
            .iter()
            .chain(&self.syslog)
            .chain(self.snmp.iter().flat_map(|s| &s.traps))
            .chain(self.sflow.iter().map(|f| &f.collector))
    }
}

/// `show.management`: the management network's router and VRF, and how switches reach
/// the OpenFlow controller.
#[derive(Debug)]
pub(crate) struct ManagementNet {
    pub(crate) gateway: Option<Located<Ipv4Addr>>,
    pub(crate) vrf: Option<Located<String>>,
    pub(crate) controller_via: ControllerVia,
    /// Where `controller_via` is written (the show's name when it is the default).
    pub(crate) via_span: Span,
}

#[derive(Debug, Default)]
pub(crate) struct Pools {
    pub(crate) dtn: Option<Located<Prefix>>,
    pub(crate) p2p: Option<Located<Prefix>>,
    pub(crate) mgmt: Option<Located<Prefix>>,
    pub(crate) loopback: Option<Located<Prefix>>,
}

#[derive(Debug)]
pub(crate) struct Site {
    pub(crate) name: Located<String>,
    pub(crate) kind: SiteKind,
    pub(crate) booth: Option<String>,
    pub(crate) location: Option<String>,
    /// `mgmt:`: the site's own management network.
    pub(crate) mgmt: Option<super::mgmt_net::SiteMgmt>,
}

/// A port of a switch or a host NIC, after breakout.
#[derive(Debug, Clone)]
pub(crate) struct Port {
    /// Canonical name: `1/17`, `1/17:2` after breakout, or the NIC port name on hosts.
    pub(crate) name: String,
    /// Configured speed.
    pub(crate) speed: Rate,
    /// Speeds the hardware can run.
    // Shared by every port of a group (and copied with a port's breakout subports):
    // one list per group, not one per port (a 64-port switch made 64).
    pub(crate) speeds: Arc<[Rate]>,
    /// Breakout parent (`1/17` for `1/17:2`).
    pub(crate) parent: Option<String>,
    // The cage's name, shared by the ports of a group as the speeds are.
    pub(crate) form: Arc<str>,
    /// The cage's electrical lanes (a breakout subport's share of its parent's), from
    /// the catalog; None where the catalog does not say.
    pub(crate) lanes: Option<Lanes>,
    pub(crate) fec: Option<Fec>,
    pub(crate) mtu: Option<u32>,
    pub(crate) description: Option<String>,
    pub(crate) shutdown: bool,
    /// The override that configured this port, if any.
    pub(crate) span: Option<Span>,
    /// Host ports: the NIC (index into the host's nics).
    pub(crate) nic: Option<usize>,
    pub(crate) link: Option<LinkId>,
    /// Interface address (derived from pools or static).
    pub(crate) address: Option<Prefix>,
    /// The OS's own (unit, number) where the catalog says it differs from the canonical
    /// name; a breakout subport `:k` is number + k - 1 on such an OS.
    pub(crate) native: Option<(u32, u32)>,
    /// Switch ports: the first of the cage's electrical lanes this port uses, counting
    /// from 0 on port `1/1` (a subport from its share): SONiC names ports by it.
    pub(crate) lane: Option<u32>,
    /// Switch ports: forwarded by the OpenFlow controller's rules, not by the switch's own
    /// L2/L3 (set by `derive::roles`).
    pub(crate) openflow: bool,
}

/// A model's SONiC platform (catalog `sonic:`).
#[derive(Debug, Clone)]
pub(crate) struct SonicHw {
    pub(crate) platform: String,
    pub(crate) hwsku: String,
    /// The catalog's source confirms the port map (`lanes: confirmed`).
    pub(crate) lanes_confirmed: bool,
}

/// Electrical lanes of a cage: how many, and the fastest rate per lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lanes {
    pub(crate) count: u32,
    pub(crate) rate: Rate,
}

impl Lanes {
    pub(crate) fn of(e: &crate::spec::catalog_file::Electrical) -> Lanes {
        Lanes {
            count: e.lanes,
            rate: e.rate.value,
        }
    }
}

#[derive(Debug)]
pub(crate) struct OpenflowCfg {
    pub(crate) mode: OfMode,
    pub(crate) instance: u8,
    pub(crate) controller: Option<Controller>,
    pub(crate) version: String,
    pub(crate) dpid: Option<String>,
    /// Hybrid mode's explicit `ports:` (canonical names, ranges expanded), each with the
    /// span of the entry that named it; None: the default rule.
    pub(crate) ports: Option<Vec<(String, Span)>>,
    /// `port_map`: (port or port-channel as written, number, span of the number).
    pub(crate) port_map: Vec<(String, u32, Span)>,
    /// Where the numbers not in `port_map` were declared placeholders (the switch's
    /// `placeholder_port_map` or the show default).
    pub(crate) placeholder: Option<Span>,
    /// No source confirms OpenFlow on the model at all (catalog `openflow.agent`).
    pub(crate) agent_unconfirmed: bool,
    pub(crate) span: Span,
}

#[derive(Debug)]
pub(crate) struct Switch {
    pub(crate) name: Located<String>,
    pub(crate) site: SiteId,
    /// Catalog key.
    pub(crate) model: Located<String>,
    pub(crate) vendor: String,
    pub(crate) os: Os,
    /// What it forwards per port and direction (`throughput:`), folded into the
    /// capacity of the links at its ports.
    pub(crate) throughput: Option<crate::spec::units::Rate>,
    pub(crate) mgmt: Option<Located<Ipv4Addr>>,
    pub(crate) asn: Option<u32>,
    pub(crate) router_id: Option<Ipv4Addr>,
    /// The hosts' gateway address and subnet on this switch (`gateway:`).
    pub(crate) gateway: Option<Located<Prefix>>,
    pub(crate) openflow: Option<OpenflowCfg>,
    pub(crate) ports: Vec<Port>,
    pub(crate) port_index: HashMap<String, usize>,
    pub(crate) max_mtu: u32,
    /// The catalog's silicon family (`sand`), for platform-specific syntax.
    pub(crate) platform: Option<String>,
    /// No source confirms that the model runs `os` (catalog `os_unconfirmed`).
    pub(crate) os_unconfirmed: bool,
    /// The catalog's SONiC platform and HWSKU (catalog `sonic:`), for DEVICE_METADATA.
    pub(crate) sonic: Option<SonicHw>,
    pub(crate) description: Option<String>,
    /// Owned by others (`external: true`): no config written or pushed.
    pub(crate) external: bool,
}

#[derive(Debug)]
pub(crate) struct Nic {
    pub(crate) model: Located<String>,
    pub(crate) slot: Located<String>,
    /// Indices into the host's ports.
    pub(crate) ports: Vec<usize>,
    /// Generation and width the link trains at most at in this host (spec `pcie:`).
    pub(crate) trained: (Option<u8>, Option<u8>),
}

#[derive(Debug)]
pub(crate) struct NvmeGroup {
    pub(crate) model: Located<String>,
    pub(crate) count: u32,
    pub(crate) slot: Option<Located<String>>,
    pub(crate) behind: Option<Located<String>>,
    /// Serial numbers of the group's first drives, in order (checked: at most `count`,
    /// characters a device name can hold).
    pub(crate) serials: Vec<String>,
    pub(crate) span: Span,
}

/// A RAID array of a host, its names checked against the catalog.
#[derive(Debug, Clone)]
pub(crate) struct RaidArray {
    pub(crate) controller: Located<String>,
    pub(crate) slot: Located<String>,
    pub(crate) level: crate::spec::host::RaidLevel,
    pub(crate) disks: Located<String>,
    pub(crate) count: u32,
    pub(crate) span: Span,
}

#[derive(Debug)]
pub(crate) struct Host {
    pub(crate) name: Located<String>,
    pub(crate) site: SiteId,
    pub(crate) chassis: Located<String>,
    pub(crate) cpu: Located<String>,
    pub(crate) sockets: u8,
    pub(crate) memory_gb: Option<Located<u32>>,
    /// The declared kernel release (`kernel:`); None: nothing is assumed of it.
    pub(crate) kernel: Option<crate::spec::kernel::Kernel>,
    pub(crate) mtu: Located<u32>,
    pub(crate) mgmt: Option<Located<Ipv4Addr>>,
    pub(crate) nics: Vec<Nic>,
    pub(crate) nvme: Vec<NvmeGroup>,
    /// RAID arrays behind controller cards.
    pub(crate) raid: Vec<RaidArray>,
    pub(crate) ports: Vec<Port>,
    pub(crate) port_index: HashMap<String, usize>,
    /// Static interface addresses by port index.
    pub(crate) addresses: HashMap<usize, Located<Prefix>>,
    /// The range this host was declared in (`dtn-[1-4]` as written, and its size), when
    /// the declaration was a range: findings on what the range shares name it.
    pub(crate) range: Option<(String, usize)>,
}

impl Host {
    /// The host as a finding on its declaration names it: "`dtn-[1-4]` (4 hosts)" for
    /// a range, whose hosts share the declaration and so the finding, else "`dtn-1`".
    pub(crate) fn shown(&self) -> String {
        match &self.range {
            Some((key, n)) => format!("`{key}` ({n} hosts)"),
            None => format!("`{}`", self.name.value),
        }
    }
}

/// What a link is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinkKind {
    Lan,
    Wan(WanId),
}

/// One physical connection (a cable, an OTN client, a circuit).
#[derive(Debug)]
pub(crate) struct Link {
    pub(crate) a: End,
    pub(crate) b: End,
    pub(crate) kind: LinkKind,
    /// Capacity per direction.
    pub(crate) capacity: Rate,
    /// What the cable itself is bought for: the ports' speed on a LAN link, before inline
    /// boxes and devices (`throughput:`) hold the capacity below it; a WAN's capacity.
    pub(crate) cable_rate: Rate,
    pub(crate) media: Option<Media>,
    pub(crate) optic_a: Option<Located<String>>,
    pub(crate) optic_b: Option<Located<String>>,
    pub(crate) length_km: f64,
    /// Where a LAN cable's `length_m:` is written.
    pub(crate) length_span: Option<Span>,
    pub(crate) connectors: u32,
    /// Patch cords the run is made of: one per segment between the mated connector
    /// pairs the spec writes (`connectors + 1`); 1 when it writes none (the default 2
    /// connectors are a loss allowance, not a plan of patch panels).
    pub(crate) cords: u32,
    pub(crate) splices: u32,
    pub(crate) lag: Option<LagId>,
    pub(crate) mode: Option<PortMode>,
    pub(crate) vlan: Option<u16>,
    pub(crate) vlans: Vec<u16>,
    pub(crate) subnet: Option<Located<Prefix>>,
    pub(crate) mtu: Option<Located<u32>>,
    /// A WAN's declared `rtt_ms`, halved, in microseconds: when present it is the link's
    /// one-way latency (a measured RTT includes every detour and device the fiber length
    /// leaves out), and `length_km` only checks it (W0232).
    pub(crate) rtt_one_way_us: Option<f64>,
    /// Boxes inline on the link that democ does not configure (`middleboxes:`); their
    /// throughput, MTU and latency are folded into `capacity`, `mtu` and
    /// `inline_latency_us`.
    pub(crate) middleboxes: Vec<Middlebox>,
    /// One-way latency the boxes add, microseconds.
    pub(crate) inline_latency_us: f64,
    pub(crate) description: Option<String>,
    /// Span of the `a:` and `b:` values.
    pub(crate) span_a: Span,
    pub(crate) span_b: Span,
    /// Span of the whole link entry.
    pub(crate) span: Span,
}

/// An inline box on a link.
#[derive(Debug, Clone)]
pub(crate) struct Middlebox {
    pub(crate) name: Located<String>,
    pub(crate) kind: crate::spec::middlebox::MiddleboxKind,
    /// It keeps per-connection state.
    pub(crate) stateful: bool,
    pub(crate) span: Span,
}

#[derive(Debug)]
pub(crate) struct Lag {
    pub(crate) id: u16,
    /// Where `id:` is written.
    pub(crate) id_span: Span,
    pub(crate) lacp: Lacp,
    /// Where `lacp:` is written (None: the default).
    pub(crate) lacp_span: Option<Span>,
    /// Where `placement: openflow` is written (None: the switches hash).
    pub(crate) openflow_placed: Option<Span>,
    pub(crate) members: Vec<LinkId>,
    pub(crate) span: Span,
}

// Provisioning, client and fabric details are read by back ends still to come
// (NVMe-oF setup, cabling and circuit documents); the model keeps them now.
#[allow(dead_code)]
#[derive(Debug)]
pub(crate) struct Wan {
    pub(crate) name: Located<String>,
    pub(crate) kind: WanKind,
    pub(crate) links: Vec<LinkId>,
    pub(crate) client: Option<Located<String>>,
    pub(crate) optic: Option<Located<String>>,
    pub(crate) length_km: Option<Located<f64>>,
    pub(crate) fiber: Fiber,
    pub(crate) splices: u32,
    pub(crate) connectors: u32,
    pub(crate) capacity: Option<Located<Rate>>,
    pub(crate) vlan: Option<u16>,
    pub(crate) rtt_ms: Option<Located<f64>>,
    /// Packet loss rate, a fraction.
    pub(crate) loss: Option<Located<f64>>,
    pub(crate) mtu: Option<Located<u32>>,
    pub(crate) provisioning: Option<Provisioning>,
    pub(crate) peer_asn: Option<u32>,
    pub(crate) description: Option<String>,
    /// OTN client runs at the `a` and `b` ends (`client_a:`, `client_b:`).
    pub(crate) client_runs: [Option<ClientRun>; 2],
    pub(crate) span: Span,
}

/// The fiber from a switch port to the OTN transponder's client port, at one end of an
/// OTN WAN link; every member of a bundle has one such run at that end.
#[derive(Debug, Clone)]
pub(crate) struct ClientRun {
    /// The optic in the switch port (the run's own `optic:`, else the WAN link's).
    pub(crate) optic: Located<String>,
    /// The optic in the transponder's client port (default: `optic`).
    pub(crate) transponder_optic: Located<String>,
    pub(crate) length_m: f64,
    pub(crate) length_km: f64,
    /// Where `length_m:` is written.
    pub(crate) length_span: Span,
    /// Declared fiber type and where.
    pub(crate) fiber: Option<Located<Fiber>>,
    pub(crate) connectors: u32,
    /// Patch cords of the run, as a LAN link's `cords`.
    pub(crate) cords: u32,
    pub(crate) splices: u32,
    /// `a` or `b`.
    pub(crate) end: &'static str,
    /// The `client_a:` / `client_b:` entry.
    pub(crate) span: Span,
}

#[derive(Debug)]
pub(crate) struct Fabric {
    pub(crate) name: Located<String>,
    pub(crate) transport: Transport,
    pub(crate) target: HostId,
    /// Where `target:` is written.
    pub(crate) target_span: Span,
    pub(crate) drives: Option<Located<u32>>,
    pub(crate) initiators: Vec<HostId>,
    pub(crate) port: u16,
}

#[derive(Debug)]
pub(crate) struct Flow {
    pub(crate) name: Located<String>,
    /// (source, sink) host pairs; a striped flow lists each pair once per stripe.
    pub(crate) pairs: Vec<(HostId, HostId)>,
    /// Per pair, the sender's port the stripe leaves by (`stripe:`); empty when the flow
    /// is not striped.
    pub(crate) stripes: Vec<usize>,
    /// Stripes per host pair (1 when not striped).
    pub(crate) stripe_width: usize,
    /// CPU sockets the sender's and the receiver's processes are pinned to (`pin:`),
    /// instead of their NIC's.
    pub(crate) pin: (Option<u8>, Option<u8>),
    /// Aggregate demand over all pairs.
    pub(crate) rate: Located<Rate>,
    pub(crate) protocol: Located<Protocol>,
    pub(crate) streams: Option<Located<u32>>,
    /// The senders' TCP congestion control (`congestion_control`, else the show's
    /// default); read only for TCP.
    pub(crate) cc: crate::spec::flow::CongestionControl,
    pub(crate) source: Store,
    pub(crate) sink: Store,
    pub(crate) path: Option<Vec<Located<SwitchId>>>,
    pub(crate) routing: Routing,
    pub(crate) bidirectional: bool,
    /// Aggregate rate cap, policed by OpenFlow meters.
    pub(crate) cap: Option<Located<Rate>>,
    /// `expect: infeasible`: the flow demonstrates a limit.
    pub(crate) expect_infeasible: bool,
    pub(crate) span: Span,
    pub(crate) from_span: Span,
    pub(crate) to_span: Span,
    /// `pick_ports: true`: democ picks the client ports (check/bond_hash.rs).
    pub(crate) pick_ports: bool,
}

impl Flow {
    /// The congestion control of a TCP flow's senders: what the plan assumes and the host
    /// scripts ask for; None for RDMA and UDP.
    pub(crate) fn congestion_control(&self) -> Option<crate::spec::flow::CongestionControl> {
        (self.protocol.value == crate::spec::flow::Protocol::Tcp).then_some(self.cc)
    }

    /// The sender's port pair `i` (forward) is bound to, when the flow is striped.
    pub(crate) fn stripe(&self, i: usize) -> Option<usize> {
        self.stripes.get(i).copied()
    }

    /// Demand of one pair.
    pub(crate) fn pair_rate(&self) -> Rate {
        Rate(self.rate.bps() / self.pairs.len().max(1) as f64)
    }
}

/// Warnings acknowledged by an `allow:` list, over the stretch of the spec it covers.
#[derive(Debug)]
pub(crate) struct Allow {
    /// The entry, in words (``flow `x` ``).
    pub(crate) what: String,
    pub(crate) scope: Span,
    pub(crate) codes: Vec<(crate::diag::Code, Span)>,
}

/// The resolved show.
#[derive(Debug)]
pub(crate) struct Model {
    pub(crate) settings: Settings,
    pub(crate) sites: Vec<Site>,
    pub(crate) switches: Vec<Switch>,
    pub(crate) hosts: Vec<Host>,
    pub(crate) links: Vec<Link>,
    pub(crate) lags: Vec<Lag>,
    pub(crate) wans: Vec<Wan>,
    pub(crate) fabrics: Vec<Fabric>,
    pub(crate) flows: Vec<Flow>,
    pub(crate) allows: Vec<Allow>,
    /// The lab's management addresses of hosts (derived from the mgmt pool).
    pub(crate) lab_mgmt: LabMgmt,
}

/// The containerlab management network's gateway and hosts' addresses where the spec
/// gives none inside the mgmt pool (set by `derive::lab_mgmt`).
#[derive(Debug, Default)]
pub(crate) struct LabMgmt {
    pub(crate) gateway: Option<Ipv4Addr>,
    pub(crate) hosts: std::collections::HashMap<HostId, Ipv4Addr>,
}

impl Model {
    /// Every OTN client run with the member it belongs to and the switch port it starts
    /// at, member by member in link order, the `a` end before the `b` end: the order of
    /// their rows in the cabling plan, after the links.
    pub(crate) fn client_runs(&self) -> impl Iterator<Item = (LinkId, End, &ClientRun)> {
        self.links.iter().enumerate().flat_map(move |(i, l)| {
            let runs = match l.kind {
                LinkKind::Wan(w) => self.wans[w].client_runs.iter(),
                LinkKind::Lan => [].iter(),
            };
            runs.zip([l.a, l.b])
                .filter_map(move |(r, e)| r.as_ref().map(|r| (i, e, r)))
        })
    }

    /// A link in messages: ``WAN link `name` `` or ``link `sw1:1/1` -- `sw2:1/1` ``.
    pub(crate) fn link_name(&self, l: LinkId) -> String {
        let link = &self.links[l];
        match link.kind {
            LinkKind::Wan(w) => format!("WAN link `{}`", self.wans[w].name.value),
            LinkKind::Lan => format!(
                "link `{}` -- `{}`",
                self.end_name(link.a),
                self.end_name(link.b)
            ),
        }
    }

    /// The switches a LAG's members end on (one, or two for a switch-to-switch LAG),
    /// sorted.
    pub(crate) fn lag_switches(&self, lag: &Lag) -> Vec<SwitchId> {
        let mut switches: Vec<SwitchId> = lag
            .members
            .iter()
            .flat_map(|&l| [self.links[l].a.node, self.links[l].b.node])
            .filter_map(|n| match n {
                NodeId::Switch(s) => Some(s),
                NodeId::Host(_) => None,
            })
            .collect();
        switches.sort_unstable();
        switches.dedup();
        switches
    }

    /// The first end of a LAG's members that keeps `placement: openflow` from working: on
    /// a host, or on a port not under the controller (None: every end can be pinned).
    pub(crate) fn unpinnable_end(&self, lag: &Lag) -> Option<End> {
        lag.members
            .iter()
            .flat_map(|&l| [self.links[l].a, self.links[l].b])
            .find(|&e| matches!(e.node, NodeId::Host(_)) || !self.port(e).openflow)
    }

    /// Whether democ's OpenFlow rules place this LAG's pairs on its members: the planner
    /// asked (`placement: openflow`) and every member is an OpenFlow port at both ends.
    pub(crate) fn pinned(&self, g: LagId) -> bool {
        let lag = &self.lags[g];
        lag.openflow_placed.is_some() && self.unpinnable_end(lag).is_none()
    }

    pub(crate) fn node_name(&self, n: NodeId) -> &str {
        match n {
            NodeId::Switch(i) => &self.switches[i].name,
            NodeId::Host(i) => &self.hosts[i].name,
        }
    }

    pub(crate) fn port(&self, e: End) -> &Port {
        match e.node {
            NodeId::Switch(i) => &self.switches[i].ports[e.port],
            NodeId::Host(i) => &self.hosts[i].ports[e.port],
        }
    }

    pub(crate) fn port_mut(&mut self, e: End) -> &mut Port {
        match e.node {
            NodeId::Switch(i) => &mut self.switches[i].ports[e.port],
            NodeId::Host(i) => &mut self.hosts[i].ports[e.port],
        }
    }

    /// `node:port` for messages.
    pub(crate) fn end_name(&self, e: End) -> String {
        format!("{}:{}", self.node_name(e.node), self.port(e).name)
    }
}
