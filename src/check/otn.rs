//! OTN WAN links: each Ethernet client maps to a line signal from the catalog's `otn:`
//! table (10GE -> OTU2e, 40GE -> OTU3, 100GE -> OTU4, n x 100GE -> OTUCn). An unknown
//! mapping is an error at `client:`; the line figures are exposed for the plan output.

use super::CheckInput;
use crate::catalog::Catalog;
use crate::diag::{Diagnostic, Diags, codes, list};
use crate::resolve::model::Wan;
use crate::spec::catalog_file::OtnSignal;
use crate::spec::units::{Rate, parse_rate};
use crate::spec::wan::WanKind;

/// What an OTN WAN link carries (for the plan output; not wired yet).
#[allow(dead_code)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OtnLine<'a> {
    /// Catalog key of the line signal (`otu4`).
    pub(crate) signal: &'a str,
    /// Line rate of one signal (one lambda), Gbit/s.
    pub(crate) line_gbps: f64,
    /// Client ports mapped (one signal each).
    pub(crate) clients: usize,
    pub(crate) client_rate: Rate,
    /// Clients x client rate: what the WAN carries per direction.
    pub(crate) capacity: Rate,
}

/// The catalog signal carrying an Ethernet client written as `100GE`: an entry whose
/// `client` is spelled the same wins, else one of the same client rate (by name).
pub(crate) fn signal_for<'a>(
    db: &'a Catalog,
    client: &str,
) -> Result<(&'a str, &'a OtnSignal), String> {
    let rate =
        parse_rate(client).map_err(|e| format!("`{client}` is not an Ethernet client: {e}"))?;
    let all = db.otn.sorted();
    let by_name = all
        .iter()
        .find(|(_, s)| s.client.eq_ignore_ascii_case(client.trim()));
    let by_rate = || {
        all.iter()
            .find(|(_, s)| (s.client_rate.bps() - rate.bps()).abs() <= 1e-6 * rate.bps())
    };
    by_name.or_else(by_rate).copied().ok_or_else(|| {
        let known: Vec<&str> = all.iter().map(|(_, s)| s.client.as_str()).collect();
        if known.is_empty() {
            "the catalog has no `otn:` signals".to_owned()
        } else {
            format!("the catalog maps {}", list(&known))
        }
    })
}

/// Line figures of an OTN WAN link; None for other kinds or an unknown client.
#[allow(dead_code)]
pub(crate) fn line<'a>(db: &'a Catalog, w: &Wan) -> Option<OtnLine<'a>> {
    if w.kind != WanKind::Otn {
        return None;
    }
    let client = w.client.as_ref()?;
    let (signal, s) = signal_for(db, client).ok()?;
    let clients = w.links.len();
    Some(OtnLine {
        signal,
        line_gbps: s.line_gbps,
        clients,
        client_rate: s.client_rate.value,
        capacity: Rate(s.client_rate.bps() * clients as f64),
    })
}

/// The catalog optic a hand-off of `w` gets where the spec names none: the signal's
/// `client_optic`, when the catalog has that optic.
pub(crate) fn default_client_optic<'a>(db: &'a Catalog, w: &Wan) -> Option<&'a str> {
    let (_, s) = signal_for(db, w.client.as_ref()?).ok()?;
    let name = s.client_optic.as_deref()?;
    db.optics.get(name).map(|_| name)
}

/// The ends (0 = `a`, 1 = `b`) of OTN WAN `w` whose hand-off names no optic: no
/// client run there and no `optic:` on the WAN entry.
pub(crate) fn bare_ends(w: &Wan) -> impl Iterator<Item = usize> + '_ {
    (0..2).filter(move |&k| w.optic.is_none() && w.client_runs[k].is_none())
}

