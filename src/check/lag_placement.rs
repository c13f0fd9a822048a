//! E0117: a LAG placed by OpenFlow rules (`lag: { placement: openflow }`) that cannot be:
//! democ's rules pin pairs to members only where every member is an OpenFlow port of its
//! own at both ends (no port-channel; `derive::pins`). A member end on a host, or on a
//! port not under the controller, would leave that end hashing (or a host bond with no
//! port-channel to talk to), and `lacp:` has nothing to run on.

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::NodeId;

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    for lag in &m.lags {
        let Some(span) = lag.openflow_placed else {
            continue;
        };
        if let Some(end) = m.unpinnable_end(lag) {
            let (why, help) = match end.node {
                NodeId::Host(_) => (
                    "is a host port: a host's bond hashes what it sends".to_owned(),
                    "keep the default placement (`hash`) for a LAG to a host".to_owned(),
                ),
                NodeId::Switch(s) => (
                    "is not under the controller".to_owned(),
                    format!(
                        "add the port to `openflow.ports` of `{}`, or keep the default placement (`hash`)",
                        m.switches[s].name.value
                    ),
                ),
            };
            diags.push(
                Diagnostic::new(
                    codes::LAG_PLACEMENT,
                    span,
                    format!(
                        "LAG {} is placed by OpenFlow rules, but member end `{}` {why}",
                        lag.id,
                        m.end_name(end)
                    ),
                )
                .label("every member must be an OpenFlow port at both ends")
                .help(help),
            );
        }
        if let Some(lacp) = lag.lacp_span {
            diags.push(
                Diagnostic::new(
                    codes::LAG_PLACEMENT,
                    lacp,
                    format!(
                        "LAG {} is placed by OpenFlow rules: it is no port-channel, so no LACP runs on it",
                        lag.id
                    ),
                )
                .label("no port-channel to run it")
                .also(span, "placed by OpenFlow rules here")
                .help("drop `lacp:`, or drop `placement: openflow` to keep a port-channel"),
            );
        }
    }
}
