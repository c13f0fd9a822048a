//! An OS's OpenFlow profile (vendor.yaml `openflow.profile`): which of the match fields
//! and actions democ's rules use its agent accepts, by its manual. The compiler lowers
//! within it and the twin refuses a ruleset that steps outside it, by the same table, so
//! the twin fails where the switch would.

use serde::Deserialize;

use super::Support;

/// One entry per ovs-ofctl match field or action democ writes. Every entry is required
/// in vendor.yaml, so each OS states each, with its source beside it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Profile {
    /// `dl_vlan`: match the VLAN id a frame arrives with.
    pub(crate) dl_vlan: Support,
    /// `nw_src`, `nw_dst` with `dl_type=0x0800`.
    pub(crate) nw_addresses: Support,
    /// `arp_spa`, `arp_tpa`: ARP sender and target addresses. Where the agent lacks
    /// them, democ writes no ARP rules and the hosts get static neighbours instead.
    pub(crate) arp_addresses: Support,
    /// A port-channel as one OpenFlow port (`in_port`, `output`).
    pub(crate) lag_ports: Support,
    /// OpenFlow 1.3 `pop_vlan`.
    pub(crate) pop_vlan: Support,
    /// OpenFlow 1.3 `push_vlan` with `set_field` of its VID.
    pub(crate) push_vlan: Support,
    /// OpenFlow 1.3 `set_queue`.
    pub(crate) set_queue: Support,
    /// OpenFlow 1.3 meters (`meter:N`).
    pub(crate) meter: Support,
    /// OpenFlow 1.0 `strip_vlan` (OFPAT_STRIP_VLAN).
    pub(crate) strip_vlan: Support,
    /// OpenFlow 1.0 `mod_vlan_vid` (OFPAT_SET_VLAN_VID; tags an untagged frame).
    pub(crate) mod_vlan_vid: Support,
    /// OpenFlow 1.0 `enqueue:PORT:QUEUE`.
    pub(crate) enqueue: Support,
}

/// A token an OpenFlow version does not have: 1.0 lacks the 1.3 actions and the reverse
/// (OVS would translate them; a hardware agent refuses the flow-mod).
pub(crate) fn in_version(token: &str, version: &str) -> bool {
    let v10 = version == "1.0";
    match token {
        "pop_vlan" | "push_vlan" | "set_field" | "set_queue" | "meter" => !v10,
        "strip_vlan" | "mod_vlan_vid" | "enqueue" => v10,
        // 1.0 has one table and no table id in a flow-mod.
        "table" => !v10,
        _ => true,
    }
}

impl Profile {
    /// What the manual says of one ovs-ofctl match field or action. `normal`: the OS's
    /// NORMAL action (vendor.yaml `openflow.normal`). Anything democ does not write is
    /// not in any profile.
    pub(crate) fn support(&self, token: &str, normal: bool) -> Support {
        match token {
            "cookie" | "table" | "priority" | "in_port" | "dl_type" | "output" | "drop" => {
                Support::Yes
            }
            "dl_vlan" => self.dl_vlan,
            "nw_src" | "nw_dst" => self.nw_addresses,
            "arp_spa" | "arp_tpa" => self.arp_addresses,
            "pop_vlan" => self.pop_vlan,
            "push_vlan" | "set_field" => self.push_vlan,
            "set_queue" => self.set_queue,
            "meter" => self.meter,
            "strip_vlan" => self.strip_vlan,
            "mod_vlan_vid" => self.mod_vlan_vid,
            "enqueue" => self.enqueue,
            "NORMAL" if normal => Support::Yes,
            _ => Support::No,
        }
    }

    /// Whether a rule may carry ARP across this OS's OpenFlow ports.
    pub(crate) fn forwards_arp(&self) -> bool {
        self.arp_addresses != Support::No
    }
}

/// How the agent numbers its OpenFlow ports (vendor.yaml `openflow.port_numbers`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "by")]
pub(crate) enum Numbering {
    /// democ sets each port's number itself (OVS `ofport_request`).
    Requested,
    /// A physical port's number is its front-panel index and port-channel N's is
    /// `lag_base + N`; breakout subports are not covered.
    Documented { lag_base: u32 },
    /// Not documented: the spec gives the switch's own numbers (`openflow.port_map`),
    /// which `command` shows (a phrase for "read them from ...", commands in backticks).
    Switch { command: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_gates_tokens() {
        assert!(!in_version("push_vlan", "1.0"));
        assert!(in_version("mod_vlan_vid", "1.0"));
        assert!(!in_version("strip_vlan", "1.3"));
        assert!(in_version("set_queue", "1.4"));
        assert!(in_version("output", "1.0"));
    }
}
