//! Pass 5: model + derived data -> IR, per switch. Vendor knowledge comes from
//! templates/<vendor>/vendor.yaml; quirks are applied here, never in templates. Where
//! an OS cannot do what the spec asks, a located diagnostic says so (E0301, E0302):
//! nothing is dropped silently.

mod breakout;
mod cabling;
mod cabling_mgmt;
mod containerlab;
pub(crate) use containerlab::{bind_host_scripts, is_wan_delay};
mod dpid;
pub(crate) mod error;
pub(crate) mod fabrics;
pub(crate) mod flows;
mod host_mgmt;
pub(crate) mod hosts;
mod interfaces;
mod l2;
mod lags;
mod lossless;
mod management;
mod mtu;
// Port naming is resolved-model knowledge (the port help in `resolve` names ports as
// the configs do); lowering uses it from there.
pub(crate) use crate::resolve::naming;
mod openflow;
pub(crate) mod qos;
mod routing;
mod rules;
pub(crate) mod safe_text;
mod services;
mod spanning_tree;
mod unconfirmed;

use std::collections::{BTreeMap, HashSet};

use crate::derive::ShowModel;
use crate::diag::{Diagnostic, Diags, codes};
use crate::ir::{Lab, Switch};
use crate::lower::error::LowerError;
use crate::resolve::model::{End, LinkId, Model, NodeId, SwitchId};
use crate::source::Span;
use crate::spec::switch::OfMode;
use crate::vendor::{self, Flavour};

/// What every lowering step reads for one switch.
pub(crate) struct Lx<'a> {
    pub(crate) m: &'a Model,
    pub(crate) diags: &'a mut Diags,
    pub(crate) sw: SwitchId,
    pub(crate) f: &'a Flavour,
    /// Speed keywords in force (OVS mode has its own).
    pub(crate) speeds: &'a BTreeMap<String, String>,
    /// What BGP originates and each session's policy.
    pub(crate) plan: &'a crate::derive::bgp::Plan,
    /// The VLANs the flows' segments carry on each link.
    pub(crate) segs: &'a crate::derive::segments::Segments,
    /// Fiber propagation (catalog physics), for WAN latencies.
    pub(crate) us_per_km: Option<f64>,
    /// Spans already reported, so a shared cause is reported once.
    reported: HashSet<(Span, &'static str)>,
    /// Config lines written whose syntax the manual does not confirm (vendor.yaml's
    /// `unconfirmed` lists), for the switch's one W0305.
    pub(crate) unconfirmed: std::collections::BTreeSet<String>,
    /// Whether the IR's free text (descriptions) is wanted: `check` lowers for the
    /// diagnostics alone and never reads it.
    pub(crate) text: bool,
}

impl<'a> Lx<'a> {
    pub(crate) fn switch(&self) -> &'a crate::resolve::model::Switch {
        &self.m.switches[self.sw]
    }

    pub(crate) fn name(&self) -> &'a str {
        &self.m.switches[self.sw].name.value
    }

    pub(crate) fn os(&self) -> &'static str {
        self.m.switches[self.sw].os.as_str()
    }

    /// The ends of a link as (this switch's, the other's); None if the link is elsewhere.
    pub(crate) fn ends(&self, link: LinkId) -> Option<(End, End)> {
        let l = &self.m.links[link];
        let me = NodeId::Switch(self.sw);
        if l.a.node == me {
            Some((l.a, l.b))
        } else if l.b.node == me {
            Some((l.b, l.a))
        } else {
            None
        }
    }

    /// Reports once per span and topic.
    pub(crate) fn report(&mut self, topic: &'static str, d: Diagnostic) {
        if self.reported.insert((d.primary.span, topic)) {
            self.diags.push(d);
        }
    }

    /// Points at the switch too (several switches may share the span at fault).
    fn context(&self, d: Diagnostic) -> Diagnostic {
        let s = self.switch();
        if d.primary.span == s.name.span {
            return d;
        }
        d.also(
            s.name.span,
            format!("`{}` runs `{}`", s.name.value, s.os.as_str()),
        )
    }

    /// E0301: the OS cannot do this and the config would be wrong without it.
    pub(crate) fn unsupported(
        &mut self,
        topic: &'static str,
        span: Span,
        message: String,
        help: impl Into<String>,
    ) {
        let d = Diagnostic::new(codes::VENDOR_UNSUPPORTED, span, message)
            .label("not supported here")
            .help(help);
        self.report(topic, self.context(d));
    }

    /// W0303: the config is right, but this part must be configured by hand.
    pub(crate) fn manual(
        &mut self,
        topic: &'static str,
        span: Span,
        message: String,
        help: impl Into<String>,
    ) {
        let d = Diagnostic::new(codes::VENDOR_MANUAL, span, message)
            .label("not applied as written")
            .help(help);
        self.report(topic, self.context(d));
    }
}

