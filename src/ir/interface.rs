//! Ports, breakouts, port-channels and VLANs.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::switch::Ipv4;

/// Layer-2/3 role of a port or port-channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    Routed,
    Access,
    Trunk,
}

/// Who forwards what a port receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Role {
    /// Only the OpenFlow controller's rules (`openflow.ports`, or every cabled port in
    /// pure and OVS mode).
    Openflow,
    /// The switch's own VLAN-aware L2/L3 forwarding.
    Legacy,
}

impl Role {
    pub(crate) fn of(openflow: bool) -> Role {
        if openflow {
            Role::Openflow
        } else {
            Role::Legacy
        }
    }
}

/// LACP behaviour of a port-channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Lacp {
    Active,
    Passive,
    /// No LACP: a static bundle.
    Static,
}

/// A parent port split into lanes.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Breakout {
    /// Canonical parent port (`1/17`).
    pub(crate) port: String,
    /// `4x25G`.
    pub(crate) mode: String,
    /// What the vendor's breakout command names (`1/1/17`, `stack-unit 1 port 17`);
    /// none where the vendor splits by lane speed (EOS).
    pub(crate) target: Option<String>,
    /// The vendor's keyword for the mode (`25g-4x`, `quad`, `qsfp-split-4`).
    pub(crate) map: String,
}

/// The other end of a cable.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Peer {
    pub(crate) device: String,
    pub(crate) port: String,
}

/// Vendor keywords lowering chose for a port.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct InterfaceCli {
    /// Speed argument (`forced 25gfull`, `25000`, `25G`) when the speed must be set.
    pub(crate) speed: Option<String>,
    /// FEC argument (`CL91-RS`, `error-correction encoding reed-solomon`); empty means "off".
    pub(crate) fec: Option<String>,
    /// A port-channel member on an OS where members inherit the port-channel's MTU and
    /// QoS (OS10, Onyx): the member prints no MTU or QoS lines of its own; `mtu`,
    /// `pfc` and `ecn` above still say what the port runs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) inherits_lag: bool,
    /// The port is cabled with a direct-attach copper cable and the OS must be told
    /// (PicOS OVS `options:is_dac=true`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) dac: bool,
    /// The port's hardware lanes where the OS's config names them (SONiC `PORT.lanes`,
    /// `0,1,2,3`), from the catalog's platform port map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lanes: Option<String>,
}

/// 802.3x pause.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlowControl {
    pub(crate) receive: bool,
    pub(crate) send: bool,
}

/// Port-channel membership of a port.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct LagMember {
    pub(crate) id: u16,
    /// Vendor name of the port-channel.
    pub(crate) name: String,
    pub(crate) lacp: Lacp,
}

/// Layer 2/3 settings shared by ports and port-channels.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Switching {
    /// None: not configured (unused, a LAG member, or under OpenFlow).
    pub(crate) mode: Option<Mode>,
    pub(crate) access_vlan: Option<u16>,
    /// Sorted.
    pub(crate) trunk_vlans: Vec<u16>,
    pub(crate) native_vlan: Option<u16>,
    pub(crate) ipv4: Option<Ipv4>,
}

/// A port's MTU in both units, and what its OS's commands take
/// (templates/<vendor>/vendor.yaml `mtu:`). Checks compute path MTUs from `ip`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Mtu {
    /// The largest IP packet the port carries (its frame less header, tags and FCS,
    /// and no more than its link's or WAN's IP MTU).
    pub(crate) ip: u32,
    /// The largest layer-2 frame: Ethernet header (14), 4 per VLAN tag the port
    /// carries, and FCS (4) included.
    pub(crate) frame: u32,
    /// VLAN tags on the port's frames (0 or 1).
    pub(crate) tags: u32,
    /// The argument of the OS's `mtu` command (a frame size or an IP MTU, per OS).
    pub(crate) set: u32,
    /// The argument of a separate `ip mtu` command (OS10 routed interfaces).
    pub(crate) ip_set: Option<u32>,
}

/// One physical port or breakout subport.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Interface {
    /// Vendor name (`ethernet1/1/17:2`, `Ethernet17/2`, `xe-1/1/49`).
    pub(crate) name: String,
    /// Canonical name (`1/17:2`).
    pub(crate) port: String,
    /// Canonical breakout parent (`1/17`).
    pub(crate) parent: Option<String>,
    pub(crate) description: Option<String>,
    /// Administratively up.
    pub(crate) enabled: bool,
    pub(crate) speed_mbps: u64,
    pub(crate) mtu: Option<Mtu>,
    /// `rs`, `fc`, `none`; absent: the port's default.
    pub(crate) fec: Option<String>,
    pub(crate) flow_control: Option<FlowControl>,
    #[serde(flatten)]
    pub(crate) switching: Switching,
    pub(crate) lag: Option<LagMember>,
    /// Who forwards this port (a LAG member: its LAG's role).
    pub(crate) role: Role,
    /// The switch's own LLDP runs here (not on OpenFlow ports where the OS forbids it).
    pub(crate) lldp: bool,
    /// sFlow samples this port (`show.services.sflow`: every cabled legacy port).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) sflow: bool,
    /// Priority flow control on `qos.pfc_priority`.
    pub(crate) pfc: bool,
    /// ECN marking on the lossless queue.
    pub(crate) ecn: bool,
    pub(crate) peer: Option<Peer>,
    /// A WAN port: the link's one-way latency in microseconds as the plan has it (the
    /// declared `rtt_ms` halved, else the fiber's propagation), for a twin or lab to
    /// delay the port's egress by (`democ twin up --delay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) wan_delay_us: Option<u64>,
    /// Catalog optic plugged into this port (the link's `optic`, or `optic_b` at its
    /// `b` end); none for copper, AOC and uncabled ports.
    pub(crate) optic: Option<String>,
    pub(crate) cli: InterfaceCli,
}

/// A LAG.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PortChannel {
    pub(crate) id: u16,
    /// Vendor name (`Port-Channel10`, `ae10`).
    pub(crate) name: String,
    /// Vendor names of the member ports, in port order.
    pub(crate) members: Vec<String>,
    pub(crate) lacp: Lacp,
    pub(crate) description: Option<String>,
    pub(crate) mtu: Option<Mtu>,
    #[serde(flatten)]
    pub(crate) switching: Switching,
    pub(crate) role: Role,
    pub(crate) pfc: bool,
    pub(crate) ecn: bool,
    pub(crate) peer: Option<String>,
}

/// A VLAN and its member ports (vendor names, in port order, port-channels last).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Vlan {
    pub(crate) id: u16,
    /// `dtn`, the WAN connection's name, or `vlan<id>`.
    pub(crate) name: String,
    pub(crate) untagged: Vec<String>,
    pub(crate) tagged: Vec<String>,
    /// The routed VLAN interface (SVI), if the VLAN carries an address.
    pub(crate) l3: Option<VlanL3>,
}

/// A routed VLAN interface.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VlanL3 {
    /// Vendor name (`Vlan3016`, `vlan-3016`).
    pub(crate) name: String,
    pub(crate) ipv4: Ipv4,
    /// Untagged figures of the VLAN interface.
    pub(crate) mtu: Option<Mtu>,
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
