//! Per DTN: the host settings and the test transfers `hosts/<name>.sh` applies and runs.
//! Commands are lists of words; the template quotes each word for the shell, so no
//! value can become another command.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
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
    /// Kernel modules the settings and the flows' congestion controls need: tune loads
    /// each, and where the kernel has no such module says so and goes on (a transfer
    /// whose congestion control is missing then falls back, `Transfer::congestion`).
    pub(crate) modules: Vec<String>,
    /// BIG TCP on every interface, for a host whose declared kernel has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) big_tcp: Option<BigTcp>,
    pub(crate) sysctl: Vec<Sysctl>,
    /// The CPU frequency governor to set.
    pub(crate) governor: Option<String>,
    /// `ethtool -C` arguments for every interface.
    pub(crate) coalescing: Vec<String>,
    /// The NVMe drives disk flows read and write, numbered across the host's drive
    /// groups in declaration order.
    pub(crate) drives: Vec<Drive>,
    /// The tools the transfers need, with the versions that matter, in words.
    pub(crate) needs: Vec<String>,
    /// When a transfer runs iperf3 with several streams, the iperf3 version that runs
    /// them on threads: the script warns when the installed one is older.
    pub(crate) iperf3_threads: Option<String>,
    /// Length of each test transfer, seconds (`DEMOC_SECONDS` overrides it at run time).
    pub(crate) seconds: u32,
    /// Routes to the flows' peers off this host's subnet, via its `gateway:` switch.
    pub(crate) routes: Vec<super::routing::StaticRoute>,
    /// Static neighbours, sorted by address.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) neighbors: Vec<Neighbor>,
    /// The host's out-of-band management port and address (`mgmt:`), absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) management: Option<HostManagement>,
    /// Lossless RoCE on the NICs, when the host ends an RDMA flow.
    pub(crate) roce: Option<Roce>,
    /// Ports of this host that share a subnet, each answering ARP for its own address
    /// only and replying from its own port (empty when no two ports share one).
    pub(crate) same_subnet: Vec<SourceRoute>,
    /// Servers for the pairs this host receives.
    pub(crate) serve: Vec<Transfer>,
    /// The pairs this host sends.
    pub(crate) send: Vec<Transfer>,
}

/// The management port: the chassis's onboard port, named `mgmt` in the spec (the
/// kernel's name in `IF_mgmt`), addressed on its site's management network, with routes
/// to the other management networks (remote sites', the show floor's) through its router.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HostManagement {
    /// `mgmt`.
    pub(crate) port: String,
    /// `IF_mgmt`.
    pub(crate) var: String,
    /// `192.168.16.100/24`.
    pub(crate) address: String,
    /// The other management subnets, through the site's management router.
    pub(crate) routes: Vec<super::routing::StaticRoute>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
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
    /// `ethtool -G` rx and tx ring entries, on ports fast enough for fasterdata's 100G
    /// checklist (templates/linux/tuning.yaml `rings`).
    pub(crate) rings: Option<u32>,
    /// `ethtool -A rx on tx on`: the switch port facing the NIC honours 802.3x pause
    /// (`flowcontrol receive on`), so the NIC's pause frames slow the switch instead of
    /// losing packets (Intel's ice driver defaults to off).
    pub(crate) pause: bool,
    /// The MAC address `tune` gives the port (locally administered, derived from the show,
    /// host and port names), so its peers can hold it as a static neighbour; only on ports
    /// that need one (`neighbors`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mac: Option<String>,
    /// The other host's port when this one is cabled straight to a host, with no switch
    /// between them (a back-to-back pair): the twin joins the two with one cable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) direct: Option<DirectPeer>,
}

/// The far end of a cable between two hosts.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DirectPeer {
    /// The host at the other end.
    pub(crate) host: String,
    /// Its port (`p0`).
    pub(crate) port: String,
}

/// A static neighbour `tune` sets (`ip neigh replace ... nud permanent`): a flow's peer
/// whose ARP cannot cross the path between them (an OpenFlow switch whose agent cannot
/// match ARP). `forget` removes it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Neighbor {
    /// The peer host.
    pub(crate) peer: String,
    /// The peer's address (no prefix length).
    pub(crate) address: String,
    /// The peer port's MAC (its `mac`).
    pub(crate) mac: String,
    /// This host's port that reaches the peer (the spec's name).
    pub(crate) port: String,
    /// The kernel device in script terms: the port's shell variable (`$IF_p0`) or its bond.
    pub(crate) device: String,
}

/// A Linux bond over a host's members of one port-channel (the switch's LAG).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
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
    /// The bond's MAC where a peer holds it as a static neighbour (see
    /// `HostInterface::mac`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mac: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Sysctl {
    pub(crate) key: String,
    pub(crate) value: String,
}

/// Policy routing for one of several ports on one subnet: traffic from its address
/// leaves by its port (`ip rule add from ADDRESS table TABLE`), so replies are not sent
/// from a sibling port and dropped by the peer's or this host's strict `rp_filter`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SourceRoute {
    /// The port's shell variable (`IF_p0`).
    pub(crate) var: String,
    pub(crate) port: String,
    /// The port's address, without length.
    pub(crate) address: String,
    /// The shared subnet (`10.25.0.0/16`).
    pub(crate) subnet: String,
    /// The routing table holding the port's route.
    pub(crate) table: u32,
}

