//! `hosts:`: data-transfer nodes, their chassis, CPUs, NICs and NVMe drives.

use indexmap::IndexMap;

use super::addr::{Addr, Prefix};
use super::macros::spec_struct;
use crate::yaml::decode::{Sp, keyword_enum};

spec_struct! {
    /// A data-transfer node. The name may be a range (`sl-dtn-[1-10]`) to declare identical hosts.
    pub struct Host ("host") {
        /// Site the host stands at (a name under `sites:`).
        site: Sp<String> = req,
        /// Catalog chassis: sockets and the PCIe slot tree.
        chassis: Sp<String> = req,
        /// Catalog CPU model (one per socket).
        cpu: Sp<String> = req,
        /// Populated sockets (default: all the chassis has).
        sockets: Option<Sp<u8>> = opt,
        /// Installed memory, GB (TCP buffers for long round trips come out of it).
        memory_gb: Option<Sp<u32>> = opt in MEMORY_GB,
        /// Host OS, for the planner's documents.
        #[allow(dead_code)]
        os: Option<String> = opt,
        /// Linux kernel release (`"6.8"`, or what `uname -r` prints): host tuning and the
        /// prediction use what it has (BIG TCP from 5.19 for IPv6 and 6.3 for IPv4, the
        /// per-stream gains of 6.8). Unset: neither assumes anything of the kernel.
        kernel: Option<Sp<super::kernel::Kernel>> = opt,
        /// Interface IP MTU (what `ip link set mtu` takes); default `show.defaults.host_mtu`.
        mtu: Option<Sp<u32>> = opt in MTU,
        /// Management address, out of band.
        mgmt: Option<Sp<Addr>> = opt,
        /// Network cards, each in a chassis slot, with the names of the ports used.
        nics: Option<Vec<Sp<HostNic>>> = opt,
        /// NVMe drives: add-in cards in slots, or U.2 drives behind a bay group.
        nvme: Option<Vec<Sp<HostNvme>>> = opt,
        /// RAID arrays of SATA/SAS disks or SSDs, each behind a RAID controller card in a
        /// slot (flows read or write them with `source: raid` / `sink: raid`).
        raid: Option<Vec<Sp<HostRaid>>> = opt,
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
        controller: Sp<String> = req,
        /// Chassis slot the controller sits in.
        slot: Sp<String> = req,
        /// `raid0`, `raid1`, `raid5`, `raid6` or `raid10`.
        level: Sp<RaidLevel> = req,
        /// Catalog disk model of the members (`disks:`).
        disks: Sp<String> = req,
        /// Member drives.
        count: Sp<u32> = req in DRIVES,
    }
}

spec_struct! {
    /// A network card in a slot.
    pub struct HostNic ("NIC") {
        /// Catalog NIC model.
        model: Sp<String> = req,
        /// Chassis slot name.
        slot: Sp<String> = req,
        /// Names of the ports used (at most the model's port count), e.g. `[p0, p1]`.
        ports: Vec<Sp<String>> = req,
        /// Static addresses per port (`p0: 10.16.1.1/16`); others come from `addressing.dtn`.
        addresses: Option<IndexMap<String, Sp<Prefix>>> = opt,
        /// The link as it trains in this host when below the slot's and the card's
        /// (a BIOS setting, a riser): `{ gen: 2 }`, `{ width: 4 }`.
        pcie: Option<Trained> = opt,
    }
}

spec_struct! {
    /// A PCIe link's ceiling in one host: the card negotiates at most this.
    pub struct Trained ("trained PCIe link") {
        generation as "gen": Option<Sp<u8>> = opt in PCIE_GEN,
        width: Option<Sp<u8>> = opt in PCIE_WIDTH,
    }
}

spec_struct! {
    /// NVMe drives: add-in cards in a slot, or U.2 drives in bays behind a PCIe switch.
    pub struct HostNvme ("NVMe drive group") {
        /// Catalog drive model.
        model: Sp<String> = req,
        /// Number of drives (default 1).
        count: Option<Sp<u32>> = opt,
        /// Chassis slot (add-in cards; one drive per slot unless the slot is a carrier).
        slot: Option<Sp<String>> = opt,
        /// Chassis PCIe switch or drive-bay group the drives hang off.
        behind: Option<Sp<String>> = opt,
        /// The drives' serial numbers (`nvme list`, `ls /dev/disk/by-id/nvme-*`), in
        /// order, at most `count`: an NVMe-oF target exports a drive by its serial,
        /// which does not change between boots as `nvme0n1` does.
        serials: Option<Vec<Sp<String>>> = opt,
    }
}
