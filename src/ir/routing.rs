//! Static routes and BGP.

use schemars::JsonSchema;
use serde::Serialize;

/// `prefix via next_hop`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StaticRoute {
    /// `10.16.0.0/16`
    pub(crate) prefix: String,
    pub(crate) next_hop: String,
}

/// BGP over routed WAN circuits that name a `peer_asn`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Bgp {
    pub(crate) asn: u32,
    pub(crate) router_id: String,
    /// Sorted by address.
    pub(crate) neighbors: Vec<BgpNeighbor>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BgpNeighbor {
    pub(crate) address: String,
    pub(crate) remote_as: u32,
    /// Vendor name of the local interface.
    pub(crate) interface: String,
    /// The WAN connection's name.
    pub(crate) description: String,
}
