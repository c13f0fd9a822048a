//! `openflow:` on a switch whose OS runs no OpenFlow agent at all (SONiC, Cumulus
//! Linux): one located
//! error whose help is the layout democ builds instead.

use crate::diag::{Diagnostic, codes};
use crate::source::Span;
use crate::spec::switch::Os;

/// The OSes democ programs for OpenFlow, from the vendor data.
fn openflow_oses() -> Vec<String> {
    let Ok(v) = crate::vendor::vendors() else {
        return Vec::new();
    };
    let mut oses: Vec<String> = v
        .by_folder
        .values()
        .flat_map(|f| &f.flavours)
        .filter(|(_, fl)| fl.openflow.is_some())
        .map(|(os, _)| os.clone())
        .collect();
    oses.sort();
    oses
}

/// E0307 at the switch's `mode:`.
pub(super) fn diagnostic(s: &crate::spec::switch::Switch, span: Span, os: Os) -> Diagnostic {
    // What democ writes instead, in the OS's own terms.
    let tables = match os {
        Os::Cumulus => "NVUE file (the `br_default` bridge's VLANs, interfaces and routing)",
        _ => "config (VLAN, VLAN_MEMBER, INTERFACE and FRR)",
    };
    let oses = openflow_oses();
    let oses: Vec<&str> = oses.iter().map(String::as_str).collect();
    Diagnostic::new(
        codes::OS_WITHOUT_OPENFLOW,
        span,
        format!(
            "`{}` runs no OpenFlow agent: a `{}` switch forwards only by its own tables",
            os.as_str(),
            s.model.value
        ),
    )
    .label("OpenFlow asked of this switch")
    .help(format!(
        "drop `openflow:` (or set `mode: off`): democ then writes the flows' VLANs and routes into its `{}` {tables}, the layout its OS runs; to keep the controller steering these flows, give the OpenFlow ports to a switch on the path running {}",
        os.as_str(),
        crate::diag::list(&oses)
    ))
}
