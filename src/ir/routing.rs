//! Static routes and BGP.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `prefix via next_hop`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct StaticRoute {
    /// `10.16.0.0/16`
    pub(crate) prefix: String,
    pub(crate) next_hop: String,
}

/// BGP over routed WAN circuits that name a `peer_asn`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Bgp {
    pub(crate) asn: u32,
    pub(crate) router_id: String,
    /// Subnets this switch originates (`network` statements): its gateway subnet where
    /// a flow reaches it across BGP. Sorted.
    pub(crate) networks: Vec<super::switch::Ipv4>,
    /// Sorted by address.
    pub(crate) neighbors: Vec<BgpNeighbor>,
}

/// One direction of a session's policy: a prefix list that permits exactly these
/// subnets (and, empty, nothing), applied to the neighbor.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Policy {
    /// The prefix list's (and route map's, where the OS applies one) name.
    pub(crate) name: String,
    /// `10.16.1.0/24`, sorted.
    pub(crate) prefixes: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BgpNeighbor {
    pub(crate) address: String,
    pub(crate) remote_as: u32,
    /// Vendor name of the local interface.
    pub(crate) interface: String,
    /// The WAN connection's name.
    pub(crate) description: String,
    /// What the switch accepts from this neighbor.
    pub(crate) import: Policy,
    /// What the switch advertises to it.
    pub(crate) export: Policy,
}