/// W0223 once for the show: the OTN hand-offs that name no client optic, and what the
/// bill of materials orders for them instead.
fn bare_hand_offs(cx: &CheckInput, diags: &mut Diags) {
    let bare: Vec<&Wan> =
        cx.m.wans
            .iter()
            .filter(|w| w.kind == WanKind::Otn && bare_ends(w).next().is_some())
            // A client no signal carries is E0220's; nothing to default it to.
            .filter(|w| {
                w.client
                    .as_ref()
                    .is_none_or(|c| signal_for(cx.db, c).is_ok())
            })
            .collect();
    let Some(first) = bare.first() else { return };
    let hand_offs: usize = bare
        .iter()
        .map(|w| w.links.len() * bare_ends(w).count())
        .sum();
    let names: Vec<String> = bare.iter().map(|w| format!("`{}`", w.name.value)).collect();
    let mut defaults: Vec<String> = bare
        .iter()
        .filter_map(|w| default_client_optic(cx.db, w).map(|o| format!("`{o}`")))
        .collect();
    defaults.sort();
    defaults.dedup();
    let ordered = if defaults.is_empty() {
        "the catalog has no default client optic for them, so the bill of materials orders none"
            .to_owned()
    } else {
        format!(
            "the bill of materials orders the catalog's default client optic, {}, in the switch port and in the transponder's client port of each",
            defaults.join(" and ")
        )
    };
    diags.push(
        Diagnostic::new(
            codes::OTN_CLIENT_OPTIC,
            first.name.span,
            format!(
                "{hand_offs} OTN hand-off{} name no client optic; {ordered}",
                if hand_offs == 1 { "" } else { "s" }
            ),
        )
        .label("no `optic:` and no client run")
        .help(format!(
            "write `optic:` (or `client_a:` / `client_b:` runs) on {} to order the optics you plan",
            names.join(", ")
        )),
    );
}

/// Checks every OTN WAN link's client mapping.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    bare_hand_offs(cx, diags);
    for w in cx.m.wans.iter().filter(|w| w.kind == WanKind::Otn) {
        let Some(client) = &w.client else { continue };
        if let Err(known) = signal_for(cx.db, client) {
            diags.push(
                Diagnostic::new(
                    codes::OTN_CLIENT,
                    client.span,
                    format!(
                        "no OTN signal carries the client `{}` of `{}`",
                        client.value, w.name.value
                    ),
                )
                .label("no line signal for this client")
                .help(format!(
                    "{known}; use one of those clients, or add an `otn:` entry to the catalog"
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::checks;

    fn otn(client: &str) -> String {
        checks::two_sites("length_km: 1", "")
            .replace("kind: dark-fiber", &format!("kind: otn, client: {client}"))
    }

    #[test]
    fn maps_clients_to_signals() {
        let f = checks::front(&otn("100GE"));
        assert_eq!(signal_for(&f.db, "100GE").map(|(n, _)| n), Ok("otu4"));
        assert_eq!(signal_for(&f.db, "10G").map(|(n, _)| n), Ok("otu2e"));
        let err = signal_for(&f.db, "25GE").unwrap_err();
        assert!(signal_for(&f.db, "twenty").is_err());
        assert!(err.contains("`100GE`") && err.contains("`10GE`"), "{err}");
        let l = line(&f.db, &f.model.wans[0]).expect("an OTN line");
        assert_eq!((l.signal, l.clients), ("otu4", 1));
        assert!((l.line_gbps - 111.809973).abs() < 1e-9);
        assert!((l.capacity.gbps() - 100.0).abs() < 1e-9);
    }

    #[test]
    fn known_client_is_clean_unknown_is_an_error() {
        // The hand-offs name no optic: W0223, no E0220.
        assert_eq!(checks::run(&otn("100GE"), check), ["W0223"]);
        assert_eq!(checks::run(&otn("40GE"), check), ["W0223"]);
        // 25GE clients on broken-out ports: no OTN signal carries 25GE.
        let spec = otn("25GE")
            .replace(
                "model: t-sw32 }",
                "model: t-sw32, ports: { 1/32: { breakout: 4x25G } } }",
            )
            .replace(
                r#""sw1:1/32", b: "sw2:1/32""#,
                r#""sw1:1/32:1", b: "sw2:1/32:1""#,
            );
        assert_eq!(checks::run(&spec, check), ["E0220"]);
    }

    #[test]
    fn hand_offs_without_optics_warn_once_naming_the_default() {
        let f = checks::front(&otn("100GE"));
        assert_eq!(
            default_client_optic(&f.db, &f.model.wans[0]),
            Some("100gbase-lr4")
        );
        let bare = otn("100GE");
        let cx = CheckInput::new(&f).expect("the fixture catalog has physics");
        let mut diags = Diags::default();
        check(&cx, &mut diags);
        let texts: Vec<&str> = diags.items().iter().map(|d| d.message.as_str()).collect();
        assert_eq!(texts.len(), 1, "{texts:?}");
        assert!(
            texts[0].contains("2 OTN hand-offs") && texts[0].contains("`100gbase-lr4`"),
            "{texts:?}"
        );
        // An `optic:` on the WAN entry names the hand-offs' optic: no warning.
        let named = bare.replace("kind: otn,", "kind: otn, optic: 100gbase-lr4,");
        assert!(checks::run(&named, check).is_empty());
    }
}
