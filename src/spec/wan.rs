//! `wan:`: dark fiber, OTN and provisioned circuits between sites.

use super::macros::spec_struct;
use super::name::Endpoint;
use super::units::Rate;
use crate::yaml::decode::{Located, keyword_enum};

keyword_enum! {
    /// What carries a WAN connection.
    pub enum WanKind ("WAN kind") {
        /// Unlit fiber driven by pluggable optics at both ends.
        DarkFiber = "dark-fiber",
        /// Client ports mapped into OTN (OTU2e/OTU3/OTU4/OTUCn) by a transponder.
        Otn = "otn",
        /// A provisioned circuit (NSI/OSCARS/OESS) with a capacity, VLAN and RTT.
        Circuit = "circuit",
    }
}

keyword_enum! {
    /// Fiber type.
    pub enum Fiber ("fiber type") { Smf = "smf", Mmf = "mmf" }
}

keyword_enum! {
    /// How a circuit is provisioned.
    pub enum Provisioning ("provisioning system") { Nsi = "nsi", Oscars = "oscars", Oess = "oess", Static = "static" }
}

spec_struct! {
    /// One WAN connection. Endpoints may be port ranges for bundles of clients.
    pub struct Wan ("WAN link") {
        name: Located<String> = req,
        kind: Located<WanKind> = req,
        a: Located<Endpoint> = req,
        b: Located<Endpoint> = req,
        /// OTN client signal per port: 10GE, 40GE, 100GE or 400GE (the catalog's `otn` signals).
        client: Option<Located<String>> = opt,
        /// Catalog optic (dark fiber: at both ends of the span; OTN: in the switch ports
        /// facing the transponder, at both ends).
        optic: Option<Located<String>> = opt,
        /// OTN: the client run at the `a` end, from the switch port to the transponder's
        /// client port (its optics, length and fiber): its power budget is checked and
        /// its optics and patch cord go into the cabling plan and the bill of materials.
        client_a: Option<Located<ClientRun>> = opt,
        /// OTN: the client run at the `b` end.
        client_b: Option<Located<ClientRun>> = opt,
        length_km: Option<Located<f64>> = opt in LENGTH_KM,
        fiber: Option<Located<Fiber>> = opt,
        splices: Option<Located<u32>> = opt in SPLICES,
        connectors: Option<Located<u32>> = opt in SPLICES,
        /// Circuit capacity.
        capacity: Option<Located<Rate>> = opt,
        vlan: Option<Located<u16>> = opt in VLAN_ID,
        /// Round-trip time of the circuit, as provisioned or measured.
        rtt_ms: Option<Located<f64>> = opt in RTT_MS,
        /// Packet loss rate of the connection, a fraction (1e-5: one packet in 100,000),
        /// as measured (perfSONAR) or as the provider states it. Loss-based TCP slows
        /// down on it (the Mathis bound).
        loss: Option<Located<f64>> = opt in LOSS,
        /// IP MTU the WAN carries (the largest IP packet, as providers quote it: 9000 for
        /// R&E jumbo circuits); switch ports get frames large enough for it.
        mtu: Option<Located<u32>> = opt in MTU,
        /// Boxes inline on the circuit that democ does not configure (encryptors,
        /// firewalls): their throughput, MTU, overhead and latency count.
        middleboxes: Option<Vec<Located<super::middlebox::Middlebox>>> = opt,
        provisioning: Option<Located<Provisioning>> = opt,
        /// Peer autonomous system for BGP over this connection.
        peer_asn: Option<Located<u64>> = opt in ASN,
        description: Option<Located<String>> = opt,
    }
}

spec_struct! {
    /// The client side of one end of an OTN link: the fiber between the switch port and
    /// the client port of the transponder (or muxponder) that maps it into OTN.
    pub struct ClientRun ("OTN client run") {
        /// Catalog optic in the switch port (default: the WAN link's `optic:`).
        #[schemars(extend("examples" = ["100gbase-lr4"]))]
        optic: Option<Located<String>> = opt,
        /// Catalog optic in the transponder's client port (default: the same as `optic`).
        transponder_optic: Option<Located<String>> = opt,
        /// Length of the run in metres.
        length_m: Located<f64> = req in LENGTH_M,
        /// Fiber type of the run (default: the optics'); checked against the optics.
        fiber: Option<Located<Fiber>> = opt,
        /// Mated connector pairs along the run (default 2).
        connectors: Option<Located<u32>> = opt in SPLICES,
        splices: Option<Located<u32>> = opt in SPLICES,
    }
}
