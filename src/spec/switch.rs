//! `switches:`: each switch by catalog model, OS flavour and per-port overrides.

use indexmap::IndexMap;

use super::addr::{Addr, Controller, Prefix};
use super::macros::spec_struct;
use super::units::Rate;
use crate::yaml::decode::{Located, keyword_enum};

keyword_enum! {
    /// The network OS a switch runs.
    pub enum Os ("switch OS") {
        Ftos9 = "ftos9", Os10 = "os10", Eos = "eos", Picos = "picos", Onyx = "onyx", Sonic = "sonic",
        Cumulus = "cumulus",
        /// No switch OS: a P4 or FPGA board, a packet broker, any device that forwards
        /// between its own ports by a program democ does not write. democ writes no
        /// config for it (as for `external: true`); its `throughput:` caps its links.
        None = "none"
    }
}

keyword_enum! {
    /// How a switch takes part in OpenFlow.
    pub enum OfMode ("OpenFlow mode") {
        /// No OpenFlow: ordinary L2/L3.
        Off = "off",
        /// Some ports (or VLANs) under the controller, the rest normal L2/L3.
        Hybrid = "hybrid",
        /// Every data port under the controller.
        Pure = "pure",
        /// PicOS OVS mode: the switch is an Open vSwitch bridge.
        Ovs = "ovs",
    }
}

keyword_enum! {
    /// Forward error correction on a port.
    pub enum Fec ("FEC mode") { Rs = "rs", Fc = "fc", None = "none", Auto = "auto" }
}

spec_struct! {
    /// A switch on the show floor or at a remote site.
    pub struct Switch ("switch") {
        /// Site the switch stands at (a name under `sites:`).
        site: Located<String> = req,
        /// Catalog model, for example `dell-z9100-on`.
        model: Located<String> = req,
        /// OS flavour; default the model's first.
        os: Option<Located<Os>> = opt,
        /// Management address (inside `addressing.mgmt` when that pool is set).
        mgmt: Option<Located<Addr>> = opt,
        /// BGP autonomous system number, for WAN peering.
        asn: Option<Located<u64>> = opt in ASN,
        /// Router id / loopback address.
        router_id: Option<Located<Addr>> = opt,
        /// The switch routes for the hosts cabled to it: it holds this address on the
        /// VLAN interface of their access VLAN, their addresses come from this subnet
        /// (not `addressing.dtn`, which it must not overlap), they reach other subnets
        /// through it, and BGP originates the subnet where flows need it
        /// (`10.16.1.1/24`).
        gateway: Option<Located<Prefix>> = opt,
        openflow: Option<SwitchOpenflow> = opt,
        /// Per-port overrides, keyed by the catalog port name (`1/17`).
        ports: Option<IndexMap<String, Located<PortOverride>>> = opt,
        description: Option<Located<String>> = opt,
        /// Equipment owned by others (the convention's core, a carrier's router, a
        /// partner's chassis): modelled for feasibility (ports, speeds, LAGs, MTU,
        /// routing) and emulated in the twin, but democ writes and pushes no config for it.
        external: Option<Located<bool>> = opt,
        /// What the device forwards per port and direction (a P4/FPGA pipeline's rate,
        /// below its ports' line rate): every link at its ports carries at most this.
        throughput: Option<Located<Rate>> = opt,
        /// Warning codes acknowledged on this switch (`[W0236]`): they become notes,
        /// listed in the plan as acknowledged.
        allow: Option<Vec<Located<String>>> = opt,
    }
}

spec_struct! {
    /// OpenFlow settings of one switch.
    pub struct SwitchOpenflow ("switch openflow") {
        /// `pure` (every cabled port under the controller), `hybrid` (the ports in `ports:`), `ovs` (PicOS Open vSwitch mode) or `off`.
        mode: Located<OfMode> = req,
        /// Instance number on multi-instance OSes (FTOS: 1..8).
        instance: Option<Located<u8>> = opt,
        /// Overrides `show.defaults.openflow.controller`.
        controller: Option<Located<Controller>> = opt,
        /// Overrides `show.defaults.openflow.version`.
        version: Option<Located<String>> = opt,
        /// Datapath id, 16 hex digits; derived from the switch's position when absent.
        dpid: Option<Located<String>> = opt,
        /// Hybrid mode: the ports under the controller (`1/1`, `1/[21-30]`; a breakout
        /// parent covers its subports); every other port is legacy (VLAN-aware L2/L3).
        /// Absent: the cabled ports whose link has no L2/L3 mode, address, circuit VLAN
        /// or LAG. Pure and OVS modes put every cabled port under the controller.
        ports: Option<Vec<Located<String>>> = opt,
        /// The switch's own OpenFlow port numbers, as it reports them (`show openflow
        /// ports` on EOS; a missing map's error names the command for each OS), by port
        /// (`1/13`, `1/49:2`) or port-channel (`port-channel 10`): `{ "1/13": 49 }`.
        /// Needed where the OS's numbering is not documented.
        port_map: Option<IndexMap<String, Located<u32>>> = opt,
        /// Until the switch's own numbers are known, democ numbers the ports not in
        /// `port_map` itself; the build warns that they are placeholders. Also
        /// `show.defaults.openflow.placeholder_port_map` for every switch.
        placeholder_port_map: Option<Located<bool>> = opt,
    }
}

spec_struct! {
    /// What a port does differently from its model's default.
    pub struct PortOverride ("port override") {
        /// Split the port: `4x25G`, `4x10G`, `2x50G`.
        breakout: Option<Located<String>> = opt,
        speed: Option<Located<Rate>> = opt,
        /// Forward error correction: `rs` (Reed-Solomon), `fc` (Fire code), `none` or `auto`.
        fec: Option<Located<Fec>> = opt,
        /// Port MTU: a layer-2 frame size, Ethernet header, VLAN tags and FCS included.
        mtu: Option<Located<u32>> = opt in MTU,
        description: Option<Located<String>> = opt,
        /// Administratively down.
        shutdown: Option<Located<bool>> = opt,
    }
}
