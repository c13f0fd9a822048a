//! `democ synth`: valid synthetic shows of a given size and shape, for benchmarks,
//! property tests and the netlab comparison. Deterministic for a given seed.

use std::fmt::Write as _;

/// Topology shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Shape {
    /// Switches in one ring (SC15's four Z9100s, scaled).
    Ring,
    /// Pods of two spines and up to 14 leaves; the spines of consecutive pods are
    /// joined in a core ring.
    LeafSpine,
    /// Booths of four switches in a ring each, joined to the next booth by a WAN
    /// circuit or dark fiber.
    Booths,
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Params {
    pub shape: Shape,
    pub switches: usize,
    pub hosts_per_switch: usize,
    pub flows: usize,
    pub seed: u64,
    /// Only Arista EOS switches (for the netlab comparison); otherwise vendors mix.
    pub eos_only: bool,
}

/// Models with 32 x 100G ports named 1/1..1/32, by vendor and OS, used in rotation.
const MODELS: &[(&str, &str)] = &[
    ("dell-z9100-on", "os10"),
    ("arista-7280cr-48", "eos"),
    ("inventec-d7032q28b", "picos"),
    ("mellanox-sn2700", "onyx"),
    ("dell-z9100-on", "ftos9"),
];

/// Ports 1..=32 exist on every model above; hosts take the low ports, fabric links the
/// high ones.
const FABRIC_FIRST: usize = 25;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn model(p: &Params, i: usize) -> (&'static str, &'static str) {
    if p.eos_only {
        MODELS[1]
    } else {
        MODELS[i % MODELS.len()]
    }
}

/// Leaf-spine spines (the first two switches of each pod of 16) carry no hosts and use
/// all their ports for the fabric.
fn has_hosts(p: &Params, i: usize) -> bool {
    p.shape != Shape::LeafSpine || i % 16 >= 2 || p.switches <= 2
}

/// Fabric links as (switch a, port a, switch b, port b).
fn fabric(p: &Params) -> Vec<(usize, usize, usize, usize)> {
    let n = p.switches;
    let mut links = Vec::new();
    let mut next_port: Vec<usize> = (0..n)
        .map(|i| if has_hosts(p, i) { FABRIC_FIRST } else { 1 })
        .collect();
    let mut join = |a: usize, b: usize, links: &mut Vec<_>| {
        if a == b || next_port[a] > 32 || next_port[b] > 32 {
            return;
        }
        links.push((a, next_port[a], b, next_port[b]));
        next_port[a] += 1;
        next_port[b] += 1;
    };
    match p.shape {
        Shape::Ring | Shape::Booths => {
            if n == 2 {
                join(0, 1, &mut links);
            } else if n > 2 {
                for i in 0..n {
                    join(i, (i + 1) % n, &mut links);
                }
            }
        }
        Shape::LeafSpine => {
            // Pods of 16: switches 0 and 1 of a pod are spines.
            let pods = n.div_ceil(16);
            for pod in 0..pods {
                let base = pod * 16;
                let end = (base + 16).min(n);
                for leaf in base + 2..end {
                    join(leaf, base, &mut links);
                    if base + 1 < end {
                        join(leaf, base + 1, &mut links);
                    }
                }
                if base + 1 < end {
                    join(base, base + 1, &mut links);
                }
                if pods > 1 {
                    let next = ((pod + 1) % pods) * 16;
                    if next != base {
                        join(base, next, &mut links);
                        if base + 1 < end && next + 1 < n {
                            join(base + 1, next + 1, &mut links);
                        }
                    }
                }
            }
        }
    }
    links
}

