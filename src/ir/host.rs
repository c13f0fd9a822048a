//! Per DTN: the host settings and the test transfers `hosts/<name>.sh` applies and runs.
//! Commands are lists of words; the template quotes each word for the shell, so no
//! value can become another command.

use schemars::JsonSchema;
use serde::Serialize;

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Host {
    pub(crate) name: String,
    /// `hosts/<name>.sh`.
    pub(crate) script_file: String,
    /// The template that prints it (`linux/dtn.sh.j2`).
    pub(crate) template: String,
    /// Cabled ports, in port order.
    pub(crate) interfaces: Vec<HostInterface>,
    /// Linux bonds over the ports that are members of one port-channel, in id order.
    pub(crate) bonds: Vec<Bond>,
    /// Kernel modules the settings need.
    pub(crate) modules: Vec<String>,
    pub(crate) sysctl: Vec<Sysctl>,
    /// The CPU frequency governor to set.
    pub(crate) governor: Option<String>,
    /// `ethtool -C` arguments for every interface.
    pub(crate) coalescing: Vec<String>,
    /// Routes to the flows' peers off this host's subnet, via its `gateway:` switch.
    pub(crate) routes: Vec<super::routing::StaticRoute>,
    /// Lossless RoCE on the NICs, when the host ends an RDMA flow.
    pub(crate) roce: Option<Roce>,
    /// Servers for the pairs this host receives.
    pub(crate) serve: Vec<Transfer>,
    /// The pairs this host sends.
    pub(crate) send: Vec<Transfer>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HostInterface {
    /// The port's name in the spec (`p0`).
    pub(crate) port: String,
    /// The shell variable holding the kernel's name for it (`IF_p0`; the port name when
    /// unset), because the spec names ports, not kernel interfaces.
    pub(crate) var: String,
    /// IP MTU.
    pub(crate) mtu: u32,
    /// `10.0.0.1/24`, when the port has an address.
    pub(crate) address: Option<String>,
    /// The NUMA node (socket) of the NIC's slot, when the chassis says.
    pub(crate) numa_node: Option<u8>,
    /// The NIC model.
    pub(crate) nic: String,
    /// The port-channel the port is a member of: the port joins that bond (`bonds`),
    /// which holds the address.
    pub(crate) lag: Option<u16>,
}

/// A Linux bond over a host's members of one port-channel (the switch's LAG).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Bond {
    /// `bond<id>`.
    pub(crate) name: String,
    /// The port-channel id on the switch side.
    pub(crate) lag: u16,
    /// `802.3ad` where the switch runs LACP, `balance-xor` for a static channel.
    pub(crate) mode: String,
    /// LACP: `active` or `passive` (the switch side's); None for a static channel.
    pub(crate) lacp: Option<String>,
    /// The members' shell variables (`IF_p0`), in the LAG's member order.
    pub(crate) members: Vec<String>,
    /// The members' port names.
    pub(crate) ports: Vec<String>,
    /// IP MTU.
    pub(crate) mtu: u32,
    /// The address the flows use: the first member's.
    pub(crate) address: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Sysctl {
    pub(crate) key: String,
    pub(crate) value: String,
}

/// One side of one pair of a flow.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Transfer {
    pub(crate) flow: String,
    /// The host at the other end.
    pub(crate) peer: String,
    /// The command, one word per item.
    pub(crate) argv: Vec<String>,
    /// What the command does not do (disk flows run memory to memory here).
    pub(crate) note: Option<String>,
}

/// The NIC side of the switches' DSCP scheme (`ir::qos`): trust DSCP, make the class
/// lossless, and mark RDMA-CM connections with the ToS the switches classify.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Roce {
    /// `mlnx_qos --pfc`: 1 on the lossless priority.
    pub(crate) pfc: String,
    /// The ToS byte of RoCE data: DSCP << 2 | ECT(0) (`cma_roce_tos -t`, `ib_write_bw -T`).
    pub(crate) tos: u8,
    pub(crate) dscp: u8,
}
