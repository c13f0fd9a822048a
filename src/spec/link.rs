//! `links:`: LAN cabling between `node:port` endpoints, and LAGs.

use super::addr::Prefix;
use super::macros::spec_struct;
use super::name::Endpoint;
use super::units::Rate;
use crate::yaml::decode::{Located, keyword_enum};

keyword_enum! {
    /// The cable.
    pub enum Media ("cable media") { Dac = "dac", Aoc = "aoc", Fiber = "fiber" }
}

keyword_enum! {
    /// Layer-2/3 role of a link's switch ports.
    pub enum PortMode ("port mode") { Routed = "routed", Access = "access", Trunk = "trunk" }
}

keyword_enum! {
    /// LACP behaviour of a LAG.
    pub enum Lacp ("LACP mode") { Active = "active", Passive = "passive", Static = "static" }
}

keyword_enum! {
    /// Who puts a LAG's traffic on its members.
    pub enum Placement ("LAG placement") { Hash = "hash", Openflow = "openflow" }
}

spec_struct! {
    /// A cable, or a bundle of cables when the endpoints are ranges (`sw1:1/[1-4]`).
    pub struct Link ("link") {
        a: Located<Endpoint> = req,
        b: Located<Endpoint> = req,
        /// Cable medium: `dac` (passive copper), `aoc` (active optical) or `fiber` (with `optic:`).
        media: Option<Located<Media>> = opt,
        /// Catalog optic at both ends (fiber links).
        optic: Option<Located<String>> = opt,
        /// Optic at the `b` end when it differs from `optic`.
        optic_b: Option<Located<String>> = opt,
        /// Cable length in metres (checked against the medium's reach and the optics' budget).
        length_m: Option<Located<f64>> = opt in LENGTH_M,
        /// Mated connector pairs along the fiber (default 2).
        connectors: Option<Located<u32>> = opt in SPLICES,
        splices: Option<Located<u32>> = opt in SPLICES,
        /// Port speed; default the ports' default speed.
        speed: Option<Located<Rate>> = opt,
        /// Bundle the members into one port-channel.
        lag: Option<Located<Lag>> = opt,
        /// Switch port mode: `access`, `trunk` or `routed` (default: derived from the flows).
        mode: Option<Located<PortMode>> = opt,
        /// Access VLAN (mode access) or native VLAN.
        vlan: Option<Located<u16>> = opt in VLAN_ID,
        /// Trunk VLANs.
        vlans: Option<Vec<Located<u16>>> = opt in VLAN_ID,
        /// Routed link subnet; default a /31 from `addressing.p2p`.
        subnet: Option<Located<Prefix>> = opt,
        /// IP MTU of the link (the largest IP packet); default: what its ports carry.
        mtu: Option<Located<u32>> = opt in MTU,
        /// Boxes inline on each cable that democ does not configure (firewalls,
        /// encryptors, inline IDS): their throughput, MTU, overhead and latency count.
        middleboxes: Option<Vec<Located<super::middlebox::Middlebox>>> = opt,
        description: Option<Located<String>> = opt,
        /// Warning codes acknowledged on this link (`[W0246]`): they become notes,
        /// listed in the plan as acknowledged.
        allow: Option<Vec<Located<String>>> = opt,
    }
}

spec_struct! {
    /// A port-channel over the members of a bundled link.
    pub struct Lag ("lag") {
        /// Port-channel number.
        id: Located<u16> = req in LAG_ID,
        /// Default `active`.
        lacp: Option<Located<Lacp>> = opt,
        /// `hash` (default): a port-channel, whose switches hash streams onto members.
        /// `openflow`: no port-channel; every member is an OpenFlow port of its own at
        /// both ends and democ's rules pin each host pair to one member (both ends must be
        /// switches with every member under the controller; no LACP runs).
        placement: Option<Located<Placement>> = opt,
    }
}
