//! `show:` with defaults applied, and the sites.

use super::Rx;
use super::model::{ManagementNet, Pools, Settings, Site};
use crate::diag::{Diagnostic, Diags, codes};
use crate::source::Span;
use crate::spec::Spec;
use crate::spec::show::{ControllerVia, Management, Routing};
use crate::yaml::decode::Located;

pub(super) fn settings(spec: &Spec, diags: &mut Diags) -> Option<Settings> {
    let Some(show) = &spec.show else {
        let span = Span::new(crate::source::FileId(0), 0, 0);
        diags.push(
            Diagnostic::new(
                codes::MISSING_FIELD,
                span,
                "the spec has no `show:` section",
            )
            .help("start the main file with `show: { name: ... }`"),
        );
        return None;
    };
    {
        let mut cx = crate::yaml::decode::DecodeContext { diags: &mut *diags };
        // The show's name is a file name (`lab/<name>.clab.yml`) and part of every
        // generated identifier: the same safe characters as every other name.
        crate::spec::name::check_name(&mut cx, &show.name);
    }
    for text in [&show.title, &show.venue].into_iter().flatten() {
        text_limit(text, diags);
    }
    let d = show.defaults.as_ref();
    let of = d.and_then(|d| d.openflow.as_ref());
    let at = show.name.span;
    let a = show.addressing.as_ref();
    Some(Settings {
        name: show.name.value.clone(),
        title: show
            .title
            .as_ref()
            .map_or_else(|| show.name.value.clone(), |t| t.value.clone()),
        venue: show
            .venue
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        host_mtu: d
            .and_then(|d| d.host_mtu.clone())
            .unwrap_or(Located::new(9000, at)),
        switch_mtu: d.and_then(|d| d.switch_mtu.clone()),
        controller: of.map(|o| o.controller.clone()),
        of_version: of
            .and_then(|o| o.version.clone())
            .unwrap_or(Located::new("1.3".into(), at)),
        placeholder_port_map: of
            .and_then(|o| o.placeholder_port_map.as_ref())
            .filter(|p| p.value)
            .map(|p| p.span),
        restconf: of
            .and_then(|o| o.restconf.as_ref())
            .map_or(crate::spec::show::Restconf::Rfc8040, |r| r.value),
        margin_db: d
            .and_then(|d| d.optics_margin_db.clone())
            .unwrap_or(Located::new(f64::NAN, at)),
        warn_utilization: d
            .and_then(|d| d.warn_utilization.as_ref())
            .map_or(90.0, |v| v.value),
        routing: d
            .and_then(|d| d.routing.as_ref())
            .map_or(Routing::Shortest, |v| v.value),
        congestion_control: d
            .and_then(|d| d.congestion_control.as_ref())
            .map_or(crate::spec::flow::CongestionControl::Cubic, |v| v.value),
        dtn_vlan: d
            .and_then(|d| d.dtn_vlan.as_ref())
            .map_or(1000, |v| v.value),
        pfc_priority: d
            .and_then(|d| d.pfc_priority.as_ref())
            .map_or(3, |v| v.value),
        pcie_mps: d.and_then(|d| d.pcie_mps.as_ref()).map(|v| v.value),
        hop_latency_us: d
            .and_then(|d| d.hop_latency_us.as_ref())
            .map_or(1.0, |v| v.value),
        spares_percent: show.spares_percent.as_ref().map_or(10.0, |v| v.value),
        pools: Pools {
            dtn: a.and_then(|a| a.dtn.clone()),
            p2p: a.and_then(|a| a.p2p.clone()),
            mgmt: a.and_then(|a| a.mgmt.clone()),
            loopback: a.and_then(|a| a.loopback.clone()),
        },
        management: management(show.management.as_ref(), at, diags),
        services: super::services::services(show.services.as_ref(), diags),
    })
}

/// A VRF name reaches device configs: letters, digits, `-` and `_`, at most 32.
fn vrf_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The most characters of a show's title or venue: they are printed in the report,
/// descriptions and every message that names the show.
const TEXT_MAX: usize = 200;

fn text_limit(text: &Located<String>, diags: &mut Diags) {
    let n = text.value.chars().count();
    if n > TEXT_MAX {
        diags.push(
            Diagnostic::new(
                codes::LIMIT,
                text.span,
                format!("this text is {n} characters long, above the limit of {TEXT_MAX}"),
            )
            .label("too long")
            .help(format!(
                "a show's title and venue are at most {TEXT_MAX} characters"
            )),
        );
    }
}

fn management(m: Option<&Management>, at: Span, diags: &mut Diags) -> ManagementNet {
    let vrf = m.and_then(|m| m.vrf.clone());
    if let Some(v) = vrf.as_ref().filter(|v| !vrf_name_ok(v)) {
        diags.push(
            Diagnostic::new(
                codes::INVALID_VALUE,
                v.span,
                format!("`{}` is not a VRF name democ writes into configs", v.value),
            )
            .label("not a VRF name")
            .help("use letters, digits, `-` and `_`, at most 32 characters: `MGMT`"),
        );
    }
    let via = m.and_then(|m| m.controller_via.clone());
    ManagementNet {
        gateway: m
            .and_then(|m| m.gateway.as_ref())
            .map(|g| Located::new(g.0, g.span)),
        vrf: vrf.filter(|v| vrf_name_ok(v)),
        controller_via: via.as_ref().map_or(ControllerVia::Mgmt, |v| v.value),
        via_span: via.map_or(at, |v| v.span),
    }
}

pub(super) fn sites(spec: &Spec, rx: &mut Rx) -> Vec<Site> {
    let mut out = Vec::with_capacity(spec.sites.len());
    let mut first: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
    for (name, s) in &spec.sites {
        let ok = {
            let mut cx = crate::yaml::decode::DecodeContext { diags: rx.diags };
            crate::spec::name::check_name(&mut cx, name)
        };
        if !ok {
            continue;
        }
        if let Some(&prev) = first.get(name.as_str()) {
            rx.duplicate(name.span, prev, "site", name);
            continue;
        }
        first.insert(name.as_str(), name.span);
        rx.sites.insert(name.value.clone(), out.len());
        out.push(Site {
            name: name.clone(),
            kind: s.kind.value,
            booth: s.booth.clone(),
            location: s.location.clone(),
            mgmt: s.mgmt.as_ref().map(|m| super::mgmt_net::SiteMgmt {
                subnet: m.subnet.clone(),
                gateway: Located::new(m.gateway.value.0, m.gateway.span),
            }),
        });
    }
    out
}
