//! `middleboxes:` on a link or WAN circuit: equipment inline on the path that democ does
//! not configure (a firewall, an encryptor, an inline IDS), with what it does to traffic.

use super::macros::spec_struct;
use super::units::Rate;
use crate::yaml::decode::{Located, keyword_enum};

keyword_enum! {
    /// What an inline box is.
    pub enum MiddleboxKind ("middlebox kind") {
        Firewall = "firewall", Encryptor = "encryptor", Ids = "ids", Other = "other"
    }
}

spec_struct! {
    /// One box inline on every cable of the link (or the circuit), in both directions.
    pub struct Middlebox ("middlebox") {
        /// The box's name, for findings and the plan (`campus-fw`).
        #[schemars(extend("examples" = ["campus-fw"]))]
        name: Located<String> = req,
        kind: Located<MiddleboxKind> = req,
        /// What it forwards per direction (its datasheet's figure for large packets).
        throughput: Option<Located<Rate>> = opt,
        /// The largest IP packet it passes, before its own encapsulation.
        mtu: Option<Located<u32>> = opt in MTU,
        /// Bytes its encapsulation adds to each packet on the wire (MACsec 32; an IPsec
        /// ESP tunnel some 50 to 80): the link's IP MTU shrinks by as much.
        overhead_bytes: Option<Located<u32>> = opt in OVERHEAD_BYTES,
        /// One-way latency it adds, microseconds.
        latency_us: Option<Located<f64>> = opt in HOP_LATENCY_US,
        /// It keeps per-connection state (default: yes for a firewall or an IDS).
        stateful: Option<Located<bool>> = opt,
    }
}
