//! The hardware catalog's data format. The figures live in YAML files under
//! `catalog/` (embedded in the binary) and may be extended by the spec's `catalog:`
//! section or `--catalog DIR`. Every entry names its source.

// Entries carry every published figure and its source for the planner who reads the
// data; the checks read the figures they need, not all of them.
#![allow(dead_code)]

use super::macros::spec_struct;
use crate::spec::name::PortPattern;
use crate::spec::switch::Os;
use crate::spec::units::Rate;
use crate::spec::wan::Fiber;
use crate::yaml::decode::{Located, Named, keyword_enum};

keyword_enum! {
    /// How far a figure can be trusted: confirmed in a source, derived by arithmetic,
    /// or an unconfirmed common value.
    pub enum Confidence ("confidence") { Confirmed = "confirmed", Derived = "derived", Unconfirmed = "unconfirmed" }
}

spec_struct! {
    /// A catalog document; every section is optional.
    pub struct CatalogFile ("catalog") {
        switches: Option<Named<SwitchModel>> = opt,
        /// NIC models by name.
        nics: Option<Named<NicModel>> = opt,
        /// CPU models by name.
        cpus: Option<Named<CpuModel>> = opt,
        /// Server chassis by name, with their PCIe slot trees.
        chassis: Option<Named<ChassisModel>> = opt,
        /// NVMe drive models by name.
        drives: Option<Named<DriveModel>> = opt,
        /// SATA and SAS disks and SSDs by name (the members of RAID arrays).
        disks: Option<Named<DiskModel>> = opt,
        /// RAID controllers by name (a card in a PCIe slot, disks behind it).
        raid_controllers: Option<Named<RaidControllerModel>> = opt,
        /// Pluggable optics by name.
        optics: Option<Named<OpticModel>> = opt,
        /// Cable media (`dac`, `aoc`) and their reach per speed.
        cables: Option<Named<CableModel>> = opt,
        pcie: Option<Named<PcieGen>> = opt,
        /// PCIe switch chips by name.
        pcie_switches: Option<Named<PcieSwitchChip>> = opt,
        /// OTN line signals by name.
        otn: Option<Named<OtnSignal>> = opt,
        physics: Option<Physics> = opt,
        pcie_dma: Option<PcieDma> = opt,
    }
}