pub(crate) use hosts::lower as hosts;

/// Lowers every switch. `Err` is a bug in the embedded vendor data.
pub(crate) fn lower(front: &ShowModel, diags: &mut Diags) -> Result<Lab, LowerError> {
    let mut lab = lower_but_flows(front, diags)?;
    lab.flows = flows::lower(front);
    Ok(lab)
}

/// [`lower`] but the flows' IR, which a build writes straight from the routes
/// (`flows::write`).
pub(crate) fn lower_but_flows(front: &ShowModel, diags: &mut Diags) -> Result<Lab, LowerError> {
    let switches = switches(front, diags)?;
    let vendors = vendor::vendors()?;
    let m = &front.model;
    let show = safe_text::name_like(&m.settings.name);
    let containerlab = containerlab::lower(front, vendors, &show, &switches)?;
    let net = &m.settings.management;
    let management = crate::ir::ManagementNetwork {
        network: m
            .settings
            .pools
            .mgmt
            .as_ref()
            .map(|p| format!("{}/{}", std::net::Ipv4Addr::from(p.network()), p.len)),
        gateway: net.gateway.as_ref().map(|g| g.value.to_string()),
        vrf: net.vrf.as_ref().map(|v| v.value.clone()),
        controller_via: net.controller_via.as_str().to_owned(),
        restconf: m.settings.restconf.as_str().to_owned(),
    };
    let cabling = cabling::lower(m, &front.db, &show);
    Ok(Lab {
        show,
        switches,
        management,
        // Filled by `hosts` for `democ ir` and `democ build --hosts`: DTNs hold no
        // diagnostics, so `check` need not pay for them.
        hosts: Vec::new(),
        fabrics: Vec::new(),
        flows: Vec::new(),
        cabling,
        containerlab,
    })
}

/// Every switch's IR, sorted by hostname, rules attached: the part of lowering that
/// finds what a vendor cannot do. `check` stops here; the lab, the cabling and the
/// flows' IR report nothing (they were two thirds of `check` on sc16).
pub(crate) fn switches(front: &ShowModel, diags: &mut Diags) -> Result<Vec<Switch>, LowerError> {
    lower_switches(front, diags, true)
}

/// What lowering the switches reports, for `check`: each switch's IR is dropped once
/// its OpenFlow ports are known, so the next switch reuses its memory, and its free
/// text is not written (nothing in either can change a diagnostic).
pub(crate) fn checks(front: &ShowModel, diags: &mut Diags) -> Result<(), LowerError> {
    lower_switches(front, diags, false).map(drop)
}

/// What lowering one switch gave.
struct Done {
    sw: SwitchId,
    /// Its findings.
    diags: Diags,
    /// None when democ has no vendor data for it; else its IR (when kept), its OpenFlow
    /// table, and what the table's port map found.
    lowered: Option<(Option<Switch>, Option<rules::Table>, Diags)>,
}

/// What lowering any switch reads besides the switch itself.
struct Shared<'a> {
    front: &'a ShowModel,
    vendors: &'static vendor::Vendors,
    /// Each switch's OpenFlow datapath id.
    dpids: Vec<Option<u64>>,
    plan: crate::derive::bgp::Plan,
    /// Whether the IR is wanted (`build`); `check` wants only the findings.
    keep: bool,
}

