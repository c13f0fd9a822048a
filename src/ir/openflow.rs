//! OpenFlow: controller, datapath, ports under the controller.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How the switch takes part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    /// Some ports under the controller, the rest normal L2/L3.
    Hybrid,
    /// Every cabled data port under the controller.
    Pure,
    /// PicOS OVS mode: the switch is an Open vSwitch bridge.
    Ovs,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Controller {
    pub(crate) address: String,
    pub(crate) port: u16,
    /// `mgmt`: from the management port, over the management network (the switch's
    /// `management.routes`); `inband`: over legacy-forwarded data ports.
    pub(crate) via: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Openflow {
    pub(crate) mode: Mode,
    /// `1.3`.
    pub(crate) version: String,
    /// The vendor's spelling of the version (`1.3`, `OpenFlow13`).
    pub(crate) version_cli: String,
    pub(crate) instance: u8,
    /// Instance, switch or bridge name (`of-switch-1`, `br0`).
    pub(crate) name: String,
    pub(crate) controller: Controller,
    /// 16 hex digits; absent where the OS derives it itself.
    #[schemars(regex(pattern = r"^[0-9a-f]{16}$"))]
    pub(crate) datapath_id: Option<String>,
    /// Low 48 bits of the datapath id as a MAC (FTOS `dpid-mac-addr`).
    pub(crate) datapath_mac: Option<String>,
    /// Commands the OS needs before OpenFlow works (FTOS CAM carving; needs a reload).
    pub(crate) preconditions: Vec<String>,
    /// Vendor names of the ports under the controller, in port order.
    pub(crate) ports: Vec<String>,
    /// Port-channels under the controller (OVS: `pica8_lag` ports).
    pub(crate) lags: Vec<OfLag>,
    /// OpenFlow port numbers of the ports and port-channels above, in that order.
    pub(crate) port_numbers: Vec<super::rules::OfPort>,
    /// The rules that carry the show's flows across this switch.
    // Left out of the value a config template sees (see `super::rules::outside_templates`).
    #[serde(serialize_with = "super::rules::outside_templates")]
    pub(crate) ruleset: super::rules::Ruleset,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OfLag {
    pub(crate) name: String,
    pub(crate) members: Vec<String>,
    pub(crate) lacp: super::interface::Lacp,
}

impl Openflow {
    /// The OpenFlow number of the port or port-channel named `interface`.
    pub(crate) fn number(&self, interface: &str) -> Option<u32> {
        self.port_numbers
            .iter()
            .find(|p| p.interface == interface)
            .map(|p| p.number)
    }
}
