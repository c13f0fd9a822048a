//! Switches: catalog model, OS, ports (with breakout) and OpenFlow settings.

use crate::catalog::titles;
use crate::fxhash::FxSet;
use std::sync::Arc;

use super::Rx;
use super::model::{Lanes, Model, NodeId, OpenflowCfg, Port, Switch};
use crate::diag::{Diagnostic, codes, list, suggest};
use crate::spec::Spec;
use crate::spec::catalog_file::{PortGroup, SwitchModel};
use crate::spec::switch::{OfMode, Os, PortOverride};
use crate::spec::units::{Rate, parse_rate};
use crate::yaml::decode::{DecodeContext, Located};

/// Claims a name in the node namespace (switches and hosts), reporting duplicates.
pub(super) fn claim(rx: &mut Rx, name: &Located<String>, id: NodeId, what: &str) -> bool {
    let valid = {
        let mut cx = DecodeContext { diags: rx.diags };
        crate::spec::name::check_name(&mut cx, name)
    };
    if !valid {
        return false;
    }
    if let Some(&(other, first)) = rx.nodes.get(name.as_str()) {
        let same_kind = matches!(
            (other, id),
            (NodeId::Switch(_), NodeId::Switch(_)) | (NodeId::Host(_), NodeId::Host(_))
        );
        if same_kind {
            rx.duplicate(name.span, first, what, name);
        } else {
            let first_kind = if matches!(other, NodeId::Switch(_)) {
                "switch"
            } else {
                "host"
            };
            rx.diags.push(
                Diagnostic::new(
                    codes::DUPLICATE_NAME,
                    name.span,
                    format!("{what} `{}` has the name of a {first_kind}", name.value),
                )
                .label(format!("this {what}"))
                .also(first, format!("the {first_kind}"))
                .help(
                    "switches and hosts share one namespace (both are link endpoints): rename one",
                ),
            );
        }
        return false;
    }
    rx.nodes.insert(name.value.clone(), (id, name.span));
    true
}

/// Parses `4x25G` into (count, speed).
pub(crate) fn parse_breakout(text: &str) -> Option<(u32, Rate)> {
    let (n, s) = text.split_once(['x', 'X'])?;
    Some((
        n.trim().parse().ok().filter(|&n| n > 0)?,
        parse_rate(s).ok()?,
    ))
}

fn base_ports(model: &SwitchModel) -> Vec<(Port, &PortGroup)> {
    let mut out = Vec::new();
    for g in &model.ports {
        let speeds: Arc<[Rate]> = g.speeds.iter().map(|s| s.value).collect();
        let form: Arc<str> = g.form.as_str().into();
        let lanes = g.electrical.as_ref().map(super::model::Lanes::of);
        let names = g.names.expand();
        // Canonical numbers are `1/N`; the group's first N anchors its OS numbering.
        let number = |name: &str| {
            name.split_once('/')
                .and_then(|(_, n)| n.parse::<u32>().ok())
        };
        let start = names.first().and_then(|n| number(n));
        for name in names {
            let native = g
                .numbering
                .as_ref()
                .zip(start)
                .zip(number(&name))
                .map(|((nb, start), n)| (nb.unit, nb.first + (n.saturating_sub(start)) * nb.step));
            // Unit 1's ports in canonical order, each the cage's lanes wide.
            let lane = lanes
                .zip(number(&name))
                .map(|(l, n)| n.saturating_sub(1) * l.count);
            let port = Port {
                name,
                speed: speeds.first().copied().unwrap_or_default(),
                speeds: Arc::clone(&speeds),
                parent: None,
                form: Arc::clone(&form),
                lanes,
                fec: None,
                mtu: None,
                description: None,
                shutdown: false,
                span: None,
                nic: None,
                link: None,
                address: None,
                native,
                lane,
                openflow: false,
            };
            out.push((port, &g.value));
        }
    }
    out
}