/// Generates a spec as YAML text.
pub fn generate(p: &Params) -> String {
    let hosts_per = p.hosts_per_switch.min(FABRIC_FIRST - 1);
    let mut rng = Lcg(p.seed ^ 0x5eed);
    let mut s = String::with_capacity(256 * (p.switches * (hosts_per + 2) + p.flows));
    let _ = writeln!(
        s,
        "# Synthetic show: {:?}, {} switches, {} hosts per switch, {} flows, seed {}",
        p.shape, p.switches, hosts_per, p.flows, p.seed
    );
    s.push_str("show:\n  name: synth\n  defaults: { host_mtu: 9000, openflow: { controller: \"10.255.255.1:6653\" } }\n");
    s.push_str("  addressing: { dtn: 10.0.0.0/9, p2p: 10.128.0.0/12, mgmt: 10.160.0.0/12 }\n");
    s.push_str("sites:\n");
    let booths = if p.shape == Shape::Booths {
        p.switches.div_ceil(4)
    } else {
        1
    };
    for b in 0..booths {
        let _ = writeln!(s, "  booth-{b}: {{ kind: booth }}");
    }
    s.push_str("switches:\n");
    for i in 0..p.switches {
        let (m, os) = model(p, i);
        let booth = if p.shape == Shape::Booths { i / 4 } else { 0 };
        let _ = writeln!(
            s,
            "  sw-{i}: {{ site: booth-{booth}, model: {m}, os: {os} }}"
        );
    }
    if hosts_per > 0 {
        s.push_str("hosts:\n");
        for i in (0..p.switches).filter(|&i| has_hosts(p, i)) {
            let booth = if p.shape == Shape::Booths { i / 4 } else { 0 };
            let _ = writeln!(
                s,
                "  dtn-{i}-[1-{hosts_per}]: {{ site: booth-{booth}, chassis: generic-1s-gen3, cpu: xeon-e5-2697-v3, nics: [{{ model: mellanox-cx4-100g, slot: \"1\", ports: [p0] }}] }}"
            );
        }
    }
    s.push_str("links:\n");
    for i in (0..p.switches).filter(|&i| hosts_per > 0 && has_hosts(p, i)) {
        let _ = writeln!(
            s,
            "  - {{ a: \"dtn-{i}-[1-{hosts_per}]:p0\", b: \"sw-{i}:1/[1-{hosts_per}]\", media: dac }}"
        );
    }
    let mut wan = Vec::new();
    for (a, pa, b, pb) in fabric(p) {
        if p.shape == Shape::Booths && a / 4 != b / 4 {
            wan.push((a, pa, b, pb));
        } else {
            let _ = writeln!(
                s,
                "  - {{ a: \"sw-{a}:1/{pa}\", b: \"sw-{b}:1/{pb}\", media: fiber, optic: 100gbase-lr4, length_m: 200 }}"
            );
        }
    }
    if !wan.is_empty() {
        s.push_str("wan:\n");
        for (k, (a, pa, b, pb)) in wan.into_iter().enumerate() {
            if k % 2 == 0 {
                let _ = writeln!(
                    s,
                    "  - {{ name: wan-{k}, kind: circuit, a: \"sw-{a}:1/{pa}\", b: \"sw-{b}:1/{pb}\", capacity: 100G, rtt_ms: {}, mtu: 9000 }}",
                    5 + k % 40
                );
            } else {
                let _ = writeln!(
                    s,
                    "  - {{ name: wan-{k}, kind: dark-fiber, a: \"sw-{a}:1/{pa}\", b: \"sw-{b}:1/{pb}\", optic: 100gbase-er4, length_km: 20, splices: 4, connectors: 2 }}"
                );
            }
        }
    }
    let leaves: Vec<usize> = (0..p.switches).filter(|&i| has_hosts(p, i)).collect();
    let hosts = leaves.len() * hosts_per;
    if hosts >= 2 && p.flows > 0 {
        s.push_str("flows:\n");
        for f in 0..p.flows {
            // Demo traffic is mostly local: within the booth (groups of four switches),
            // the pod (sixteen) or, on a ring, to a neighbour; one flow in a thousand
            // crosses the whole show.
            let a = rng.below(hosts);
            let sw = a / hosts_per;
            let global = rng.below(1000) == 0;
            let near = match p.shape {
                _ if global || leaves.len() < 2 => rng.below(leaves.len()),
                Shape::Booths => (sw / 4 * 4 + rng.below(4)).min(leaves.len() - 1),
                Shape::LeafSpine => {
                    let pod = leaves[sw] / 16;
                    let in_pod: Vec<usize> = (0..leaves.len())
                        .filter(|&l| leaves[l] / 16 == pod)
                        .collect();
                    in_pod[rng.below(in_pod.len())]
                }
                Shape::Ring => (sw + 1) % leaves.len(),
            };
            let b = near * hosts_per + rng.below(hosts_per);
            let b = if b == a { (a + 1) % hosts } else { b };
            // A few hundred Mbit/s each, so that even 100 flows per switch fit the fabric.
            let rate = if global {
                100
            } else {
                100 * (1 + rng.below(4))
            };
            let _ = writeln!(
                s,
                "  - {{ name: f-{f}, from: dtn-{}-{}, to: dtn-{}-{}, rate: {rate}M, protocol: tcp }}",
                leaves[a / hosts_per],
                a % hosts_per + 1,
                leaves[b / hosts_per],
                b % hosts_per + 1
            );
        }
    }
    s
}
