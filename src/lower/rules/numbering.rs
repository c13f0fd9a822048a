//! Where one OpenFlow switch's port numbers come from: democ's own where it sets them
//! (OVS `ofport_request`), the vendor's rule where documented (vendor.yaml
//! `openflow.port_numbers`), otherwise the switch's own report copied into the spec
//! (`openflow.port_map`). Without any of these democ writes no rules for the switch: an
//! invented number sends traffic out of the wrong port. Placeholders the spec declares
//! are numbered by democ's scheme and warned about.

use super::ports::{Numbers, PortMap, lag_key};
use crate::diag::{Diagnostic, Diags, codes};
use crate::fxhash::FxMap;
use crate::ir::Switch;
use crate::ir::interface::Role;
use crate::ir::openflow::Mode;
use crate::resolve::model::Switch as ModelSwitch;
use crate::vendor::profile::Numbering;

/// The switch's numbers. `scheme`: democ's numbering for its model.
pub(super) fn numbers(
    ms: &ModelSwitch,
    sw: &Switch,
    rule: Option<&Numbering>,
    scheme: PortMap,
    diags: &mut Diags,
) -> Numbers {
    let Some(of) = ms.openflow.as_ref() else {
        return Numbers::Scheme(scheme);
    };
    let ovs = sw.openflow.as_ref().is_some_and(|o| o.mode == Mode::Ovs);
    let given: FxMap<String, u32> = of
        .port_map
        .iter()
        .map(|(k, n, _)| (k.clone(), *n))
        .collect();
    let command = match rule {
        _ if ovs => None,
        Some(Numbering::Requested) | None => None,
        Some(Numbering::Documented { lag_base }) => {
            let documented = PortMap {
                step: 1,
                lag_base: *lag_base,
            };
            return with_map(given, documented);
        }
        Some(Numbering::Switch { command }) => Some(command.as_str()),
    };
    let Some(command) = command else {
        return with_map(given, scheme);
    };
    // The ports and port-channels the rules may name, as `port_map` keys.
    let keys: Vec<String> = sw
        .interfaces
        .iter()
        .filter(|i| i.role == Role::Openflow && i.lag.is_none())
        .map(|i| i.port.clone())
        .chain(
            sw.port_channels
                .iter()
                .filter(|c| c.role == Role::Openflow)
                .map(|c| lag_key(c.id)),
        )
        .collect();
    let name = &ms.name.value;
    let os = ms.os.as_str();
    for (k, _, span) in &of.port_map {
        if !keys.contains(k) {
            diags.push(
                Diagnostic::new(codes::OPENFLOW_PORT_MAP, *span, format!("`port_map` of `{name}` numbers `{k}`, which is no port or port-channel under its controller"))
                    .label("not an OpenFlow port of this switch")
                    .help(format!("name ports as the spec does (`1/13`, `1/49:2`) and port-channels as `port-channel ID`; the OpenFlow ports of `{name}`: {}", preview(&keys))),
            );
        }
    }
    let missing: Vec<&String> = keys.iter().filter(|k| !given.contains_key(*k)).collect();
    if let Some(at) = of.placeholder {
        if !missing.is_empty() {
            diags.push(
                Diagnostic::new(codes::OPENFLOW_PORT_MAP_PLACEHOLDER, at, format!("the OpenFlow port numbers of `{name}` are democ's placeholders for {} of its {} ports: its rulesets are right only if `{os}` numbers them the same", missing.len(), keys.len()))
                    .label("placeholders declared here")
                    .also(of.span, format!("`{name}` runs `{os}`, whose numbering is not documented"))
                    .help(format!("before the show, read `{name}`'s port numbers from {command} and copy each into its `openflow.port_map`")),
            );
        }
        return Numbers::Given {
            map: given,
            rest: Some(scheme),
        };
    }
    if !missing.is_empty() {
        let what = if given.is_empty() {
            format!(
                "`{name}` has no `openflow.port_map`, and `{os}` does not document how it numbers OpenFlow ports"
            )
        } else {
            let m: Vec<String> = missing.iter().map(|k| (*k).clone()).collect();
            format!(
                "`openflow.port_map` of `{name}` has no number for {}",
                preview(&m)
            )
        };
        diags.push(
            Diagnostic::new(codes::OPENFLOW_PORT_MAP, of.span, what)
                .label("its rules need the switch's own port numbers")
                .help(format!("read `{name}`'s port numbers from {command} and copy each into `openflow.port_map` (`{{ \"1/1\": N, \"port-channel 10\": M }}`), or set `placeholder_port_map: true` to build with democ's numbering until the switch is racked")),
        );
    }
    Numbers::Given {
        map: given,
        rest: Some(scheme),
    }
}

/// The spec's numbers where it gives some, `rule` for the rest.
fn with_map(given: FxMap<String, u32>, rule: PortMap) -> Numbers {
    if given.is_empty() {
        Numbers::Scheme(rule)
    } else {
        Numbers::Given {
            map: given,
            rest: Some(rule),
        }
    }
}

/// At most five names, then how many more.
fn preview(names: &[String]) -> String {
    let shown: Vec<String> = names.iter().take(5).map(|n| format!("`{n}`")).collect();
    match names.len().saturating_sub(5) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
