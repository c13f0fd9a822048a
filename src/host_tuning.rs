//! The host tuning data (templates/linux/tuning.yaml): the sysctls, modules and
//! transfer settings the host scripts apply, each figure with its source. Read by
//! lowering for the scripts and by the checks for the test servers' ports.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::yaml::error::EmbeddedError;

pub(crate) const TUNING: &str = "linux/tuning.yaml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Tuning {
    #[allow(dead_code)] // documentation of the figures
    pub(crate) sources: Vec<String>,
    pub(crate) modules: Vec<String>,
    /// The module of each congestion control that is one (`congestion_control: bbr`
    /// needs `tcp_bbr` on its sender); the others are built in.
    pub(crate) congestion_modules: std::collections::BTreeMap<String, String>,
    pub(crate) big_tcp: BigTcp,
    pub(crate) sysctl: Vec<Setting>,
    pub(crate) jumbo_sysctl: Vec<Setting>,
    pub(crate) governor: Option<String>,
    pub(crate) coalescing: Vec<String>,
    pub(crate) rings: Rings,
    pub(crate) same_subnet: SameSubnet,
    pub(crate) transfers: TransferPlan,
    pub(crate) disk: DiskPlan,
    pub(crate) needs: Needs,
}

/// BIG TCP: GSO/GRO sizes above 64 KiB, from the kernel releases that have them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BigTcp {
    pub(crate) size: u32,
    /// The first release with IPv6 BIG TCP, `[major, minor]`.
    pub(crate) ipv6_since: [u32; 2],
    /// The first release with IPv4 BIG TCP.
    pub(crate) ipv4_since: [u32; 2],
}

/// The congestion control `tune` makes the hosts' default (the
/// `net.ipv4.tcp_congestion_control` sysctl): what a transfer falls back to where the
/// kernel lacks the one its flow asks for.
pub(crate) fn default_congestion_control(t: &Tuning) -> Option<&str> {
    t.sysctl
        .iter()
        .find(|s| s.key == "net.ipv4.tcp_congestion_control")
        .map(|s| s.value.as_str())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Needs {
    pub(crate) iperf3: String,
    pub(crate) iperf3_min_version: String,
    pub(crate) perftest: String,
    pub(crate) fio: String,
    /// For an initiator whose flow moves its fabric's bytes.
    pub(crate) fabric: String,
    pub(crate) numactl: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DiskPlan {
    pub(crate) options: Vec<String>,
    pub(crate) drive_dir: String,
    pub(crate) receiver_lead_s: u32,
}

/// `ethtool -G` ring sizes on fast ports.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Rings {
    /// Ports at this rate or faster get them.
    pub(crate) min_gbps: f64,
    pub(crate) entries: u32,
}

/// Several ports of one host on one subnet.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SameSubnet {
    /// The sysctls that keep each port to its own addresses in ARP.
    pub(crate) sysctl: Vec<Setting>,
    /// The first policy-routing table; each such port takes the next.
    pub(crate) first_table: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Setting {
    pub(crate) key: String,
    pub(crate) value: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TransferPlan {
    pub(crate) first_port: u16,
    pub(crate) seconds: u32,
    pub(crate) pacing: Pacing,
    pub(crate) zerocopy: Zerocopy,
}

/// Pacing each TCP pair at its share of its sender port, on a sender whose declared
/// kernel paces without the fq qdisc.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Pacing {
    /// The share of the port's line rate the pairs leaving by it are paced to.
    pub(crate) nic_share: f64,
    /// The first kernel release, `[major, minor]`, that paces without fq.
    pub(crate) since: [u32; 2],
}

/// MSG_ZEROCOPY sends, where the declared kernel and the host's iperf3 have them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Zerocopy {
    /// The first kernel release with MSG_ZEROCOPY for TCP.
    pub(crate) since: [u32; 2],
    /// The iperf3 option that sends with it.
    pub(crate) option: String,
}

pub(crate) fn tuning() -> Result<&'static Tuning, EmbeddedError> {
    static CELL: OnceLock<Result<Tuning, EmbeddedError>> = OnceLock::new();
    CELL.get_or_init(|| crate::yaml::embedded::data(&format!("templates/{TUNING}")))
        .as_ref()
        .map_err(Clone::clone)
}

/// The port of the first test server on a host (templates/linux/tuning.yaml); each
/// routed pair into the host takes the next one, up to 65535 (checked by
/// check::server_ports).
pub(crate) fn first_server_port() -> Result<u16, EmbeddedError> {
    tuning().map(|t| t.transfers.first_port)
}

#[cfg(test)]
mod tests {
    /// The scripts' default congestion control is the one the plan assumes for a TCP
    /// flow without `congestion_control: bbr` (issue 34: they set htcp while the plan
    /// predicted cubic).
    #[test]
    fn the_default_is_what_the_plan_assumes() {
        let t = super::tuning().expect("tuning data");
        assert_eq!(
            super::default_congestion_control(t),
            Some(crate::spec::flow::CongestionControl::Cubic.as_str())
        );
        assert!(t.modules.is_empty(), "cubic needs no module");
        // The show-wide default without `defaults.congestion_control` is the same.
        let m = crate::testkit::checks::front(&crate::testkit::checks::two_sites(
            "optic: 100gbase-lr4, length_km: 5",
            "",
        ));
        assert_eq!(
            m.model.settings.congestion_control,
            crate::spec::flow::CongestionControl::Cubic
        );
    }
}
