//! The part of NVUE's object model democ writes, as serde types: each field is the key
//! of the same name in NVUE's tree (`nv set interface swp1 link mtu 9216` is
//! `interface: {swp1: {link: {mtu: 9216}}}`), absent ones left out. The keys and their
//! values follow NVIDIA's NVUE models (templates/cumulus/vendor.yaml cites each).

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Serialize;

/// A member of an NVUE set (`bond member swp1`, `ip address 10.0.0.1/31`): a key whose
/// value is an empty object.
#[derive(Debug, Default, Serialize)]
pub(super) struct Empty {}

/// Keys of a set, in the order democ adds them.
pub(super) type Set = IndexMap<String, Empty>;

/// `on` / `off` as NVUE spells a switch (quoted by the writer, so YAML 1.1 readers do
/// not take it for a boolean).
pub(super) const ON: &str = "on";

/// The tree under `- set:`.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct Config {
    pub(super) system: System,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) interface: IndexMap<String, Interface>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) bridge: Option<Bridge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) router: Option<Router>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) vrf: BTreeMap<String, Vrf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) qos: Option<Qos>,
    pub(super) service: Service,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct System {
    pub(super) hostname: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) gnmi_server: Option<GnmiServer>,
    /// `system syslog server A vrf mgmt`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) syslog: Option<Syslog>,
    /// `system snmp-server ...`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) snmp_server: Option<SnmpServer>,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct Syslog {
    pub(super) server: IndexMap<String, InVrf>,
}

/// A server reached in a VRF (`... vrf mgmt`).
#[derive(Debug, Default, Serialize)]
pub(super) struct InVrf {
    pub(super) vrf: &'static str,
}

/// `system snmp-server`: on, listening on the management address in its VRF, a
/// read-only v2c community for any address, traps to each receiver in that VRF.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct SnmpServer {
    pub(super) state: &'static str,
    pub(super) listening_address: IndexMap<String, InVrf>,
    pub(super) readonly_community: IndexMap<String, Access>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) trap_destination: IndexMap<String, TrapDestination>,
}

/// `readonly-community C access any`.
#[derive(Debug, Default, Serialize)]
pub(super) struct Access {
    pub(super) access: Set,
}

/// `trap-destination A vrf mgmt community-password C version 2c`.
#[derive(Debug, Default, Serialize)]
pub(super) struct TrapDestination {
    pub(super) vrf: IndexMap<&'static str, TrapVrf>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct TrapVrf {
    pub(super) community_password: IndexMap<String, Version>,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct Version {
    pub(super) version: &'static str,
}

/// `system gnmi-server`: the switch's own gNMI server (Cumulus Linux 5.13 on), dial-in.
#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct GnmiServer {
    pub(super) listening_address: Set,
    pub(super) port: u16,
    pub(super) state: &'static str,
}

/// `interface <name>`.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct Interface {
    /// `swp`, `bond`, `svi`, `loopback`, `eth`.
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) description: Option<String>,
    /// An SVI's VLAN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) vlan: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) link: Option<Link>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) bond: Option<Bond>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) bridge: Option<PortBridge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) ip: Option<Ip>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) lldp: Option<Lldp>,
}

/// `interface <name> link`.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct Link {
    /// `up` or `down`.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) state: Set,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) mtu: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) speed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) fec: Option<String>,
    /// The parent port's breakout mode (`4x`).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) breakout: Set,
}

/// `interface bondN bond`.
#[derive(Debug, Serialize)]
pub(super) struct Bond {
    pub(super) member: Set,
    /// `lacp` (IEEE 802.3ad) or `static` (balance-xor).
    pub(super) mode: &'static str,
}

/// `interface <name> bridge domain br_default ...`.
#[derive(Debug, Serialize)]
pub(super) struct PortBridge {
    pub(super) domain: BTreeMap<String, PortDomain>,
}

/// A port's membership of a bridge domain: an access VLAN, or allowed VLANs with an
/// untagged one (`none`: every frame tagged).
#[derive(Debug, Default, Serialize)]
pub(super) struct PortDomain {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) access: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) untagged: Option<Untagged>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) vlan: Set,
}

/// A trunk's untagged VLAN, or `none`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(super) enum Untagged {
    Vlan(u16),
    None(&'static str),
}

/// `interface <name> ip`.
#[derive(Debug, Default, Serialize)]
pub(super) struct Ip {
    pub(super) address: Set,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) gateway: Set,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) vrf: Option<String>,
}

