//! Per declared flow: its pairs, their addresses and the path democ planned for each,
//! with the OpenFlow cookie that marks the flow's rules. What `democ twin test` proves
//! a running network follows (`ir/flows/flows.json`).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Flow {
    pub(crate) name: String,
    /// `tcp`, `udp`, `rdma`.
    pub(crate) protocol: String,
    /// The flow's OpenFlow cookie (`0x` and 16 hex digits): every rule that carries the
    /// flow has a cookie that equals it under `cookie_mask` (the rules' own cookies add
    /// the direction and pair; see each switch's `openflow.ruleset`).
    #[schemars(regex(pattern = r"^0x[0-9a-f]{16}$"))]
    pub(crate) cookie: String,
    /// `ovs-ofctl dump-flows BRIDGE cookie=COOKIE/MASK` lists the flow's rules.
    #[schemars(regex(pattern = r"^0x[0-9a-f]{16}$"))]
    pub(crate) cookie_mask: String,
    /// One per pair, and per reverse pair when the flow is bidirectional.
    pub(crate) pairs: Vec<Pair>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Pair {
    pub(crate) src: String,
    pub(crate) dst: String,
    /// The source port's address (no prefix length); absent when the port has none.
    pub(crate) src_address: Option<String>,
    pub(crate) dst_address: Option<String>,
    /// The smaller of the two hosts' IP MTUs: what a path-MTU probe must get through.
    pub(crate) mtu: u32,
    /// Round-trip time of the planned path, milliseconds.
    pub(crate) rtt_ms: f64,
    /// Switches in order of travel, with the ports the pair enters and leaves by.
    pub(crate) path: Vec<Hop>,
}

// The names are shared by every hop through the same switch and port (a String per
// hop is an allocation and a copy each); they are written, read and described as the
// strings they are.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Hop {
    #[serde(serialize_with = "text", deserialize_with = "shared")]
    #[schemars(with = "String")]
    pub(crate) switch: Arc<str>,
    /// Canonical port (`1/1`), or `lag<id>` for a port-channel.
    #[serde(serialize_with = "text", deserialize_with = "shared")]
    #[schemars(with = "String")]
    pub(crate) in_port: Arc<str>,
    #[serde(serialize_with = "text", deserialize_with = "shared")]
    #[schemars(with = "String")]
    pub(crate) out_port: Arc<str>,
}

fn text<S: Serializer>(v: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v)
}

fn shared<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<str>, D::Error> {
    String::deserialize(d).map(Arc::from)
}