/// Lowers the switches one by one in hostname order, then attaches their rules.
fn lower_switches(
    front: &ShowModel,
    diags: &mut Diags,
    keep: bool,
) -> Result<Vec<Switch>, LowerError> {
    let vendors = vendor::vendors()?;
    let m = &front.model;
    let mut order: Vec<SwitchId> = (0..m.switches.len()).collect();
    order.sort_by(|a, b| m.switches[*a].name.value.cmp(&m.switches[*b].name.value));
    let mut rdma_all = qos::rdma_by_switch(m, &front.routes);
    let shared = Shared {
        front,
        vendors,
        dpids: dpid::assign(m, vendors),
        plan: crate::derive::bgp::plan(m, &front.routes),
        keep,
    };
    let done: Vec<Done> = order
        .into_iter()
        .map(|sw| lower_one(&shared, sw, std::mem::take(&mut rdma_all[sw])))
        .collect();
    let mut switches = Vec::with_capacity(if keep { done.len() } else { 0 });
    let mut at = vec![None; m.switches.len()];
    let mut tables: Vec<Option<rules::Table>> = (0..m.switches.len()).map(|_| None).collect();
    let mut table_diags: Vec<Diags> = (0..m.switches.len()).map(|_| Diags::default()).collect();
    for d in done {
        diags.append(d.diags);
        let Some((ir, table, found)) = d.lowered else {
            continue;
        };
        if let Some(ir) = ir {
            at[d.sw] = Some(switches.len());
            switches.push(ir);
        }
        tables[d.sw] = table;
        table_diags[d.sw] = found;
    }
    // The port maps' findings in the model's switch order, after every switch's own.
    for found in table_diags {
        diags.append(found);
    }
    let built = keep.then_some((&mut switches[..], &at[..]));
    rules::attach(front, tables, built, diags);
    Ok(switches)
}

/// Lowers switch `sw`, whose queues serve the RDMA ports and LAGs `rdma`.
fn lower_one(x: &Shared, sw: SwitchId, rdma: qos::Rdma) -> Done {
    let m = &x.front.model;
    let s = &m.switches[sw];
    let mut diags = Diags::default();
    let Some((folder, f)) = x.vendors.flavour(&s.vendor, s.os.as_str()) else {
        diags.push(no_vendor_data(x.vendors, s));
        return Done {
            sw,
            diags,
            lowered: None,
        };
    };
    let ovs = s
        .openflow
        .as_ref()
        .filter(|o| o.mode == OfMode::Ovs)
        .and(f.openflow.as_ref())
        .and_then(|c| c.ovs.as_ref());
    // A platform's own speed arguments (EOS PAM4 cages) override the flavour's.
    let platform = s.platform.as_deref().and_then(|p| f.platforms.get(p));
    let merged: BTreeMap<String, String>;
    let speeds = match (ovs, platform) {
        (Some(o), _) => &o.speeds,
        (None, Some(p)) if !p.speeds.is_empty() => {
            merged = f
                .speeds
                .clone()
                .into_iter()
                .chain(p.speeds.clone())
                .collect();
            &merged
        }
        _ => &f.speeds,
    };
    let mut lx = Lx {
        m,
        diags: &mut diags,
        sw,
        f,
        speeds,
        plan: &x.plan,
        segs: &x.front.segments,
        us_per_km: x.front.db.physics.as_ref().map(|p| p.fiber_us_per_km),
        reported: HashSet::new(),
        unconfirmed: Default::default(),
        text: x.keep,
    };
    let ir = switch(&mut lx, folder, x.dpids[sw], rdma);
    let lines: Vec<String> = std::mem::take(&mut lx.unconfirmed).into_iter().collect();
    let mut found = Diags::default();
    let mut table = rules::table(x.front, x.vendors, &ir, sw, &mut found);
    // One W0305 per switch: an OpenFlow switch's joins its rules' (`rules::finish`).
    match table.as_mut() {
        Some(t) => t.unconfirmed_lines = lines,
        None if !lines.is_empty() => diags.push(unconfirmed::warning(m, sw, None, &lines)),
        None => {}
    }
    Done {
        sw,
        diags,
        lowered: Some((x.keep.then_some(ir), table, found)),
    }
}

/// No vendor data for a switch's vendor and OS (`VENDOR_UNSUPPORTED`).
fn no_vendor_data(vendors: &vendor::Vendors, s: &crate::resolve::model::Switch) -> Diagnostic {
    let known: Vec<&str> = vendors.folders().collect();
    Diagnostic::new(
        codes::VENDOR_UNSUPPORTED,
        s.model.span,
        format!(
            "democ has no `{}` configs for vendor `{}`",
            s.os.as_str(),
            s.vendor
        ),
    )
    .label("no vendor data for this model's vendor and OS")
    .help(format!(
        "vendors with templates: {}; add templates/<vendor>/vendor.yaml for another",
        crate::diag::list(&known)
    ))
}

