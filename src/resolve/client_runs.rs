//! `client_a:` / `client_b:` on OTN WAN links: the fiber between a switch port and the
//! transponder's client port at each end. Refused on other kinds of WAN link (E0221);
//! the switch-port optic falls back to the WAN link's `optic:`.

use super::Rx;
use super::model::ClientRun;
use crate::diag::{Diagnostic, codes};
use crate::spec::wan::{self, WanKind};
use crate::yaml::decode::Located;

/// The client runs of `w` at its `a` and `b` ends, each checked and resolved.
pub(super) fn resolve(rx: &mut Rx, w: &wan::Wan) -> [Option<ClientRun>; 2] {
    let one = |rx: &mut Rx, run: Option<&Located<wan::ClientRun>>, end: &'static str| {
        let run = run?;
        if w.kind.value != WanKind::Otn {
            not_otn(rx, w, run, end);
            return None;
        }
        let Some(optic) = run.optic.as_ref().or(w.optic.as_ref()) else {
            rx.diags.push(
                Diagnostic::new(
                    codes::MISSING_FIELD,
                    run.span,
                    format!(
                        "the client run `client_{end}` of `{}` names no optic",
                        w.name.value
                    ),
                )
                .label("no `optic:` here or on the WAN link")
                .help(format!(
                    "add `optic:` with a catalog optic to `client_{end}` (or to `{}` for both ends)",
                    w.name.value
                )),
            );
            return None;
        };
        let length_m = super::links::positive(rx, Some(&run.length_m), "a client run's length");
        Some(ClientRun {
            optic: optic.clone(),
            transponder_optic: run
                .transponder_optic
                .clone()
                .unwrap_or_else(|| optic.clone()),
            length_m,
            length_km: length_m / 1000.0,
            length_span: run.length_m.span,
            fiber: run.fiber.clone(),
            connectors: run.connectors.as_ref().map_or(2, |c| c.value),
            cords: run.connectors.as_ref().map_or(1, |c| c.value + 1),
            splices: run.splices.as_ref().map_or(0, |c| c.value),
            end,
            span: run.span,
        })
    };
    [
        one(rx, w.client_a.as_ref(), "a"),
        one(rx, w.client_b.as_ref(), "b"),
    ]
}

/// E0221: a client run on a dark fiber or a circuit.
fn not_otn(rx: &mut Rx, w: &wan::Wan, run: &Located<wan::ClientRun>, end: &str) {
    let kind = w.kind.value.as_str();
    rx.diags.push(
        Diagnostic::new(
            codes::OTN_CLIENT_RUN,
            run.span,
            format!(
                "`client_{end}` describes an OTN client run but `{}` is a `{kind}` WAN link",
                w.name.value
            ),
        )
        .label("a client run to an OTN transponder")
        .also(w.kind.span, format!("`kind: {kind}`"))
        .help(match w.kind.value {
            WanKind::DarkFiber => format!(
                "remove `client_{end}`: on dark fiber the optics face each other over the span \
                 (`optic:`, `length_km:`); or make `{}` `kind: otn` if a transponder carries it",
                w.name.value
            ),
            _ => format!(
                "remove `client_{end}`: a circuit hands off to the carrier's equipment; or make \
                 `{}` `kind: otn` if a transponder of yours carries it",
                w.name.value
            ),
        }),
    );
}
