//! Lossless RoCE settings.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Qos {
    /// 802.1p priority made lossless (`show.defaults.pfc_priority`).
    #[schemars(range(max = 7))]
    pub(crate) pfc_priority: u8,
    /// The DSCP RoCE data carries (the hosts mark it): classified into traffic class
    /// `pfc_priority`. RoCE ports are untagged, so 802.1p cannot carry the class.
    #[schemars(range(max = 63))]
    pub(crate) dscp: u8,
    /// The DSCP of congestion notification packets, and the class they go to.
    #[schemars(range(max = 63))]
    pub(crate) cnp_dscp: u8,
    #[schemars(range(max = 7))]
    pub(crate) cnp_class: u8,
    /// DSCP trust generated on this OS.
    pub(crate) dscp_trust: bool,
    /// Per 802.1p priority 0..7: 1 where lossless (FTOS `priority-pgid`).
    pub(crate) lossless_map: Vec<u8>,
    /// Generated on this OS (some OSes lack confirmed syntax; lowering reports them).
    pub(crate) pfc: bool,
    pub(crate) ecn: bool,
    pub(crate) ecn_min_kbytes: u32,
    pub(crate) ecn_max_kbytes: u32,
    /// The egress-queue keyword ECN is configured under, where the OS has one that
    /// depends on the platform (EOS: `uc-tx-queue`, `tx-queue` on Sand); None elsewhere.
    pub(crate) ecn_queue: Option<String>,
    /// The ECN line's `max-mark-probability`, in percent, where the platform requires
    /// one (EOS `tx-queue` on Sand); None elsewhere.
    pub(crate) ecn_max_mark_probability: Option<u8>,
    /// Vendor names of the ports and port-channels RDMA flows cross, sorted as the ports are.
    pub(crate) interfaces: Vec<String>,
}
