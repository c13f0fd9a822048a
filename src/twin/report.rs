//! `twin/report.json`: one row per flow pair and per OpenFlow switch's control channel.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub(crate) struct Report {
    pub(crate) show: String,
    pub(crate) passed: bool,
    pub(crate) flows: Vec<FlowRow>,
    pub(crate) control: Vec<ControlRow>,
    /// What the test could not do, and why.
    pub(crate) notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct FlowRow {
    pub(crate) flow: String,
    pub(crate) src: String,
    pub(crate) dst: String,
    pub(crate) protocol: String,
    pub(crate) ping: bool,
    /// `ping -M do -s MTU-28` got through.
    pub(crate) pmtu: bool,
    pub(crate) mtu: u32,
    /// Gbit/s of a short TCP iperf3 (RDMA flows too, as TCP on the same path); None: failed.
    pub(crate) tcp_gbps: Option<f64>,
    /// The flow's cookie counters rose on exactly the OpenFlow switches of its path
    /// (checked per flow: pairs of one flow share the cookie).
    pub(crate) path: bool,
    /// The routed hops traceroute saw match the plan's.
    pub(crate) routed_hops: bool,
    pub(crate) passed: bool,
    /// Why it failed, or what was tested differently.
    pub(crate) detail: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ControlRow {
    pub(crate) switch: String,
    pub(crate) controller: String,
    /// OVS reports the OpenFlow channel connected.
    pub(crate) connected: bool,
}