/// Applies one port override; returns the ports that replace the base port.
fn apply(
    rx: &mut Rx,
    sw: &str,
    mut port: Port,
    group: &PortGroup,
    o: &Located<PortOverride>,
    max_mtu: u32,
) -> Vec<Port> {
    port.span = Some(o.span);
    port.fec = o.fec.as_ref().map(|f| f.value);
    port.description = o.description.as_ref().map(|d| d.value.clone());
    port.shutdown = o.shutdown.as_ref().is_some_and(|s| s.value);
    if let Some(mtu) = &o.mtu {
        if mtu.value > max_mtu {
            rx.diags.push(
                Diagnostic::new(
                    codes::CAPABILITY,
                    mtu.span,
                    format!(
                        "MTU {} is above the model's maximum of {max_mtu}",
                        mtu.value
                    ),
                )
                .label("too large")
                .help(format!("use at most {max_mtu}")),
            );
        }
        port.mtu = Some(mtu.value);
    }
    if let Some(speed) = &o.speed {
        if !port.speeds.contains(&speed.value) {
            let allowed: Vec<String> = port.speeds.iter().map(ToString::to_string).collect();
            let allowed: Vec<&str> = allowed.iter().map(String::as_str).collect();
            rx.diags.push(
                Diagnostic::new(
                    codes::PORT_SPEED,
                    speed.span,
                    format!("port `{sw}:{}` cannot run at {}", port.name, speed.value),
                )
                .label("unsupported speed")
                .help(format!(
                    "a {} port runs at {}; use `breakout:` for lower speeds on split lanes",
                    port.form,
                    list(&allowed)
                )),
            );
        } else {
            port.speed = speed.value;
        }
    }
    let Some(bo) = &o.breakout else {
        return vec![port];
    };
    let modes: Vec<&str> = group
        .breakout
        .iter()
        .flatten()
        .map(|s| s.as_str())
        .collect();
    let parsed = parse_breakout(bo);
    if !modes
        .iter()
        .any(|m| parse_breakout(m) == parsed && parsed.is_some())
    {
        let help = if modes.is_empty() {
            format!("`{}` ports of this model cannot be broken out", port.form)
        } else {
            format!("this port supports {}", list(&modes))
        };
        rx.diags.push(
            Diagnostic::new(
                codes::PORT_SPEED,
                bo.span,
                format!(
                    "port `{sw}:{}` cannot break out as `{}`",
                    port.name, bo.value
                ),
            )
            .label("unsupported breakout")
            .help(help),
        );
        return vec![port];
    }
    let Some((n, speed)) = parsed else {
        return vec![port];
    };
    (1..=n)
        .map(|i| Port {
            name: format!("{}:{i}", port.name),
            speed,
            speeds: Arc::from([speed]),
            parent: Some(port.name.clone()),
            // Each subport takes its share of the cage's lanes (8 lanes split 4x100G: 2).
            lanes: port.lanes.map(|l| Lanes {
                count: l.count / n,
                rate: l.rate,
            }),
            lane: port
                .lane
                .zip(port.lanes)
                .map(|(first, l)| first + (i - 1) * (l.count / n)),
            ..port.clone()
        })
        .collect()
}

fn ports(
    rx: &mut Rx,
    sw: &Located<String>,
    model: &SwitchModel,
    os: Os,
    spec: &crate::spec::switch::Switch,
) -> Vec<Port> {
    let base = base_ports(model);
    let overrides = spec.ports.as_ref();
    // Only a switch with port overrides needs its ports by name (most have none).
    if let Some(ov) = overrides {
        let known: FxSet<&str> = base.iter().map(|(p, _)| p.name.as_str()).collect();
        for (name, o) in ov {
            if !known.contains(name.as_str()) {
                rx.diags.push(
                    Diagnostic::new(
                        codes::UNKNOWN_PORT,
                        o.span,
                        format!(
                            "switch `{}` ({}) has no port `{name}`",
                            sw.value, spec.model.value
                        ),
                    )
                    .label("no such port on this model")
                    .help(super::port_help::help(model, name, &[], {
                        let ports: Vec<Port> = base.iter().map(|(p, _)| p.clone()).collect();
                        super::port_help::vendor_named(
                            &model.vendor.value,
                            os.as_str(),
                            &ports,
                            name,
                        )
                    })),
                );
            }
        }
    }
    let mut out = Vec::with_capacity(base.len());
    for (port, group) in base {
        match overrides.and_then(|ov| ov.get(&port.name)) {
            Some(o) => out.extend(apply(rx, sw, port, group, o, model.max_mtu.value)),
            None => out.push(port),
        }
    }
    out
}

fn os_of(rx: &mut Rx, s: &crate::spec::switch::Switch, model: &SwitchModel) -> Os {
    let default = model.os.first().map_or(Os::Eos, |o| o.value);
    let Some(os) = &s.os else { return default };
    if !model.os.iter().any(|o| o.value == os.value) {
        let names: Vec<&str> = model.os.iter().map(|o| o.as_str()).collect();
        rx.diags.push(
            Diagnostic::new(
                codes::CAPABILITY,
                os.span,
                format!("model `{}` does not run `{}`", s.model.value, os.as_str()),
            )
            .label("unsupported OS")
            .help(format!("this model runs {}", list(&names))),
        );
    }
    os.value
}