spec_struct! {
    /// A switch model.
    pub struct SwitchModel ("switch model") {
        vendor: Located<String> = req,
        title: String = req,
        /// OS flavours the model runs; the first is the default.
        os: Vec<Located<Os>> = req,
        /// OSes in `os` that no source confirms on this model: its config is a planning
        /// artefact to translate (listed in W0305).
        os_unconfirmed: Option<Vec<Os>> = opt,
        /// Port groups: names, cage, speeds, breakout modes.
        ports: Vec<Located<PortGroup>> = req,
        /// Largest L2 frame the ports accept, bytes.
        max_mtu: Located<u32> = req,
        /// Switching-silicon family where the OS's syntax depends on it (`sand` for
        /// Arista's Jericho-based 7280R, `trident`, `tomahawk`, `spectrum`,
        /// `switchx`); templates/<vendor>/vendor.yaml's `platforms:` says what differs.
        platform: Option<String> = opt,
        openflow: Option<OpenflowCaps> = opt,
        /// Store-and-forward / cut-through latency per hop, microseconds.
        latency_us: Option<f64> = opt in MAGNITUDE,
        /// Shared packet buffer, MB.
        buffer_mb: Option<f64> = opt in MAGNITUDE,
        /// The header fields the model hashes a LAG's traffic on by default (absent:
        /// `l3-l4` assumed, every stream on its own).
        lag_hash: Option<LagHash> = opt,
        /// The SONiC platform and HWSKU whose published port map gives the ports'
        /// `PORT.lanes` (absent: lanes assumed contiguous, listed in W0305).
        sonic: Option<SonicPlatform> = opt,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// Where SONiC's port map of a model comes from: the platform folder and HWSKU of
    /// sonic-buildimage's `device/<vendor>/<platform>/` (platform.json, port_config.ini).
    pub struct SonicPlatform ("SONiC platform") {
        /// `x86_64-nvidia_sn5600-r0`: DEVICE_METADATA's `platform`.
        platform: String = req,
        /// DEVICE_METADATA's `hwsku`.
        hwsku: String = req,
        /// Port `1/N` (a group's N-th port) is `Ethernet<first lane>`, its lanes the cage's
        /// lane count from `(N - 1) * lanes`, subports by their share: `confirmed` where
        /// the cited platform.json says so for every port.
        lanes: Confidence = req,
        source: String = req,
    }
}

keyword_enum! {
    /// What a switch hashes onto LAG members: `l3-l4` the IP addresses and the TCP/UDP
    /// ports (each stream on its own), `l3` the IP addresses only (every stream of a host
    /// pair on one member).
    pub enum HashFields ("LAG hash fields") { L3L4 = "l3-l4", L3 = "l3" }
}

spec_struct! {
    /// A switch model's default LAG hash, with where it is documented.
    pub struct LagHash ("LAG hash") {
        /// `l3-l4` (IP addresses and TCP/UDP ports) or `l3` (IP addresses only).
        fields: Located<HashFields> = req,
        /// The manual or page that states the default; `[U]` when none was found.
        source: String = req,
    }
}

spec_struct! {
    /// Ports of one kind on a switch: names (a range), speeds and breakout modes.
    pub struct PortGroup ("port group") {
        /// `1/[1-32]`: the canonical port names.
        names: Located<PortPattern> = req,
        /// Cage: qsfp28, qsfp+, sfp28, sfp+, rj45.
        form: String = req,
        /// Speeds without breakout; the first is the default.
        speeds: Vec<Located<Rate>> = req,
        /// Breakout modes `NxSPEED` (subports `port:1`..`port:N`).
        breakout: Option<Vec<Located<String>>> = opt,
        /// Electrical lanes of the cage and the fastest lane rate behind them (a
        /// 400G QSFP-DD on 50G PAM4 SerDes: 8 lanes of 50G); a subport of an N-way
        /// breakout has 1/N of the lanes. Absent: the copper lane check is off.
        electrical: Option<Electrical> = opt,
        /// The OS's own numbering where it is not the canonical `1/N` (FTOS 9 on the
        /// S4810 and Z9000 counts from stack unit 0).
        numbering: Option<Numbering> = opt,
    }
}

spec_struct! {
    /// How an OS numbers a port group: port `first + (N - group start) * step` of stack
    /// unit `unit`; breakout subports take the numbers after their parent's (FTOS
    /// `fortyGigE 0/48` in quad mode is `TenGigabitEthernet 0/48`..`0/51`).
    pub struct Numbering ("port numbering") {
        /// Stack unit the OS numbers the group in.
        unit: u32 = req,
        /// OS number of the group's first port.
        first: u32 = req,
        /// Step between consecutive ports' OS numbers.
        step: u32 = req,
    }
}

spec_struct! {
    /// OpenFlow support of a switch model.
    pub struct OpenflowCaps ("OpenFlow capabilities") {
        /// OpenFlow versions (`1.0`, `1.3`).
        versions: Vec<String> = req,
        /// Independent OpenFlow instances (0 = unlimited).
        instances: u32 = req,
        /// Flow-table entries available to OpenFlow.
        table_size: u32 = req,
        /// OS flavours that implement OpenFlow on this model (default all).
        os: Option<Vec<Os>> = opt,
        /// Meters the model's OpenFlow 1.3 meter table holds (absent: no meters).
        meters: Option<u32> = opt,
        /// How the model numbers its OpenFlow ports (absent: `step` the widest breakout,
        /// `lag_base` 1000).
        port_numbers: Option<OfPortNumbers> = opt,
        /// Whether a source confirms the OpenFlow agent on this model at all (`unconfirmed`:
        /// the OS documents OpenFlow without naming the platform); listed in W0305.
        agent: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// The model's port -> OpenFlow port map.
    pub struct OfPortNumbers ("OpenFlow port numbers") {
        /// Port `1/N` is OpenFlow port `(N - 1) * step + 1`; breakout subport `1/N:k`
        /// is `(N - 1) * step + k`, so `step` is at least the widest breakout.
        step: u32 = req,
        /// Port-channel `id` is OpenFlow port `lag_base + id`.
        lag_base: u32 = req,
        source: String = req,
    }
}

spec_struct! {
    /// A network interface card.
    pub struct NicModel ("NIC model") {
        vendor: String = req,
        title: String = req,
        /// Network ports on the card.
        ports: u32 = req,
        /// Port speeds; the first is the default.
        speeds: Vec<Located<Rate>> = req,
        pcie: PcieLink = req,
        /// Cage of each port: qsfp28, qsfp56, qsfp112, osfp, sfp28, sfp+.
        form: Option<String> = opt,
        /// Electrical lanes of each port's cage and the fastest lane rate behind them
        /// (a ConnectX-7 OSFP: 4 lanes of 100G PAM4). Absent: the copper lane check is off.
        electrical: Option<Electrical> = opt,
        /// RDMA (RoCE) capable.
        rdma: Option<bool> = opt,
        /// Largest MTU the NIC accepts.
        max_mtu: Option<u32> = opt,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// The electrical lanes between a cage and the silicon (or a module's host side):
    /// how many, and the fastest lane rate. Slower standard lane rates (50G, 25G, 10G
    /// under a 100G lane) are assumed to work too.
    pub struct Electrical ("electrical lanes") {
        /// Electrical lanes wired to the cage (a module: its host side's lanes).
        lanes: u32 = req,
        /// Fastest rate per lane: 10G, 25G (NRZ), 50G, 100G (PAM4).
        rate: Located<Rate> = req,
    }
}

spec_struct! {
    /// A PCIe link: generation and width.
    pub struct PcieLink ("PCIe link") {
        generation as "gen": Located<u8> = req,
        width: Located<u8> = req,
    }
}

spec_struct! {
    /// A CPU model (per socket).
    pub struct CpuModel ("CPU model") {
        vendor: String = req,
        title: String = req,
        cores: u32 = req,
        base_ghz: f64 = req in MAGNITUDE,
        turbo_ghz: Option<f64> = opt in MAGNITUDE,
        pcie_lanes: u32 = req,
        pcie_gen: u8 = req,
        /// Memory channels per socket.
        memory_channels: Option<u32> = opt,
        /// Sustained single-stream TCP rate one core of this CPU drives, Gbit/s.
        tcp_stream_gbps: f64 = req in MAGNITUDE,
        /// Source of the per-stream figure (a measurement or a derivation).
        tcp_stream_source: String = req,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// A server chassis: sockets and its PCIe slot tree.
    pub struct ChassisModel ("chassis model") {
        vendor: String = req,
        title: String = req,
        sockets: u8 = req,
        /// PCIe switch chips on the board, by name.
        switches: Option<Named<ChassisSwitch>> = opt,
        /// Slots by name.
        slots: Named<ChassisSlot> = req,
        /// Drive bays wired to a PCIe switch or socket (U.2 NVMe).
        bays: Option<Named<ChassisBays>> = opt,
        /// Max_Payload_Size the platform's root ports negotiate, bytes (absent:
        /// `pcie_dma.default_mps`).
        pcie_mps: Option<u32> = opt in PCIE_MPS,
        /// Max_Read_Request_Size the platform sets for its devices, bytes (absent:
        /// `pcie_dma.default_mrrs`).
        pcie_mrrs: Option<u32> = opt in PCIE_MPS,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// A PCIe switch on a board: its chip and where its uplink goes.
    pub struct ChassisSwitch ("chassis PCIe switch") {
        chip: Option<String> = opt,
        /// Socket the uplink reaches (when attached to a CPU).
        socket: Option<u8> = opt,
        /// Another switch the uplink reaches (cascades).
        via: Option<String> = opt,
        uplink: PcieLink = req,
        /// The chipset (PCH/IOH) rather than a PCIe switch: slots `via` it share its
        /// uplink (DMI, declared as the PCIe link it equals), which takes none of the
        /// CPU's PCIe lanes.
        pch: Option<bool> = opt,
    }
}

spec_struct! {
    /// A slot: electrical link and what it hangs off (a socket or a PCIe switch).
    pub struct ChassisSlot ("chassis slot") {
        socket: Option<u8> = opt,
        via: Option<String> = opt,
        generation as "gen": u8 = req,
        /// Electrical width (a x16 connector wired x8 is width 8).
        width: u8 = req,
    }
}

spec_struct! {
    /// A group of drive bays.
    pub struct ChassisBays ("drive bays") {
        count: u32 = req,
        socket: Option<u8> = opt,
        via: Option<String> = opt,
        /// Link per bay (U.2: gen 3 x4).
        link: PcieLink = req,
    }
}

spec_struct! {
    /// An NVMe drive.
    pub struct DriveModel ("drive model") {
        vendor: String = req,
        title: String = req,
        /// Sequential read, GB/s.
        read_gbyte_s: f64 = req in MAGNITUDE,
        /// Sequential write, GB/s.
        write_gbyte_s: f64 = req in MAGNITUDE,
        pcie: PcieLink = req,
        /// aic, u2, m2.
        form: String = req,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

keyword_enum! {
    /// The drive interface behind a RAID controller.
    pub enum DiskInterface ("disk interface") {
        /// SATA 6 Gbit/s (8b/10b: 600 MB/s of data).
        Sata = "sata",
        /// SAS-3 12 Gbit/s (8b/10b: 1,200 MB/s of data).
        Sas = "sas",
    }
}

impl DiskInterface {
    /// Data the link carries per direction, MB/s (line rate after 8b/10b coding).
    pub(crate) fn link_mbyte_s(self) -> f64 {
        match self {
            DiskInterface::Sata => 600.0,
            DiskInterface::Sas => 1200.0,
        }
    }
}

spec_struct! {
    /// A SATA or SAS disk or SSD.
    pub struct DiskModel ("disk model") {
        vendor: String = req,
        title: String = req,
        /// `sata` (6 Gbit/s) or `sas` (12 Gbit/s).
        interface: DiskInterface = req,
        /// Sustained sequential read, MB/s (10^6 bytes/s).
        read_mbyte_s: f64 = req in MAGNITUDE,
        /// Sustained sequential write, MB/s.
        write_mbyte_s: f64 = req in MAGNITUDE,
        /// `hdd` or `ssd`.
        kind: String = req,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// A RAID controller card: its host link, how many drives it takes, the RAID levels
    /// it builds and what its RAID-on-chip moves in all.
    pub struct RaidControllerModel ("RAID controller model") {
        vendor: String = req,
        title: String = req,
        pcie: PcieLink = req,
        /// Drives it attaches without an expander.
        drives: u32 = req in DRIVES,
        /// RAID levels it builds (`raid0`, `raid1`, `raid5`, `raid6`, `raid10`).
        levels: Vec<String> = req,
        /// The most its RAID-on-chip reads in all, GB/s (sequential, large blocks).
        read_gbyte_s: f64 = req in MAGNITUDE,
        /// The most it writes in all, GB/s (sequential full-stripe writes).
        write_gbyte_s: f64 = req in MAGNITUDE,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// A pluggable optic (per-lane power figures).
    pub struct OpticModel ("optic model") {
        title: String = req,
        rate: Located<Rate> = req,
        /// Cage: sfp+, qsfp28, qsfp-dd, osfp, cfp.
        form: String = req,
        fiber: Fiber = req,
        /// Centre wavelength, nm.
        wavelength_nm: f64 = req in MAGNITUDE,
        /// Rated reach on the fiber named, km.
        reach_km: f64 = req in MAGNITUDE,
        /// Minimum average launch power per lane, dBm.
        tx_min_dbm: Option<f64> = opt,
        /// Receiver sensitivity per lane, dBm: the least average receive power the
        /// receiver works at (IEEE's "average receive power, each lane (min)").
        rx_sensitivity_dbm: Option<f64> = opt,
        /// The most average receive power per lane the receiver works at (overload),
        /// dBm; above it the optic needs an attenuator.
        rx_max_dbm: Option<f64> = opt,
        /// Maximum channel insertion loss when launch/sensitivity are not published, dB.
        max_loss_db: Option<f64> = opt in MAGNITUDE,
        /// Needs host RS-FEC to reach its rated distance.
        needs_fec: Option<bool> = opt,
        /// The host (electrical) side: lanes and lane rate it takes from its cage. An
        /// optic retimes, so its two ends' electrical sides need not match each other,
        /// only their own cages.
        electrical: Option<Electrical> = opt,
        /// Optical ports in the module (absent: 1). A twin-port module (2) carries two
        /// independent links of `rate / ports`, each with its own fiber connector.
        ports: Option<u32> = opt,
        /// Fiber connector of each optical port: `lc` (duplex, the default) or
        /// `mpo-12` (parallel fiber).
        connector: Option<String> = opt,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// A cable medium, by its `media:` keyword (`dac`, `aoc`), and how long a cable of it
    /// may be at each speed.
    pub struct CableModel ("cable model") {
        title: String = req,
        reach: Vec<CableReach> = req,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// The longest cable of a medium at one port speed.
    pub struct CableReach ("cable reach") {
        rate: Located<Rate> = req,
        max_m: f64 = req in MAGNITUDE,
    }
}

spec_struct! {
    /// A PCIe generation.
    pub struct PcieGen ("PCIe generation") {
        /// Transfer rate per lane, GT/s.
        gt_per_s: f64 = req in MAGNITUDE,
        /// Line-encoding efficiency: 0.8 for 8b/10b, 128/130 for 128b/130b.
        encoding_efficiency: f64 = req in FRACTION,
        source: String = req,
    }
}

spec_struct! {
    /// Constants of effective PCIe DMA bandwidth: data-link-layer packets, physical-layer
    /// ordered sets, TLP headers, platform defaults and a NIC's descriptor traffic.
    pub struct PcieDma ("PCIe DMA model") {
        /// Bytes of one DLLP on the wire (framing, DLLP, CRC).
        dllp_bytes: f64 = req in MAGNITUDE,
        /// DLLPs sent per interval (one Ack, one UpdateFC).
        dllps_per_interval: f64 = req in MAGNITUDE,
        /// SKP ordered set length and spacing, symbol times.
        skip_symbols: f64 = req in MAGNITUDE,
        /// Symbol times between two SKP ordered sets.
        skip_interval_symbols: f64 = req in MAGNITUDE,
        /// The Max_Payload_Size columns of `interval_symbols`.
        interval_mps: Vec<u32> = req,
        /// DLLP interval in symbol times: generation -> `xN` width -> one figure per
        /// `interval_mps` column.
        interval_symbols: Named<Named<Vec<f64>>> = req,
        /// MWr, MRd (64-bit address) and CplD TLP bytes around the payload.
        mwr_header_bytes: f64 = req in MAGNITUDE,
        /// MRd (read request) TLP bytes, 64-bit address.
        mrd_header_bytes: f64 = req in MAGNITUDE,
        /// CplD (completion with data) TLP bytes around its payload.
        cpld_header_bytes: f64 = req in MAGNITUDE,
        /// Max_Payload_Size and Max_Read_Request_Size where neither chassis nor spec says.
        default_mps: u32 = req in PCIE_MPS,
        /// Max_Read_Request_Size where neither chassis nor spec says.
        default_mrrs: u32 = req in PCIE_MPS,
        nic: NicDma = req,
        source: String = req,
    }
}

spec_struct! {
    /// What a NIC's driver and DMA engine move besides the packets: descriptors fetched
    /// and written back, doorbells, interrupts, each per batch of packets.
    pub struct NicDma ("NIC DMA overheads") {
        /// Bytes a NIC moves with each packet besides its IP bytes (Ethernet header).
        frame_header_bytes: f64 = req in MAGNITUDE,
        /// Bytes of one DMA descriptor the NIC fetches.
        descriptor_bytes: f64 = req in MAGNITUDE,
        /// Bytes of one completion (write-back) the NIC writes.
        writeback_bytes: f64 = req in MAGNITUDE,
        /// Bytes of one doorbell write (the driver to the NIC).
        doorbell_bytes: f64 = req in MAGNITUDE,
        /// Bytes of one interrupt message (MSI-X write).
        interrupt_bytes: f64 = req in MAGNITUDE,
        /// Packets per descriptor fetch when sending.
        tx_fetch_batch: f64 = req in BATCH,
        /// Packets per write-back when sending.
        tx_writeback_batch: f64 = req in BATCH,
        /// Packets per doorbell when sending.
        tx_doorbell_batch: f64 = req in BATCH,
        /// Packets per descriptor fetch when receiving.
        rx_fetch_batch: f64 = req in BATCH,
        /// Packets per write-back when receiving.
        rx_writeback_batch: f64 = req in BATCH,
        /// Packets per doorbell when receiving.
        rx_doorbell_batch: f64 = req in BATCH,
        /// Packets per interrupt.
        interrupt_batch: f64 = req in BATCH,
    }
}

spec_struct! {
    /// A PCIe switch chip.
    pub struct PcieSwitchChip ("PCIe switch chip") {
        /// PCIe lanes of the chip.
        lanes: u32 = req,
        generation as "gen": u8 = req,
        source: String = req,
    }
}

spec_struct! {
    /// An OTN line signal.
    pub struct OtnSignal ("OTN signal") {
        /// Client carried, e.g. 100GE.
        client: String = req,
        client_rate: Located<Rate> = req,
        /// Line rate, Gbit/s.
        line_gbps: f64 = req in MAGNITUDE,
        /// The catalog optic a hand-off of this client gets at the switch port and at the
        /// transponder's client port when the spec names none (the BOM orders it, W0223).
        client_optic: Option<String> = opt,
        source: String = req,
        confidence: Option<Confidence> = opt,
    }
}

spec_struct! {
    /// The models of the loss-based and model-based congestion controls besides Reno's
    /// (Reno's is the Mathis bound, `mathis_c`).
    pub struct Congestion ("congestion models") {
        cubic: CubicModel = req,
        htcp: HtcpModel = req,
        bbr: BbrModel = req,
        source: String = req,
    }
}

spec_struct! {
    /// CUBIC's average window under loss (RFC 9438 section 5): (C (3 + beta) /
    /// (4 (1 - beta)))^(1/4) x RTT^(3/4) / p^(3/4) segments, RTT in seconds.
    pub struct CubicModel ("CUBIC model") {
        /// The window growth constant C (RFC 9438: 0.4).
        c: f64 = req in MAGNITUDE,
        /// The multiplicative decrease factor beta_cubic (RFC 9438: 0.7).
        beta: f64 = req in FRACTION,
    }
}

spec_struct! {
    /// H-TCP's window growth (Leith and Shorten; Linux `tcp_htcp.c`): an increase of
    /// 2 (1 - beta) x max(1, rho x f(u)) segments per RTT, f(u) = 1 + a u + b u^2 with u
    /// the seconds past `delta_l_s` since the last loss (f = 1 before), rho = RTT /
    /// `rtt_ref_ms` within [`rho_min`, `rho_max`].
    pub struct HtcpModel ("H-TCP model") {
        /// Seconds after a loss during which the window grows as Reno's (delta_L).
        delta_l_s: f64 = req in MAGNITUDE,
        /// The linear term of the increase function, per second past delta_L.
        a: f64 = req in MAGNITUDE,
        /// The quadratic term of the increase function, per second squared.
        b: f64 = req in MAGNITUDE,
        /// The backoff factor after a loss.
        beta: f64 = req in FRACTION,
        /// The RTT at which the increase is not scaled, ms.
        rtt_ref_ms: f64 = req in MAGNITUDE,
        /// The smallest RTT scaling factor.
        rho_min: f64 = req in MAGNITUDE,
        /// The largest RTT scaling factor.
        rho_max: f64 = req in MAGNITUDE,
    }
}

spec_struct! {
    /// BBR keeps its rate under random loss below `loss_threshold`; above it democ bounds
    /// it like Reno.
    pub struct BbrModel ("BBR model") {
        /// The loss rate, a fraction, below which BBR keeps its rate.
        loss_threshold: f64 = req in FRACTION,
    }
}

spec_struct! {
    /// A kernel's gain on one stream's rate over the CPU's catalog figure, for a host
    /// that declares a kernel at or after `since` (`MAJOR.MINOR`).
    pub struct KernelGain ("kernel gain") {
        since: crate::spec::kernel::Kernel = req,
        /// Factor on a path within a site (no WAN link).
        lan: f64 = req in MAGNITUDE,
        /// Factor on a path that crosses a WAN link.
        wan: f64 = req in MAGNITUDE,
        source: String = req,
    }
}

spec_struct! {
    /// Constants of the physics democ models: fiber plant loss, propagation, PCIe
    /// transaction overhead, kernel socket-buffer ceiling.
    pub struct Physics ("physics") {
        /// dB/km by band: smf_1310, smf_1550, mmf_850, mmf_1300.
        attenuation_db_per_km: Named<f64> = req in MAGNITUDE,
        /// Loss per mated connector pair, dB.
        connector_db: f64 = req in MAGNITUDE,
        /// Loss per fusion splice, dB.
        splice_db: f64 = req in MAGNITUDE,
        /// Required optical margin when the spec does not set one, dB.
        default_margin_db: f64 = req in MARGIN_DB,
        /// One-way propagation delay in fiber, microseconds per km.
        fiber_us_per_km: f64 = req in MAGNITUDE,
        /// How far (a fraction) a WAN's declared `rtt_ms` may stray from the RTT of its
        /// `length_km` of fiber before the two are said to disagree (W0232).
        rtt_length_margin: f64 = req in FRACTION,
        /// PCIe transaction-layer overhead per TLP, bytes (framing, sequence, header, LCRC).
        tlp_overhead_bytes: f64 = req in MAGNITUDE,
        /// Largest Linux socket buffer (net.core.rmem_max ceiling), bytes.
        max_socket_buffer_bytes: f64 = req in MAGNITUDE,
        /// Ethernet bytes on the wire around each frame's L3 payload: preamble+SFD 8,
        /// header 14, FCS 4, inter-frame gap 12.
        ethernet_wire_overhead_bytes: f64 = req in MAGNITUDE,
        /// The constant C of the Mathis bound on a loss-based TCP stream,
        /// MSS / RTT x C / sqrt(p): Reno's model, and the floor of CUBIC's and H-TCP's.
        mathis_c: f64 = req in MAGNITUDE,
        /// Each TCP congestion control's throughput model under random loss.
        congestion: Congestion = req,
        /// What a newer kernel adds to one stream's rate on the same CPU.
        kernel_gain: KernelGain = req,
        /// IPv4 + TCP headers with timestamps, bytes.
        tcp_ip_header_bytes: f64 = req in MAGNITUDE,
        /// IPv4 + UDP headers, bytes.
        udp_ip_header_bytes: f64 = req in MAGNITUDE,
        /// RoCEv2 headers inside the IP MTU: IPv4 20 + UDP 8 + BTH 12 + ICRC 4, bytes.
        roce_header_bytes: f64 = req in MAGNITUDE,
        /// Per-stream rate factor when the application and its NIC or drives sit on
        /// different sockets.
        numa_remote_factor: f64 = req in FRACTION,
        /// PFC headroom a port needs: (fixed + per_m x cable metres) x Gbit/s +
        /// mtu_factor x MTU bytes (absent: the long-haul RoCE check is off).
        pfc_headroom_fixed_bytes_per_gbps: Option<f64> = opt in MAGNITUDE,
        /// Per-metre part of the PFC headroom, bytes per Gbit/s per metre.
        pfc_headroom_bytes_per_gbps_m: Option<f64> = opt in MAGNITUDE,
        /// MTU multiple added to the PFC headroom.
        pfc_headroom_mtu_factor: Option<f64> = opt in MAGNITUDE,
        source: String = req,
    }
}

impl OpticModel {
    /// The lowest receive power a lane works at, dBm: the published sensitivity, else
    /// the weakest launch less the channel loss the standard allows.
    pub(crate) fn rx_floor_dbm(&self) -> Option<f64> {
        self.rx_sensitivity_dbm
            .or_else(|| Some(self.tx_min_dbm? - self.max_loss_db?))
    }
}
