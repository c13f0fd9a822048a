//! Copper and active optical cables against their reach: a LAN link with `media: dac`
//! or `media: aoc` longer than its medium carries at the link's speed (E0227). The reach
//! per medium and speed is catalog data (`cables:`, catalog/cables.yaml, with sources);
//! fiber with optics is optics.rs's.

use std::collections::HashSet;

use super::CheckInput;
use super::optics::{num, same_rate};
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{Link, LinkKind};
use crate::source::Span;
use crate::spec::catalog_file::CableModel;
use crate::spec::units::Rate;

/// The longest cable of `c` at `rate`, in metres. A rate the table does not list is held
/// to the medium's longest reach at any speed, so no length escapes every bound.
pub(crate) fn reach_m(c: &CableModel, rate: Rate) -> Option<f64> {
    c.reach
        .iter()
        .find(|r| same_rate(r.rate.value, rate))
        .map(|r| r.max_m)
        .or_else(|| c.reach.iter().map(|r| r.max_m).max_by(f64::total_cmp))
}

/// What carries `length_m` at `rate` instead: another catalog medium, else optics.
fn remedy(cx: &CheckInput, length_m: f64, rate: Rate) -> String {
    let other = cx
        .db
        .cables
        .sorted()
        .into_iter()
        .filter_map(|(name, c)| Some((name, reach_m(c, rate)?)))
        .find(|(_, reach)| *reach >= length_m);
    match other {
        Some((name, reach)) => format!(
            "use `media: {name}` (up to {} m at {rate}), or optics and fiber (`media: fiber` \
             with an `optic:`)",
            num(reach)
        ),
        None => "use optics and fiber (`media: fiber` with an `optic:`)".to_owned(),
    }
}

fn too_long(cx: &CheckInput, l: &Link, at: Span) -> Option<Diagnostic> {
    let medium = l.media?.as_str();
    let cable = cx.db.cables.get(medium)?;
    let rate = l.capacity;
    let reach = reach_m(cable, rate)?;
    let length_m = l.length_km * 1000.0;
    if length_m <= reach {
        return None;
    }
    let name = format!("`{}` -- `{}`", cx.m.end_name(l.a), cx.m.end_name(l.b));
    Some(
        Diagnostic::new(
            codes::CABLE_REACH,
            at,
            format!(
                "cable {name} is {} m of `{medium}`, beyond the {} m it carries at {rate}",
                num(length_m),
                num(reach)
            ),
        )
        .label(format!("{} m", num(length_m)))
        .help(format!(
            "a `{medium}` cable reaches at most {} m at {rate}: shorten the run, or {}",
            num(reach),
            remedy(cx, length_m, rate)
        )),
    )
}

/// E0227 for every LAN cable longer than its medium's reach, once per written length
/// (the cables of a bundle share one).
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let mut seen = HashSet::new();
    for l in &cx.m.links {
        if l.kind != LinkKind::Lan {
            continue;
        }
        let at = l.length_span.unwrap_or(l.span);
        if seen.contains(&at) {
            continue;
        }
        if let Some(d) = too_long(cx, l, at) {
            seen.insert(at);
            diags.push(d);
        }
    }
}
