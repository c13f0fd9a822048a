//! W0248: a LAG whose streams are too few for its members loses throughput to static
//! hashing (`hashing`): named with its expected share, the worst case and the streams
//! that would reach the demand.

use super::CheckInput;
use super::hashing::{busy_members, lag_hashed, streams_for, unit};
use super::load::{Loads, Res};
use super::predict::SHORTFALL;
use crate::diag::{Diagnostic, Diags, codes, plural};
use crate::spec::catalog_file::HashFields;

pub(crate) fn check(cx: &CheckInput, loads: &Loads, diags: &mut Diags) {
    let m = cx.m;
    for (r, _) in loads.used() {
        let Res::Lag(g, forward) = r else { continue };
        let h = lag_hashed(cx, loads, &r, g);
        let raw = h.member_gbps * h.members as f64;
        // As for a flow (W0247): warn below 95 % of what the members could carry of it.
        let need = h.demand_gbps.min(raw) * SHORTFALL;
        if h.capacity >= raw || h.expected >= need {
            continue;
        }
        let lag = &m.lags[g];
        let direction = if forward { "a->b" } else { "b->a" };
        let unit = unit(h.fields);
        let more = match h.fields {
            HashFields::L3L4 if h.computed.is_some() => picked_streams(&h, need).map_or_else(
                || "more members".to_owned(),
                |k| format!("{k} streams in all reach it, on ports democ picks"),
            ),
            HashFields::L3L4 => streams_for(h.members, h.demand_gbps, h.member_gbps, need)
                .filter(|&k| k > h.streams)
                .map_or_else(
                    || "more members than streams".to_owned(),
                    |k| format!("{k} streams in all reach it (with a hash on the L4 ports)"),
                ),
            // More streams per pair share the pair's member: only more pairs, or a hash
            // that sees the streams, spread the load.
            HashFields::L3 => format!(
                "the switch hashes on the addresses only (catalog `lag_hash: l3`), so a pair's streams share one member: configure a hash on the L4 ports, or spread the demand over {} pairs",
                streams_for(h.members, h.demand_gbps, h.member_gbps, need)
                    .map_or_else(|| "more".to_owned(), |k| k.to_string())
            ),
        };
        let spread = match &h.computed {
            Some(c) => format!(
                "{} per member as the DTN's bond hashes the picked client ports, carrying",
                c.streams
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!(
                "{:.1} busy on average, expected",
                busy_members(h.members, h.streams)
            ),
        };
        let mut d = Diagnostic::new(
            codes::LAG_HASHING,
            lag.span,
            format!(
                "port-channel {} hashes {} onto {} members: {spread} {:.1} of {:.1} Gbit/s of demand ({:.0}% of its {:.0} Gbit/s)",
                lag.id,
                plural(h.streams as usize, unit),
                h.members,
                h.expected,
                h.demand_gbps,
                100.0 * h.expected / raw,
                raw
            ),
        )
        .label(format!(
            "{direction}; worst case, every {unit} on one member: {:.0} Gbit/s",
            h.worst
        ))
        .help(format!(
            "{more}; or give the LAG more members than {unit}s{}",
            pin_help(m, lag)
        ));
        for &fi in loads.flows(&r).iter().take(2) {
            let f = &m.flows[fi];
            d = d.also(f.name.span, format!("`{}` crosses it", f.name.value));
        }
        diags.push(d);
    }
}

/// The fewest streams (more than now) whose picked ports carry `need` over the bond's
/// members, at most 64 per member: for one pair, picked again from its own addresses
/// and server port (ports the host's other transfers hold aside); for several, only over
/// a power-of-two count of members, where what picking reaches depends on the counts
/// alone (`bond_hash::picked_loads`).
fn picked_streams(h: &super::hashing::Hashed, need: f64) -> Option<u32> {
    use super::bond_hash::{pick_cport, picked_loads};
    let one_pair = h.computed.as_ref().and_then(|c| c.one_pair);
    let most = 64 * h.members.max(1) as u32;
    (h.streams + 1..=most).find(|&k| {
        let loads = match one_pair {
            Some((src, dst, dport)) => {
                pick_cport(src, dst, dport, k, &vec![0; h.members], &[]).map(|(_, l)| l)
            }
            None => picked_loads(k, h.members),
        };
        loads.is_some_and(|c| {
            let d = h.demand_gbps / f64::from(k);
            c.iter()
                .map(|&x| (f64::from(x) * d).min(h.member_gbps))
                .sum::<f64>()
                >= need
        })
    })
}

/// The OpenFlow fix, where it applies: democ pins pairs to members only when every member
/// is under the controller at both ends (E0117 otherwise).
fn pin_help(m: &crate::resolve::model::Model, lag: &crate::resolve::model::Lag) -> String {
    if m.unpinnable_end(lag).is_some() {
        return String::new();
    }
    format!(
        ", or set `placement: openflow` on LAG {}: democ's rules then pin each host pair to a member",
        lag.id
    )
}
