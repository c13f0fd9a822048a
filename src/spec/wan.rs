//! `wan:`: dark fiber, OTN and provisioned circuits between sites.

use super::macros::spec_struct;
use super::name::Endpoint;
use super::units::Rate;
use crate::yaml::decode::{Sp, keyword_enum};

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
        name: Sp<String> = req,
        kind: Sp<WanKind> = req,
        a: Sp<Endpoint> = req,
        b: Sp<Endpoint> = req,
        /// OTN client signal per port: 10GE, 40GE, 100GE.
        client: Option<Sp<String>> = opt,
        /// Catalog optic (dark fiber).
        optic: Option<Sp<String>> = opt,
        length_km: Option<Sp<f64>> = opt in LENGTH_KM,
        fiber: Option<Sp<Fiber>> = opt,
        splices: Option<Sp<u32>> = opt in SPLICES,
        connectors: Option<Sp<u32>> = opt in SPLICES,
        /// Circuit capacity.
        capacity: Option<Sp<Rate>> = opt,
        vlan: Option<Sp<u16>> = opt in VLAN_ID,
        /// Round-trip time of the circuit, as provisioned or measured.
        rtt_ms: Option<Sp<f64>> = opt in RTT_MS,
        /// Packet loss rate of the connection, a fraction (1e-5: one packet in 100,000),
        /// as measured (perfSONAR) or as the provider states it. Loss-based TCP slows
        /// down on it (the Mathis bound).
        loss: Option<Sp<f64>> = opt in LOSS,
        /// IP MTU the WAN carries (the largest IP packet, as providers quote it: 9000 for
        /// R&E jumbo circuits); switch ports get frames large enough for it.
        mtu: Option<Sp<u32>> = opt in MTU,
        /// Boxes inline on the circuit that democ does not configure (encryptors,
        /// firewalls): their throughput, MTU, overhead and latency count.
        middleboxes: Option<Vec<Sp<super::middlebox::Middlebox>>> = opt,
        provisioning: Option<Sp<Provisioning>> = opt,
        /// Peer autonomous system for BGP over this connection.
        peer_asn: Option<Sp<u64>> = opt in ASN,
        description: Option<Sp<String>> = opt,
    }
}
