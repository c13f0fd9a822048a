//! The rulesets of the SC16 and SC15 builds, checked against the planned paths
//! (`ir/flows/flows.json`, written by the path planner, not by the rule generator):
//! every hop that enters an OpenFlow switch through a port under the controller has its
//! IPv4 and ARP rules for the pair's data (in through the hop's in port, out of its out
//! port, or NORMAL where the out port is legacy) and for the replies (in through the out
//! port, out of the in port); and no switch holds two rules with the same priority and
//! match. Where the switch's agent cannot match ARP (FTOS 9) or speaks OpenFlow 1.0,
//! there is no ARP rule, and the pair's two hosts hold each other as static neighbours
//! instead.

#[path = "fixtures/render/support.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use support::{build, example, switch_ir_files};

/// One OpenFlow switch: its ports' roles and numbers, and its rules by match.
struct Sw {
    /// Canonical port (`1/3`, `1/1:2`) or `lagN` -> OpenFlow number, for ports under the
    /// controller; None for legacy ports.
    ports: BTreeMap<String, Option<u64>>,
    /// (ether type, in_port, src, dst) -> output (`port N` or `NORMAL`).
    rules: BTreeMap<(String, u64, String, String), String>,
    /// democ writes ARP rules for the agent: not FTOS 9 (no ARP matching, its SDN
    /// Deployment Guide), not OpenFlow 1.0 (a controller cannot install them).
    arp: bool,
}

fn switch(ir: &Value) -> Sw {
    let of = &ir["openflow"];
    let numbers: BTreeMap<&str, u64> = of["port_numbers"]
        .as_array()
        .expect("port numbers")
        .iter()
        .map(|p| {
            (
                p["interface"].as_str().expect("interface"),
                p["number"].as_u64().expect("number"),
            )
        })
        .collect();
    let mut lag_of: BTreeMap<&str, String> = BTreeMap::new();
    let mut ports = BTreeMap::new();
    for c in ir["port_channels"].as_array().expect("port channels") {
        let name = c["name"].as_str().expect("name");
        let key = format!("lag{}", c["id"]);
        for m in c["members"].as_array().expect("members") {
            lag_of.insert(m.as_str().expect("member"), key.clone());
        }
        let n = (c["role"] == "openflow").then(|| numbers[name]);
        ports.insert(key, n);
    }
    for i in ir["interfaces"].as_array().expect("interfaces") {
        let name = i["name"].as_str().expect("name");
        let Some(port) = i["port"].as_str() else {
            continue;
        };
        let n = match lag_of.get(name) {
            Some(lag) => ports[lag],
            None => (i["role"] == "openflow").then(|| numbers[name]),
        };
        ports.insert(port.to_owned(), n);
    }
    let mut rules = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for r in of["ruleset"]["rules"].as_array().expect("rules") {
        let m = &r["match"];
        let key = (
            m["ether_type"].as_str().expect("ether type").to_owned(),
            m["in_port"].as_u64().expect("in_port"),
            m["src"].as_str().expect("src").to_owned(),
            m["dst"].as_str().expect("dst").to_owned(),
        );
        assert!(
            seen.insert((r["priority"].as_u64(), key.clone())),
            "{}: two rules with priority {} and match {key:?}",
            ir["hostname"],
            r["priority"]
        );
        let out = &r["actions"]["output"];
        let out = match out["kind"].as_str() {
            Some("port") => format!("port {}", out["number"]),
            _ => "NORMAL".to_owned(),
        };
        rules.insert(key, out);
    }
    Sw {
        ports,
        rules,
        arp: ir["os"] != "ftos9" && of["ruleset"]["version"] != "1.0",
    }
}

fn expect_rules(sw: &Sw, host: &str, what: &str, in_port: u64, src: &str, dst: &str, out: &str) {
    for et in ["ipv4", "arp"] {
        let key = (et.to_owned(), in_port, src.to_owned(), dst.to_owned());
        let want = (et == "ipv4" || sw.arp).then_some(out);
        assert_eq!(
            sw.rules.get(&key).map(String::as_str),
            want,
            "{host}: {what}: {et} rule in_port={in_port} {src} -> {dst}"
        );
    }
}

/// Host address -> the peer addresses it holds as static neighbours.
fn neighbours(out: &std::path::Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut map = BTreeMap::new();
    for e in std::fs::read_dir(out.join("ir/hosts")).expect("ir/hosts") {
        let ir: Value =
            serde_json::from_slice(&std::fs::read(e.expect("entry").path()).expect("ir"))
                .expect("json");
        let peers: BTreeSet<String> = ir["neighbors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| n["address"].as_str().expect("address").to_owned())
            .collect();
        for i in ir["interfaces"].as_array().expect("interfaces") {
            if let Some(a) = i["address"].as_str() {
                let a = a.split('/').next().expect("address").to_owned();
                map.entry(a)
                    .or_insert_with(BTreeSet::new)
                    .extend(peers.clone());
            }
        }
    }
    map
}

#[test]
fn every_openflow_hop_of_every_flow_has_its_rules() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for show in ["sc16", "sc15"] {
        let out = tmp.path().join(show);
        build(&example(show), &out);
        let mut switches = BTreeMap::new();
        for f in switch_ir_files(&out) {
            let ir: Value = serde_json::from_slice(&std::fs::read(&f).expect("ir")).expect("json");
            if ir["openflow"].is_null() {
                continue;
            }
            let host = ir["hostname"].as_str().expect("hostname").to_owned();
            switches.insert(host, switch(&ir));
        }
        let flows: Value = serde_json::from_slice(
            &std::fs::read(out.join("ir/flows/flows.json")).expect("flows.json"),
        )
        .expect("json");
        let mut hops = 0;
        let held = neighbours(&out);
        let mut arpless = 0;
        for f in flows.as_array().expect("flows") {
            for p in f["pairs"].as_array().expect("pairs") {
                let (src, dst) = (
                    p["src_address"].as_str().expect("src"),
                    p["dst_address"].as_str().expect("dst"),
                );
                for h in p["path"].as_array().expect("path") {
                    let host = h["switch"].as_str().expect("switch");
                    let Some(sw) = switches.get(host) else {
                        continue;
                    };
                    let port = |k: &str| {
                        sw.ports
                            .get(h[k].as_str().expect("port"))
                            .copied()
                            .flatten()
                    };
                    let what = format!("flow {}", f["name"]);
                    if !sw.arp && (port("in_port").is_some() || port("out_port").is_some()) {
                        for (me, peer) in [(src, dst), (dst, src)] {
                            assert!(
                                held.get(me).is_some_and(|p| p.contains(peer)),
                                "{what}: {me} crosses {host}, which cannot carry ARP, without {peer} as a static neighbour"
                            );
                        }
                        arpless += 1;
                    }
                    let (inp, outp) = (port("in_port"), port("out_port"));
                    if let Some(i) = inp {
                        let o = outp.map_or("NORMAL".to_owned(), |o| format!("port {o}"));
                        expect_rules(sw, host, &what, i, src, dst, &o);
                        hops += 1;
                    }
                    if let Some(o) = outp {
                        let i = inp.map_or("NORMAL".to_owned(), |i| format!("port {i}"));
                        expect_rules(sw, host, &format!("{what} replies"), o, dst, src, &i);
                        hops += 1;
                    }
                }
            }
        }
        assert!(hops >= 20, "{show}: {hops} OpenFlow hops checked");
        assert!(arpless > 0, "{show}: no hop without ARP rules");
        println!("{show}: {hops} OpenFlow hops checked");
    }
}
