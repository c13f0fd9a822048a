//! The lab's management network (containerlab `mgmt-ipv4`) on the show's
//! `addressing.mgmt` pool. Switches keep their management address; hosts keep a static
//! one inside the pool, or their lock entry, or take free addresses from the top of the
//! pool in name order, after the gateway (`show.management.gateway`, else the pool's last
//! free address: containerlab's default gateway, the pool's first address, may be a
//! switch's). Every node then has a fixed address, so Docker's dynamic allocation can
//! never take one a node needs.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::Ipv4Addr;

use super::locked_addresses::stale;
use crate::diag::{Diagnostic, Diags, codes};
use crate::resolve::model::{LabMgmt, Model};
use crate::yaml::decode::Located;

type Entries = BTreeMap<String, Located<Ipv4Addr>>;

/// Sets `m.lab_mgmt`, keeping what `lock` (the lock's `lab:` section) still fits; returns
/// the section as it is now.
pub(crate) fn assign(m: &mut Model, lock: Option<&Entries>, diags: &mut Diags) -> Entries {
    let mut next = Entries::new();
    let empty = Entries::new();
    let lock = lock.unwrap_or(&empty);
    let Some(pool) = m.settings.pools.mgmt.as_ref().map(|p| p.value) else {
        for (name, e) in lock {
            let why = format!(
                "host `{name}` has no lab management address: the show has no `addressing.mgmt` pool now"
            );
            diags.push(stale(e.span, why));
        }
        return next;
    };
    let inside =
        |a: &Option<Located<Ipv4Addr>>| a.as_ref().map(|a| a.value).filter(|a| pool.contains(*a));
    let show_gw = inside(&m.settings.management.gateway);
    let mut used: BTreeSet<u32> = m
        .switches
        .iter()
        .filter_map(|s| inside(&s.mgmt))
        .chain(m.hosts.iter().filter_map(|h| inside(&h.mgmt)))
        .chain(show_gw)
        // The lab's controller node takes the controller's address (its switches dial
        // it), so no host is given it.
        .chain(
            m.switches
                .iter()
                .filter_map(|s| s.openflow.as_ref()?.controller.as_ref())
                .map(|c| c.addr)
                .filter(|a| pool.contains(*a)),
        )
        .map(u32::from)
        .collect();
    // Host addresses: network + 1 .. broadcast - 1 (none in a /31 or /32).
    let (first, last) = (
        pool.network().saturating_add(1),
        pool.last().saturating_sub(1),
    );
    let gateway = show_gw.or_else(|| {
        (first..=last)
            .rev()
            .find(|a| !used.contains(a))
            .map(Ipv4Addr::from)
    });
    used.extend(gateway.map(u32::from));
    let mut wants: Vec<usize> = (0..m.hosts.len())
        .filter(|&h| inside(&m.hosts[h].mgmt).is_none())
        .collect();
    wants.sort_by(|a, b| m.hosts[*a].name.value.cmp(&m.hosts[*b].name.value));
    let by_name: crate::fxhash::FxMap<&str, usize> = wants
        .iter()
        .map(|&h| (m.hosts[h].name.value.as_str(), h))
        .collect();
    let mut hosts = HashMap::new();
    for (name, e) in lock {
        let Some(&h) = by_name.get(name.as_str()) else {
            diags.push(gone(m, name, e));
            continue;
        };
        let a = u32::from(e.value);
        let why = if !(first..=last).contains(&a) {
            format!(
                "the lock gives host `{name}` the lab management address {}, outside the mgmt pool {pool} now",
                e.value
            )
        } else if used.contains(&a) {
            format!(
                "the lock gives host `{name}` the lab management address {}, which is taken now",
                e.value
            )
        } else {
            used.insert(a);
            hosts.insert(h, e.value);
            continue;
        };
        diags.push(
            Diagnostic::new(codes::LOCK_ENTRY_DROPPED, e.span, why)
                .label("dropped from the lock")
                .help("nothing to do: it gets a new address from the top of the pool, and `democ build` records it in the lock"),
        );
    }
    let mut free = (first..=last)
        .rev()
        .filter(|a| !used.contains(a))
        .map(Ipv4Addr::from);
    for &h in &wants {
        if hosts.contains_key(&h) {
            continue;
        }
        let Some(a) = free.next() else { break };
        hosts.insert(h, a);
    }
    for (&h, &a) in &hosts {
        let name = &m.hosts[h].name;
        next.insert(name.value.clone(), Located::new(a, name.span));
    }
    m.lab_mgmt = LabMgmt { gateway, hosts };
    next
}

/// Why a `lab:` entry names no host that takes a lab address.
fn gone(m: &Model, name: &str, e: &Located<Ipv4Addr>) -> Diagnostic {
    let why = match m.hosts.iter().find(|h| h.name.value == name) {
        Some(h) => format!(
            "the spec gives host `{name}` its management address ({}) now: addresses in the spec win over the lock",
            h.mgmt
                .as_ref()
                .map_or(String::new(), |a| a.value.to_string())
        ),
        None => format!("the lock names host `{name}`, which the spec no longer has"),
    };
    stale(e.span, why)
}
