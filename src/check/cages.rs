//! Cages and lanes: what plugs into each port. A copper or active cable (`media: dac`,
//! `media: aoc`) joins its two cages lane to lane, so both must run the link's speed on
//! the same lanes at the same lane rate (E0219); an optic retimes, so it only has to fit
//! its own cage (E0222). The lanes are catalog data: `electrical:` of switch port
//! groups, NICs and optics.

use std::collections::HashSet;

use super::CheckInput;
use super::optics::{compatible, same_rate};
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{End, Lanes, Link, LinkKind, NodeId};
use crate::spec::catalog_file::OpticModel;
use crate::spec::link::Media;
use crate::spec::units::Rate;
use crate::yaml::decode::Located;

/// Standard electrical lane rates, Gbit/s: a SerDes that drives one of them drives the
/// slower ones too.
const LANE_RATES: [f64; 4] = [100.0, 50.0, 25.0, 10.0];

/// The ways (lanes, lane rate) a cage with `l` runs `speed`.
pub(crate) fn modes(l: Lanes, speed: Rate) -> Vec<(u32, Rate)> {
    let top = l.rate.gbps();
    std::iter::once(top)
        .chain(LANE_RATES.into_iter().filter(|&r| r < top - 1e-9))
        .filter_map(|r| {
            let k = speed.gbps() / r;
            let n = k.round();
            ((k - n).abs() < 1e-6 && n >= 1.0 && n <= f64::from(l.count))
                .then(|| (n as u32, Rate::from_gbps(r)))
        })
        .collect()
}

/// `8 x 50G PAM4`.
fn lanes_text((k, r): (u32, Rate)) -> String {
    let coding = if r.gbps() >= 50.0 { "PAM4" } else { "NRZ" };
    format!("{k} x {r} {coding}")
}

fn modes_text(modes: &[(u32, Rate)]) -> String {
    let all: Vec<String> = modes.iter().map(|&m| lanes_text(m)).collect();
    all.join(" or ")
}

/// The cage at `e`: its form and its whole electrical lanes (a breakout subport's
/// parent cage, which an optic fills).
fn cage(cx: &CheckInput, e: End) -> Option<(String, Option<Lanes>)> {
    let m = cx.m;
    let p = m.port(e);
    match e.node {
        NodeId::Switch(_) => {
            let n = subports(cx, e);
            let whole = p.lanes.map(|l| Lanes {
                count: l.count * n,
                rate: l.rate,
            });
            Some((p.form.to_string(), whole))
        }
        NodeId::Host(h) => {
            let nic = &m.hosts[h].nics[p.nic?];
            let form = cx.db.nics.get(&nic.model)?.form.clone()?;
            Some((form, p.lanes))
        }
    }
}

/// The subports of the cage at `e` (1 unless broken out).
fn subports(cx: &CheckInput, e: End) -> u32 {
    let p = cx.m.port(e);
    match (e.node, &p.parent) {
        (NodeId::Switch(s), Some(parent)) => cx.m.switches[s]
            .ports
            .iter()
            .filter(|q| q.parent.as_ref() == Some(parent))
            .count() as u32,
        _ => 1,
    }
}

/// `qsfp` for QSFP+, QSFP28, QSFP56, QSFP112 and QSFP-DD (a QSFP module fits them all),
/// `sfp` for SFP+ and SFP28.
fn family(form: &str) -> &str {
    let f = form.trim();
    if f.starts_with("qsfp") {
        "qsfp"
    } else if f.starts_with("sfp") {
        "sfp"
    } else {
        f
    }
}

