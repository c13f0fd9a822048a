//! Canonical port names (`1/17`, `1/17:2`) to each OS's interface names, by the
//! patterns in vendor.yaml.

use std::fmt::Write as _;

use crate::resolve::model::Port;
use crate::vendor::{Flavour, NameRule};

/// A canonical port name taken apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Canonical {
    pub(crate) unit: u32,
    pub(crate) n: u32,
    pub(crate) k: Option<u32>,
}

/// Parses `unit/n` or `unit/n:k`.
pub(crate) fn parse(name: &str) -> Option<Canonical> {
    let (unit, rest) = split_once(name, b'/')?;
    let (n, k) = match split_once(rest, b':') {
        Some((n, k)) => (n, Some(k.parse().ok()?)),
        None => (rest, None),
    };
    Some(Canonical {
        unit: unit.parse().ok()?,
        n: n.parse().ok()?,
        k,
    })
}

/// `s` around the first `byte` (ASCII), like `str::split_once` with a char: a byte
/// scan of these short names costs less than the char searcher's set-up, and every port
/// of every switch is named through here.
fn split_once(s: &str, byte: u8) -> Option<(&str, &str)> {
    let at = s.bytes().position(|b| b == byte)?;
    Some((&s[..at], &s[at + 1..]))
}

/// Fills `{unit}`, `{n}`, `{k}` (`{k0}` counting from 0) and `{id}` placeholders.
pub(crate) fn fill(pattern: &str, c: Canonical) -> String {
    // One pass, one allocation: every port of every switch is named (three `replace`
    // calls were a quarter of lowering on sc16).
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut rest = pattern;
    while let Some(open) = rest.bytes().position(|b| b == b'{') {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        let (value, len) = if tail.starts_with("{unit}") {
            (Some(c.unit), 6)
        } else if tail.starts_with("{n}") {
            (Some(c.n), 3)
        } else if tail.starts_with("{k}") {
            (c.k, 3)
        } else if tail.starts_with("{k0}") {
            // Zero-based subports (Cumulus `swp1s0`).
            (c.k.map(|k| k.saturating_sub(1)), 4)
        } else {
            out.push('{');
            rest = &tail[1..];
            continue;
        };
        if let Some(v) = value {
            let _ = write!(out, "{v}");
        }
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}

fn rule<'a>(rules: &'a [NameRule], speed: &str, form: &str, unit: u32) -> Option<&'a NameRule> {
    let holds = |list: &Option<Vec<String>>, v: &str| {
        list.as_ref().is_none_or(|l| l.iter().any(|x| x == v))
    };
    rules.iter().find(|r| {
        holds(&r.speeds, speed) && holds(&r.forms, form) && r.min_unit.is_none_or(|m| unit >= m)
    })
}

/// The vendor's name of a port of cage `form` running at `speed` (`25G`); None when the
/// name is not canonical or no naming rule covers the port.
pub(crate) fn interface(f: &Flavour, port: &str, speed: &str, form: &str) -> Option<String> {
    by_rules(&f.interfaces, port, speed, form)
}

/// The vendor's name of a model port: by the catalog's OS numbering where it has one
/// (FTOS 9 on the S4810/Z9000: `fortyGigE 0/48`, quad lanes `TenGigabitEthernet
/// 0/48`..`0/51`), else by the canonical name.
pub(crate) fn os_interface(f: &Flavour, p: &Port) -> Option<String> {
    let speed = p.speed.to_string();
    let Some(c) = os_number(p) else {
        let name = interface(f, &p.name, &speed, &p.form)?;
        return Some(with_lane(name, p));
    };
    let r = rule(&f.interfaces, &speed, &p.form, c.unit)?;
    Some(with_lane(fill(&r.port, c), p))
}

/// Fills `{lane}`, the port's first electrical lane (SONiC's `Ethernet0`, `Ethernet8`:
/// ports are named by their first lane), where the pattern has it. A port whose lanes
/// the catalog does not give keeps the placeholder, which no OS accepts, rather than
/// a guessed name.
pub(crate) fn with_lane(name: String, p: &Port) -> String {
    match p.lane {
        Some(lane) if name.contains("{lane}") => name.replace("{lane}", &lane.to_string()),
        _ => name,
    }
}

/// The OS's `unit/n` of a port the catalog numbers its own way (subports flat after
/// their parent); None for canonical numbering.
pub(crate) fn os_number(p: &Port) -> Option<Canonical> {
    let (unit, n) = p.native?;
    let k = parse(&p.name).and_then(|c| c.k).unwrap_or(1);
    Some(Canonical {
        unit,
        n: n + k - 1,
        k: None,
    })
}

/// The canonical or OS numbering of a port, for commands that name a whole port
/// (`stack-unit 0 port 48 portmode quad`).
pub(crate) fn numbered(p: &Port) -> Option<Canonical> {
    os_number(p).or_else(|| parse(&p.name))
}

