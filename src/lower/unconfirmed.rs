//! One warning per switch (W0305) listing what its generated config and OpenFlow rules
//! rely on that its vendor's manual, as far as democ's sources go, does not confirm:
//! config lines whose syntax vendor.yaml marks unconfirmed (breakout modes, speed
//! keywords) and OpenFlow capabilities its profile marks unconfirmed. Never silent, and
//! never one warning per line.

use crate::diag::{Diagnostic, codes};
use crate::resolve::model::{Model, SwitchId};

/// `openflow`: the rules' version and the unconfirmed fields and actions they use.
pub(crate) fn warning(
    m: &Model,
    s: SwitchId,
    openflow: Option<(&str, &[&str])>,
    lines: &[String],
) -> Diagnostic {
    let sw = &m.switches[s];
    let os = sw.os.as_str();
    let mut parts = Vec::new();
    if !lines.is_empty() {
        parts.push(format!("config {}", lines.join(", ")));
    }
    let mut help = String::new();
    if let Some((version, names)) = openflow.filter(|(_, n)| !n.is_empty()) {
        let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        parts.push(format!("OpenFlow {version} {}", names.join(", ")));
        help = format!(
            "; load `openflow/{}.flows` there too and check `dump-flows`",
            sw.name.value
        );
    }
    let span = sw
        .openflow
        .as_ref()
        .filter(|_| openflow.is_some())
        .map_or(sw.name.span, |o| o.span);
    Diagnostic::new(
        codes::UNCONFIRMED,
        span,
        format!(
            "`{}` relies on what `{os}`'s manual does not confirm: {}",
            sw.name.value,
            parts.join("; ")
        ),
    )
    .label("relies on unconfirmed syntax")
    .help(format!(
        "try the config on the switch or a lab unit running `{os}` before the show{help}; templates/<vendor>/vendor.yaml says what each source covers"
    ))
}
