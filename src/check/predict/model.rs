//! What a prediction says, as plan.json and `democ plan` present it: per flow its
//! rate and the limits behind it, per link and LAG direction its load, per host its
//! storage. The engine (`predict.rs`) fills these; `src/plan.rs` presents them.

use std::sync::Arc;

use serde::Serialize;

use crate::check::load::Res;

/// What bounds a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum LimitKind {
    Demand,
    Link,
    Lag,
    Pcie,
    Storage,
    Cpu,
    Window,
    Loss,
    Mtu,
    /// The pacing the host script sets on a sender whose kernel paces (`pacing`).
    Pacing,
}

impl LimitKind {
    /// The kind as plans and reports print it (its serde name), without formatting
    /// `Debug` and lowercasing it for every limit.
    pub(crate) fn name(self) -> &'static str {
        match self {
            LimitKind::Demand => "demand",
            LimitKind::Link => "link",
            LimitKind::Lag => "lag",
            LimitKind::Pcie => "pcie",
            LimitKind::Storage => "storage",
            LimitKind::Cpu => "cpu",
            LimitKind::Window => "window",
            LimitKind::Loss => "loss",
            LimitKind::Mtu => "mtu",
            LimitKind::Pacing => "pacing",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Limit {
    pub(crate) kind: LimitKind,
    pub(crate) gbps: f64,
    /// Shared: the limits of many flows name one resource in the same words (`words`).
    #[serde(serialize_with = "as_str")]
    pub(crate) why: Arc<str>,
    /// What would lift this limit, where democ can say (the help line of W0247).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) fix: Option<String>,
}

/// A shared text as a JSON string (serde's `rc` feature would rebuild every crate
/// that uses serde for this one field).
pub(super) fn is_one(n: &usize) -> bool {
    *n == 1
}

pub(super) fn as_str<S: serde::Serializer>(s: &Arc<str>, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s)
}

/// Shared texts as a JSON array of strings.
pub(super) fn as_strs<S: serde::Serializer>(v: &[Arc<str>], ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_seq(v.iter().map(|s| &**s))
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct FlowPrediction {
    pub(crate) name: String,
    pub(crate) protocol: &'static str,
    /// The TCP congestion control the prediction assumes and the host scripts ask for
    /// (`reno`, `cubic`, `htcp`, `bbr`); absent for RDMA and UDP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) congestion_control: Option<&'static str>,
    /// The model of that congestion control under loss (`check::congestion::model`),
    /// for a TCP flow whose path loses packets; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) loss_model: Option<&'static str>,
    pub(crate) pairs: usize,
    /// Stripes per host pair (`stripe:`): each of `pairs` is one stripe, bound to one
    /// of the sender's ports.
    #[serde(skip_serializing_if = "is_one")]
    pub(crate) stripes: usize,
    pub(crate) streams_per_pair: u32,
    pub(crate) demand_gbps: f64,
    pub(crate) predicted_gbps: f64,
    /// At least `SHORTFALL` of the demand.
    pub(crate) feasible: bool,
    /// The flow says `expect: infeasible`: falling short is what it demonstrates.
    pub(crate) expect_infeasible: bool,
    pub(crate) bottleneck: Limit,
    /// Every limit on the worst pair's path, smallest first (`Detail::Full` only).
    pub(crate) limits: Vec<Limit>,
    pub(crate) rtt_ms: f64,
    /// Switch names, shared by the flows (`words::Words::switch`): a String
    /// each was 400,000 allocations at 100,000 flows.
    #[serde(serialize_with = "as_strs")]
    pub(crate) path: Vec<Arc<str>>,
    /// What crosses sockets, when something does.
    pub(crate) numa_remote: Option<&'static str>,
    /// Switches (by name) where this flow is forwarded only by OpenFlow rules, which
    /// democ does not write: the prediction holds once the controller installs them.
    pub(crate) needs_rules: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct LinkUse {
    pub(crate) link: String,
    pub(crate) direction: String,
    pub(crate) load_gbps: f64,
    pub(crate) capacity_gbps: f64,
    pub(crate) utilization_pct: f64,
    /// Indices of the flows loading this direction (into `Plan::flows`).
    #[serde(skip)]
    pub(crate) flows: Vec<usize>,
}

/// What a host's drives can do.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct HostStorage {
    pub(crate) host: String,
    pub(crate) drives: u32,
    pub(crate) read_gbps: f64,
    pub(crate) write_gbps: f64,
    pub(crate) read_bound: String,
    pub(crate) write_bound: String,
}

/// A site and what stands there.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct SiteSummary {
    pub(crate) name: String,
    pub(crate) kind: &'static str,
    pub(crate) booth: Option<String>,
    pub(crate) location: Option<String>,
    pub(crate) switches: usize,
    pub(crate) hosts: usize,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    pub(crate) show: String,
    pub(crate) title: String,
    pub(crate) venue: String,
    pub(crate) sites: Vec<SiteSummary>,
    pub(crate) storage: Vec<HostStorage>,
    pub(crate) flows: Vec<FlowPrediction>,
    /// NVMe-oF fabrics, in the spec's order.
    pub(crate) fabrics: Vec<crate::check::fabrics::FabricPrediction>,
    /// Network resources with their use, sorted.
    pub(crate) links: Vec<(Res, LinkUse)>,
    /// Switches owned by others (`external: true`): modelled, no config written.
    pub(crate) external: Vec<String>,
    /// Devices with no switch OS (`os: none`): hops democ writes no config for (not
    /// in plan.json: `external` there lists what democ writes no config for).
    pub(crate) no_os: Vec<String>,
    /// Per LAG direction of `links`, its members' loads (check/lag_members.rs).
    pub(crate) lag_members: Vec<crate::check::lag_members::LagMembers>,
}

/// A flow predicted below this share of its demand falls short (W0247).
pub(crate) const SHORTFALL: f64 = 0.95;
