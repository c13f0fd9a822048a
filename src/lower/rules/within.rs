//! A switch's rules against its OS's OpenFlow profile: a match field or action the
//! manual says the agent lacks is an error at the first flow that needs it (the switch
//! would refuse the flow-mod at the show); the ones the manual does not confirm are listed
//! in one warning per switch.

use std::collections::BTreeSet;

use crate::diag::{Diagnostic, Diags, codes};
use crate::fxhash::FxSet;
use crate::ir::rules::{Output, Rule};
use crate::resolve::model::{Model, SwitchId};
use crate::source::Span;
use crate::vendor::Support;
use crate::vendor::profile::Profile;

/// What one switch's agent accepts.
pub(super) struct Agent<'a> {
    pub(super) profile: &'a Profile,
    /// The OS has the NORMAL action.
    pub(super) normal: bool,
    pub(super) version: &'a str,
    /// OpenFlow numbers of the port-channels under the controller.
    pub(super) lags: &'a FxSet<u32>,
}

/// The pseudo-field a port-channel as `in_port` or `output` counts as.
const LAG_PORT: &str = "port-channel ports";

/// The names a rule asks of the agent: its fields and actions, and port-channel ports.
fn asks(r: &Rule, a: &Agent) -> Vec<&'static str> {
    let (matches, actions) = r.fields(a.version);
    let mut out: Vec<&'static str> = matches.iter().chain(&actions).map(|f| f.0).collect();
    let out_lag = matches!(r.actions.output, Output::Port { number } if a.lags.contains(&number));
    if a.lags.contains(&r.matches.in_port) || out_lag {
        out.push(LAG_PORT);
    }
    out
}

fn support(name: &str, a: &Agent) -> Support {
    if name == LAG_PORT {
        a.profile.lag_ports
    } else {
        a.profile.support(name, a.normal)
    }
}

/// Also lists `lines`, the switch's unconfirmed config lines, in the same warning.
pub(super) fn check(
    m: &Model,
    s: SwitchId,
    rules: &[Rule],
    a: &Agent,
    lines: &[String],
    span: Span,
    diags: &mut Diags,
) {
    let mut refused: BTreeSet<&'static str> = BTreeSet::new();
    let mut unsure: BTreeSet<&'static str> = BTreeSet::new();
    for r in rules {
        for name in asks(r, a) {
            match support(name, a) {
                Support::Yes => {}
                Support::Unconfirmed => {
                    unsure.insert(name);
                }
                Support::No => {
                    if refused.insert(name) {
                        diags.push(refusal(m, s, r, name, a.version, span));
                    }
                }
            }
        }
    }
    if unsure.is_empty() && lines.is_empty() {
        return;
    }
    let unsure: Vec<&str> = unsure.into_iter().collect();
    diags.push(crate::lower::unconfirmed::warning(
        m,
        s,
        Some((a.version, &unsure)),
        lines,
    ));
}

fn refusal(m: &Model, s: SwitchId, r: &Rule, name: &str, version: &str, span: Span) -> Diagnostic {
    let sw = &m.switches[s];
    let os = sw.os.as_str();
    let help = match name {
        "pop_vlan" | "push_vlan" | "set_field" | "strip_vlan" | "mod_vlan_vid" | "dl_vlan" => {
            format!(
                "end the circuit on a switch whose agent sets and strips VLAN tags, keep the VLAN on the whole path through `{0}` legacy (hybrid `openflow.ports` without its ports), or route the flow around `{0}` (`path:`)",
                sw.name.value
            )
        }
        "set_queue" | "enqueue" => format!(
            "carry the flow over TCP (`protocol: tcp`), or route it around `{}` (`path:`)",
            sw.name.value
        ),
        LAG_PORT => format!(
            "place the LAG by OpenFlow (`lag: {{ placement: openflow }}`: each member its own port), or keep it legacy on `{}`",
            sw.name.value
        ),
        _ => format!("route the flow around `{}` (`path:`)", sw.name.value),
    };
    let flow = m.flows.iter().find(|f| f.name.value == r.flow);
    let mut d = Diagnostic::new(
        codes::VENDOR_UNSUPPORTED,
        flow.map_or(span, |f| f.name.span),
        format!(
            "flow `{}` needs `{name}` in the OpenFlow {version} rules of `{}`, and `{os}`'s agent does not have it",
            r.flow, sw.name.value
        ),
    )
    .label("its rules cannot load there");
    if flow.is_some() {
        d = d.also(span, format!("`{}` runs `{os}`", sw.name.value));
    }
    d.help(help)
}
