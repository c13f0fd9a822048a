//! Stateful boxes in the path of science flows (W0259): one finding per box and flow,
//! at the box, naming the flow. Throughput, MTU and latency of every box are already
//! part of the link they sit on (resolve::middleboxes); what no figure says is that a
//! stateful firewall drops the bursts a data-transfer host sends, which ESnet's Science
//! DMZ guidance warns of.

use std::collections::BTreeSet;

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes};

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    for (fi, f) in m.flows.iter().enumerate() {
        // (link, box) pairs met by this flow, in order, each once.
        let mut met = BTreeSet::new();
        for pr in &cx.routes.flows[fi].pairs {
            for hop in &pr.hops {
                for &l in hop.via.links(m) {
                    for (b, x) in m.links[l].middleboxes.iter().enumerate() {
                        if x.stateful {
                            met.insert((l, b));
                        }
                    }
                }
            }
        }
        // One finding per box, even when the flow crosses several cables it sits on.
        let mut said = BTreeSet::new();
        for (l, b) in met {
            let x = &m.links[l].middleboxes[b];
            if !said.insert(x.span) {
                continue;
            }
            diags.push(
                Diagnostic::new(
                    codes::STATEFUL_MIDDLEBOX,
                    x.name.span,
                    format!(
                        "flow `{}` crosses stateful {} `{}` on {}",
                        f.name.value,
                        x.kind.as_str(),
                        x.name.value,
                        m.link_name(l)
                    ),
                )
                .label("keeps per-connection state in the data path")
                .also(f.name.span, "this flow")
                .help(
                    "route the flow around the box (a Science DMZ path) and protect the hosts with router ACLs, or write `stateful: false` if the box does not track connections",
                ),
            );
        }
    }
}
