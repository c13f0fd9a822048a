//! Canonical port names (`1/17`, `1/17:2`) to each OS's interface names, by the
//! patterns in vendor.yaml.

use super::vendor::{Flavour, NameRule};

/// A canonical port name taken apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Canonical {
    pub(crate) unit: u32,
    pub(crate) n: u32,
    pub(crate) k: Option<u32>,
}

/// Parses `unit/n` or `unit/n:k`.
pub(crate) fn parse(name: &str) -> Option<Canonical> {
    let (unit, rest) = name.split_once('/')?;
    let (n, k) = match rest.split_once(':') {
        Some((n, k)) => (n, Some(k.parse().ok()?)),
        None => (rest, None),
    };
    Some(Canonical {
        unit: unit.parse().ok()?,
        n: n.parse().ok()?,
        k,
    })
}

/// Fills `{unit}`, `{n}`, `{k}` and `{id}` placeholders.
pub(crate) fn fill(pattern: &str, c: Canonical) -> String {
    pattern
        .replace("{unit}", &c.unit.to_string())
        .replace("{n}", &c.n.to_string())
        .replace("{k}", &c.k.map(|k| k.to_string()).unwrap_or_default())
}

fn rule<'a>(rules: &'a [NameRule], speed: &str, form: &str) -> Option<&'a NameRule> {
    let holds = |list: &Option<Vec<String>>, v: &str| {
        list.as_ref().is_none_or(|l| l.iter().any(|x| x == v))
    };
    rules
        .iter()
        .find(|r| holds(&r.speeds, speed) && holds(&r.forms, form))
}

/// The vendor's name of a port of cage `form` running at `speed` (`25G`); None when the
/// name is not canonical or no naming rule covers the port.
pub(crate) fn interface(f: &Flavour, port: &str, speed: &str, form: &str) -> Option<String> {
    by_rules(&f.interfaces, port, speed, form)
}

/// The same by any rule list (containerlab's interface names).
pub(crate) fn by_rules(rules: &[NameRule], port: &str, speed: &str, form: &str) -> Option<String> {
    let c = parse(port)?;
    let r = rule(rules, speed, form)?;
    let pattern = match c.k {
        Some(_) => r.subport.as_deref()?,
        None => &r.port,
    };
    Some(fill(pattern, c))
}

/// The vendor's port-channel name.
pub(crate) fn port_channel(f: &Flavour, id: u16) -> String {
    f.port_channel.replace("{id}", &id.to_string())
}

/// The vendor's routed VLAN interface name.
pub(crate) fn vlan_interface(f: &Flavour, id: u16) -> String {
    f.vlan_interface.replace("{id}", &id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flavour(vendor: &str, os: &str) -> &'static Flavour {
        crate::lower::vendor::vendors()
            .expect("vendor data")
            .flavour(vendor, os)
            .expect("flavour")
            .1
    }

    #[test]
    fn names_follow_each_os() {
        let cases = [
            ("arista", "eos", "1/7", "100G", "Ethernet7/1"),
            ("arista", "eos", "1/7:3", "25G", "Ethernet7/3"),
            ("arista", "eos", "1/48", "10G", "Ethernet48"),
            ("dell", "os10", "1/13", "100G", "ethernet1/1/13"),
            ("dell", "os10", "1/13:4", "25G", "ethernet1/1/13:4"),
            ("dell", "ftos9", "1/5", "100G", "hundredGigE 1/5"),
            ("dell", "ftos9", "1/49", "40G", "fortyGigE 1/49"),
            ("dell", "ftos9", "1/48", "10G", "TenGigabitEthernet 1/48"),
            (
                "dell",
                "ftos9",
                "1/49:2",
                "10G",
                "TenGigabitEthernet 1/49/2",
            ),
            ("pica8", "picos", "1/49", "40G", "xe-1/1/49"),
            ("pica8", "picos", "1/3", "10G", "te-1/1/3"),
            ("pica8", "picos", "1/3", "1G", "ge-1/1/3"),
            ("mellanox", "onyx", "1/9", "100G", "ethernet 1/9"),
            ("mellanox", "onyx", "1/9:2", "25G", "ethernet 1/9/2"),
        ];
        for (v, os, port, speed, want) in cases {
            let form = if speed == "10G" || speed == "1G" {
                "sfp+"
            } else {
                "qsfp28"
            };
            assert_eq!(
                interface(flavour(v, os), port, speed, form).as_deref(),
                Some(want),
                "{v}/{os} {port}"
            );
        }
        assert_eq!(
            interface(flavour("dell", "ftos9"), "1/1", "56G", "qsfp28"),
            None
        );
        assert_eq!(
            interface(flavour("arista", "eos"), "xe-1/1/1", "10G", "sfp+"),
            None
        );
        assert_eq!(
            port_channel(flavour("dell", "ftos9"), 10),
            "Port-channel 10"
        );
    }
}