/// One side of one pair of a flow.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Transfer {
    pub(crate) flow: String,
    /// The host at the other end.
    pub(crate) peer: String,
    /// The command, one word per item, without its length.
    pub(crate) argv: Vec<String>,
    /// The option that takes the test's length in seconds (`-t`, `-D`); the script
    /// appends it with `$secs`. None for a server that runs until stopped.
    pub(crate) duration: Option<String>,
    /// The drives this side reads (sender) or writes (receiver) while the network
    /// transfer runs, for a flow whose source or sink is `nvme`.
    pub(crate) disk: Option<DiskIo>,
    /// For a pair of an NVMe-oF fabric's target and initiator: the transfer is the
    /// fabric's own I/O (then `argv` is empty).
    pub(crate) fabric: Option<FabricIo>,
    /// The TCP congestion control the sender asks for (`-C`), when its flow's is not
    /// the hosts' default: what the plan assumed, and what runs instead where the
    /// kernel lacks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) congestion: Option<Congestion>,
    /// The iperf3 option that sends with MSG_ZEROCOPY (`--zerocopy=z`), on a sender
    /// whose declared kernel has it: the script adds it where the host's iperf3 takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) zerocopy: Option<String>,
    /// Where this side keeps what it measured, in DEMOC_LOG: `<flow>+<source>+<sink>+<this
    /// host>`, to which the script adds `+<start time, UTC>` and the tool's suffix
    /// (`.iperf3.json`, `.ib_write_bw.txt`, `.fio-read.json`). `+` is in no name, so
    /// `democ verify` reads the name back unambiguously.
    pub(crate) result: String,
}

/// A transfer's congestion control and its fallback.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Congestion {
    /// What the flow asks for and the plan predicted with (`htcp`).
    pub(crate) algorithm: String,
    /// What runs where the kernel has no such algorithm: the default `tune` sets.
    pub(crate) fallback: String,
}

/// BIG TCP (`ip link set ... gso_max_size`): GSO and GRO packets above 64 KiB.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BigTcp {
    /// Bytes per GSO/GRO packet.
    pub(crate) size: u32,
    /// The kernel has IPv4 BIG TCP too (`gso_ipv4_max_size`), not only IPv6's.
    pub(crate) ipv4: bool,
    /// The declared kernel, for the script's comment.
    pub(crate) kernel: String,
}

/// A flow that carries an NVMe-oF fabric moves the fabric's bytes: the initiator runs
/// fio against the namespaces it connected (reads when the flow goes from the target,
/// writes when it goes to it), and the kernel's nvmet serves them on the target, so no
/// test tool runs beside the fabric there.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FabricIo {
    /// The fabric's name (`nvme_fabrics:`).
    pub(crate) name: String,
    /// The subsystem's NQN: the initiator finds its namespaces by it.
    pub(crate) nqn: String,
    /// `read` or `write` on the initiator; None on the target, where nvmet serves.
    pub(crate) rw: Option<String>,
    /// The script that sets this side up (`nvmeof/<fabric>/initiator-<host>.sh`, or
    /// the target's), named when it has not run.
    pub(crate) setup: String,
    /// The pair's rate, bytes per second, shared by the namespaces' jobs (fio `--rate`).
    pub(crate) rate_bytes: u64,
    /// fio's report and output, in DEMOC_LOG: the transfer's `result` stem.
    pub(crate) log: String,
    /// fio's options shared by every job (templates/linux/tuning.yaml).
    pub(crate) options: Vec<String>,
    /// `numactl` words pinning fio to the NIC's node.
    pub(crate) pin: Vec<String>,
}

/// One NVMe drive of a host: a folder on it (a mounted file system) holds the test files.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Drive {
    /// The shell variable naming the drive's folder (`DRIVE_1`).
    pub(crate) var: String,
    /// Its default: `/mnt/nvme0` for the first drive.
    pub(crate) default_dir: String,
    /// The catalog drive model.
    pub(crate) model: String,
    /// The NUMA node (socket) the drive hangs off, when the chassis says.
    pub(crate) numa_node: Option<u8>,
}

/// fio on the drives while a transfer runs: direct I/O, one job per drive, each paced at
/// its share of the pair's rate, so the drives carry what the network carries.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DiskIo {
    /// `read` (the sender) or `write` (the receiver).
    pub(crate) rw: String,
    /// The drives' variables (`DRIVE_1`), one fio job each.
    pub(crate) drives: Vec<String>,
    /// Each job's rate cap, bytes per second (fio `--rate`).
    pub(crate) rate_bytes: u64,
    /// The file on each drive (`democ-<flow>-<peer>.dat`).
    pub(crate) file: String,
    /// fio's options shared by every job (templates/linux/tuning.yaml).
    pub(crate) options: Vec<String>,
    /// Seconds added to the test's length: a receiver starts before its sender.
    pub(crate) extra_seconds: u32,
    /// `numactl` words pinning fio to the NIC's node, like the transfer.
    pub(crate) pin: Vec<String>,
}

/// The NIC side of the switches' DSCP scheme (`ir::qos`): trust DSCP, make the class
/// lossless, and mark RDMA-CM connections with the ToS the switches classify.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Roce {
    /// `mlnx_qos --pfc`: 1 on the lossless priority.
    pub(crate) pfc: String,
    /// The ToS byte of RoCE data: DSCP << 2 | ECT(0) (`cma_roce_tos -t`, `ib_write_bw -T`).
    pub(crate) tos: u8,
    pub(crate) dscp: u8,
    /// The switches on this host's RoCE paths that do not keep it lossless, with why
    /// (`lower::lossless`); empty: every hop trusts the DSCP and pauses its class.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) not_lossless: Vec<String>,
}