fn openflow(
    rx: &mut Rx,
    m: &Model,
    s: &crate::spec::switch::Switch,
    model: &SwitchModel,
    os: Os,
) -> Option<OpenflowCfg> {
    let of = s.openflow.as_ref()?;
    let mode = of.mode.value;
    if mode == OfMode::Off {
        return None;
    }
    if matches!(os, Os::Sonic | Os::Cumulus) {
        rx.diags
            .push(super::no_openflow::diagnostic(s, of.mode.span, os));
        return None;
    }
    let version = of
        .version
        .clone()
        .unwrap_or_else(|| m.settings.of_version.clone());
    let controller = of
        .controller
        .as_ref()
        .or(m.settings.controller.as_ref())
        .map(|c| c.value);
    let instance = of.instance.as_ref().map_or(1, |i| i.value);
    let caps = model
        .openflow
        .as_ref()
        .filter(|c| c.os.as_ref().is_none_or(|l| l.contains(&os)));
    let agent_unconfirmed =
        caps.is_some_and(|c| c.agent == Some(crate::spec::catalog_file::Confidence::Unconfirmed));
    match caps {
        None => rx.diags.push(
            Diagnostic::new(
                codes::CAPABILITY,
                of.mode.span,
                format!(
                    "`{}` on `{}` does not support OpenFlow",
                    os.as_str(),
                    s.model.value
                ),
            )
            .label("OpenFlow requested here")
            .help("set `openflow: { mode: off }` or pick a model/OS with OpenFlow"),
        ),
        Some(caps) => {
            if mode == OfMode::Ovs && os != Os::Picos {
                rx.diags.push(
                    Diagnostic::new(
                        codes::CAPABILITY,
                        of.mode.span,
                        "OVS mode exists only on PicOS",
                    )
                    .label("`ovs` needs PicOS")
                    .help("use `pure` or `hybrid` on this OS"),
                );
            }
            if !caps.versions.contains(&version.value) {
                let v: Vec<&str> = caps.versions.iter().map(String::as_str).collect();
                rx.diags.push(
                    Diagnostic::new(
                        codes::CAPABILITY,
                        version.span,
                        format!(
                            "`{}` does not speak OpenFlow {}",
                            s.model.value, version.value
                        ),
                    )
                    .label("unsupported version")
                    .help(format!("this model supports {}", list(&v))),
                );
            }
            if caps.instances > 0 && u32::from(instance) > caps.instances {
                let span = of.instance.as_ref().map_or(of.mode.span, |i| i.span);
                rx.diags.push(
                    Diagnostic::new(
                        codes::CAPABILITY,
                        span,
                        format!(
                            "instance {instance} is beyond the model's {} OpenFlow instances",
                            caps.instances
                        ),
                    )
                    .label("no such instance")
                    .help(format!("use an instance from 1 to {}", caps.instances)),
                );
            }
        }
    }
    if let Some(d) = &of.dpid {
        if d.len() != 16 || !d.chars().all(|c| c.is_ascii_hexdigit()) {
            rx.diags.push(
                Diagnostic::new(
                    codes::INVALID_VALUE,
                    d.span,
                    format!("`{}` is not a datapath id", d.value),
                )
                .label("not 16 hex digits")
                .help("write 16 hexadecimal digits, for example `0000000000000011`"),
            );
        }
    }
    Some(OpenflowCfg {
        mode,
        instance,
        controller,
        version: version.value,
        dpid: of.dpid.as_ref().map(|d| d.value.to_lowercase()),
        ports: of_ports(rx, of, mode),
        port_map: of
            .port_map
            .iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.value, v.span))
            .collect(),
        placeholder: match &of.placeholder_port_map {
            Some(p) => p.value.then_some(p.span),
            None => m.settings.placeholder_port_map,
        },
        agent_unconfirmed,
        span: of.mode.span,
    })
}