/// The same by any rule list (containerlab's interface names).
pub(crate) fn by_rules(rules: &[NameRule], port: &str, speed: &str, form: &str) -> Option<String> {
    let c = parse(port)?;
    let r = rule(rules, speed, form, c.unit)?;
    let pattern = match c.k {
        Some(_) => r.subport.as_deref()?,
        None => &r.port,
    };
    let stride = r.lanes.get(speed).copied().unwrap_or(1).max(1);
    let c = Canonical {
        k: c.k.map(|k| 1 + (k - 1) * stride),
        ..c
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
        crate::vendor::vendors()
            .expect("vendor data")
            .flavour(vendor, os)
            .expect("flavour")
            .1
    }

    /// The one-pass fill names every pattern as the three replacements it replaced.
    #[test]
    fn fill_is_the_three_replacements() {
        let by_replace = |p: &str, c: Canonical| {
            p.replace("{unit}", &c.unit.to_string())
                .replace("{n}", &c.n.to_string())
                .replace("{k}", &c.k.map(|k| k.to_string()).unwrap_or_default())
        };
        let patterns = [
            "Ethernet{n}/{k}",
            "Ethernet{unit}/{n}",
            "ethernet {unit}/1/{n}:{k}",
            "te-{unit}/{n}",
            "{n}",
            "{",
            "a{b}{unit",
            "{{n}}{k}{k}",
            "",
            "é{n}ü",
        ];
        for p in patterns {
            for c in [
                Canonical {
                    unit: 1,
                    n: 49,
                    k: Some(3),
                },
                Canonical {
                    unit: 0,
                    n: 7,
                    k: None,
                },
                Canonical {
                    unit: 10,
                    n: u32::MAX,
                    k: Some(100),
                },
            ] {
                assert_eq!(fill(p, c), by_replace(p, c), "{p}");
            }
        }
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
            // A 7800R3 line card in slot 3: the slot is the unit.
            ("arista", "eos", "3/24", "400G", "Ethernet3/24/1"),
            // 100G-2 subports are named by their first lane, /1, /3, /5, /7.
            ("arista", "eos", "3/24:2", "100G", "Ethernet3/24/3"),
            ("pica8", "picos", "1/9:4", "100G", "xe-1/1/9.4"),
            ("pica8", "picos", "1/9", "400G", "xe-1/1/9"),
        ];
        // EOS octal (QSFP-DD) ports: a subport is named by its first lane.
        let eos = flavour("arista", "eos");
        for (port, speed, want) in [
            ("1/9:2", "100G", "Ethernet9/3"),
            ("1/9:4", "100G", "Ethernet9/7"),
            ("1/9:2", "200G", "Ethernet9/5"),
            ("1/9:8", "50G", "Ethernet9/8"),
        ] {
            assert_eq!(
                interface(eos, port, speed, "qsfp-dd").as_deref(),
                Some(want),
                "{port} {speed}"
            );
        }
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

    fn port(name: &str, gbps: f64, form: &str, native: Option<(u32, u32)>) -> Port {
        let speed = crate::spec::units::Rate::from_gbps(gbps);
        Port {
            name: name.into(),
            speed,
            speeds: std::sync::Arc::from([speed]),
            parent: name.split_once(':').map(|(p, _)| p.to_owned()),
            form: form.into(),
            lanes: None,
            fec: None,
            mtu: None,
            description: None,
            shutdown: false,
            span: None,
            nic: None,
            link: None,
            address: None,
            native,
            lane: None,
            openflow: false,
        }
    }

    /// FTOS 9 on the S4810/Z9000 numbers from stack unit 0 (issue 9 section 6): the
    /// catalog's numbering, not the canonical `1/N`, names the interface, and quad
    /// lanes take the numbers after their parent's.
    #[test]
    fn ftos_numbers_from_stack_unit_zero() {
        let f = flavour("dell", "ftos9");
        let cases = [
            (
                port("1/1", 10.0, "sfp+", Some((0, 0))),
                "TenGigabitEthernet 0/0",
            ),
            (
                port("1/48", 10.0, "sfp+", Some((0, 47))),
                "TenGigabitEthernet 0/47",
            ),
            (port("1/49", 40.0, "qsfp+", Some((0, 48))), "fortyGigE 0/48"),
            (
                port("1/50:3", 10.0, "qsfp+", Some((0, 52))),
                "TenGigabitEthernet 0/54",
            ),
            (
                port("1/32", 40.0, "qsfp+", Some((0, 124))),
                "fortyGigE 0/124",
            ),
            (port("1/5", 100.0, "qsfp28", None), "hundredGigE 1/5"),
        ];
        for (p, want) in cases {
            assert_eq!(os_interface(f, &p).as_deref(), Some(want), "{}", p.name);
        }
        let quad = port("1/50:1", 10.0, "qsfp+", Some((0, 52)));
        assert_eq!(
            numbered(&quad).map(|c| fill("stack-unit {unit} port {n}", c)),
            Some("stack-unit 0 port 52".into())
        );
    }
}
