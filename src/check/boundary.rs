//! The OpenFlow/legacy boundary. A packet that enters a switch on an OpenFlow port is
//! forwarded by the controller's rules; one that enters on a legacy port, by the switch's
//! own L2/L3. Where the OS cannot pass packets from one side to the other (Dell FTOS 9,
//! Arista EOS: `openflow.boundary.bridges_legacy` in templates/<vendor>/vendor.yaml), a
//! flow whose path crosses the line on that switch cannot forward: E0265, once per flow
//! and switch. Separately, the switches on a flow's path whose OpenFlow ports forward only
//! by rules are what the plan names as needing the controller.

use std::collections::HashMap;

use super::CheckInput;
use crate::derive::paths::{Hop, Via};
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{End, Model, NodeId, SwitchId};
use crate::vendor::OfBoundary;

/// The boundary data of each switch's OS; None: the switch runs no OpenFlow (or democ has
/// no OpenFlow data for its OS, which lowering reports).
fn boundaries(m: &Model) -> Vec<Option<&'static OfBoundary>> {
    let vendors = crate::vendor::vendors().ok();
    m.switches
        .iter()
        .map(|s| {
            s.openflow.as_ref()?;
            let (_, f) = vendors?.flavour(&s.vendor, s.os.as_str())?;
            f.openflow.as_ref().map(|c| &c.boundary)
        })
        .collect()
}

/// The port of switch `s` a hop rides on (a LAG: its first member's).
fn port_at(m: &Model, s: SwitchId, via: Via) -> Option<End> {
    let l = &m.links[*via.links(m).first()?];
    [l.a, l.b].into_iter().find(|e| e.node == NodeId::Switch(s))
}

/// The (ingress, egress) ports of every switch a pair's route crosses.
fn crossings(m: &Model, hops: &[Hop]) -> impl Iterator<Item = (SwitchId, End, End)> {
    hops.windows(2).filter_map(move |w| {
        let NodeId::Switch(s) = w[0].to else {
            return None;
        };
        Some((s, port_at(m, s, w[0].via)?, port_at(m, s, w[1].via)?))
    })
}

/// E0265 where a flow crosses between OpenFlow and legacy ports on a switch whose OS
/// cannot bridge them.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let caps = boundaries(m);
    if caps.iter().all(Option::is_none) {
        return;
    }
    for (fi, fr) in cx.routes.flows.iter().enumerate() {
        // Per switch: the first crossing found and how many pairs cross there.
        let mut found: HashMap<SwitchId, (End, End, usize)> = HashMap::new();
        for pr in &fr.pairs {
            for (s, a, b) in crossings(m, &pr.hops) {
                let Some(c) = caps[s] else { continue };
                if c.bridges_legacy || m.port(a).openflow == m.port(b).openflow {
                    continue;
                }
                found.entry(s).or_insert((a, b, 0)).2 += 1;
            }
        }
        let mut found: Vec<_> = found.into_iter().collect();
        found.sort_by_key(|(s, _)| *s);
        for (s, (a, b, n)) in found {
            diags.push(crossing(m, fi, s, a, b, n));
        }
    }
}

fn crossing(m: &Model, fi: usize, s: SwitchId, a: End, b: End, n: usize) -> Diagnostic {
    let (f, sw) = (&m.flows[fi], &m.switches[s]);
    let role = |e: End| {
        if m.port(e).openflow {
            "OpenFlow"
        } else {
            "legacy"
        }
    };
    let (of_port, legacy_port) = if m.port(a).openflow { (a, b) } else { (b, a) };
    let more = if n > 1 {
        format!(" ({n} pairs cross here)")
    } else {
        String::new()
    };
    let mut d = Diagnostic::new(
        codes::OPENFLOW_BOUNDARY,
        f.name.span,
        format!(
            "flow `{}` enters `{}` on {} port `{}` and leaves on {} port `{}`, and `{}` cannot forward between the two",
            f.name.value,
            sw.name.value,
            role(a),
            m.port(a).name,
            role(b),
            m.port(b).name,
            sw.os.as_str()
        ),
    )
    .label(format!("cannot forward on `{}`{more}", sw.name.value));
    if let Some(of) = &sw.openflow {
        d = d.also(
            of.span,
            format!("`{}` runs `{}` OpenFlow", sw.name.value, of.mode.as_str()),
        );
    }
    for e in [a, b] {
        if let Some(l) = m.port(e).link {
            d = d.also(
                m.links[l].span,
                format!("`{}`: {} port", m.end_name(e), role(e)),
            );
        }
    }
    d.help(format!(
        "make the path's ports on `{}` all OpenFlow (add `{}` to its `openflow.ports`) or all legacy (leave `{}` out of them)",
        sw.name.value,
        m.port(legacy_port).name,
        m.port(of_port).name
    ))
}

/// Per flow, the switches (sorted, by name) where the flow's packets are forwarded only by
/// OpenFlow rules: an OpenFlow port on its path on an OS whose OpenFlow ports do not fall
/// back to normal forwarding. democ writes no rules, so those flows need the controller.
pub(crate) fn rule_bound(cx: &CheckInput) -> Vec<Vec<String>> {
    let m = cx.m;
    let caps = boundaries(m);
    // No OpenFlow switch: nothing is rule-bound, and the hops need no walking.
    if caps.iter().all(Option::is_none) {
        return vec![Vec::new(); cx.routes.flows.len()];
    }
    cx.routes
        .flows
        .iter()
        .map(|fr| {
            let mut names: Vec<String> = Vec::new();
            let mut seen = crate::fxhash::FxSet::default();
            for pr in &fr.pairs {
                for (s, a, b) in crossings(m, &pr.hops) {
                    let Some(c) = caps[s] else { continue };
                    if c.forwards_without_rules || !(m.port(a).openflow || m.port(b).openflow) {
                        continue;
                    }
                    if seen.insert(s) {
                        names.push(m.switches[s].name.value.clone());
                    }
                }
            }
            names.sort();
            names
        })
        .collect()
}
