//! OpenFlow switches: every one needs a controller, and the flow entries the routed flows
//! need must fit the model's table. Each pair crossing a switch needs IPv4 and ARP entries
//! in both directions (Floodlight's circuitpusher installs these four per hop,
//! domain-facts §6.3), plus one table-miss entry per switch.

use crate::fxhash::{FxMap, FxSet};

use super::CheckInput;
use crate::derive::paths::{PairRoute, Via};
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{HostId, Model, NodeId, SwitchId};

/// Entries per pair and switch crossed: forward IPv4, forward ARP, reverse IPv4, reverse ARP.
pub(crate) const ENTRIES_PER_PAIR: u32 = 4;
/// The table-miss entry every OpenFlow 1.3 table has (priority 0, send to controller or drop).
pub(crate) const TABLE_MISS_ENTRIES: u32 = 1;

/// One circuit through one switch: the two hosts (lower first) and the ports, in the
/// direction from the lower host. A pair and its reverse share the circuit.
type Circuit = (HostId, HostId, Via, Via);

/// Circuits one pair route opens on each switch it crosses.
fn circuits(pr: &PairRoute) -> impl Iterator<Item = (SwitchId, Circuit)> + '_ {
    pr.hops.windows(2).filter_map(move |w| {
        let NodeId::Switch(s) = w[0].to else {
            return None;
        };
        let c = if pr.src <= pr.dst {
            (pr.src, pr.dst, w[0].via, w[1].via)
        } else {
            (pr.dst, pr.src, w[1].via, w[0].via)
        };
        Some((s, c))
    })
}

/// What the flows put in one switch's table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Table {
    /// Flow entries, the table-miss entry included.
    pub(crate) entries: u32,
    /// The flow opening the most circuits here, and how many.
    pub(crate) largest: Option<(usize, u32)>,
}

/// The table of every OpenFlow switch (None for the others), indexed by switch.
pub(crate) fn tables(m: &Model, routes: &crate::derive::paths::Routes) -> Vec<Option<Table>> {
    let mut seen: FxSet<(SwitchId, Circuit)> = FxSet::default();
    let mut per_flow: FxMap<(SwitchId, usize), u32> = FxMap::default();
    let mut out: Vec<Option<Table>> = m
        .switches
        .iter()
        .map(|s| {
            s.openflow.as_ref().map(|_| Table {
                entries: TABLE_MISS_ENTRIES,
                largest: None,
            })
        })
        .collect();
    for (i, fr) in routes.flows.iter().enumerate() {
        for pr in &fr.pairs {
            for (s, c) in circuits(pr) {
                let Some(t) = out[s].as_mut() else { continue };
                if !seen.insert((s, c)) {
                    continue;
                }
                t.entries = t.entries.saturating_add(ENTRIES_PER_PAIR);
                let n = per_flow.entry((s, i)).or_insert(0);
                *n += 1;
                if t.largest.is_none_or(|(_, most)| *n > most) {
                    t.largest = Some((i, *n));
                }
            }
        }
    }
    out
}

