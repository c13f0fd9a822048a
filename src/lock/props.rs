//! The lock's promise as a property: with the lock of the previous build, adding a host
//! anywhere in the host list, or removing one, changes no other host's address (its DTN
//! interface's, and its lab management address, which follows host names), and
//! the lock then records exactly the new assignment. Through the real pipeline: spec and
//! lock are files, the lock is the text a build writes.

use std::collections::BTreeMap;
use std::path::Path;

use proptest::prelude::*;

use crate::compile::{self, Input, Options, Session};

/// Host `hK` on port `1/K` of `z1` (flat DTN pool) or `z2` (its gateway's subnet) by
/// parity, so the two ways of allocating host addresses are both exercised.
fn spec(hosts: &[u8]) -> String {
    let mut s = String::from(
        "show:\n  name: prop\n  addressing: { dtn: 10.1.1.0/24, p2p: 10.255.0.0/24, mgmt: 192.168.0.0/24 }\n\
         sites:\n  lab: { kind: lab }\n\
         switches:\n  z1: { site: lab, model: dell-z9100-on, os: os10 }\n  \
         z2: { site: lab, model: dell-z9100-on, os: os10, gateway: 10.2.2.1/24 }\n\
         hosts:\n",
    );
    for k in hosts {
        s.push_str(&format!(
            "  h{k}: {{ site: lab, chassis: supermicro-x10dri, cpu: xeon-e5-2697-v3, nics: [ {{ model: mellanox-cx4-100g, slot: \"2\", ports: [p0] }} ] }}\n"
        ));
    }
    s.push_str(
        "links:\n  - { a: \"z1:1/32\", b: \"z2:1/32\", media: dac, length_m: 3, mode: routed }\n",
    );
    for k in hosts {
        let sw = 1 + k % 2;
        s.push_str(&format!(
            "  - {{ a: \"h{k}:p0\", b: \"z{sw}:1/{k}\", media: dac, length_m: 3 }}\n"
        ));
    }
    s
}

/// Builds `hosts` in `dir` with the lock there (as `democ build` would), writes the lock
/// it implies, and returns each host's address.
fn build(dir: &Path, hosts: &[u8]) -> BTreeMap<String, String> {
    let path = dir.join("show.yaml");
    std::fs::write(&path, spec(hosts)).expect("write spec");
    let mut s = Session::default();
    let front = compile::front(Input::Path(&path), &Options::default(), &mut s)
        .expect("no usage error")
        .unwrap_or_else(|| panic!("{:?}", s.diags.items()));
    let lock = s.lock.as_ref().expect("a spec file has a lock");
    if let Some(text) = lock.to_write() {
        std::fs::write(&lock.path, text).expect("write lock");
    }
    front
        .model
        .hosts
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let a = h.ports[0]
                .address
                .map(|a| a.to_string())
                .unwrap_or_default();
            let lab = front.model.lab_mgmt.hosts.get(&i);
            (h.name.value.clone(), format!("{a} lab {lab:?}"))
        })
        .collect()
}

/// Distinct host numbers 1..=30 (ports `1/1`..`1/30`; `1/32` is the routed link).
fn hosts() -> impl Strategy<Value = Vec<u8>> {
    proptest::sample::subsequence((1u8..=30).collect::<Vec<_>>(), 1..12).prop_shuffle()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn adding_a_host_anywhere_moves_no_other_host(
        before in hosts(),
        new in 1u8..=30,
        at in any::<proptest::sample::Index>(),
    ) {
        prop_assume!(!before.contains(&new));
        let tmp = tempfile::tempdir().expect("tempdir");
        let first = build(tmp.path(), &before);
        let mut after = before.clone();
        after.insert(at.index(before.len() + 1), new);
        let second = build(tmp.path(), &after);
        for (h, a) in &first {
            prop_assert_eq!(Some(a), second.get(h), "{} moved", h);
        }
        let added = format!("h{new}");
        prop_assert!(
            second[&added].starts_with("10.") && !second[&added].ends_with("None"),
            "{} has no address: {}", added, second[&added]
        );
        // The lock now says exactly this: a third build changes nothing.
        prop_assert_eq!(&build(tmp.path(), &after), &second);
    }

    #[test]
    fn removing_a_host_moves_no_other_host(before in hosts(), at in any::<proptest::sample::Index>()) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let first = build(tmp.path(), &before);
        let mut after = before.clone();
        let gone = after.remove(at.index(before.len()));
        let second = build(tmp.path(), &after);
        for (h, a) in &second {
            prop_assert_eq!(Some(a), first.get(h), "{} moved", h);
        }
        let lock = std::fs::read_to_string(tmp.path().join("democ.lock")).expect("lock");
        let stale = format!("\"h{gone}:p0\"");
        prop_assert!(!lock.contains(&stale), "{} still locked", gone);
    }
}
