//! Which switches run under a kind, and the interface name of every cabled port: the
//! kind's rules (vendor.yaml), the stand-in's (templates/containerlab.yaml), or the
//! host's own port name when Linux accepts it.

use std::collections::HashSet;

use super::{Cabled, Ifaces, Plan};
use crate::ir::lab::linux_iface_ok;
use crate::lower::naming;
use crate::resolve::model::{Model, NodeId, Port, SwitchId};
use crate::spec::switch::OfMode;
use crate::vendor::{NameRule, Vendors};

/// A kind when the flavour has one and it can wire every cabled port, else a stand-in.
pub(crate) fn plan<'a>(m: &Model, v: &'a Vendors, sw: SwitchId, cabled: &Cabled) -> Plan<'a> {
    let s = &m.switches[sw];
    let os = s.os.as_str();
    if s.os == crate::spec::switch::Os::None {
        // A P4/FPGA board: the stand-in bridges its ports, not the program it runs.
        return Plan::Standin(
            "no switch OS: democ writes no config for it; the stand-in forwards as a plain bridge"
                .into(),
        );
    }
    if s.external {
        // democ wrote no config for it: the lab runs what democ assumes it does.
        return Plan::Standin("external: owned by others, democ writes no config for it".into());
    }
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
    let ports = cabled.get(&NodeId::Switch(sw)).into_iter().flatten();
    for p in ports.map(|(i, _)| &s.ports[*i]) {
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
pub(crate) fn interfaces(m: &Model, v: &Vendors, plans: &[Plan], cabled: &Cabled) -> Ifaces {
    let mut out = Ifaces::new();
    for (&node, ports) in cabled {
        let mut taken = HashSet::new();
        for &i in ports.keys() {
            let given = match node {
                NodeId::Switch(sw) => {
                    let rules = match &plans[sw] {
                        Plan::Kind(caps) => &caps.interfaces,
                        Plan::Standin(_) => &v.lab.standin.interfaces,
                    };
                    rule_name(rules, &m.switches[sw].ports[i])
                }
                NodeId::Host(h) => {
                    let p = &m.hosts[h].ports[i];
                    (linux_iface_ok(&p.name) && p.name != "eth0").then(|| p.name.clone())
                }
            };
            let name = given
                .filter(|n| taken.insert(n.clone()))
                .unwrap_or_else(|| fallback(i, &mut taken));
            out.insert((node, i), name);
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
