//! Hosts cabled back to back, with no switch between them: the cable is the path
//! (derive::paths), so the two ports must share a subnet, since nothing on the cable
//! routes.

use super::CheckInput;
use crate::derive::paths::PairRoute;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::NodeId;

/// Whether a pair rides one cable between the two hosts.
pub(crate) fn is_direct(pr: &PairRoute) -> bool {
    matches!(pr.hops.as_slice(), [h] if matches!((h.from, h.to), (NodeId::Host(_), NodeId::Host(_))))
}

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    for l in &m.links {
        let (NodeId::Host(a), NodeId::Host(b)) = (l.a.node, l.b.node) else {
            continue;
        };
        let (Some(pa), Some(pb)) = (m.port(l.a).address, m.port(l.b).address) else {
            continue;
        };
        if pa.subnet() == pb.subnet() {
            continue;
        }
        let (an, bn) = (&m.hosts[a].name.value, &m.hosts[b].name.value);
        diags.push(
            Diagnostic::new(
                codes::DIRECT_CABLE_SUBNET,
                l.span_a,
                format!(
                    "`{an}` and `{bn}` are cabled to each other, but their ports are in different subnets ({} and {})",
                    pa.subnet(),
                    pb.subnet()
                ),
            )
            .label(format!("{pa} here"))
            .also(l.span_b, format!("{pb} here"))
            .help(format!(
                "nothing routes on a cable between two hosts: give both ports addresses in one subnet (for example {} and another address in it), or leave them to `addressing.dtn`",
                pa
            )),
        );
    }
}
