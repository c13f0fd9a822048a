//! The Linux bonding driver's transmit hash under `xmit_hash_policy layer3+4`, the policy
//! the DTNs' host scripts set on their bonds, computed as the kernel documents it
//! (Documentation/networking/bonding.rst, "xmit_hash_policy", layer3+4; the last shift
//! is there since "bonding: discard lowest hash bit for 802.3ad layer3+4", 2017, and in
//! the text since "bonding: fix the xmit hash steps for layer3+4", 2022):
//!
//! ```text
//! hash = source port, destination port (as in the header)
//! hash = hash XOR source IP XOR destination IP
//! hash = hash XOR (hash RSHIFT 16)
//! hash = hash XOR (hash RSHIFT 8)
//! hash = hash RSHIFT 1
//! and then hash is reduced modulo slave count.
//! ```
//!
//! "As in the header": the kernel loads the two ports, and each IPv4 address, as one
//! 32-bit word straight from the packet, so on the little-endian x86 hosts a word's
//! first header byte is its lowest. The reduction is a plain modulo for any count of
//! members (drivers/net/bonding/bond_main.c, `bond_xmit_3ad_xor_slave_get`:
//! `slaves->arr[hash % count]`, for 802.3ad and balance-xor alike), over the usable
//! slaves in the order `bond_update_slave_arr` walks the bond's list, which is the order
//! they were enslaved (the script's, the LAG's member order); under 802.3ad only the
//! members of the active aggregator are in it, all of them while every member is up and
//! agrees with the switch. This is the one LAG hash democ meets
//! whose function is documented to the bit; the switches' manuals name their fields and
//! their polynomial at most (`templates/<vendor>/vendor.yaml`, `lag_hash`), never the
//! key layout and seed, so their members stay the random model (`hashing`).
//!
//! A TCP client picks an ephemeral source port unless told one; iperf3's `--cport P`
//! binds its data streams to P, P+1, ... (iperf_client_api.c, `iperf_create_streams`:
//! `bind_port += i` per stream; checked with iperf 3.12: `-P 3 --cport 40000` used
//! 40000, 40001, 40002). So democ can choose P so that a pair's streams spread over the
//! sender's bond as evenly as consecutive ports allow ([`pick_cport`]). iperf2 binds a
//! client port only with `-B host:port`, and its man page does not say what parallel
//! streams (`-P`) then use: unconfirmed, and democ launches iperf3.

use std::net::Ipv4Addr;

/// A 32-bit word of the header as a little-endian CPU loads it.
fn word(bytes: [u8; 4]) -> u32 {
    u32::from_le_bytes(bytes)
}

/// The layer3+4 hash of a TCP/UDP packet over IPv4.
pub(crate) fn layer34(src: Ipv4Addr, dst: Ipv4Addr, sport: u16, dport: u16) -> u32 {
    let [s0, s1] = sport.to_be_bytes();
    let [d0, d1] = dport.to_be_bytes();
    let mut h = word([s0, s1, d0, d1]);
    h ^= word(src.octets()) ^ word(dst.octets());
    h ^= h >> 16;
    h ^= h >> 8;
    h >> 1
}

/// The member (0-based, in enslaving order) of a bond of `members` a packet leaves by.
pub(crate) fn member(hash: u32, members: usize) -> usize {
    (hash % members.max(1) as u32) as usize
}

/// Where democ starts looking for client ports: below Linux's default ephemeral range
/// (32768-60999, `net.ipv4.ip_local_port_range`), so no other connection of the host
/// takes them first.
pub(crate) const FIRST_CPORT: u16 = 20000;
/// The last port a picked range may use.
pub(crate) const LAST_CPORT: u16 = 32767;