/// `interface <name> lldp state`, written only where LLDP is off.
#[derive(Debug, Serialize)]
pub(super) struct Lldp {
    pub(super) state: &'static str,
}

/// `bridge domain <name>`.
#[derive(Debug, Serialize)]
pub(super) struct Bridge {
    pub(super) domain: BTreeMap<String, Domain>,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct Domain {
    /// VLAN ids, as keys.
    pub(super) vlan: Set,
}

/// `router`: BGP's global settings and the routing policy.
#[derive(Debug, Default, Serialize)]
pub(super) struct Router {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) bgp: Option<RouterBgp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) policy: Option<Policy>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct RouterBgp {
    pub(super) enable: &'static str,
    pub(super) autonomous_system: u32,
    pub(super) router_id: String,
}

/// `router policy`.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct Policy {
    pub(super) prefix_list: IndexMap<String, PrefixList>,
    pub(super) route_map: IndexMap<String, RouteMap>,
}

#[derive(Debug, Serialize)]
pub(super) struct PrefixList {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    /// Rule number to rule.
    pub(super) rule: IndexMap<String, PrefixRule>,
}

#[derive(Debug, Serialize)]
pub(super) struct PrefixRule {
    #[serde(rename = "match")]
    pub(super) matches: IndexMap<String, PrefixMatch>,
    /// `permit` or `deny`.
    pub(super) action: &'static str,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct PrefixMatch {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) max_prefix_len: Option<u8>,
}

#[derive(Debug, Serialize)]
pub(super) struct RouteMap {
    pub(super) rule: IndexMap<String, RouteMapRule>,
}

#[derive(Debug, Serialize)]
pub(super) struct RouteMapRule {
    #[serde(rename = "match")]
    pub(super) matches: RouteMapMatch,
    pub(super) action: RouteMapAction,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct RouteMapMatch {
    pub(super) ip_prefix_list: String,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct RouteMapAction {
    pub(super) permit: Empty,
}

/// `vrf <name>`: the default VRF's routing.
#[derive(Debug, Default, Serialize)]
pub(super) struct Vrf {
    pub(super) router: VrfRouter,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct VrfRouter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) bgp: Option<VrfBgp>,
    #[serde(rename = "static", skip_serializing_if = "IndexMap::is_empty")]
    pub(super) statics: IndexMap<String, StaticRoute>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct VrfBgp {
    pub(super) enable: &'static str,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) neighbor: IndexMap<String, Neighbor>,
    pub(super) address_family: BgpFamilies,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct BgpFamilies {
    pub(super) ipv4_unicast: BgpUnicast,
}

#[derive(Debug, Serialize)]
pub(super) struct BgpUnicast {
    pub(super) enable: &'static str,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub(super) network: Set,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct Neighbor {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) remote_as: u32,
    pub(super) description: String,
    pub(super) address_family: NeighborFamilies,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct NeighborFamilies {
    pub(super) ipv4_unicast: NeighborUnicast,
}

#[derive(Debug, Serialize)]
pub(super) struct NeighborUnicast {
    pub(super) enable: &'static str,
    pub(super) policy: NeighborPolicy,
}

#[derive(Debug, Serialize)]
pub(super) struct NeighborPolicy {
    pub(super) inbound: RouteMapRef,
    pub(super) outbound: RouteMapRef,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct RouteMapRef {
    pub(super) route_map: String,
}

/// `vrf default router static <prefix>`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(super) struct StaticRoute {
    pub(super) address_family: &'static str,
    pub(super) via: IndexMap<String, Via>,
}

#[derive(Debug, Serialize)]
pub(super) struct Via {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
}

/// `qos roce`.
#[derive(Debug, Serialize)]
pub(super) struct Qos {
    pub(super) roce: Roce,
}

#[derive(Debug, Serialize)]
pub(super) struct Roce {
    pub(super) enable: &'static str,
    pub(super) mode: &'static str,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct Service {
    pub(super) lldp: ServiceLldp,
    /// `service ntp mgmt server A` (5.14 and earlier; 5.15 moved it to `system ntp`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) ntp: BTreeMap<&'static str, Ntp>,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct Ntp {
    pub(super) server: IndexMap<String, Empty>,
}

#[derive(Debug, Default, Serialize)]
pub(super) struct ServiceLldp {
    pub(super) state: &'static str,
}
