//! Datapath ids: the spec's, or derived from the switch's position so a show's ids are
//! small, stable and readable (`openflow:1` in OpenDaylight). On OSes that put the
//! instance number in the high 16 bits (FTOS) the derived id does too. Derived ids skip
//! every id the spec gives explicitly.

use std::collections::BTreeSet;

use crate::resolve::model::Model;
use crate::vendor::{DpidRule, Vendors};

/// Per switch (by index): its datapath id, if it runs OpenFlow.
pub(crate) fn assign(m: &Model, vendors: &Vendors) -> Vec<Option<u64>> {
    let explicit: Vec<Option<u64>> = m
        .switches
        .iter()
        .map(|s| {
            s.openflow
                .as_ref()
                .and_then(|o| o.dpid.as_deref())
                .and_then(|d| u64::from_str_radix(d, 16).ok())
        })
        .collect();
    let mut used: BTreeSet<u64> = explicit.iter().flatten().copied().collect();
    let mut next = 1u64;
    let mut out = Vec::with_capacity(m.switches.len());
    for (s, e) in m.switches.iter().zip(explicit) {
        let Some(of) = &s.openflow else {
            out.push(None);
            continue;
        };
        if e.is_some() {
            out.push(e);
            continue;
        }
        let prefixed = vendors
            .flavour(&s.vendor, s.os.as_str())
            .and_then(|(_, f)| f.openflow.as_ref())
            .is_some_and(|c| c.dpid == DpidRule::InstancePrefixed);
        let high = if prefixed {
            u64::from(of.instance) << 48
        } else {
            0
        };
        while used.contains(&(high | next)) {
            next += 1;
        }
        used.insert(high | next);
        out.push(Some(high | next));
        next += 1;
    }
    out
}
