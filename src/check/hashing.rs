//! Static hashing of streams onto the members of a LAG. A switch picks a stream's member
//! from a hash of its headers, so streams land on members at random and independently:
//! with k streams on n members a member gets X ~ Binomial(k, 1/n) of them, and the
//! expected number of busy members is n(1 - (1 - 1/n)^k) (balls into bins). Ten
//! single-stream transfers over ten members keep about 6.5 of them busy, not ten.
//!
//! A member carries what its streams ask, up to its capacity, so the LAG's expected
//! throughput is n x E[min(X d, c)] for streams asking d each on members of capacity c.
//! When each stream wants a full member (d >= c) that is the busy members times c: the
//! busiest member decides. When streams are many and small it tends to min(k d, n c):
//! collisions stop mattering.
//!
//! What a "stream" is depends on the fields the sending switch hashes on (catalog
//! `lag_hash`): with the TCP/UDP ports (`l3-l4`, the default) every stream lands on its
//! own; with the addresses only (`l3`) every stream of a pair lands on one member, so
//! the units hashed are the pairs, and one pair never uses more than one member.

use super::CheckInput;
use super::load::{Loads, Res};
use super::predict::lag_gbps;
use crate::derive::paths::Via;
use crate::resolve::model::{LagId, NodeId};
use crate::spec::catalog_file::HashFields;

/// Expected number of members that carry at least one of `k` streams.
pub(crate) fn busy_members(n: usize, k: u32) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    n * (1.0 - (1.0 - 1.0 / n).powf(f64::from(k)))
}

/// Expected rate the LAG carries, in the unit of `d` and `c`: `k` streams asking `d`
/// each, hashed onto `n` members of capacity `c`.
pub(crate) fn expected(n: usize, k: u32, d: f64, c: f64) -> f64 {
    if n == 0 || k == 0 || d <= 0.0 || c <= 0.0 {
        return 0.0;
    }
    if n == 1 {
        return (f64::from(k) * d).min(c);
    }
    let q = 1.0 / n as f64;
    let ln_p0 = f64::from(k) * (1.0 - q).ln();
    // So many streams per member that every member is loaded near its mean (and the
    // first terms of the distribution underflow): the law of large numbers.
    if ln_p0 < -600.0 {
        return n as f64 * (f64::from(k) * q * d).min(c);
    }
    // E[min(X d, c)] = sum over x below the saturating count of P(x) x d, plus c times
    // the probability of reaching it; P(x + 1) = P(x) (k - x) / (x + 1) q / (1 - q).
    let full = (c / d).ceil().max(1.0) as u32;
    let mut p = ln_p0.exp();
    let (mut below, mut mass) = (0.0, 0.0);
    for x in 0..full.min(k + 1) {
        below += p * f64::from(x) * d;
        mass += p;
        p *= f64::from(k - x) / f64::from(x + 1) * q / (1.0 - q);
    }
    n as f64 * (below + c * (1.0 - mass).max(0.0))
}

/// The worst case: every stream on one member.
pub(crate) fn worst(k: u32, d: f64, c: f64) -> f64 {
    (f64::from(k) * d).min(c)
}

/// The fewest streams, splitting `demand` between them, whose expected rate over `n`
/// members of capacity `c` reaches `need` (at most 64 per member; None past that).
pub(crate) fn streams_for(n: usize, demand: f64, c: f64, need: f64) -> Option<u32> {
    let most = 64 * n.max(1) as u32;
    (1..=most).find(|&k| expected(n, k, demand / f64::from(k), c) >= need)
}

/// What the sending end of a LAG direction hashes on: its switch model's default
/// (catalog `lag_hash`; `l3-l4` when the catalog does not say), or `l3-l4` for a DTN's
/// bond, whose host script sets `xmit_hash_policy layer3+4`.
pub(crate) fn fields(cx: &CheckInput, g: LagId, forward: bool) -> HashFields {
    let m = cx.m;
    let Some(&l) = m.lags[g].members.first() else {
        return HashFields::L3L4;
    };
    let link = &m.links[l];
    let sender = if forward { link.a } else { link.b };
    match sender.node {
        NodeId::Switch(s) => cx
            .db
            .switches
            .get(&m.switches[s].model.value)
            .and_then(|x| x.lag_hash.as_ref())
            .map_or(HashFields::L3L4, |h| h.fields.value),
        NodeId::Host(_) => HashFields::L3L4,
    }
}

/// What one unit hashed onto members is called under these fields.
pub(crate) fn unit(f: HashFields) -> &'static str {
    match f {
        HashFields::L3L4 => "stream",
        HashFields::L3 => "pair",
    }
}

