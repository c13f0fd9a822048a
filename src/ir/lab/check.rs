//! What containerlab's JSON Schema cannot see in a topology: links to missing nodes, an
//! interface cabled twice, interface names a kind would refuse, node names Docker or
//! containerlab would refuse, management addresses that clash.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use super::Topology;

/// Every inconsistency, worded for a bug report; empty when the topology is sound.
pub(crate) fn problems(t: &Topology) -> Vec<String> {
    let mut out = Vec::new();
    if !name_ok(&t.name) {
        out.push(format!("lab name `{}` is not a containerlab name", t.name));
    }
    for (name, node) in &t.topology.nodes {
        if !name_ok(name) {
            out.push(format!("node name `{name}` is not a containerlab name"));
        }
        if grammar(&node.kind).is_none() {
            out.push(format!(
                "node `{name}`: democ does not know the interface names of kind `{}`",
                node.kind
            ));
        }
    }
    let mut used = BTreeSet::new();
    for link in &t.topology.links {
        let [a, b] = &link.endpoints;
        if a == b {
            out.push(format!("link `{a}` goes to itself"));
        }
        for e in [a, b] {
            endpoint(t, e, &mut used, &mut out);
        }
    }
    addresses(t, &mut out);
    out
}

fn endpoint<'a>(t: &Topology, e: &'a str, used: &mut BTreeSet<&'a str>, out: &mut Vec<String>) {
    let Some((node, iface)) = e.split_once(':') else {
        out.push(format!("endpoint `{e}` is not `node:interface`"));
        return;
    };
    let Some(n) = t.topology.nodes.get(node) else {
        out.push(format!("endpoint `{e}` names no node `{node}`"));
        return;
    };
    if !used.insert(e) {
        out.push(format!("interface `{e}` is cabled twice"));
    }
    if let Some(ok) = grammar(&n.kind) {
        if iface == "eth0" || !ok(iface) {
            out.push(format!(
                "interface `{iface}` of `{node}` is not a `{}` data interface",
                n.kind
            ));
        }
    }
}

/// Docker container names and containerlab's node-name pattern: a letter or digit, then
/// letters, digits, `-`, `_`, `.`; at most 63 (the node's hostname).
fn name_ok(name: &str) -> bool {
    name.len() <= 63
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The data interface names a kind accepts (`eth0` is management on every kind).
fn grammar(kind: &str) -> Option<fn(&str) -> bool> {
    match kind {
        // cEOS: ethA, ethA_B, ethA_B_C for EthernetA, EthernetA/B, EthernetA/B/C.
        "arista_ceos" => Some(|i| eth_numbers(i, 3)),
        // vrnetlab VMs: ethN is the N-th data NIC.
        "dell_ftosv" => Some(|i| eth_numbers(i, 1)),
        "linux" => Some(linux_ok),
        _ => None,
    }
}

/// `eth` then 1 to `groups` positive numbers without leading zeros, joined by `_`.
fn eth_numbers(iface: &str, groups: usize) -> bool {
    let Some(rest) = iface.strip_prefix("eth") else {
        return false;
    };
    let parts: Vec<&str> = rest.split('_').collect();
    parts.len() <= groups
        && parts
            .iter()
            .all(|p| !p.is_empty() && !p.starts_with('0') && p.chars().all(|c| c.is_ascii_digit()))
}

/// A Linux interface name: 1 to 15 bytes, no `/`, `:` or whitespace (here: letters,
/// digits, `-`, `_`, `.`, starting with a letter or digit), not `lo`.
pub(crate) fn linux_ok(iface: &str) -> bool {
    iface.len() <= 15 && iface != "lo" && name_ok(iface)
}

fn addresses(t: &Topology, out: &mut Vec<String>) {
    let subnet = t.mgmt.as_ref().and_then(|m| {
        let (a, l) = m.ipv4_subnet.split_once('/')?;
        Some((a.parse::<Ipv4Addr>().ok()?, l.parse::<u32>().ok()?))
    });
    let mut seen: BTreeMap<Ipv4Addr, &str> = BTreeMap::new();
    if let Some(gw) = t.mgmt.as_ref().and_then(|m| m.ipv4_gw.as_deref()) {
        match gw.parse() {
            Ok(a) => {
                seen.insert(a, "the management gateway");
            }
            Err(_) => out.push(format!("gateway `{gw}` is not an IPv4 address")),
        }
    }
    for (name, node) in &t.topology.nodes {
        let Some(text) = &node.mgmt_ipv4 else {
            continue;
        };
        let Ok(a) = text.parse::<Ipv4Addr>() else {
            out.push(format!("`{name}`: `{text}` is not an IPv4 address"));
            continue;
        };
        if let Some((net, len)) = subnet {
            let mask = u32::MAX.checked_shl(32 - len.min(32)).unwrap_or(0);
            if u32::from(a) & mask != u32::from(net) & mask {
                out.push(format!("`{name}`: {a} is outside the management subnet"));
            }
        }
        if let Some(other) = seen.insert(a, name) {
            out.push(format!("`{name}` and {other} both hold {a}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn a_sound_topology_has_no_problems() {
        assert_eq!(problems(&sample().topology), Vec::<String>::new());
    }

    #[test]
    fn every_problem_is_found() {
        let mut t = sample().topology;
        let links = &mut t.topology.links;
        links.push(super::super::Link {
            endpoints: ["a:eth1_1".into(), "a:Ethernet1".into()],
        });
        links.push(super::super::Link {
            endpoints: ["b:eth0".into(), "b:way-too-long-name".into()],
        });
        let nodes = &mut t.topology.nodes;
        nodes.get_mut("a").expect("a").mgmt_ipv4 = Some("192.168.16.254".into());
        nodes.get_mut("b").expect("b").mgmt_ipv4 = Some("10.0.0.1".into());
        let p = problems(&t).join("\n");
        for want in [
            "interface `a:eth1_1` is cabled twice",
            "interface `Ethernet1` of `a` is not a `arista_ceos` data interface",
            "interface `eth0` of `b`",
            "interface `way-too-long-name` of `b`",
            "`a` and the management gateway both hold 192.168.16.254",
            "`b`: 10.0.0.1 is outside the management subnet",
        ] {
            assert!(p.contains(want), "{want} missing from:\n{p}");
        }
    }

    #[test]
    fn kinds_accept_their_own_names() {
        let ceos = grammar("arista_ceos").expect("known");
        assert!(ceos("eth1") && ceos("eth49_1") && ceos("eth3_1_1"));
        assert!(!ceos("eth01") && !ceos("eth1_") && !ceos("et1") && !ceos("eth1_1_1_1"));
        let ftosv = grammar("dell_ftosv").expect("known");
        assert!(ftosv("eth56") && !ftosv("eth5_1") && !ftosv("ethernet1/1/5"));
        let linux = grammar("linux").expect("known");
        assert!(linux("p0") && linux("e1-17-2") && !linux("1/17") && !linux("lo"));
        assert!(grammar("nokia_srlinux").is_none());
        assert!(!name_ok("-x") && !name_ok("a|b") && name_ok("cit-a.z9100_1"));
    }
}