fn switch(lx: &mut Lx, folder: &str, dpid: Option<u64>, rdma: qos::Rdma) -> Switch {
    let s = lx.switch();
    let planning_only = s.os_unconfirmed.then(|| {
        format!(
            "no source confirms `{}` on `{}`: a planning artefact to translate, not to load",
            s.os.as_str(),
            s.model.value
        )
    });
    if let Some(why) = &planning_only {
        lx.unconfirmed.insert(format!("everything ({why})"));
    }
    let (template, extension) = match (&s.openflow, &lx.f.openflow) {
        (Some(of), Some(caps)) if of.mode == OfMode::Ovs => caps
            .ovs
            .as_ref()
            .map_or((lx.f.template.as_str(), lx.f.extension.as_str()), |o| {
                (o.template.as_str(), o.extension.as_str())
            }),
        _ => (lx.f.template.as_str(), lx.f.extension.as_str()),
    };
    let (template, config_file) = (
        format!("{folder}/{template}"),
        format!("switches/{}.{extension}", s.name.value),
    );
    let of_ports = openflow::managed_ports(lx);
    let breakouts = breakout::lower(lx);
    let mut interfaces = interfaces::lower(lx, &of_ports, &rdma);
    let ovs = matches!(&s.openflow, Some(of) if of.mode == OfMode::Ovs);
    if ovs && interfaces.iter().any(|i| i.mtu.is_some()) {
        // The OVS script sets jumbo frames through the Interface table's `mtu_request`,
        // which no PicOS page confirms its OVS honours (vendor.yaml).
        lx.unconfirmed
            .insert("`ovs-vsctl set interface ... mtu_request` (jumbo frames in OVS mode)".into());
    }
    let port_channels = lags::lower(lx, &of_ports, &rdma, &interfaces);
    let vlans = l2::vlans(lx, &mut interfaces, &port_channels);
    let bgp = routing::bgp(lx, &interfaces, &vlans);
    let openflow = openflow::lower(lx, dpid, &interfaces, &port_channels);
    let qos = qos::lower(lx, &rdma, &interfaces, &port_channels);
    if lx.f.qos.pfc_excludes_flow_control && qos.as_ref().is_some_and(|q| q.pfc) {
        for i in &mut interfaces {
            i.flow_control = None;
        }
    }
    let spanning_tree = spanning_tree::lower(lx, &interfaces, &port_channels);
    let management = management::lower(lx);
    let services = services::lower(lx, management.as_ref());
    let s = lx.switch();
    let ip_routing = bgp.is_some()
        || interfaces.iter().any(|i| i.switching.ipv4.is_some())
        || vlans.iter().any(|v| v.l3.is_some());
    Switch {
        hostname: s.name.value.clone(),
        vendor: folder.to_owned(),
        os: lx.os().to_owned(),
        model: safe_text::name_like(&s.model.value),
        platform: s.platform.clone(),
        site: lx
            .m
            .sites
            .get(s.site)
            .map(|x| x.name.value.clone())
            .unwrap_or_default(),
        template,
        config_file,
        external: s.external,
        description: s
            .description
            .as_deref()
            .and_then(|d| safe_text::sanitize(d, &lx.f.text)),
        planning_only,
        management,
        platform_setup: s
            .platform
            .as_ref()
            .and_then(|p| lx.f.platforms.get(p))
            .map(|p| p.setup.clone())
            .unwrap_or_default(),
        ip_routing,
        breakouts,
        interfaces,
        port_channels,
        vlans,
        static_routes: Vec::new(),
        bgp,
        lldp: crate::ir::switch::Lldp {
            enabled: lx.m.settings.services.lldp,
        },
        spanning_tree,
        services,
        openflow,
        qos,
        sonic: lx.f.config_db.as_ref().map(|ext| crate::ir::switch::Sonic {
            config_db_file: format!("switches/{}.{ext}", s.name.value),
            platform: s.sonic.as_ref().map(|h| h.platform.clone()),
            hwsku: s.sonic.as_ref().map(|h| h.hwsku.clone()),
            routing_config_mode: "split-unified".to_owned(),
        }),
        cumulus: lx.f.nvue.as_ref().map(|ext| crate::ir::switch::Cumulus {
            nvue_file: format!("switches/{}.{ext}", s.name.value),
        }),
    }
}