/// A LAG direction under static hashing: the units hashed (streams, or pairs when the
/// switch hashes on addresses only), what they ask, what the members are expected to
/// carry of it and the worst case, wire Gbit/s.
pub(crate) struct Hashed {
    pub(crate) members: usize,
    pub(crate) fields: HashFields,
    /// Units hashed: streams (`l3-l4`) or pairs (`l3`).
    pub(crate) streams: u32,
    pub(crate) member_gbps: f64,
    pub(crate) demand_gbps: f64,
    /// What the members are expected to carry of the demand.
    pub(crate) expected: f64,
    /// Every stream on one member.
    pub(crate) worst: f64,
    /// The LAG's capacity in the sharing: its members' sum while hashing loses nothing
    /// of the demand, else what hashing is expected to carry.
    pub(crate) capacity: f64,
    /// The members, busiest first, where democ computes them ([`bond_loads`]); None:
    /// the random model.
    pub(crate) computed: Option<Computed>,
}

impl Hashed {
    /// Why the LAG carries what it does, for a limit's words (`name`: the LAG direction).
    pub(crate) fn why(&self, name: &str, raw: f64) -> String {
        match &self.computed {
            Some(c) => format!(
                "{name}: {} on {} members as the DTN's bond hashes them (Linux layer3+4, with the client ports democ picks: {} per member): {:.1} of its {raw:.0} Gbit/s",
                crate::diag::plural(self.streams as usize, "stream"),
                self.members,
                c.streams
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                self.expected
            ),
            None => format!(
                "{name}: {} hashed onto {} members, {:.1} busy on average: {:.1} of its {raw:.0} Gbit/s expected (worst case, all on one member: {:.0})",
                crate::diag::plural(self.streams as usize, unit(self.fields)),
                self.members,
                busy_members(self.members, self.streams),
                self.expected,
                self.worst
            ),
        }
    }
}

/// A bond direction's members as democ computes them, busiest first: the streams on
/// each and the Gbit/s they ask of it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Computed {
    pub(crate) streams: Vec<u32>,
    pub(crate) gbps: Vec<f64>,
    /// The client's and server's addresses and the server port, when one pair crosses.
    pub(crate) one_pair: Option<(std::net::Ipv4Addr, std::net::Ipv4Addr, u16)>,
}

/// The members of a LAG direction whose loads democ computes rather than expects: its
/// sender a DTN's bond (the Linux layer3+4 hash and its modulo, documented to the bit:
/// `bond_hash`) and every pair over it on client ports democ picked (`pick_ports`,
/// `client_ports`), for any count of members. Err says why the random model stays
/// there: no switch OS documents its function to the bit (vendor.yaml `lag_hash`), and
/// iperf3's ephemeral ports, or those the kernel's NVMe-oF initiator takes, are not known.
pub(crate) fn bond_loads(
    cx: &CheckInput,
    loads: &Loads,
    r: &Res,
    g: LagId,
) -> Result<Computed, &'static str> {
    use super::client_ports::{PairPorts, TestPorts};
    let m = cx.m;
    let forward = matches!(r, Res::Lag(_, true));
    let first = m.lags[g].members.first().ok_or("the LAG has no members")?;
    let link = &m.links[*first];
    let sender = if forward { link.a } else { link.b };
    let NodeId::Host(host) = sender.node else {
        return Err("a switch sends");
    };
    let flows = loads.flows(r);
    if !flows.iter().all(|&f| m.flows[f].pick_ports) {
        return Err(
            "the client ports are iperf3's ephemeral ones (`pick_ports: true` on the flow lets democ choose them)",
        );
    }
    let ports = cx.test_ports();
    let n = m.lags[g].members.len();
    let (mut streams, mut gbps) = (vec![0u32; n], vec![0.0f64; n]);
    let mut ends = Vec::new();
    for &fi in flows {
        let pairs = cx.routes.flows[fi].pairs.iter().zip(&ports[fi]);
        for (pr, pp) in pairs {
            let over = pr.src == host && pr.hops.first().is_some_and(|h| h.via == Via::Lag(g));
            if !over {
                continue;
            }
            let picked = match pp {
                PairPorts::Test(
                    t @ TestPorts {
                        picked: Some(p), ..
                    },
                ) if p.lag == g => {
                    ends.push((t.addrs.0, t.addrs.1, t.server));
                    p
                }
                PairPorts::Fabric(_) => {
                    return Err(
                        "an NVMe-oF fabric's pair crosses it, on ports the kernel's initiator picks",
                    );
                }
                _ => return Err("no free client port range was left for a pair over it"),
            };
            let k: u32 = picked.members.iter().sum();
            let d = m.flows[fi].pair_rate().gbps() / f64::from(k.max(1));
            for (i, &x) in picked.members.iter().enumerate() {
                streams[i] += x;
                gbps[i] += f64::from(x) * d;
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        gbps[b]
            .total_cmp(&gbps[a])
            .then(streams[b].cmp(&streams[a]))
    });
    Ok(Computed {
        streams: order.iter().map(|&i| streams[i]).collect(),
        gbps: order.iter().map(|&i| gbps[i]).collect(),
        one_pair: (ends.len() == 1).then(|| ends[0]),
    })
}

