//! `twin/report.json`: one row per flow pair and per OpenFlow switch's control channel,
//! and the machine's figures, so a row that failed on a saturated machine reads as not
//! tested rather than as a broken design.

use serde::Serialize;

use super::load::Figures;

#[derive(Debug, Serialize)]
pub(crate) struct Report {
    pub(crate) show: String,
    /// Every row passed.
    pub(crate) passed: bool,
    pub(crate) flows: Vec<FlowRow>,
    pub(crate) control: Vec<ControlRow>,
    /// The machine before the test and over the whole run.
    pub(crate) machine: Machine,
    /// What the test could not do, and why.
    pub(crate) notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Machine {
    pub(crate) before: Option<Figures>,
    pub(crate) during: Option<Figures>,
    /// CPU pressure (percent) from which a failed row counts as not tested.
    pub(crate) saturated_at_pct: f64,
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
    /// Failed while the machine was saturated: not tested, with the machine's figures
    /// over the flow's probes.
    pub(crate) overloaded: Option<Figures>,
    /// Why it failed, or what was tested differently.
    pub(crate) detail: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ControlRow {
    pub(crate) switch: String,
    pub(crate) controller: String,
    /// OVS reports the OpenFlow channel connected.
    pub(crate) connected: bool,
    /// Not connected while the machine was saturated: not tested.
    pub(crate) overloaded: Option<Figures>,
}

/// What a test run says, and its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Every row passed: 0.
    Passed,
    /// Some row failed on a machine that was not saturated: the design (or the twin) is
    /// wrong there: 1.
    Failed,
    /// No such row, but some failed while the machine was saturated and so were not
    /// tested: 3.
    Overloaded,
}

impl Verdict {
    pub(crate) fn code(self) -> i32 {
        match self {
            Verdict::Passed => 0,
            Verdict::Failed => 1,
            Verdict::Overloaded => 3,
        }
    }
}

impl Report {
    /// Rows that failed by design, and rows not tested (failed on a saturated machine).
    pub(crate) fn counts(&self) -> (usize, usize) {
        let flows = self.flows.iter().filter(|r| !r.passed);
        let control = self.control.iter().filter(|c| !c.connected);
        let untested = flows.clone().filter(|r| r.overloaded.is_some()).count()
            + control.clone().filter(|c| c.overloaded.is_some()).count();
        (flows.count() + control.count() - untested, untested)
    }

    pub(crate) fn verdict(&self) -> Verdict {
        match self.counts() {
            (0, 0) => Verdict::Passed,
            (0, _) => Verdict::Overloaded,
            _ => Verdict::Failed,
        }
    }
}