/// Checks the controller and the table of every OpenFlow switch.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let tables = tables(m, cx.routes);
    for (s, sw) in m.switches.iter().enumerate() {
        let Some(of) = &sw.openflow else { continue };
        if of.controller.is_none() {
            diags.push(
                Diagnostic::new(codes::OPENFLOW_CONTROLLER, of.span, format!("OpenFlow switch `{}` has no controller", sw.name.value))
                    .label(format!("`{}` mode, but no controller to talk to", of.mode.as_str()))
                    .help("set `controller: ip:port` in the switch's `openflow:`, or `show.defaults.openflow.controller`"),
            );
        }
        let Some(size) = cx
            .db
            .switches
            .get(&sw.model)
            .and_then(|x| x.openflow.as_ref())
            .map(|o| o.table_size)
        else {
            continue;
        };
        let Some(t) = tables.get(s).and_then(Option::as_ref) else {
            continue;
        };
        if size == 0 {
            continue;
        }
        let used = f64::from(t.entries) * 100.0 / f64::from(size);
        let threshold = m.settings.warn_utilization;
        let d = if t.entries > size {
            Diagnostic::new(
                codes::OPENFLOW_TABLE,
                of.span,
                format!("OpenFlow switch `{}` needs {} flow entries but `{}` holds {size}", sw.name.value, t.entries, sw.model.value),
            )
            .help(format!("route some pairs around `{}` (`path:` on the flows), or use a model with a larger OpenFlow table", sw.name.value))
        } else if used > threshold {
            Diagnostic::new(
                codes::OPENFLOW_TABLE_FULL,
                of.span,
                format!("the OpenFlow table of `{}` would be {used:.0} % full ({} of {size} entries)", sw.name.value, t.entries),
            )
            .help(format!("leave room for the controller's own entries: route some pairs around `{}`, or use a larger table", sw.name.value))
        } else {
            continue;
        };
        let mut d = d.label(format!(
            "{} entries: {} per pair crossing it, plus the table-miss entry",
            t.entries, ENTRIES_PER_PAIR
        ));
        if let Some((i, n)) = t.largest {
            let f = &m.flows[i];
            let pairs = if n == 1 {
                "1 pair".to_owned()
            } else {
                format!("{n} pairs")
            };
            d = d.also(
                f.name.span,
                format!(
                    "{pairs} of flow `{}` cross `{}`",
                    f.name.value, sw.name.value
                ),
            );
        }
        diags.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::checks;

    /// `n` DTNs at each site paired one to one over sw1 -- wan1 -- sw2, sw1 in OpenFlow.
    fn spec(n: u32, controller: bool, bidirectional: bool) -> String {
        let mut s = checks::two_sites(
            "optic: 100gbase-lr4, length_km: 5",
            if bidirectional {
                "bidirectional: true"
            } else {
                ""
            },
        )
        .replace(
            "sw1: { site: booth, model: t-sw32 }",
            "sw1: { site: booth, model: t-sw32, openflow: { mode: pure } }",
        )
        .replace("dtn1: {", &format!("dtn1-[1-{n}]: {{"))
        .replace("dtn2: {", &format!("dtn2-[1-{n}]: {{"))
        .replace(
            "from: dtn1, to: dtn2",
            &format!("from: \"dtn1-[1-{n}]\", to: \"dtn2-[1-{n}]\""),
        )
        .replace(
            r#"  - { a: "dtn1:p0", b: "sw1:1/1", media: dac }"#,
            &format!(r#"  - {{ a: "dtn1-[1-{n}]:p0", b: "sw1:1/[1-{n}]", media: dac }}"#),
        )
        .replace(
            r#"  - { a: "dtn2:p0", b: "sw2:1/1", media: dac }"#,
            &format!(r#"  - {{ a: "dtn2-[1-{n}]:p0", b: "sw2:1/[1-{n}]", media: dac }}"#),
        );
        if !controller {
            s = s.replace("    openflow: { controller: \"10.0.0.10:6653\" }\n", "");
        }
        s
    }

    #[test]
    fn entries_per_pair_and_switch() {
        let f = checks::front(&spec(3, true, false));
        let t = tables(&f.model, &f.routes);
        assert_eq!(
            t[0],
            Some(Table {
                entries: 3 * 4 + 1,
                largest: Some((0, 3))
            })
        );
        assert_eq!(t[1], None, "sw2 does not run OpenFlow");
        let both = checks::front(&spec(3, true, true));
        assert_eq!(
            tables(&both.model, &both.routes)[0]
                .as_ref()
                .map(|t| t.entries),
            Some(13),
            "a reverse pair shares the circuit"
        );
    }

    #[test]
    fn table_size_and_controller() {
        // The fixture model's table holds 64: 15 pairs need 61 (95 %), 16 need 65.
        assert!(checks::run(&spec(10, true, false), check).is_empty());
        assert_eq!(checks::run(&spec(15, true, false), check), ["W0236"]);
        assert_eq!(checks::run(&spec(16, true, false), check), ["E0235"]);
        assert_eq!(checks::run(&spec(1, false, false), check), ["E0237"]);
    }
}
