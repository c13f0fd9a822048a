//! The management cables: one copper patch from each switch's management port (every
//! switch democ configures with a management address) and each host's (`mgmt:`) to its
//! site's management network, in declaration order, switches first. The far end is the
//! site's management switch, whose port is assigned on site.

use crate::ir::cabling::{Cable, CableEnd};
use crate::resolve::model::{Model, SiteId};

/// The management port as the cabling plan names it (the chassis's `MGMT` jack).
const PORT: &str = "mgmt";
/// What the BOM orders for each.
pub(super) const PART: &str = "copper patch cord (RJ45, Cat6)";
pub(super) const CATEGORY: &str = "copper-patch";

/// The devices with a management port to cable: (site, name).
pub(super) fn ends(m: &Model) -> Vec<(SiteId, &str)> {
    let switches = m
        .switches
        .iter()
        .filter(|s| !s.external && s.mgmt.is_some())
        .map(|s| (s.site, s.name.value.as_str()));
    let hosts = m
        .hosts
        .iter()
        .filter(|h| h.mgmt.is_some())
        .map(|h| (h.site, h.name.value.as_str()));
    switches.chain(hosts).collect()
}

pub(super) fn cable(m: &Model, site: SiteId, device: &str, id: String) -> Cable {
    let s = &m.sites[site];
    let booth = s.booth.clone().or_else(|| s.location.clone());
    let a = CableEnd {
        site: s.name.value.clone(),
        booth: booth.clone(),
        device: device.to_owned(),
        port: PORT.into(),
        subport: None,
        optic: None,
    };
    let b = CableEnd {
        site: s.name.value.clone(),
        booth,
        device: format!("{}-mgmt-switch", s.name.value),
        port: String::new(),
        subport: None,
        optic: None,
    };
    let net = m.mgmt_net(site);
    let notes = match net.subnet {
        Some(p) if net.own => format!(
            "management, on the site's own management network {}",
            p.value
        ),
        Some(p) => format!(
            "management, on the show floor's management network {}",
            p.value
        ),
        None => "management, on the site's management network".to_owned(),
    };
    Cable {
        label: format!("{id} {device}:{PORT} <> {}", b.device),
        id,
        kind: "mgmt".into(),
        wan: None,
        speed: "1G".into(),
        media: "copper".into(),
        fiber: None,
        length_m: None,
        lag: None,
        notes,
        a,
        b,
    }
}
