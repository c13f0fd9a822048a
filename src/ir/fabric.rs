//! Per NVMe-oF fabric: the target's nvmet configfs tree and each initiator's
//! `nvme discover` / `nvme connect`, printed by `nvmeof/<fabric>/target-<host>.sh` and
//! `nvmeof/<fabric>/initiator-<host>.sh`. Every value is restricted at parse time or
//! computed; the templates quote each for the shell anyway.

use schemars::JsonSchema;
use serde::Serialize;

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Fabric {
    pub(crate) name: String,
    /// `rdma` or `tcp` (nvmet `addr_trtype`, nvme-cli `-t`).
    pub(crate) transport: String,
    /// The subsystem's NQN.
    pub(crate) nqn: String,
    pub(crate) target: Target,
    pub(crate) initiators: Vec<Initiator>,
    /// RoCE fabrics: both ends need the hosts' lossless settings (`hosts/<name>.sh tune`:
    /// DSCP trust, PFC, RDMA-CM ToS), which the scripts name.
    pub(crate) roce: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Target {
    pub(crate) host: String,
    pub(crate) script_file: String,
    pub(crate) template: String,
    /// Kernel modules: nvmet and its transport.
    pub(crate) modules: Vec<String>,
    /// The nvmet port's number under `ports/` (unique per fabric in the show).
    pub(crate) port_id: u16,
    /// `ipv4`.
    pub(crate) adrfam: String,
    /// The address initiators connect to (the target port's, no prefix length).
    pub(crate) address: Option<String>,
    /// Transport service id (TCP/RDMA-CM port).
    pub(crate) trsvcid: u16,
    /// One namespace per exported drive.
    pub(crate) namespaces: Vec<Namespace>,
    /// Host NQNs allowed to connect: the initiators'.
    pub(crate) allowed_hosts: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Namespace {
    pub(crate) nsid: u32,
    /// The shell variable naming its block device (`NS_1`).
    pub(crate) var: String,
    /// The drive's serial when the spec gives it: the script exports the drive whose
    /// `/dev/disk/by-id/nvme-*_SERIAL` name ends with it. Without one the script takes
    /// the next unused drive in the order of those stable names, never `nvme<n>n1`,
    /// whose number the kernel assigns at boot.
    pub(crate) serial: Option<String>,
    /// The catalog drive model.
    pub(crate) model: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Initiator {
    pub(crate) host: String,
    pub(crate) script_file: String,
    pub(crate) template: String,
    /// Kernel module of the transport's host side.
    pub(crate) modules: Vec<String>,
    /// The host NQN it connects with (the target's allow list holds it).
    pub(crate) hostnqn: String,
    /// nvme-cli `-i`: one I/O queue per core of the NIC's socket.
    pub(crate) nr_io_queues: u32,
    /// nvme-cli `-Q`: enough outstanding I/O per queue to fill the path's
    /// bandwidth-delay product, within the transport's bounds.
    pub(crate) queue_size: u32,
    /// NUMA node of the NIC the fabric uses, when the chassis says.
    pub(crate) numa_node: Option<u8>,
    /// Why these queue figures, in words (printed in the script).
    pub(crate) queues_why: String,
}
