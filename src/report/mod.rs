//! `report/index.html`: the show for a planner, in one self-contained file (inline CSS
//! and SVG, no script, nothing fetched), readable on a laptop and printable: the
//! topology, each flow's route and limits, link utilization, optical budgets, PCIe and
//! NUMA per DTN, the cabling plan and bill of materials, the findings, and links to every
//! generated file. Rust gathers what the page shows (`view.rs`, `topology.rs`); the
//! templates under `templates/report/` print it, escaping every value they print.

mod grid;
mod labels;
mod layout;
mod measured;
pub(crate) mod page;
mod topology;
mod view;

use minijinja::context;
use minijinja::value::{Serde, Value};
use serde::Serialize;

use crate::check::predict::Plan;
use crate::derive::ShowModel;
use crate::ir::Lab;
pub(crate) use measured::{Measured, Row as MeasuredRow};

/// A finding as the report lists it.
#[derive(Serialize)]
pub(crate) struct Finding {
    pub(crate) severity: &'static str,
    pub(crate) code: &'static str,
    pub(crate) location: String,
    pub(crate) message: String,
}

impl Finding {
    /// The session's diagnostics, located relative to the main spec's folder `main_dir`
    /// (as the manifest names sources), so the report does not depend on where democ ran.
    pub(crate) fn all(s: &crate::session::Session, main_dir: &str) -> Vec<Finding> {
        let prefix = format!("{main_dir}/");
        s.diags
            .items()
            .iter()
            .map(|d| Finding {
                severity: match d.severity {
                    crate::diag::Severity::Error => "error",
                    crate::diag::Severity::Warning => "warning",
                    crate::diag::Severity::Note => "note",
                },
                code: d.code.id,
                location: {
                    let at = crate::diag::render::location(&s.sources, d);
                    match at.strip_prefix(&prefix) {
                        Some(rest) if !main_dir.is_empty() => rest.to_owned(),
                        _ => at,
                    }
                },
                message: d.message.clone(),
            })
            .collect()
    }
}

/// The whole report. `generated`: every other file of the build, by path.
pub(crate) fn html_report(
    front: &ShowModel,
    plan: &Plan,
    lab: &Lab,
    found: &[Finding],
    generated: &[&str],
    measured: Option<&Measured>,
) -> String {
    body(front, plan, lab, found, measured).map_or_else(String::new, |b| finish(b, generated))
}

/// The report up to its list of files, which a build knows only once the rest is made
/// (so the body is made beside the other files). None: the show has no physics.
pub(crate) fn body(
    front: &ShowModel,
    plan: &Plan,
    lab: &Lab,
    found: &[Finding],
    measured: Option<&Measured>,
) -> Option<String> {
    let page = view::page(front, plan, lab, found, measured)?;
    Some(print(page::BODY, Value::from(Serde(&page))))
}

/// The report's body, its list of files (`generated`: every other file of the build, by
/// path) and its footer.
pub(crate) fn finish(mut out: String, generated: &[&str]) -> String {
    out.push_str(&print(
        page::FILES,
        context! { files => Value::from(Serde(generated)), version => env!("CARGO_PKG_VERSION") },
    ));
    out
}

/// A template of the report printed. The templates are democ's own and their data is
/// typed, so an error is a bug in democ: a test prints every section of a report.
fn print(template: &str, ctx: Value) -> String {
    page::environment()
        .and_then(|env| env.get_template(template)?.render(ctx))
        .unwrap_or_else(|e| panic!("report template `{template}`: {e:#}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "<script>alert(\"x\")</script>'";
    const ESCAPED: &str = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;";

    /// Names the spec's rules would refuse, given to the report anyway: the templates
    /// escape every value they print, in text and in attributes.
    #[test]
    fn hostile_show_switch_and_flow_names_are_escaped() {
        let (mut front, lab) = crate::testkit::render_fixture();
        let mut plan = crate::emit::prediction(&front).expect("the fixture has physics");
        front.model.settings.name = format!("show {HOSTILE}");
        front.model.switches[0].name.value = format!("sw {HOSTILE}");
        plan.flows[0].name = format!("flow {HOSTILE}");
        let found = [Finding {
            severity: "error",
            code: "E0000",
            location: format!("at {HOSTILE}"),
            message: format!("says {HOSTILE}"),
        }];
        let html = html_report(&front, &plan, &lab, &found, &["file \"x\".txt"], None);
        for shown in ["show", "sw", "flow", "at", "says"] {
            assert!(html.contains(&format!("{shown} {ESCAPED}")), "{shown}");
        }
        assert!(html.contains(&format!("data-name=\"sw {ESCAPED}\"")));
        assert!(html.contains("<a href=\"../file &quot;x&quot;.txt\">"));
        assert!(!html.contains("<script") && !html.contains("\")"));
        assert!(html.starts_with("<!DOCTYPE html>\n") && html.ends_with("</html>\n"));
    }

    /// Each section's rows are printed through their template.
    #[test]
    fn every_section_is_printed() {
        let (front, lab) = crate::testkit::render_fixture();
        let plan = crate::emit::prediction(&front).expect("the fixture has physics");
        let html = html_report(&front, &plan, &lab, &[], &["plan.json"], None);
        for id in [
            "topology",
            "flows",
            "links",
            "optics",
            "hosts",
            "cabling",
            "unconfirmed",
            "findings",
            "files",
        ] {
            assert!(html.contains(&format!("<section id=\"{id}\">")), "{id}");
        }
        assert!(html.contains("<p>None.</p>"));
        assert!(html.contains("class=\"route\"") && html.contains("class=\"node switch\""));
        assert_eq!(html.matches("<table>").count(), 7);
    }
}
