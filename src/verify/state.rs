//! The results read and sorted by what they are about: per flow pair, what its hosts
//! measured; per switch, its counters, rates, optics, neighbours and rules, with the
//! switch's own port names turned into democ's (`Ethernet1/1` -> `1/1`). A file that
//! names nothing of the build, or that its parser refuses, is a diagnostic and is left
//! out.

use std::collections::BTreeMap;

use super::by_os::{self, Reading};
use super::host::{self, Measured};
use super::inputs::{Input, Kind, Rw, Subject};
use super::located::Text;
use super::planned::{Planned, Switch};
use super::switch::{Counters, Neighbor, Rates, Rule};
use crate::diag::{Diagnostic, Diags, codes};
use crate::source::{Sources, Span};

/// One measurement and the host and time it is from.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) when: String,
    pub(crate) host: String,
    pub(crate) m: Measured,
}

/// What one pair's hosts kept.
#[derive(Debug, Default)]
pub(crate) struct PairSeen {
    /// The network transfer (iperf3, ib_write_bw).
    pub(crate) net: Vec<Run>,
    /// fio on the hosts' drives.
    pub(crate) drives: Vec<(Rw, Run)>,
    /// fio on a fabric's namespaces: the flow's bytes.
    pub(crate) fabric: Vec<Run>,
}

impl PairSeen {
    /// The latest network run, the sender's before the receiver's at the same time.
    pub(crate) fn net(&self, src: &str) -> Option<&Run> {
        self.net
            .iter()
            .max_by(|a, b| (&a.when, a.host == src).cmp(&(&b.when, b.host == src)))
    }

    pub(crate) fn fabric(&self) -> Option<&Run> {
        self.fabric.iter().max_by(|a, b| a.when.cmp(&b.when))
    }
}

/// One port's counters, keyed by democ's port name.
pub(crate) type Ports<T> = BTreeMap<String, T>;

#[derive(Debug, Default)]
pub(crate) struct SwitchSeen {
    /// Counter snapshots (EOS counters, OVS dump-ports), oldest first.
    pub(crate) counters: Vec<(String, Ports<Counters>)>,
    pub(crate) rates: Option<(String, Ports<Rates>)>,
    /// Receive power, dBm.
    pub(crate) optics: Option<(String, Ports<f64>)>,
    /// Neighbours by democ's port name (the switch's own name kept in `port`).
    pub(crate) lldp: Option<(String, Ports<Neighbor>)>,
    pub(crate) rules: Option<(String, Vec<Rule>)>,
}

#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// By (flow, source, sink).
    pub(crate) pairs: BTreeMap<(String, String, String), PairSeen>,
    pub(crate) switches: BTreeMap<String, SwitchSeen>,
}

/// Keeps the later of two readings.
fn latest<T>(slot: &mut Option<(String, T)>, when: &str, v: T) {
    if slot.as_ref().is_none_or(|(w, _)| w.as_str() <= when) {
        *slot = Some((when.to_owned(), v));
    }
}

pub(crate) fn read(plan: &Planned, files: &[Input], sources: &Sources, diags: &mut Diags) -> Seen {
    let mut seen = Seen::default();
    for input in files {
        let t = Text {
            id: input.file,
            file: sources.get(input.file),
        };
        let start = Span::new(input.file, 0, 0);
        match &input.subject {
            Subject::Transfer {
                flow,
                src,
                dst,
                host,
            } => {
                if let Err(why) = known_pair(plan, flow, src, dst, host) {
                    diags.push(
                        Diagnostic::new(codes::RESULT_NAME, start, why)
                            .help("verify a build's results against that build: the names come from its flows (`ir/flows/flows.json`)"),
                    );
                    continue;
                }
                let run = |m: Measured| Run {
                    when: input.when.clone(),
                    host: host.clone(),
                    m,
                };
                let parsed = match input.kind {
                    Kind::Iperf3 => host::iperf3(&t),
                    Kind::IbWriteBw => host::ib_write_bw(&t),
                    Kind::Fio(rw) | Kind::Fabric(rw) => host::fio(&t, rw_name(rw)),
                    Kind::Switch(_) => continue,
                };
                let m = match parsed {
                    Ok(m) => m,
                    Err(d) => {
                        diags.push(*d);
                        continue;
                    }
                };
                let pair = seen
                    .pairs
                    .entry((flow.clone(), src.clone(), dst.clone()))
                    .or_default();
                match input.kind {
                    Kind::Fio(rw) => pair.drives.push((rw, run(m))),
                    Kind::Fabric(_) => pair.fabric.push(run(m)),
                    _ => pair.net.push(run(m)),
                }
            }
            Subject::Switch(name) => {
                let Some(sw) = plan.switches.get(name) else {
                    diags.push(
                        Diagnostic::new(codes::RESULT_NAME, start, format!("the build has no switch `{name}`"))
                            .help("name switch state <switch>+<state>+<time>.json with the switch's name in the show"),
                    );
                    continue;
                };
                let Kind::Switch(state) = input.kind else {
                    continue;
                };
                let canon = |n: &str| sw.port(n).map(|p| p.port.clone());
                let s = seen.switches.entry(name.clone()).or_default();
                let when = input.when.as_str();
                let r = by_os::read(&sw.os, state, &t, when).map(|reading| match reading {
                    Reading::Counters(c, rates) => {
                        s.counters.push((when.to_owned(), keep(sw, c)));
                        if let Some(r) = rates.filter(|r| !r.is_empty()) {
                            latest(&mut s.rates, when, keep(sw, r));
                        }
                    }
                    Reading::Rates(r) => latest(&mut s.rates, when, keep(sw, r)),
                    Reading::Optics(o) => latest(&mut s.optics, when, keep(sw, o)),
                    Reading::Lldp(l) => {
                        let by_port = l
                            .into_iter()
                            .filter_map(|n| Some((canon(&n.port)?, n)))
                            .collect();
                        latest(&mut s.lldp, when, by_port);
                    }
                    Reading::Rules(r) => latest(&mut s.rules, when, r),
                });
                if let Err(d) = r {
                    diags.push(*d);
                }
            }
        }
    }
    for s in seen.switches.values_mut() {
        s.counters.sort_by(|a, b| a.0.cmp(&b.0));
    }
    seen
}

/// A reading per port with the switch's names turned into democ's; ports the build did
/// not configure (management, unused) are left out.
fn keep<T>(sw: &Switch, m: BTreeMap<String, T>) -> BTreeMap<String, T> {
    m.into_iter()
        .filter_map(|(k, v)| Some((sw.port(&k)?.port.clone(), v)))
        .collect()
}

fn rw_name(rw: Rw) -> &'static str {
    match rw {
        Rw::Read => "read",
        Rw::Write => "write",
    }
}

/// Whether the build has the flow, its pair and the host a result names.
fn known_pair(plan: &Planned, flow: &str, src: &str, dst: &str, host: &str) -> Result<(), String> {
    let Some(f) = plan.pairs.get(flow) else {
        return Err(format!("the build has no flow `{flow}`"));
    };
    if !f.pairs.iter().any(|p| p.src == src && p.dst == dst) {
        return Err(format!("flow `{flow}` has no pair `{src}` -> `{dst}`"));
    }
    if host != src && host != dst {
        return Err(format!(
            "`{host}` is neither end of `{flow}`'s pair `{src}` -> `{dst}`"
        ));
    }
    Ok(())
}