/// Why optic `o` does not fit a `form` cage with `lanes`; None when it fits.
pub(crate) fn misfit(o: &OpticModel, form: &str, lanes: Option<Lanes>) -> Option<String> {
    // An SFP module fits a QSFP cage through a QSA adapter, as planners often do.
    let qsa = family(&o.form) == "sfp" && family(form) == "qsfp";
    if family(&o.form) != family(form) && !qsa {
        return Some(format!(
            "a `{}` module does not fit the `{form}` cage",
            o.form
        ));
    }
    if qsa {
        return None;
    }
    let (e, l) = (o.electrical.as_ref()?, lanes?);
    if e.lanes > l.count {
        return Some(format!(
            "its host side needs {} lanes, the `{form}` cage has {}",
            e.lanes, l.count
        ));
    }
    (e.rate.value.gbps() > l.rate.gbps() + 1e-9).then(|| {
        format!(
            "its host side runs {} lanes, the `{form}` cage at most {}",
            e.rate.value, l.rate
        )
    })
}

/// Catalog optics that fit the cage at `e` and talk to `peer` (or, without one, run
/// `speed`), by name.
fn fitting<'d>(
    cx: &CheckInput<'d>,
    e: End,
    peer: Option<&OpticModel>,
    speed: Rate,
) -> Vec<(&'d str, &'d OpticModel)> {
    let Some((form, lanes)) = cage(cx, e) else {
        return Vec::new();
    };
    cx.db
        .optics
        .sorted()
        .into_iter()
        .filter(|(_, o)| misfit(o, &form, lanes).is_none())
        .filter(|(_, o)| match peer {
            Some(p) => compatible(o, p),
            None => same_rate(o.rate.value, speed),
        })
        .collect()
}

/// A pair of catalog optics, one per end, that links `a` and `b` at `speed`: the same
/// PMD on the fiber, each host side fitting its own cage; the shortest-reach pair.
fn optic_pair<'d>(cx: &CheckInput<'d>, a: End, b: End, speed: Rate) -> Option<(&'d str, &'d str)> {
    fitting(cx, a, None, speed)
        .into_iter()
        .flat_map(|(na, oa)| {
            fitting(cx, b, Some(oa), speed)
                .into_iter()
                .filter(|(_, ob)| same_rate(ob.rate.value, speed))
                .map(move |(nb, ob)| (oa.reach_km.max(ob.reach_km), na, nb))
                .collect::<Vec<_>>()
        })
        .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(y.1)).then(x.2.cmp(y.2)))
        .map(|(_, na, nb)| (na, nb))
}

fn cable_lanes(cx: &CheckInput, l: &Link) -> Option<Diagnostic> {
    let medium = l.media.filter(|m| matches!(m, Media::Dac | Media::Aoc))?;
    let m = cx.m;
    let (pa, pb) = (m.port(l.a), m.port(l.b));
    let speed = pa.speed;
    let (ma, mb) = (modes(pa.lanes?, speed), modes(pb.lanes?, speed));
    if ma.is_empty() || mb.is_empty() || ma.iter().any(|x| mb.contains(x)) {
        return None;
    }
    let (na, nb) = (m.end_name(l.a), m.end_name(l.b));
    let form = |e: End| cage(cx, e).map_or_else(String::new, |(f, _)| format!(" ({f})"));
    let mut ways = Vec::new();
    if let Some((oa, ob)) = optic_pair(cx, l.a, l.b, speed) {
        let b = if oa == ob {
            String::new()
        } else {
            format!(", optic_b: {ob}")
        };
        ways.push(format!(
            "optics, which retime: `media: fiber, optic: {oa}{b}` (each module's host side fits its own cage)"
        ));
    } else {
        ways.push(
            "optics and fiber (`media: fiber` with an optic whose host side fits each cage)"
                .to_owned(),
        );
    }
    let lower = pa
        .speeds
        .iter()
        .filter(|s| s.bps() < speed.bps() && pb.speeds.contains(s))
        .filter_map(|&s| {
            let (x, y) = (modes(pa.lanes?, s), modes(pb.lanes?, s));
            x.iter().find(|w| y.contains(w)).map(|&w| (s, w))
        })
        .max_by(|x, y| x.0.bps().total_cmp(&y.0.bps()));
    if let Some((s, w)) = lower {
        ways.push(format!(
            "run the link at {s} (`speed: {s}`), where both ends use {}",
            lanes_text(w)
        ));
    }
    ways.push(format!(
        "cable `{na}` to a port that runs {speed} on {}",
        modes_text(&ma)
    ));
    let medium = medium.as_str();
    Some(
        Diagnostic::new(
            codes::CABLE_LANES,
            l.span,
            format!(
                "a {speed} `{medium}` cable cannot join `{na}` and `{nb}`: their cages run {speed} on different lanes"
            ),
        )
        .label(format!("`{medium}` passes each lane through unchanged"))
        .also(l.span_a, format!("{}{} at {speed}", modes_text(&ma), form(l.a)))
        .also(l.span_b, format!("{}{} at {speed}", modes_text(&mb), form(l.b)))
        .help(format!("use {}", ways.join("; or "))),
    )
}

