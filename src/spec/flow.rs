//! `flows:`: the traffic the demo must carry.

use super::macros::spec_struct;
use super::name::Pattern;
use super::show::Routing;
use super::units::Rate;
use crate::yaml::decode::{Located, keyword_enum};

keyword_enum! {
    /// Transport of a flow.
    pub enum Protocol ("protocol") { Tcp = "tcp", Rdma = "rdma", Udp = "udp" }
}

keyword_enum! {
    /// Where a flow's data comes from or goes to.
    pub enum Store ("data source or sink") { Memory = "memory", Nvme = "nvme", Raid = "raid" }
}

keyword_enum! {
    /// TCP congestion control of a flow's senders. Each has its own throughput model
    /// under random loss (catalog `physics.congestion`, `democ explain W0247`).
    pub enum CongestionControl ("congestion control") {
        /// Loss-based, the textbook AIMD: halves its window at each loss, so random loss
        /// on a long path bounds each stream at MSS / RTT x C / sqrt(p) (Mathis et al.).
        Reno = "reno",
        /// Loss-based, the Linux default: a cubic window growth that backs off to 0.7 and
        /// regains its window faster than Reno on long paths (RFC 9438); never slower
        /// than Reno (its Reno-friendly region).
        Cubic = "cubic",
        /// Loss-based, for long fast paths (Leith and Shorten): Reno for the first second
        /// after a loss, then a window increase that grows with the time since the loss.
        /// A kernel module (`tcp_htcp`) many kernels lack.
        Htcp = "htcp",
        /// Model-based: paces at the measured bottleneck rate and does not take random
        /// loss below its threshold (about 15 %) for congestion.
        Bbr = "bbr",
    }
}

keyword_enum! {
    /// What a flow is expected to show.
    pub enum Expect ("expectation") {
        /// The flow demonstrates a limit: falling short of its rate is a note, not a
        /// finding.
        Infeasible = "infeasible"
    }
}

spec_struct! {
    /// The CPU sockets a flow's processes run on (0-based), per end.
    pub struct Pin ("socket pin") {
        /// The sending host's socket.
        sender: Option<Located<u8>> = opt,
        /// The receiving host's socket.
        receiver: Option<Located<u8>> = opt,
    }
}

spec_struct! {
    /// A demand between DTNs. `from` and `to` may be ranges: equal-length ranges pair up
    /// one to one; a single host pairs with every host of the other side. `rate` is the
    /// aggregate, shared evenly over the pairs.
    pub struct Flow ("flow") {
        name: Located<String> = req,
        from: Located<Pattern> = req,
        to: Located<Pattern> = req,
        rate: Located<Rate> = req,
        protocol: Located<Protocol> = req,
        /// Parallel streams per pair (TCP); default: as many as the rate needs.
        streams: Option<Located<u32>> = opt in STREAMS,
        /// TCP congestion control of the senders: `reno`, `cubic`, `htcp` or `bbr`;
        /// default `show.defaults.congestion_control`, else `cubic` (the Linux default).
        congestion_control: Option<Located<CongestionControl>> = opt,
        /// Where the sender reads: `memory` (default), `nvme` or `raid` (its RAID arrays).
        source: Option<Located<Store>> = opt,
        /// Where the receiver writes: `memory` (default), `nvme` or `raid`.
        sink: Option<Located<Store>> = opt,
        /// Switches to traverse in order; default computed.
        path: Option<Vec<Located<String>>> = opt,
        /// How the route is chosen when there is no `path:` (`shortest` or `widest`); default `show.defaults.routing`.
        routing: Option<Located<Routing>> = opt,
        /// Stripe each pair over these ports of the sender, one per NIC (`[p0, p1, p2,
        /// p3]`: the "4 x 10GE" DTN, FDT over several interfaces): one stream set per
        /// port, bound to its address and leaving by its cable; the pair's share of the
        /// rate is split evenly among them and the prediction sums their paths.
        stripe: Option<Vec<Located<String>>> = opt,
        /// Run the transfer on these CPU sockets (`numactl -N`) rather than on each NIC's
        /// own: `{ sender: 1 }` demonstrates the cross-socket cost, which the prediction
        /// counts (catalog physics `numa_remote_factor`).
        pin: Option<Located<Pin>> = opt,
        /// Also carry the same demand from `to` back to `from`.
        bidirectional: Option<Located<bool>> = opt,
        /// Police the flow at this aggregate rate: an OpenFlow 1.3 meter (drop band) on
        /// the first OpenFlow switch each pair enters, its share of the cap per pair.
        cap: Option<Located<Rate>> = opt,
        /// `infeasible`: the flow deliberately demonstrates a limit; its shortfall (and
        /// an oversubscription only it causes) is a note, and `check` stays clean.
        expect: Option<Located<Expect>> = opt,
        /// Warning codes acknowledged on this flow (`[W0247]`): they become notes,
        /// listed in the plan as acknowledged.
        allow: Option<Vec<Located<String>>> = opt,
        /// democ picks each pair's client ports (`iperf3 --cport`) so its streams spread
        /// over the sending DTN's bond as evenly as the bond's documented hash allows
        /// (Linux `layer3+4`); the plan then shows the members' loads as computed.
        pick_ports: Option<Located<bool>> = opt,
    }
}
