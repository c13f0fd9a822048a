//! Which rules carry a flow, and how many packets they have matched: the ruleset's own
//! cookies (`ir/flows/flows.json` gives each flow's cookie and mask, the rules add the
//! direction and pair), plus the rules another flow's cookie marks but the IR says the
//! flow shares (`shared_with`: same packets, same ports, one rule).

use super::switch;
use super::test::Site;
use crate::ir::Switch;
use crate::ir::flow::Flow;
use crate::ir::rules::EtherType;
use std::collections::BTreeMap;

/// A rule as `dump-flows` shows it: (cookie, in_port, `ip`|`arp`).
pub(crate) type Key = (u64, u32, &'static str);

pub(crate) fn hex(text: &str) -> Option<u64> {
    u64::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
}

/// Packets per rule on one OpenFlow switch (`ovs-ofctl dump-flows`); rules with no
/// cookie, `in_port` or ether type (the table-miss entry) are left out.
pub(crate) fn dump(site: &dyn Site, sw: &Switch) -> BTreeMap<Key, u64> {
    let d = site.dirs(&sw.hostname);
    let mut out = BTreeMap::new();
    let Ok(text) = switch::ofctl(&d, sw)
        .arg("--no-names")
        .arg("dump-flows")
        .arg(site.of_bridge(&sw.hostname))
        .at(Some(site.switch(&sw.hostname)))
        .run()
    else {
        return out;
    };
    for line in text.lines() {
        if let Some((key, packets)) = parse(line) {
            *out.entry(key).or_insert(0) += packets;
        }
    }
    out
}

fn parse(line: &str) -> Option<(Key, u64)> {
    let words: Vec<&str> = line
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    let field = |key: &str| words.iter().find_map(|w| w.strip_prefix(key));
    let cookie = hex(field("cookie=")?)?;
    let in_port = field("in_port=")?.parse().ok()?;
    let ether = if words.contains(&"arp") || field("dl_type=") == Some("0x0806") {
        "arp"
    } else if words.contains(&"ip") || field("dl_type=") == Some("0x0800") {
        "ip"
    } else {
        return None;
    };
    let packets = field("n_packets=")?.parse().ok()?;
    Some(((cookie, in_port, ether), packets))
}

/// The rules of `sw` that carry `flow`.
pub(crate) fn carrying(sw: &Switch, flow: &Flow) -> Vec<Key> {
    let (Some(want), Some(mask)) = (hex(&flow.cookie), hex(&flow.cookie_mask)) else {
        return Vec::new();
    };
    let Some(of) = &sw.openflow else {
        return Vec::new();
    };
    of.ruleset
        .rules
        .iter()
        .filter_map(|r| {
            let c = hex(&r.cookie)?;
            (c & mask == want || r.carries(&flow.name)).then_some((
                c,
                r.matches.in_port,
                if r.matches.ether_type == EtherType::Arp {
                    "arp"
                } else {
                    "ip"
                },
            ))
        })
        .collect()
}

/// Packets the rules `keys` have matched, in a dump.
pub(crate) fn packets(dump: &BTreeMap<Key, u64>, keys: &[Key]) -> u64 {
    keys.iter().filter_map(|k| dump.get(k)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_dump_flows_lines() {
        let l = " cookie=0xdc068cb94d800001, duration=2.1s, table=0, n_packets=7, n_bytes=686, priority=1000,ip,in_port=21,nw_src=10.16.0.17,nw_dst=10.16.0.35 actions=output:1010";
        assert_eq!(parse(l), Some(((0xdc06_8cb9_4d80_0001, 21, "ip"), 7)));
        let a = " cookie=0x1, duration=2.1s, table=0, n_packets=2, n_bytes=84, priority=1000,arp,in_port=3,arp_spa=10.0.0.1 actions=NORMAL";
        assert_eq!(parse(a), Some(((1, 3, "arp"), 2)));
        let miss = " cookie=0xdc00000000000000, duration=9s, table=0, n_packets=40, n_bytes=1, priority=0 actions=drop";
        assert_eq!(parse(miss), None);
    }
}
