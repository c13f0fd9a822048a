//! The twin's view of a build folder's IR (`ir/<switch>.json`, `ir/hosts/<name>.json`,
//! `ir/flows/flows.json`). Only the fields the twin uses, and no `deny_unknown_fields`:
//! the IR grows, and an older twin still reads what it knows.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;

#[derive(Debug, Deserialize)]
pub(crate) struct Switch {
    pub(crate) hostname: String,
    pub(crate) management: Option<Management>,
    #[serde(default)]
    pub(crate) interfaces: Vec<Interface>,
    #[serde(default)]
    pub(crate) port_channels: Vec<PortChannel>,
    #[serde(default)]
    pub(crate) vlans: Vec<Vlan>,
    #[serde(default)]
    pub(crate) static_routes: Vec<StaticRoute>,
    pub(crate) bgp: Option<Bgp>,
    pub(crate) openflow: Option<Openflow>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Management {
    pub(crate) address: Ipv4,
    /// The management gateway, once the IR carries one.
    pub(crate) gateway: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Ipv4 {
    pub(crate) address: String,
    pub(crate) cidr: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    Routed,
    Access,
    Trunk,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Interface {
    pub(crate) name: String,
    pub(crate) port: String,
    #[serde(default = "yes")]
    pub(crate) enabled: bool,
    pub(crate) mtu: Option<Mtu>,
    pub(crate) mode: Option<Mode>,
    pub(crate) access_vlan: Option<u16>,
    #[serde(default)]
    pub(crate) trunk_vlans: Vec<u16>,
    pub(crate) native_vlan: Option<u16>,
    pub(crate) ipv4: Option<Ipv4>,
    /// Membership in a port-channel (the channel lists its members).
    pub(crate) lag: Option<serde::de::IgnoredAny>,
    /// Who forwards the port: the controller's rules or the switch's own L2/L3.
    #[serde(default)]
    pub(crate) role: Role,
    pub(crate) peer: Option<Peer>,
    /// A WAN port's one-way latency, microseconds (`up --delay` applies it).
    #[serde(default)]
    pub(crate) wan_delay_us: Option<u64>,
}

/// A port's role in the IR (`openflow` or `legacy`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Role {
    Openflow,
    #[default]
    Legacy,
}

impl Interface {
    /// Forwarded by the switch's OpenFlow rules only.
    pub(crate) fn openflow(&self) -> bool {
        self.role == Role::Openflow
    }
}

impl PortChannel {
    /// Forwarded by the switch's OpenFlow rules only.
    pub(crate) fn openflow(&self) -> bool {
        self.role == Role::Openflow
    }
}

fn yes() -> bool {
    true
}

/// A port's MTU: the largest IP packet it carries (what a veth's MTU means) and its
/// layer-2 frame.
#[derive(Debug, Clone, Copy, Deserialize)]
pub(crate) struct Mtu {
    pub(crate) ip: u32,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Peer {
    pub(crate) device: String,
    pub(crate) port: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Lacp {
    Active,
    Passive,
    Static,
}

#[derive(Debug, Deserialize)]
pub(crate) struct PortChannel {
    pub(crate) id: u16,
    pub(crate) name: String,
    pub(crate) members: Vec<String>,
    pub(crate) lacp: Lacp,
    pub(crate) mode: Option<Mode>,
    pub(crate) access_vlan: Option<u16>,
    #[serde(default)]
    pub(crate) trunk_vlans: Vec<u16>,
    pub(crate) native_vlan: Option<u16>,
    pub(crate) ipv4: Option<Ipv4>,
    #[serde(default)]
    pub(crate) role: Role,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Vlan {
    pub(crate) id: u16,
    pub(crate) l3: Option<VlanL3>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct VlanL3 {
    pub(crate) ipv4: Ipv4,
    pub(crate) mtu: Option<Mtu>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct StaticRoute {
    pub(crate) prefix: String,
    pub(crate) next_hop: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Bgp {
    pub(crate) asn: u32,
    pub(crate) router_id: String,
    #[serde(default)]
    pub(crate) neighbors: Vec<BgpNeighbor>,
    /// Subnets the switch originates.
    #[serde(default)]
    pub(crate) networks: Vec<Ipv4>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct BgpNeighbor {
    pub(crate) address: String,
    pub(crate) remote_as: u32,
    /// What the switch accepts from this neighbor and advertises to it.
    pub(crate) import: Policy,
    pub(crate) export: Policy,
}

/// A prefix list permitting exactly `prefixes`.
#[derive(Debug, Deserialize)]
pub(crate) struct Policy {
    pub(crate) name: String,
    pub(crate) prefixes: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Openflow {
    pub(crate) controller: Controller,
    pub(crate) datapath_id: Option<String>,
    /// The OpenFlow number of each port and port-channel under the controller: the
    /// numbers the ruleset's `in_port` and `output` use.
    #[serde(default)]
    pub(crate) port_numbers: Vec<OfPort>,
    #[serde(default)]
    pub(crate) ruleset: Ruleset,
}

impl Openflow {
    /// The OpenFlow number of the port or port-channel named `interface`.
    pub(crate) fn number(&self, interface: &str) -> Option<u32> {
        self.port_numbers
            .iter()
            .find(|p| p.interface == interface)
            .map(|p| p.number)
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct OfPort {
    pub(crate) interface: String,
    pub(crate) number: u32,
}

/// The switch's rules, as far as the twin counts them.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Ruleset {
    #[serde(default)]
    pub(crate) rules: Vec<Rule>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Rule {
    pub(crate) cookie: String,
    pub(crate) flow: String,
    #[serde(default)]
    pub(crate) shared_with: Vec<String>,
    #[serde(rename = "match")]
    pub(crate) matches: RuleMatch,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RuleMatch {
    pub(crate) in_port: u32,
    /// `ipv4` or `arp`.
    pub(crate) ether_type: String,
}

impl Rule {
    /// Whether this rule carries `flow`'s packets (its own, or shared with it).
    pub(crate) fn carries(&self, flow: &str) -> bool {
        self.flow == flow || self.shared_with.iter().any(|f| f == flow)
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Controller {
    pub(crate) address: String,
    pub(crate) port: u16,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Host {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) interfaces: Vec<HostInterface>,
    /// Routes the host script sets, once the IR carries them.
    #[serde(default)]
    pub(crate) routes: Vec<HostRoute>,
    /// Bonds over the members of a port-channel (the host script's Linux bonds).
    #[serde(default)]
    pub(crate) bonds: Vec<HostBond>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct HostBond {
    pub(crate) name: String,
    /// `active`, `passive`; None: a static channel.
    pub(crate) lacp: Option<String>,
    /// The members' port names.
    pub(crate) ports: Vec<String>,
    pub(crate) mtu: u32,
    pub(crate) address: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct HostInterface {
    pub(crate) port: String,
    pub(crate) mtu: u32,
    pub(crate) address: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct HostRoute {
    pub(crate) prefix: String,
    #[serde(alias = "gateway")]
    pub(crate) next_hop: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Flow {
    pub(crate) name: String,
    pub(crate) protocol: String,
    /// The flow's cookie and the mask that selects it from a rule's cookie.
    pub(crate) cookie: String,
    pub(crate) cookie_mask: String,
    pub(crate) pairs: Vec<Pair>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Pair {
    pub(crate) src: String,
    pub(crate) dst: String,
    pub(crate) dst_address: Option<String>,
    pub(crate) mtu: u32,
    #[serde(default)]
    pub(crate) path: Vec<Hop>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Hop {
    pub(crate) switch: String,
    /// Canonical port, or `lag<id>`.
    pub(crate) in_port: String,
    pub(crate) out_port: String,
}

impl Switch {
    /// Whether the canonical port (or `lag<id>`) is under the controller.
    pub(crate) fn under_controller(&self, port: &str) -> bool {
        if let Some(id) = port.strip_prefix("lag").and_then(|i| i.parse::<u16>().ok()) {
            return self
                .port_channels
                .iter()
                .any(|p| p.id == id && p.openflow());
        }
        self.interfaces
            .iter()
            .any(|i| i.port == port && i.openflow())
    }
}

/// Everything the twin reads from one build folder.
pub(crate) struct Build {
    pub(crate) show: String,
    /// By hostname.
    pub(crate) switches: BTreeMap<String, Switch>,
    /// By name.
    pub(crate) hosts: BTreeMap<String, Host>,
    pub(crate) flows: Vec<Flow>,
}

#[derive(Deserialize)]
struct Manifest {
    show: String,
}

fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The `.json` files of one folder, sorted.
fn json_files(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    out.sort();
    Ok(out)
}

impl Build {
    pub(crate) fn read(dir: &Path) -> Result<Build, String> {
        let manifest: Manifest = read(&dir.join("manifest.json"))
            .map_err(|e| format!("{e} (is this a `democ build` folder?)"))?;
        let ir = dir.join("ir");
        let mut switches = BTreeMap::new();
        for p in json_files(&ir)? {
            let s: Switch = read(&p)?;
            switches.insert(s.hostname.clone(), s);
        }
        let hosts_dir = ir.join("hosts");
        if !hosts_dir.is_dir() {
            return Err(format!(
                "{} has no DTN IR: build it with `democ build --hosts`",
                dir.display()
            ));
        }
        let mut hosts = BTreeMap::new();
        for p in json_files(&hosts_dir)? {
            let h: Host = read(&p)?;
            hosts.insert(h.name.clone(), h);
        }
        let flows = read(&ir.join("flows").join("flows.json"))?;
        Ok(Build {
            show: manifest.show,
            switches,
            hosts,
            flows,
        })
    }
}
