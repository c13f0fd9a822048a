//! A remote site's switches on the show floor's management subnet: the circuits to the
//! site carry data VLANs only, so addresses from `addressing.mgmt` with the floor's
//! router are not reached from the floor (W0257) unless an in-band route carries them.
//! A site with `mgmt: { subnet, gateway }` has its own management network.

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes, plural};
use crate::spec::site::SiteKind;

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let m = cx.m;
    let Some(pool) = m.settings.pools.mgmt.as_ref() else {
        return;
    };
    // One pass over the switches: those of remote sites without a network of their own
    // whose address is on the floor's subnet, by site.
    let mut by_site: Vec<Vec<&str>> = vec![Vec::new(); m.sites.len()];
    for s in &m.switches {
        let site = &m.sites[s.site];
        if site.kind == SiteKind::Remote
            && site.mgmt.is_none()
            && !s.external
            && s.mgmt.as_ref().is_some_and(|a| pool.contains(a.value))
        {
            by_site[s.site].push(s.name.value.as_str());
        }
    }
    for (site, on_floor) in m.sites.iter().zip(&by_site) {
        let Some(first) = on_floor.first() else {
            continue;
        };
        let name = &site.name.value;
        diags.push(
            Diagnostic::new(
                codes::REMOTE_MGMT_SUBNET,
                site.name.span,
                format!(
                    "remote site `{name}` has no management network of its own: {} ({}) {} management addresses on the show floor's subnet {}",
                    plural(on_floor.len(), "switch"),
                    on_floor.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                    if on_floor.len() == 1 { "takes" } else { "take" },
                    pool.value,
                ),
            )
            .label("reached only if an in-band route carries the floor's management subnet here")
            .also(pool.span, "the show floor's management subnet")
            .help(format!(
                "give the site its own management network, `{name}: {{ kind: remote, mgmt: {{ subnet: <prefix>, gateway: <router> }} }}`, so `{first}` takes its address there and routes through the site's router"
            )),
        );
    }
}