pub(crate) fn lag_hashed(cx: &CheckInput, loads: &Loads, r: &Res, g: usize) -> Hashed {
    let m = cx.m;
    let lag = &m.lags[g];
    let n = lag.members.len();
    let member = lag
        .members
        .first()
        .map_or(0.0, |&l| m.links[l].capacity.gbps());
    let raw = lag_gbps(m, g);
    let forward = matches!(r, Res::Lag(_, true));
    let fields = fields(cx, g, forward);
    let k = match fields {
        HashFields::L3L4 => loads.streams(r),
        HashFields::L3 => loads.pairs(r),
    }
    .max(1);
    let demand = loads.demand(r) / 1e9;
    let d = demand / f64::from(k);
    let computed = match fields {
        HashFields::L3L4 => bond_loads(cx, loads, r, g).ok(),
        HashFields::L3 => None,
    };
    let carried = computed.as_ref().map_or_else(
        || expected(n, k, d, member),
        |c| c.gbps.iter().map(|&x| x.min(member)).sum(),
    );
    let loses = demand > 0.0 && carried < demand.min(raw) * (1.0 - 1e-3);
    Hashed {
        members: n,
        fields,
        streams: k,
        member_gbps: member,
        demand_gbps: demand,
        expected: carried,
        worst: worst(k, d, member),
        capacity: if loses { carried } else { raw },
        computed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Hashes `k` streams onto `n` members `trials` times (a small xorshift generator,
    /// seeded, so the test is deterministic) and averages what the members carry.
    fn simulate(n: usize, k: u32, d: f64, c: f64, trials: u32, seed: u64) -> (f64, f64) {
        let mut s = seed | 1;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let (mut busy, mut carried) = (0.0, 0.0);
        let mut load = vec![0u32; n];
        for _ in 0..trials {
            load.fill(0);
            for _ in 0..k {
                load[(next() % n as u64) as usize] += 1;
            }
            busy += load.iter().filter(|&&x| x > 0).count() as f64;
            carried += load.iter().map(|&x| (f64::from(x) * d).min(c)).sum::<f64>();
        }
        (busy / f64::from(trials), carried / f64::from(trials))
    }

    #[test]
    fn ten_single_streams_on_ten_members_keep_six_and_a_half_busy() {
        let b = busy_members(10, 10);
        assert!((b - 6.513).abs() < 1e-3, "{b}");
        assert!((expected(10, 10, 10.0, 10.0) - 65.13).abs() < 0.01);
        assert_eq!(worst(10, 10.0, 10.0), 10.0);
    }

    #[test]
    fn many_small_streams_fill_the_lag() {
        let e = expected(4, 400, 0.2, 25.0);
        assert!((e - 80.0).abs() < 0.5, "{e}");
        assert!((expected(4, 100_000, 0.001, 25.0) - 100.0).abs() < 1e-9);
    }

    #[test]
    fn more_streams_reach_the_demand() {
        // 90G over 4 x 25G: one stream per member is not enough once they collide.
        let k = streams_for(4, 90.0, 25.0, 90.0 * 0.95).unwrap();
        assert!(k > 4, "{k}");
        assert!(expected(4, k, 90.0 / f64::from(k), 25.0) >= 85.5);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        /// The closed forms against a Monte Carlo simulation of hashing, within 2 %.
        #[test]
        fn the_model_matches_simulated_hashing(
            n in 2usize..16,
            k in 1u32..64,
            d in 1.0f64..120.0,
            seed in any::<u64>(),
        ) {
            let c = 25.0;
            let (busy, carried) = simulate(n, k, d, c, 20_000, seed);
            let b = busy_members(n, k);
            prop_assert!((busy - b).abs() <= 0.02 * b, "busy: simulated {busy}, model {b}");
            let e = expected(n, k, d, c);
            prop_assert!((carried - e).abs() <= 0.02 * e, "carried: simulated {carried}, model {e}");
        }
    }
}
