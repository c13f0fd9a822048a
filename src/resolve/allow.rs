//! `allow: [W0246]` on a switch, link or flow: the warnings a planner acknowledges
//! there. Resolved to codes with the stretch of the spec they cover; the check pass
//! turns the matching warnings into notes (`check::acknowledge`).

use super::Rx;
use super::model::Allow;
use crate::diag::{Diagnostic, Severity, codes};
use crate::source::Span;
use crate::spec::Spec;
use crate::yaml::decode::Located;

/// The codes of one `allow:` list; unknown codes and error codes are refused.
fn codes_of(rx: &mut Rx, list: &[Located<String>]) -> Vec<(codes::Code, Span)> {
    let mut out = Vec::new();
    for c in list {
        match codes::find(&c.value) {
            Some(code) if code.severity() == Severity::Warning => out.push((code, c.span)),
            Some(code) => rx.diags.push(
                Diagnostic::new(
                    codes::INVALID_VALUE,
                    c.span,
                    format!("`{}` is not a warning and cannot be acknowledged", code.id),
                )
                .label("an error")
                .help("only warnings (`W...`) can be allowed; an error must be fixed, or the show built with `--allow-infeasible` when it is a feasibility error"),
            ),
            None => {
                let ids: Vec<&str> = codes::ALL
                    .iter()
                    .filter(|k| k.severity() == Severity::Warning)
                    .map(|k| k.id)
                    .collect();
                rx.diags.push(
                    Diagnostic::new(
                        codes::INVALID_VALUE,
                        c.span,
                        format!("no warning code `{}`", c.value),
                    )
                    .label("unknown code")
                    .help(crate::diag::suggest(&c.value, ids.iter().copied())),
                );
            }
        }
    }
    out
}

/// A stretch of one file from the first to the last of some spans.
fn cover(spans: impl IntoIterator<Item = Span>) -> Option<Span> {
    spans.into_iter().reduce(|a, b| {
        if a.file != b.file {
            return a;
        }
        Span {
            file: a.file,
            start: a.start.min(b.start),
            end: a.end.max(b.end),
        }
    })
}

pub(super) fn resolve(spec: &Spec, rx: &mut Rx) -> Vec<Allow> {
    let mut out = Vec::new();
    for (name, s) in &spec.switches {
        let Some(list) = &s.allow else { continue };
        let codes = codes_of(rx, list);
        // A switch entry has no span of its own: it runs from its name to the last value
        // written in it.
        let mut spans = vec![name.span, s.site.span, s.model.span];
        spans.extend(list.iter().map(|c| c.span));
        spans.extend(s.ports.iter().flatten().map(|(_, p)| p.span));
        spans.extend(s.openflow.iter().map(|o| o.mode.span));
        spans.extend(s.os.iter().map(|o| o.span));
        spans.extend(s.mgmt.iter().map(|o| o.span));
        spans.extend(s.gateway.iter().map(|o| o.span));
        spans.extend(s.description.iter().map(|o| o.span));
        out.extend(cover(spans).map(|scope| Allow {
            what: format!("switch `{}`", name.value),
            scope,
            codes,
        }));
    }
    for l in &spec.links {
        let Some(list) = &l.allow else { continue };
        let codes = codes_of(rx, list);
        // A collection's node span is where it starts: cover every value written in it.
        let mut spans = vec![l.span, l.a.span, l.b.span];
        spans.extend(list.iter().map(|c| c.span));
        spans.extend(l.media.iter().map(|x| x.span));
        spans.extend(l.optic.iter().chain(&l.optic_b).map(|x| x.span));
        spans.extend(l.length_m.iter().map(|x| x.span));
        spans.extend(l.lag.iter().map(|x| x.span));
        spans.extend(l.speed.iter().map(|x| x.span));
        spans.extend(l.description.iter().map(|x| x.span));
        out.extend(cover(spans).map(|scope| Allow {
            what: format!("link `{}` -- `{}`", l.a.value, l.b.value),
            scope,
            codes,
        }));
    }
    for f in &spec.flows {
        let Some(list) = &f.allow else { continue };
        let codes = codes_of(rx, list);
        let mut spans = vec![f.span, f.name.span, f.from.span, f.to.span, f.rate.span];
        spans.push(f.protocol.span);
        spans.extend(list.iter().map(|c| c.span));
        spans.extend(f.streams.iter().map(|x| x.span));
        spans.extend(f.cap.iter().map(|x| x.span));
        spans.extend(f.expect.iter().map(|x| x.span));
        out.extend(cover(spans).map(|scope| Allow {
            what: format!("flow `{}`", f.name.value),
            scope,
            codes,
        }));
    }
    out
}
