//! The connected pieces of the cabling, for saying why a flow has no path: the source
//! and the destination sit on two islands no link joins.

use std::collections::{BTreeSet, VecDeque};

use crate::resolve::model::{Model, NodeId};

/// Every node reachable from `start` over the show's links (LAN and WAN).
pub(crate) fn island(m: &Model, start: NodeId) -> BTreeSet<NodeId> {
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for l in &m.links {
            let next = if l.a.node == n {
                l.b.node
            } else if l.b.node == n {
                l.a.node
            } else {
                continue;
            };
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

/// An island in a few words: its switches (the first four by name), else its hosts.
pub(crate) fn describe(m: &Model, island: &BTreeSet<NodeId>) -> String {
    let mut switches: Vec<&str> = island
        .iter()
        .filter(|n| matches!(n, NodeId::Switch(_)))
        .map(|&n| m.node_name(n))
        .collect();
    if switches.is_empty() {
        return "no switch (its ports are not cabled)".into();
    }
    switches.sort_unstable();
    let more = switches.len().saturating_sub(4);
    let named: Vec<String> = switches.iter().take(4).map(|s| format!("`{s}`")).collect();
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("{}{tail}", named.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::model::NodeId;

    #[test]
    fn islands_split_where_no_link_joins() {
        let spec = r#"
show: { name: t, addressing: { dtn: 10.16.0.0/16, p2p: 10.255.0.0/24 } }
sites: { lab: { kind: lab } }
switches:
  a: { site: lab, model: t-sw32 }
  b: { site: lab, model: t-sw32 }
  c: { site: lab, model: t-sw32 }
links:
  - { a: "a:1/1", b: "b:1/1", media: dac }
"#;
        let m = crate::testkit::checks::front(spec).model;
        let left = island(&m, NodeId::Switch(0));
        assert_eq!(left.len(), 2);
        assert_eq!(describe(&m, &left), "`a`, `b`");
        assert_eq!(describe(&m, &island(&m, NodeId::Switch(2))), "`c`");
    }
}