/// `base` with `streams` more added one at a time to its least loaded member: the most
/// even spread any ports could reach, busiest first.
fn filled(base: &[u32], streams: u32) -> Vec<u32> {
    let mut v = base.to_vec();
    for _ in 0..streams {
        if let Some(low) = v.iter_mut().min() {
            *low += 1;
        }
    }
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

/// The streams of one pair on each member of a bond of `members`, in enslaving order:
/// `streams` streams from client ports `cport`, `cport + 1`, ... to `dport`.
pub(crate) fn loads_at(
    (src, dst, dport): (Ipv4Addr, Ipv4Addr, u16),
    cport: u16,
    streams: u32,
    members: usize,
) -> Vec<u32> {
    let mut load = vec![0u32; members.max(1)];
    for i in 0..streams {
        let Some(s) = u16::try_from(i).ok().and_then(|i| cport.checked_add(i)) else {
            break;
        };
        load[member(layer34(src, dst, s, dport), members)] += 1;
    }
    load
}

/// A client port P for `streams` streams on P, P+1, ... to `dport`, and the streams each
/// member of the bond then carries (in enslaving order): the lowest P (from
/// [`FIRST_CPORT`]) whose members' loads, added to `base` (what the host's earlier pairs
/// put on the bond; one entry per member) and taken busiest first, are least: the most
/// even spread consecutive ports reach. Ranges in `taken` (ports the host's other
/// transfers hold) are skipped; None when no range is free.
///
/// Consecutive ports cannot always spread evenly. On a bond of a power-of-two count of
/// members the member is the hash's low bits; the hash drops its lowest bit, and on a
/// little-endian host the lowest bits of the source port's low byte reach the member
/// through bits 9 and up of the hash, so ports 2m and 2m+1 always share a member: four
/// streams on four members are at best 2, 1, 1, 0; six are 2, 2, 1, 1 from an odd P.
/// With any other count the modulo reads every bit of the hash, the port's lowest too,
/// and neighbouring ports may part.
pub(crate) fn pick_cport(
    src: Ipv4Addr,
    dst: Ipv4Addr,
    dport: u16,
    streams: u32,
    base: &[u32],
    taken: &[(u16, u16)],
) -> Option<(u16, Vec<u32>)> {
    let k = u16::try_from(streams.max(1)).ok()?;
    let n = base.len().max(1);
    let busiest_first = |l: Vec<u32>| {
        let mut v = l;
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    };
    let evenest = filled(base, u32::from(k));
    let last = LAST_CPORT.checked_sub(k - 1)?;
    let mut best: Option<(u16, Vec<u32>, Vec<u32>)> = None;
    for p in FIRST_CPORT..=last {
        let end = p + (k - 1);
        if taken.iter().any(|&(a, z)| p <= z && a <= end) {
            continue;
        }
        let load = loads_at((src, dst, dport), p, u32::from(k), n);
        let key = busiest_first(
            load.iter()
                .enumerate()
                .map(|(i, x)| x + base.get(i).copied().unwrap_or(0))
                .collect(),
        );
        if best.as_ref().is_none_or(|(_, _, b)| key < *b) {
            let done = key == evenest;
            best = Some((p, load, key));
            if done {
                break;
            }
        }
    }
    best.map(|(p, load, _)| (p, load))
}

/// Streams per member (busiest first) that picking reaches for `streams` streams over
/// `members` members, where that is known before the ports are: for a power-of-two count
/// of members the member is the hash's low bits, which within a block of 256 ports are
/// the port's own bits 1 and up XOR a constant of the addresses and the server port (the
/// hash is XORs and shifts), so what picking reaches depends only on the counts (the tests
/// check it over many addresses and ports). With other counts the modulo mixes every
/// bit and what picking reaches depends on the addresses: None here; the prediction
/// computes those from each pair's own addresses and ports (`client_ports`).
pub(crate) fn picked_loads(streams: u32, members: usize) -> Option<Vec<u32>> {
    if !members.is_power_of_two() {
        return None;
    }
    let unspecified = Ipv4Addr::UNSPECIFIED;
    let base = vec![0; members];
    let (_, mut loads) = pick_cport(unspecified, unspecified, 0, streams, &base, &[])?;
    loads.sort_unstable_by(|a, b| b.cmp(a));
    Some(loads)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streams per member when `streams` streams spread as evenly as they can over `members`.
    fn even(streams: u32, members: usize) -> Vec<u32> {
        let n = members.max(1) as u32;
        (0..n)
            .map(|i| streams / n + u32::from(i < streams % n))
            .collect()
    }

    #[test]
    fn the_documented_steps_on_a_little_endian_host() {
        // 10.0.0.1:40000 -> 10.0.0.2:5201. Header words, lowest byte first:
        // ports 9c 40 14 51 -> 0x5114409c; addresses 0x0100000a ^ 0x0200000a = 0x03000000.
        let h0: u32 = 0x5114_409c ^ 0x0300_0000;
        let h1 = h0 ^ (h0 >> 16);
        let h2 = h1 ^ (h1 >> 8);
        let src = Ipv4Addr::new(10, 0, 0, 1);
        let dst = Ipv4Addr::new(10, 0, 0, 2);
        assert_eq!(layer34(src, dst, 40000, 5201), h2 >> 1);
        assert_eq!(layer34(src, dst, 40000, 5201), 0x2923_034d);
    }

    /// The busiest member's streams under the best picked range, against an even spread.
    #[test]
    fn picked_ports_spread_the_streams_as_evenly_as_consecutive_ports_can() {
        let src = Ipv4Addr::new(10, 15, 4, 1);
        let dst = Ipv4Addr::new(10, 15, 4, 2);
        for (streams, members, top) in [(6, 4, 2), (2, 4, 1), (8, 2, 4), (4, 4, 2), (3, 3, 1)] {
            let (p, load) =
                pick_cport(src, dst, 5201, streams, &vec![0; members], &[]).expect("a port");
            let mut again = vec![0; members];
            for s in p..p + streams as u16 {
                again[member(layer34(src, dst, s, 5201), members)] += 1;
            }
            assert_eq!(load, again);
            assert_eq!(
                load.iter().max(),
                Some(&top),
                "{streams} on {members}: {load:?}"
            );
        }
        assert_eq!(even(6, 4), vec![2, 2, 1, 1]);
    }

    /// What picking reaches over a power-of-two count of members is the same for any
    /// addresses and server port; over three members it is not known beforehand.
    #[test]
    fn what_picking_reaches_depends_only_on_the_counts() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for members in [1usize, 2, 4, 8] {
            for streams in 1..=12u32 {
                let want = picked_loads(streams, members).expect("a power of two");
                for _ in 0..6 {
                    let r = next();
                    let src = Ipv4Addr::from((r >> 32) as u32);
                    let dst = Ipv4Addr::from(r as u32);
                    let dport = (next() % 60000) as u16 + 1024;
                    let (_, mut got) = pick_cport(src, dst, dport, streams, &vec![0; members], &[])
                        .expect("a port");
                    got.sort_unstable_by(|a, b| b.cmp(a));
                    assert_eq!(
                        got, want,
                        "{streams} on {members} from {src} to {dst}:{dport}"
                    );
                }
            }
        }
        assert_eq!(picked_loads(4, 3), None);
        assert_eq!(picked_loads(6, 4), Some(vec![2, 2, 1, 1]));
        assert_eq!(picked_loads(4, 4), Some(vec![2, 1, 1, 0]));
    }

    /// Ports 2m and 2m+1 share a member whatever the addresses.
    #[test]
    fn neighbouring_ports_from_an_even_one_share_a_member() {
        let src = Ipv4Addr::new(192, 168, 7, 9);
        let dst = Ipv4Addr::new(10, 1, 2, 3);
        for p in (20000u16..20100).step_by(2) {
            assert_eq!(
                member(layer34(src, dst, p, 5201), 4),
                member(layer34(src, dst, p + 1, 5201), 4)
            );
        }
    }

    #[test]
    fn a_picked_range_avoids_the_ports_the_host_holds() {
        let src = Ipv4Addr::new(10, 0, 0, 1);
        let dst = Ipv4Addr::new(10, 0, 0, 2);
        let (first, _) = pick_cport(src, dst, 5201, 4, &[0; 4], &[]).expect("a port");
        let (second, _) =
            pick_cport(src, dst, 5201, 4, &[0; 4], &[(first, first + 3)]).expect("a port");
        assert!(second > first + 3 || second + 3 < first, "{first} {second}");
    }

    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// Bonds of 3, 5 and 6 members reduce the hash by a plain modulo (bond_main.c): the
    /// member loads of the picked ports are the kernel's, and no other free range of
    /// consecutive ports spreads them more evenly (checked over random addresses).
    #[test]
    fn bonds_of_any_count_are_computed_as_the_kernel_reduces_the_hash() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for members in [3usize, 5, 6] {
            for streams in 1..=(2 * members as u32 + 1) {
                for _ in 0..4 {
                    let r = next();
                    let (src, dst) = (Ipv4Addr::from((r >> 32) as u32), Ipv4Addr::from(r as u32));
                    let dport = (next() % 60000) as u16 + 1024;
                    let (p, load) = pick_cport(src, dst, dport, streams, &vec![0; members], &[])
                        .expect("a port");
                    // The kernel's steps, one stream at a time.
                    let mut kernel = vec![0u32; members];
                    for s in p..p + streams as u16 {
                        kernel[(layer34(src, dst, s, dport) % members as u32) as usize] += 1;
                    }
                    assert_eq!(load, kernel);
                    // No free range spreads them more evenly.
                    let busiest_first = |mut l: Vec<u32>| {
                        l.sort_unstable_by(|a, b| b.cmp(a));
                        l
                    };
                    let k = streams as u16;
                    let best = (FIRST_CPORT..=LAST_CPORT - (k - 1))
                        .map(|q| busiest_first(loads_at((src, dst, dport), q, streams, members)))
                        .min()
                        .expect("ranges");
                    let got = busiest_first(load);
                    assert_eq!(got, best, "{streams} on {members}");
                    // Three and six members take any count evenly; five streams on five
                    // members cannot always be one each (2, 1, 1, 1, 0 from some
                    // addresses): what the prediction then shows.
                    if members != 5 {
                        assert_eq!(got, even(streams, members), "{streams} on {members}");
                    }
                }
            }
        }
    }

    /// On three members the port's lowest bit reaches the member: neighbours part.
    #[test]
    fn neighbouring_ports_part_on_three_members() {
        let src = Ipv4Addr::new(192, 168, 7, 9);
        let dst = Ipv4Addr::new(10, 1, 2, 3);
        let parted = (20000u16..20100)
            .step_by(2)
            .filter(|&p| {
                member(layer34(src, dst, p, 5201), 3) != member(layer34(src, dst, p + 1, 5201), 3)
            })
            .count();
        assert!(parted > 10, "{parted}");
    }

    /// A second pair on the same bond fills the members the first left idle.
    #[test]
    fn a_later_pair_spreads_over_what_earlier_pairs_left() {
        let src = Ipv4Addr::new(10, 0, 0, 1);
        for members in [3usize, 4] {
            let (_, first) = pick_cport(
                src,
                Ipv4Addr::new(10, 0, 1, 2),
                5201,
                2,
                &vec![0; members],
                &[],
            )
            .expect("a port");
            let (_, second) = pick_cport(
                src,
                Ipv4Addr::new(10, 0, 2, 2),
                5201,
                members as u32 - 2,
                &first,
                &[],
            )
            .expect("a port");
            let total: Vec<u32> = first.iter().zip(&second).map(|(a, b)| a + b).collect();
            assert_eq!(total, vec![1; members], "{first:?} + {second:?}");
        }
    }
}
