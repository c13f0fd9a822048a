//! Which management network a device is on: its site's own (`sites.<name>.mgmt`), else
//! the show floor's (`addressing.mgmt` with `show.management.gateway`).

use std::net::Ipv4Addr;

use super::model::{Model, SiteId};
use crate::spec::addr::Prefix;
use crate::yaml::decode::Located;

/// A site's `mgmt:`: the subnet its devices take management addresses from and its
/// router.
#[derive(Debug, Clone)]
pub(crate) struct SiteMgmt {
    pub(crate) subnet: Located<Prefix>,
    pub(crate) gateway: Located<Ipv4Addr>,
}

/// The management network a site's devices are on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MgmtNet<'a> {
    /// The subnet management addresses come from (None: the show has no mgmt pool).
    pub(crate) subnet: Option<&'a Located<Prefix>>,
    pub(crate) gateway: Option<&'a Located<Ipv4Addr>>,
    /// The site has a network of its own (not the show floor's).
    pub(crate) own: bool,
}

impl MgmtNet<'_> {
    /// The pool's name in messages.
    pub(crate) fn what(&self) -> &'static str {
        if self.own { "site mgmt" } else { "mgmt" }
    }
}

impl Model {
    pub(crate) fn mgmt_net(&self, site: SiteId) -> MgmtNet<'_> {
        match self.sites.get(site).and_then(|s| s.mgmt.as_ref()) {
            Some(m) => MgmtNet {
                subnet: Some(&m.subnet),
                gateway: Some(&m.gateway),
                own: true,
            },
            None => MgmtNet {
                subnet: self.settings.pools.mgmt.as_ref(),
                gateway: self.settings.management.gateway.as_ref(),
                own: false,
            },
        }
    }
}
