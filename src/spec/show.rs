//! `show:`: the event itself, defaults and address pools.

use super::addr::{Addr, Controller, Prefix};
use super::macros::spec_struct;
use crate::yaml::decode::{Sp, keyword_enum};

spec_struct! {
    /// The event: name, title, venue, defaults and address pools.
    pub struct Show ("show") {
        /// Short name; used in file names and descriptions.
        name: Sp<String> = req,
        title: Option<Sp<String>> = opt,
        /// Where the show takes place.
        venue: Option<Sp<String>> = opt,
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
        spares_percent: Option<Sp<f64>> = opt in PERCENT,
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
        gateway: Option<Sp<Addr>> = opt,
        /// Management VRF, on OSes that put the management port in one (EOS).
        vrf: Option<Sp<String>> = opt,
        /// `mgmt` (default) or `inband`.
        controller_via: Option<Sp<ControllerVia>> = opt,
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
        host_mtu: Option<Sp<u32>> = opt in MTU,
        /// Switch port MTU: a layer-2 frame size, Ethernet header, VLAN tags and FCS
        /// included (default: the model's maximum).
        switch_mtu: Option<Sp<u32>> = opt in MTU,
        openflow: Option<OpenflowDefaults> = opt,
        /// Required optical margin in dB (default 3).
        optics_margin_db: Option<Sp<f64>> = opt in MARGIN_DB,
        /// Utilization above which a link gets a warning, in percent (default 90).
        warn_utilization: Option<Sp<f64>> = opt in PERCENT,
        /// Routing for flows without a path (default shortest by latency).
        routing: Option<Sp<Routing>> = opt,
        /// TCP congestion control of flows that do not name one (default `cubic`).
        congestion_control: Option<Sp<crate::spec::flow::CongestionControl>> = opt,
        /// Access VLAN of DTN ports on non-OpenFlow switches (default 1000).
        dtn_vlan: Option<Sp<u16>> = opt in VLAN_ID,
        /// 802.1p priority made lossless for RDMA flows (default 3).
        pfc_priority: Option<Sp<u8>> = opt in PFC_PRIORITY,
        /// TLP MaxPayloadSize in bytes used for PCIe efficiency, for every host (default:
        /// the chassis's `pcie_mps`, else the catalog's `pcie_dma.default_mps`, 256).
        pcie_mps: Option<Sp<u32>> = opt in PCIE_MPS,
        /// Latency added per switch hop, in microseconds (default 1).
        hop_latency_us: Option<Sp<f64>> = opt in HOP_LATENCY_US,
    }
}

spec_struct! {
    /// The OpenFlow controller the switches connect to.
    pub struct OpenflowDefaults ("openflow defaults") {
        /// `ip:port`.
        controller: Sp<Controller> = req,
        /// OpenFlow version: "1.0", "1.3" or "1.4".
        version: Option<Sp<String>> = opt,
        /// Every OpenFlow switch without its own `port_map` is numbered by democ, with a
        /// warning per switch that the numbers are placeholders (see the switch's
        /// `placeholder_port_map`).
        placeholder_port_map: Option<Sp<bool>> = opt,
        /// The controller's RESTCONF northbound, the default of `openflow/odl/push.sh`:
        /// `rfc8040` (default) or `bierman02` (OpenDaylight Lithium, Boron).
        restconf: Option<Sp<Restconf>> = opt,
    }
}

spec_struct! {
    /// Address pools. Static addresses elsewhere must fall inside their pool.
    pub struct Addressing ("addressing") {
        /// DTN data interfaces.
        dtn: Option<Sp<Prefix>> = opt,
        /// Routed point-to-point links (/31 each).
        p2p: Option<Sp<Prefix>> = opt,
        /// Management addresses of switches and hosts.
        mgmt: Option<Sp<Prefix>> = opt,
        /// Loopbacks / router ids.
        loopback: Option<Sp<Prefix>> = opt,
    }
}
