//! One port-channel per number per switch: two `links:` entries with the same
//! `lag: { id }` on a switch became two port-channels with one number, silently, and the
//! switch would merge or reject them (issue 13 §5). Refused rather than merged: the two
//! entries may disagree on LACP mode, VLANs or the far end, and democ would have to
//! guess which the planner meant.

use std::collections::hash_map::Entry;

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes};
use crate::fxhash::FxMap;
use crate::resolve::model::SwitchId;

/// E0120 at every LAG whose id an earlier LAG already uses on one of its switches.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let mut first: FxMap<(SwitchId, u16), usize> = FxMap::default();
    for (i, lag) in m.lags.iter().enumerate() {
        let switches = m.lag_switches(lag);
        for s in switches {
            match first.entry((s, lag.id)) {
                Entry::Vacant(v) => {
                    v.insert(i);
                }
                Entry::Occupied(o) => {
                    let earlier = &m.lags[*o.get()];
                    let sw = &m.switches[s].name.value;
                    diags.push(
                        Diagnostic::new(
                            codes::DUPLICATE_PORT_CHANNEL,
                            lag.id_span,
                            format!("port-channel {} is declared twice on `{sw}`", lag.id),
                        )
                        .label("second port-channel with this number")
                        .also(earlier.id_span, "first declared here")
                        .help(
                            "write a LAG's members as one link with port ranges \
                             (`sw1:1/[1-4]` to `sw2:1/[1-4]`), or give each port-channel its \
                             own `id`",
                        ),
                    );
                    break;
                }
            }
        }
    }
}
