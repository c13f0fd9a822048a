//! Pass 3: what the spec implies but does not say: addresses, the topology graph,
//! flow paths and their latencies.
pub(crate) mod addressing;
pub(crate) mod bgp;
pub(crate) mod islands;
pub(crate) mod lab_mgmt;
pub(crate) mod lag_placement;
pub(crate) mod locked_addresses;
pub(crate) mod mtu;
pub(crate) mod paths;
pub(crate) mod roles;
pub(crate) mod segments;
mod show_model;
pub(crate) mod topology;

pub(crate) use show_model::ShowModel;