/// Hybrid mode's `ports:`, ranges expanded; names are checked against the model's ports
/// once those exist ([`check_of_ports`]).
fn of_ports(
    rx: &mut Rx,
    of: &crate::spec::switch::SwitchOpenflow,
    mode: OfMode,
) -> Option<Vec<(String, crate::source::Span)>> {
    let list = of.ports.as_ref()?;
    if mode != OfMode::Hybrid {
        let span = list.first().map_or(of.mode.span, |p| p.span);
        rx.diags.push(
            Diagnostic::new(
                codes::INVALID_VALUE,
                span,
                format!(
                    "`ports:` chooses OpenFlow ports in `hybrid` mode; `{}` puts every cabled port under the controller",
                    mode.as_str()
                ),
            )
            .label("not used in this mode")
            .help("drop `ports:`, or set `mode: hybrid` to keep the other ports legacy"),
        );
        return None;
    }
    let mut out = Vec::new();
    for p in list {
        match crate::spec::name::parse_pattern(&p.value, true) {
            Ok(pat) => out.extend(pat.expand().into_iter().map(|n| (n, p.span))),
            Err((msg, help)) => rx.diags.push(
                Diagnostic::new(codes::INVALID_VALUE, p.span, msg)
                    .label("in this port name")
                    .help(if help.is_empty() {
                        "write a catalog port name (`1/17`) or a range (`1/[21-30]`)".to_owned()
                    } else {
                        help
                    }),
            ),
        }
    }
    Some(out)
}

/// Every name in `openflow.ports` is a port of the model (or a breakout parent).
fn check_of_ports(
    rx: &mut Rx,
    sw: &Located<String>,
    model: &str,
    of: &OpenflowCfg,
    ports: &[Port],
) {
    let Some(list) = &of.ports else { return };
    for (name, span) in list {
        let known = ports
            .iter()
            .any(|p| p.name == *name || p.parent.as_deref() == Some(name.as_str()));
        if !known {
            rx.diags.push(
                Diagnostic::new(
                    codes::UNKNOWN_PORT,
                    *span,
                    format!("switch `{}` ({model}) has no port `{name}`", sw.value),
                )
                .label("named as an OpenFlow port")
                .help(suggest(name, ports.iter().map(|p| p.name.as_str()))),
            );
        }
    }
}

pub(super) fn resolve(spec: &Spec, rx: &mut Rx, m: &mut Model) {
    for (name, s) in &spec.switches {
        if !claim(rx, name, NodeId::Switch(m.switches.len()), "switch") {
            continue;
        }
        let site = rx.site(&s.site);
        let Some(model) = rx.db.switches.get(&s.model) else {
            rx.unknown_model(
                s.model.span,
                "switch",
                &s.model,
                &titles(&rx.db.switches, |x| &x.title),
            );
            // Declared all the same: links and paths naming it are not unknown names.
            rx.nodes.remove(name.as_str());
            rx.unresolved.insert(name.value.clone());
            continue;
        };
        let os = os_of(rx, s, model);
        let openflow = openflow(rx, m, s, model, os);
        let ports = ports(rx, name, model, os, s);
        if let Some(of) = &openflow {
            check_of_ports(rx, name, &s.model.value, of, &ports);
        }
        let port_index = ports
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i))
            .collect();
        m.switches.push(Switch {
            name: name.clone(),
            site: site.unwrap_or(0),
            model: s.model.clone(),
            vendor: model.vendor.value.clone(),
            os,
            mgmt: s.mgmt.as_ref().map(|a| Located::new(a.0, a.span)),
            asn: s.asn.as_ref().and_then(|a| u32::try_from(a.value).ok()),
            router_id: s.router_id.as_ref().map(|a| a.0),
            gateway: s.gateway.clone(),
            openflow,
            ports,
            port_index,
            max_mtu: model.max_mtu.value,
            platform: model.platform.clone(),
            os_unconfirmed: model
                .os_unconfirmed
                .as_ref()
                .is_some_and(|l| l.contains(&os)),
            sonic: model.sonic.as_ref().map(|p| super::model::SonicHw {
                platform: p.platform.clone(),
                hwsku: p.hwsku.clone(),
                lanes_confirmed: p.lanes == crate::spec::catalog_file::Confidence::Confirmed,
            }),
            description: s.description.as_ref().map(|d| d.value.clone()),
            // A device with no switch OS takes no config from democ, as equipment of
            // others does not.
            external: s.external.as_ref().is_some_and(|e| e.value) || os == Os::None,
            throughput: s.throughput.as_ref().map(|t| t.value),
        });
        if os == Os::None {
            super::no_os::check(rx, &name.value, s);
        }
    }
}