fn optic_at(l: &Link, e: End) -> Option<&Located<String>> {
    if e == l.a {
        l.optic_a.as_ref()
    } else {
        l.optic_b.as_ref()
    }
}

fn optic_cage(cx: &CheckInput, l: &Link, e: End) -> Option<Diagnostic> {
    let name = optic_at(l, e)?;
    let o = cx.db.optics.get(name)?;
    let (form, lanes) = cage(cx, e)?;
    let why = misfit(o, &form, lanes)?;
    let port = cx.m.end_name(e);
    let mut other = fitting(cx, e, Some(o), cx.m.port(e).speed);
    // On a breakout, a module with one optical port per subport first (a twin-port
    // 2 x 400G module in a cage split 2x400G).
    let subports = subports(cx, e);
    other.sort_by_key(|(_, o)| o.ports.unwrap_or(1) != subports);
    let help = match other.first() {
        Some((n, r)) => format!(
            "use `{n}` ({}), the same optics on the fiber made for this cage",
            r.title
        ),
        None => format!("use a `{form}` optic of the same kind on `{port}`"),
    };
    let at = if e == l.a { l.span_a } else { l.span_b };
    Some(
        Diagnostic::new(
            codes::OPTIC_CAGE,
            name.span,
            format!("optic `{}` does not fit `{port}`: {why}", name.value),
        )
        .label(format!("a `{}` module", o.form))
        .also(at, format!("a `{form}` cage"))
        .help(help),
    )
}

/// E0219 for every copper or active cable whose ends share no lanes, E0222 for every
/// optic that does not fit its cage; once per written span (a bundle's cables share one).
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let mut seen = HashSet::new();
    for l in &cx.m.links {
        let lan = l.kind == LinkKind::Lan;
        if lan && seen.insert((codes::CABLE_LANES.id, l.span)) {
            if let Some(d) = cable_lanes(cx, l) {
                diags.push(d);
            }
        }
        for e in [l.a, l.b] {
            if let Some(d) = optic_cage(cx, l, e) {
                if seen.insert((codes::OPTIC_CAGE.id, d.primary.span)) {
                    diags.push(d);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(x: f64) -> Rate {
        Rate::from_gbps(x)
    }

    #[test]
    fn lane_modes() {
        let qdd = Lanes {
            count: 8,
            rate: g(50.0),
        };
        let osfp4 = Lanes {
            count: 4,
            rate: g(100.0),
        };
        assert_eq!(modes(qdd, g(400.0)), [(8, g(50.0))]);
        assert_eq!(modes(osfp4, g(400.0)), [(4, g(100.0))]);
        // 200G: both run 4 x 50G.
        assert!(modes(osfp4, g(200.0)).contains(&(4, g(50.0))));
        assert!(modes(qdd, g(200.0)).contains(&(4, g(50.0))));
        let q28 = Lanes {
            count: 4,
            rate: g(25.0),
        };
        assert_eq!(modes(q28, g(100.0)), [(4, g(25.0))]);
        assert_eq!(modes(q28, g(40.0)), [(4, g(10.0))]);
        assert!(modes(q28, g(400.0)).is_empty());
    }

    #[test]
    fn families() {
        assert_eq!(family("qsfp28"), family("qsfp-dd"));
        assert_ne!(family("osfp"), family("qsfp-dd"));
        assert_eq!(family("sfp+"), family("sfp28"));
    }
}
