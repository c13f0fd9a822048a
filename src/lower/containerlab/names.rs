//! Which switches run under a kind, and the interface name of every cabled port: the
//! kind's rules (vendor.yaml), the stand-in's (templates/containerlab.yaml), or the
//! host's own port name when Linux accepts it.

use std::collections::HashSet;

use super::{Ifaces, Plan};
use crate::ir::lab::linux_iface_ok;
use crate::lower::naming;
use crate::lower::vendor::{NameRule, Vendors};
use crate::resolve::model::{Model, NodeId, Port, SwitchId};
use crate::spec::switch::OfMode;

/// A kind when the flavour has one and it can wire every cabled port, else a stand-in.
pub(crate) fn plan<'a>(m: &Model, v: &'a Vendors, sw: SwitchId) -> Plan<'a> {
    let s = &m.switches[sw];
    let os = s.os.as_str();
    let Some((folder, f)) = v.flavour(&s.vendor, os) else {
        return Plan::Standin(format!("democ has no `{os}` vendor data"));
    };
    let Some(caps) = &f.containerlab else {
        return Plan::Standin(format!(
            "templates/{folder}/vendor.yaml has no `containerlab:` section for `{os}`"
        ));
    };
    if let Some(why) = &caps.standin {
        return Plan::Standin(why.clone());
    }
    let kind = caps.kind.as_deref().unwrap_or_default();
    if s.openflow.as_ref().is_some_and(|o| o.mode == OfMode::Ovs) {
        return Plan::Standin(format!("`{kind}` does not run {os} in OVS mode"));
    }
    let max = caps.max_port.unwrap_or(u32::MAX);
    for p in s.ports.iter().filter(|p| p.link.is_some()) {
        let within = naming::parse(&p.name).is_some_and(|c| c.n <= max);
        if !within || rule_name(&caps.interfaces, p).is_none() {
            return Plan::Standin(format!(
                "`{kind}` has no interface for port {} of a {}",
                p.name, s.model.value
            ));
        }
    }
    Plan::Kind(caps)
}

fn rule_name(rules: &[NameRule], p: &Port) -> Option<String> {
    naming::by_rules(rules, &p.name, &p.speed.to_string(), &p.form)
}

/// Interface names of every cabled port of every node, unique per node.
pub(crate) fn interfaces(m: &Model, v: &Vendors, plans: &[Plan]) -> Ifaces {
    let mut out = Ifaces::new();
    for (sw, plan) in plans.iter().enumerate() {
        let rules = match plan {
            Plan::Kind(caps) => &caps.interfaces,
            Plan::Standin(_) => &v.lab.standin.interfaces,
        };
        let ports = &m.switches[sw].ports;
        let mut taken = HashSet::new();
        for (i, p) in ports.iter().enumerate().filter(|(_, p)| p.link.is_some()) {
            let name = rule_name(rules, p)
                .filter(|n| taken.insert(n.clone()))
                .unwrap_or_else(|| fallback(i, &mut taken));
            out.insert((NodeId::Switch(sw), i), name);
        }
    }
    for (h, host) in m.hosts.iter().enumerate() {
        let mut taken = HashSet::new();
        for (i, p) in host
            .ports
            .iter()
            .enumerate()
            .filter(|(_, p)| p.link.is_some())
        {
            let own = (linux_iface_ok(&p.name) && p.name != "eth0").then(|| p.name.clone());
            let name = own
                .filter(|n| taken.insert(n.clone()))
                .unwrap_or_else(|| fallback(i, &mut taken));
            out.insert((NodeId::Host(h), i), name);
        }
    }
    out
}

/// `eth<i+1>`, or the next free `eth<j>`: a name no rule gave (a port Linux would not
/// accept by its own name, or a clash).
fn fallback(i: usize, taken: &mut HashSet<String>) -> String {
    (i + 1..)
        .map(|j| format!("eth{j}"))
        .find(|n| taken.insert(n.clone()))
        .unwrap_or_default()
}
