//! `hosts:`: data-transfer nodes, their chassis, CPUs, NICs and NVMe drives.

use indexmap::IndexMap;

use super::addr::{Addr, Prefix};
use super::macros::spec_struct;
use crate::yaml::decode::{Located, keyword_enum};

spec_struct! {
    /// A data-transfer node. The name may be a range (`sl-dtn-[1-10]`) to declare identical hosts.
    pub struct Host ("host") {
        /// Site the host stands at (a name under `sites:`).
        site: Located<String> = req,
        /// Catalog chassis: sockets and the PCIe slot tree.
        chassis: Located<String> = req,
        /// Catalog CPU model (one per socket).
        cpu: Located<String> = req,
        /// Populated sockets (default: all the chassis has).
        sockets: Option<Located<u8>> = opt,
        /// Installed memory, GB (TCP buffers for long round trips come out of it).
        memory_gb: Option<Located<u32>> = opt in MEMORY_GB,
        /// Host OS, for the planner's documents.
        #[allow(dead_code)]
        os: Option<String> = opt,
        /// Linux kernel release (`"6.8"`, or what `uname -r` prints): host tuning and the
        /// prediction use what it has (BIG TCP from 5.19 for IPv6 and 6.3 for IPv4, the
        /// per-stream gains of 6.8). Unset: neither assumes anything of the kernel.
        kernel: Option<Located<super::kernel::Kernel>> = opt,
        /// Interface IP MTU (what `ip link set mtu` takes); default `show.defaults.host_mtu`.
        mtu: Option<Located<u32>> = opt in MTU,
        /// Management address, out of band.
        mgmt: Option<Located<Addr>> = opt,
        /// Network cards, each in a chassis slot, with the names of the ports used.
        nics: Option<Vec<Located<HostNic>>> = opt,
        /// NVMe drives: add-in cards in slots, or U.2 drives behind a bay group.
        nvme: Option<Vec<Located<HostNvme>>> = opt,
        /// RAID arrays of SATA/SAS disks or SSDs, each behind a RAID controller card in a
        /// slot (flows read or write them with `source: raid` / `sink: raid`).
        raid: Option<Vec<Located<HostRaid>>> = opt,
    }
}

keyword_enum! {
    /// A RAID level.
    pub enum RaidLevel ("RAID level") {
        /// Striping, no redundancy: reads and writes at every member.
        Raid0 = "raid0",
        /// Mirroring: every block on every member.
        Raid1 = "raid1",
        /// Striping with one parity chunk per stripe.
        Raid5 = "raid5",
        /// Striping with two parity chunks per stripe.
        Raid6 = "raid6",
        /// Striped mirrors.
        Raid10 = "raid10",
    }
}

spec_struct! {
    /// One RAID array: a controller card in a slot and its member drives.
    pub struct HostRaid ("RAID array") {
        /// Catalog RAID controller (`raid_controllers:`).
        controller: Located<String> = req,
        /// Chassis slot the controller sits in.
        slot: Located<String> = req,
        /// `raid0`, `raid1`, `raid5`, `raid6` or `raid10`.
        level: Located<RaidLevel> = req,
        /// Catalog disk model of the members (`disks:`).
        disks: Located<String> = req,
        /// Member drives.
        count: Located<u32> = req in DRIVES,
    }
}

spec_struct! {
    /// A network card in a slot.
    pub struct HostNic ("NIC") {
        /// Catalog NIC model.
        model: Located<String> = req,
        /// Chassis slot name.
        slot: Located<String> = req,
        /// Names of the ports used (at most the model's port count), e.g. `[p0, p1]`.
        ports: Vec<Located<String>> = req,
        /// Static addresses per port (`p0: 10.16.1.1/16`); others come from `addressing.dtn`.
        addresses: Option<IndexMap<String, Located<Prefix>>> = opt,
        /// The link as it trains in this host when below the slot's and the card's
        /// (a BIOS setting, a riser): `{ gen: 2 }`, `{ width: 4 }`.
        pcie: Option<Trained> = opt,
    }
}

spec_struct! {
    /// A PCIe link's ceiling in one host: the card negotiates at most this.
    pub struct Trained ("trained PCIe link") {
        generation as "gen": Option<Located<u8>> = opt in PCIE_GEN,
        width: Option<Located<u8>> = opt in PCIE_WIDTH,
    }
}

spec_struct! {
    /// NVMe drives: add-in cards in a slot, or U.2 drives in bays behind a PCIe switch.
    pub struct HostNvme ("NVMe drive group") {
        /// Catalog drive model.
        model: Located<String> = req,
        /// Number of drives (default 1).
        count: Option<Located<u32>> = opt,
        /// Chassis slot (add-in cards; one drive per slot unless the slot is a carrier).
        slot: Option<Located<String>> = opt,
        /// Chassis PCIe switch or drive-bay group the drives hang off.
        behind: Option<Located<String>> = opt,
        /// The drives' serial numbers (`nvme list`, `ls /dev/disk/by-id/nvme-*`), in
        /// order, at most `count`: an NVMe-oF target exports a drive by its serial,
        /// which does not change between boots as `nvme0n1` does.
        serials: Option<Vec<Located<String>>> = opt,
    }
}
