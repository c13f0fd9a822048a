//! `show:`: the event itself, defaults and address pools.

use super::addr::{Addr, Controller, Prefix};
use super::macros::spec_struct;
use crate::yaml::decode::{Located, keyword_enum};

spec_struct! {
    /// The event: name, title, venue, defaults and address pools.
    pub struct Show ("show") {
        /// Short name; used in file names and descriptions.
        name: Located<String> = req,
        title: Option<Located<String>> = opt,
        /// Where the show takes place.
        venue: Option<Located<String>> = opt,
        /// For the planner's documents; democ does not read it.
        #[allow(dead_code)]
        dates: Option<String> = opt,
        defaults: Option<Defaults> = opt,
        addressing: Option<Addressing> = opt,
        /// The management network (`addressing.mgmt`) as a routed network, and how the
        /// switches reach the OpenFlow controller.
        management: Option<Management> = opt,
        /// NTP, syslog, SNMP, sFlow and LLDP on every switch.
        services: Option<super::services::Services> = opt,
        /// Spare transceivers and cables in the bill of materials (`bom.csv`), in
        /// percent of what the show uses, rounded up per part and site (default 10).
        spares_percent: Option<Located<f64>> = opt in PERCENT,
    }
}

keyword_enum! {
    /// The RESTCONF northbound of an OpenDaylight controller.
    pub enum Restconf ("RESTCONF flavour") {
        /// RFC 8040 (`/rests/data`): OpenDaylight releases since RFC 8040 (2017).
        Rfc8040 = "rfc8040",
        /// The draft RESTCONF (`/restconf/config`, `/restconf/operational`) of the
        /// releases before it, such as Lithium and Boron.
        Bierman02 = "bierman02",
    }
}

keyword_enum! {
    /// How OpenFlow switches reach their controller.
    pub enum ControllerVia ("controller path") {
        /// Out of band: from the switch's management port, over the management network.
        Mgmt = "mgmt",
        /// In band: over data ports, which must all be legacy-forwarded (not OpenFlow).
        Inband = "inband",
    }
}

spec_struct! {
    /// The out-of-band management network. Switches get their management address from
    /// `addressing.mgmt` and a route to the rest of the management network through
    /// `gateway`; with `controller_via: mgmt` (the default) the OpenFlow controller's
    /// address must be one the management network reaches (inside `addressing.mgmt`, or
    /// beyond the gateway), never a data-plane address.
    pub struct Management ("management") {
        /// Router of the management network, inside `addressing.mgmt`.
        gateway: Option<Located<Addr>> = opt,
        /// Management VRF, on OSes that put the management port in one (EOS).
        vrf: Option<Located<String>> = opt,
        /// `mgmt` (default) or `inband`.
        controller_via: Option<Located<ControllerVia>> = opt,
    }
}

keyword_enum! {
    /// How flows without an explicit path are routed.
    pub enum Routing ("routing policy") { Shortest = "shortest", Widest = "widest" }
}

spec_struct! {
    /// Values that apply wherever the spec does not say otherwise.
    pub struct Defaults ("defaults") {
        /// Host interface MTU: the IP MTU, the largest IP packet (default 9000).
        host_mtu: Option<Located<u32>> = opt in MTU,
        /// Switch port MTU: a layer-2 frame size, Ethernet header, VLAN tags and FCS
        /// included (default: the model's maximum).
        switch_mtu: Option<Located<u32>> = opt in MTU,
        openflow: Option<OpenflowDefaults> = opt,
        /// Required optical margin in dB (default 3).
        optics_margin_db: Option<Located<f64>> = opt in MARGIN_DB,
        /// Utilization above which a link gets a warning, in percent (default 90).
        warn_utilization: Option<Located<f64>> = opt in PERCENT,
        /// Routing for flows without a path (default shortest by latency).
        routing: Option<Located<Routing>> = opt,
        /// TCP congestion control of flows that do not name one (default `cubic`).
        congestion_control: Option<Located<crate::spec::flow::CongestionControl>> = opt,
        /// Access VLAN of DTN ports on non-OpenFlow switches (default 1000).
        dtn_vlan: Option<Located<u16>> = opt in VLAN_ID,
        /// 802.1p priority made lossless for RDMA flows (default 3).
        pfc_priority: Option<Located<u8>> = opt in PFC_PRIORITY,
        /// TLP MaxPayloadSize in bytes used for PCIe efficiency, for every host (default:
        /// the chassis's `pcie_mps`, else the catalog's `pcie_dma.default_mps`, 256).
        pcie_mps: Option<Located<u32>> = opt in PCIE_MPS,
        /// Latency added per switch hop, in microseconds (default 1).
        hop_latency_us: Option<Located<f64>> = opt in HOP_LATENCY_US,
    }
}

spec_struct! {
    /// The OpenFlow controller the switches connect to.
    pub struct OpenflowDefaults ("openflow defaults") {
        /// `ip:port`.
        controller: Located<Controller> = req,
        /// OpenFlow version: "1.0", "1.3" or "1.4".
        version: Option<Located<String>> = opt,
        /// Every OpenFlow switch without its own `port_map` is numbered by democ, with a
        /// warning per switch that the numbers are placeholders (see the switch's
        /// `placeholder_port_map`).
        placeholder_port_map: Option<Located<bool>> = opt,
        /// The controller's RESTCONF northbound, the default of `openflow/odl/push.sh`:
        /// `rfc8040` (default) or `bierman02` (OpenDaylight Lithium, Boron).
        restconf: Option<Located<Restconf>> = opt,
    }
}

spec_struct! {
    /// Address pools. Static addresses elsewhere must fall inside their pool.
    pub struct Addressing ("addressing") {
        /// DTN data interfaces.
        dtn: Option<Located<Prefix>> = opt,
        /// Routed point-to-point links (/31 each).
        p2p: Option<Located<Prefix>> = opt,
        /// Management addresses of switches and hosts.
        mgmt: Option<Located<Prefix>> = opt,
        /// Loopbacks / router ids.
        loopback: Option<Located<Prefix>> = opt,
    }
}
