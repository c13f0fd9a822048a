//! Address pools: overlap checks, static addresses validated, the rest allocated in
//! declaration order (deterministic). One pass over the ports: linear in the show.
//! With an address lock, its assignments are kept first (see `keep`) and only what it
//! does not name is allocated, from the space left free.

use std::collections::HashMap;
use std::net::Ipv4Addr;

use crate::fxhash::FxMap;

use super::locked_addresses::{self, Kept};
use crate::diag::{Diagnostic, Diags, codes, plural};
use crate::lock::AddressLock;
use crate::resolve::model::{End, LinkKind, Model, NodeId};
use crate::source::Span;
use crate::spec::addr::Prefix;
use crate::spec::link::PortMode;
use crate::yaml::decode::Located;

/// Hands out addresses from one pool, skipping ones already taken.
pub(crate) struct Pool {
    prefix: Prefix,
    next: u64,
    /// Network and broadcast are skipped unless the pool is a /31 or /32.
    first: u64,
    last: u64,
}

impl Pool {
    pub(crate) fn new(prefix: Prefix) -> Pool {
        let net = u64::from(prefix.network());
        let last = u64::from(prefix.last());
        let (first, last) = if prefix.len >= 31 {
            (net, last)
        } else {
            (net + 1, last - 1)
        };
        Pool {
            prefix,
            next: first,
            first,
            last,
        }
    }

    /// Usable addresses in the pool.
    pub(crate) fn capacity(&self) -> u64 {
        self.last + 1 - self.first
    }

    /// Whether the pool could hand out `a` (inside it, and not its network or broadcast
    /// address unless it is a /31 or /32).
    pub(crate) fn holds(&self, a: Ipv4Addr) -> bool {
        (self.first..=self.last).contains(&u64::from(u32::from(a)))
    }

    /// The next address not in `used`.
    pub(crate) fn take(&mut self, used: &FxMap<Ipv4Addr, Span>) -> Option<Ipv4Addr> {
        while self.next <= self.last {
            let a = Ipv4Addr::from(self.next as u32);
            self.next += 1;
            if !used.contains_key(&a) {
                return Some(a);
            }
        }
        None
    }

    /// The next aligned /31 whose two addresses are free.
    pub(crate) fn take_pair(
        &mut self,
        used: &FxMap<Ipv4Addr, Span>,
    ) -> Option<(Ipv4Addr, Ipv4Addr)> {
        let mut n = u64::from(self.prefix.network()).max(self.next);
        if n % 2 == 1 {
            n += 1;
        }
        let end = u64::from(self.prefix.last());
        while n < end {
            let (a, b) = (Ipv4Addr::from(n as u32), Ipv4Addr::from(n as u32 + 1));
            n += 2;
            if !used.contains_key(&a) && !used.contains_key(&b) {
                self.next = n;
                return Some((a, b));
            }
        }
        self.next = n;
        None
    }
}

struct Ax<'a> {
    diags: &'a mut Diags,
    used: FxMap<Ipv4Addr, Span>,
}

impl Ax<'_> {
    /// Records a static address: inside its pool, not used twice.
    fn claim(&mut self, addr: Ipv4Addr, span: Span, pool: Option<&Located<Prefix>>, what: &str) {
        if let Some(p) = pool {
            if !p.contains(addr) {
                self.diags.push(
                    Diagnostic::new(
                        codes::ADDRESS_OUTSIDE_POOL,
                        span,
                        format!("{addr} is outside the {what} pool {}", p.value),
                    )
                    .label("outside the pool")
                    .also(p.span, "pool declared here")
                    .help(format!(
                        "use an address inside {}, or widen the pool",
                        p.value
                    )),
                );
            }
        }
        if let Some(&first) = self.used.get(&addr) {
            self.diags.push(
                Diagnostic::new(
                    codes::DUPLICATE_ADDRESS,
                    span,
                    format!("{addr} is assigned twice"),
                )
                .label("second use")
                .also(first, "first use")
                .help("give each interface its own address"),
            );
        } else {
            self.used.insert(addr, span);
        }
    }
}

fn overlaps(m: &Model, diags: &mut Diags) {
    let p = &m.settings.pools;
    let names: Vec<String> = m
        .switches
        .iter()
        .map(|s| format!("`{}` gateway", s.name.value))
        .collect();
    let site_names: Vec<String> = m
        .sites
        .iter()
        .map(|s| format!("`{}` mgmt", s.name.value))
        .collect();
    let pools: Vec<(&str, &Located<Prefix>)> = [
        ("dtn", &p.dtn),
        ("p2p", &p.p2p),
        ("mgmt", &p.mgmt),
        ("loopback", &p.loopback),
    ]
    .into_iter()
    .filter_map(|(n, p)| p.as_ref().map(|p| (n, p)))
    // A gateway's subnet is a pool of its own: inside `dtn`, the hosts on the flat DTN
    // subnet would take its hosts for on-link neighbours and never use the gateway.
    .chain(
        m.switches
            .iter()
            .zip(&names)
            .filter_map(|(s, n)| s.gateway.as_ref().map(|g| (n.as_str(), g))),
    )
    // A site's management subnet is its own too: switches are numbered from it.
    .chain(
        m.sites
            .iter()
            .zip(&site_names)
            .filter_map(|(s, n)| s.mgmt.as_ref().map(|g| (n.as_str(), &g.subnet))),
    )
    .collect();
    for (i, (na, a)) in pools.iter().enumerate() {
        for (nb, b) in &pools[i + 1..] {
            if a.overlaps(b.value) {
                diags.push(
                    Diagnostic::new(
                        codes::POOL_OVERLAP,
                        b.span,
                        format!(
                            "the {nb} pool {} overlaps the {na} pool {}",
                            b.value, a.value
                        ),
                    )
                    .label("overlapping pool")
                    .also(a.span, format!("{na} pool"))
                    .help("give each pool its own address range"),
                );
            }
        }
    }
}

fn exhausted(diags: &mut Diags, pool: &Located<Prefix>, what: &str, need: usize, have: u64) {
    diags.push(
        Diagnostic::new(
            codes::POOL_EXHAUSTED,
            pool.span,
            format!("the {what} pool {} is exhausted", pool.value),
        )
        .label(format!("{} usable", plural(have as usize, "address")))
        .help(format!(
            "{} more needed: widen the pool (a shorter prefix) or give static addresses",
            need
        )),
    );
}

/// The gateway switch a host port is cabled to directly, if it has one.
pub(crate) fn gateway_of(m: &Model, h: usize, p: usize) -> Option<usize> {
    let l = &m.links[m.hosts[h].ports.get(p)?.link?];
    let other = if l.a.node == NodeId::Host(h) {
        l.b
    } else {
        l.a
    };
    match other.node {
        NodeId::Switch(s) if m.switches[s].gateway.is_some() => Some(s),
        _ => None,
    }
}

fn is_routed(m: &Model, l: &crate::resolve::model::Link) -> bool {
    let both_switches =
        matches!(l.a.node, NodeId::Switch(_)) && matches!(l.b.node, NodeId::Switch(_));
    let bgp = matches!(l.kind, LinkKind::Wan(w) if m.wans[w].peer_asn.is_some());
    both_switches
        && (l.mode == Some(PortMode::Routed) || l.subnet.is_some() || bgp)
        && l.lag.is_none()
}

/// A host port that takes its address from a pool.
pub(crate) struct HostWant {
    pub(crate) host: usize,
    pub(crate) port: usize,
    /// Its gateway's subnet, or the DTN pool.
    pub(crate) pool: Located<Prefix>,
    pub(crate) what: &'static str,
}

/// Everything that takes its address from a pool, in declaration order: what the lock
/// may name. Computed before allocation (switches' management addresses are filled in).
pub(crate) struct Wants {
    pub(crate) hosts: Vec<HostWant>,
    /// Routed switch-to-switch links without a `subnet:`.
    pub(crate) links: Vec<usize>,
    /// Switches without a static management address whose site has a management
    /// subnet (its own or the show floor's pool): `Model::mgmt_net`.
    pub(crate) switches: Vec<usize>,
    pub(crate) p2p: Option<Located<Prefix>>,
}

fn wants(m: &Model) -> Wants {
    let pools = &m.settings.pools;
    let mut hosts = Vec::new();
    for (h, host) in m.hosts.iter().enumerate() {
        for p in 0..host.ports.len() {
            if host.addresses.contains_key(&p) || host.ports[p].link.is_none() {
                continue;
            }
            let gateway = gateway_of(m, h, p).and_then(|s| m.switches[s].gateway.as_ref());
            let (pool, what) = match (gateway, &pools.dtn) {
                (Some(g), _) => (Located::new(g.value.subnet(), g.span), "gateway"),
                (None, Some(d)) => (d.clone(), "dtn"),
                (None, None) => continue,
            };
            hosts.push(HostWant {
                host: h,
                port: p,
                pool,
                what,
            });
        }
    }
    let links = match pools.p2p {
        Some(_) => (0..m.links.len())
            .filter(|&l| is_routed(m, &m.links[l]) && m.links[l].subnet.is_none())
            .collect(),
        None => Vec::new(),
    };
    let switches = (0..m.switches.len())
        .filter(|&s| {
            let sw = &m.switches[s];
            sw.mgmt.is_none() && m.mgmt_net(sw.site).subnet.is_some()
        })
        .collect();
    Wants {
        hosts,
        links,
        switches,
        p2p: pools.p2p.clone(),
    }
}

/// Validates static addresses, keeps what `lock` assigned and still fits, and allocates
/// the rest; returns the lock of the result (every address a pool handed out).
pub(crate) fn assign(m: &mut Model, lock: Option<&AddressLock>, diags: &mut Diags) -> AddressLock {
    overlaps(m, diags);
    let wants = wants(m);
    let pools = &m.settings.pools;
    let (dtn_pool, mgmt_pool, p2p_pool) =
        (pools.dtn.clone(), pools.mgmt.clone(), pools.p2p.clone());
    let mut ax = Ax {
        diags,
        used: FxMap::default(),
    };
    // Static addresses first, so allocation skips them; the management gateways too
    // (the show floor's and each site's own).
    if let Some(g) = &m.settings.management.gateway {
        ax.claim(g.value, g.span, mgmt_pool.as_ref(), "mgmt");
    }
    for site in m.sites.iter().filter_map(|s| s.mgmt.as_ref()) {
        ax.claim(
            site.gateway.value,
            site.gateway.span,
            Some(&site.subnet),
            "site mgmt",
        );
    }
    for s in &m.switches {
        if let Some(a) = &s.mgmt {
            let net = m.mgmt_net(s.site);
            ax.claim(a.value, a.span, net.subnet, net.what());
        }
        if let Some(g) = &s.gateway {
            ax.claim(g.addr, g.span, None, "gateway");
        }
    }
    for (hi, h) in m.hosts.iter().enumerate() {
        if let Some(a) = &h.mgmt {
            let net = m.mgmt_net(h.site);
            ax.claim(a.value, a.span, net.subnet, net.what());
        }
        let mut statics: Vec<(&usize, &Located<Prefix>)> = h.addresses.iter().collect();
        statics.sort_by_key(|(i, _)| **i);
        for (i, p) in statics {
            match gateway_of(m, hi, *i).and_then(|s| m.switches[s].gateway.as_ref()) {
                Some(g) => ax.claim(p.addr, p.span, Some(g), "gateway"),
                None => ax.claim(p.addr, p.span, dtn_pool.as_ref(), "dtn"),
            }
        }
    }
    // The show's services on the management network: allocation must not hand their
    // addresses to a switch. One server may serve several (NTP and syslog), and the
    // management router may be one of them; a static address on one is E0111.
    let gateway = m.settings.management.gateway.as_ref().map(|g| g.value);
    let mut services = std::collections::HashSet::new();
    for a in m.settings.services.addresses() {
        let on_mgmt = mgmt_pool.as_ref().is_some_and(|p| p.contains(a.value));
        if on_mgmt && Some(a.value) != gateway && services.insert(a.value) {
            ax.claim(a.value, a.span, None, "mgmt");
        }
    }
    for l in &m.links {
        if let Some(s) = &l.subnet {
            // Both ends of the /31 (or the first two of a wider subnet) are taken.
            let base = s.network();
            for a in [base, base.wrapping_add(1)] {
                ax.claim(Ipv4Addr::from(a), s.span, p2p_pool.as_ref(), "p2p");
            }
        }
    }
    // The OpenFlow controllers' addresses are taken (the controller is a host on the
    // network even when the spec does not model it): never hand them out.
    let controllers = m
        .settings
        .controller
        .iter()
        .map(|c| (c.addr, c.span))
        .chain(m.switches.iter().filter_map(|s| {
            s.openflow
                .as_ref()
                .and_then(|o| o.controller.map(|c| (c.addr, o.span)))
        }));
    for (addr, span) in controllers.collect::<Vec<_>>() {
        ax.used.entry(addr).or_insert(span);
    }
    let kept = match lock {
        Some(lock) => locked_addresses::keep(m, &wants, lock, &mut ax.used, ax.diags),
        None => Kept::default(),
    };
    // DTN interfaces behind a gateway: from its subnet, in declaration order.
    let mut gateways: HashMap<usize, Pool> = HashMap::new();
    let mut short: HashMap<usize, usize> = HashMap::new();
    for h in 0..m.hosts.len() {
        for p in 0..m.hosts[h].ports.len() {
            let Some(s) = gateway_of(m, h, p) else {
                continue;
            };
            let Some(g) = m.switches[s].gateway.clone() else {
                continue;
            };
            let host = &mut m.hosts[h];
            if let Some(a) = host.addresses.get(&p) {
                host.ports[p].address = Some(Prefix {
                    addr: a.addr,
                    len: a.len,
                });
                continue;
            }
            if kept.hosts.contains(&(h, p)) {
                continue;
            }
            let pool = gateways
                .entry(s)
                .or_insert_with(|| Pool::new(g.value.subnet()));
            match pool.take(&ax.used) {
                Some(a) => {
                    ax.used.insert(a, g.span);
                    host.ports[p].address = Some(Prefix {
                        addr: a,
                        len: g.len,
                    });
                }
                None => *short.entry(s).or_default() += 1,
            }
        }
    }
    let mut short: Vec<(usize, usize)> = short.into_iter().collect();
    short.sort_unstable();
    for (s, n) in short {
        if let (Some(g), Some(pool)) = (&m.switches[s].gateway, gateways.get(&s)) {
            exhausted(ax.diags, g, "gateway", n, pool.capacity());
        }
    }
    // The other DTN interfaces.
    if let Some(pool) = &dtn_pool {
        let mut alloc = Pool::new(pool.value);
        let mut missing = 0;
        for h in 0..m.hosts.len() {
            for p in 0..m.hosts[h].ports.len() {
                if gateway_of(m, h, p).is_some() {
                    continue;
                }
                let host = &mut m.hosts[h];
                if let Some(s) = host.addresses.get(&p) {
                    host.ports[p].address = Some(Prefix {
                        addr: s.addr,
                        len: s.len,
                    });
                    continue;
                }
                if host.ports[p].link.is_none() || kept.hosts.contains(&(h, p)) {
                    continue;
                }
                match alloc.take(&ax.used) {
                    Some(a) => {
                        ax.used.insert(a, pool.span);
                        host.ports[p].address = Some(Prefix {
                            addr: a,
                            len: pool.len,
                        });
                    }
                    None => missing += 1,
                }
            }
        }
        if missing > 0 {
            exhausted(ax.diags, pool, "dtn", missing, alloc.capacity());
        }
    }
    // Routed point-to-point links.
    let mut p2p = p2p_pool.as_ref().map(|p| Pool::new(p.value));
    let mut missing = 0;
    for i in 0..m.links.len() {
        if !is_routed(m, &m.links[i]) || kept.links.contains(&i) {
            continue;
        }
        let (a, b) = (m.links[i].a, m.links[i].b);
        let pair = match (&m.links[i].subnet, p2p.as_mut()) {
            (Some(s), _) => {
                let base = s.network();
                Some((Ipv4Addr::from(base), Ipv4Addr::from(base + 1)))
            }
            (None, Some(pool)) => pool.take_pair(&ax.used),
            (None, None) => continue,
        };
        let Some((x, y)) = pair else {
            missing += 1;
            continue;
        };
        let len = m.links[i].subnet.as_ref().map_or(31, |s| s.len);
        set(m, a, x, len);
        set(m, b, y, len);
    }
    if let (Some(pool), true) = (&p2p_pool, missing > 0) {
        exhausted(
            ax.diags,
            pool,
            "p2p",
            missing * 2,
            Pool::new(pool.value).capacity(),
        );
    }
    // Management addresses for switches without a static one, each from its site's
    // management subnet (the show floor's pool unless the site has its own).
    let mut allocs: Vec<(Located<Prefix>, &'static str, Pool, usize)> = Vec::new();
    let mut index: HashMap<(Ipv4Addr, u8), usize> = HashMap::new();
    for &i in &wants.switches {
        if kept.switches.contains(&i) {
            continue;
        }
        let net = m.mgmt_net(m.switches[i].site);
        let Some(pool) = net.subnet.cloned() else {
            continue;
        };
        let k = *index
            .entry((pool.value.addr, pool.value.len))
            .or_insert_with(|| {
                let alloc = Pool::new(pool.value);
                allocs.push((pool, net.what(), alloc, 0));
                allocs.len() - 1
            });
        let (pool, _, alloc, missing) = &mut allocs[k];
        match alloc.take(&ax.used) {
            Some(a) => {
                ax.used.insert(a, pool.span);
                m.switches[i].mgmt = Some(Located::new(a, pool.span));
            }
            None => *missing += 1,
        }
    }
    for (pool, what, alloc, missing) in &allocs {
        if *missing > 0 {
            exhausted(ax.diags, pool, what, *missing, alloc.capacity());
        }
    }
    let mut next = locked_addresses::next(m, &wants);
    next.lab = super::lab_mgmt::assign(m, lock.map(|l| &l.lab), ax.diags);
    next
}

fn set(m: &mut Model, e: End, a: Ipv4Addr, len: u8) {
    m.port_mut(e).address = Some(Prefix { addr: a, len });
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;

    fn prefix() -> impl Strategy<Value = Prefix> {
        (any::<u32>(), 0u8..=32).prop_map(|(a, len)| Prefix {
            addr: Ipv4Addr::from(a),
            len,
        })
    }

    /// Addresses already taken: some inside the pool (offsets from its network), some anywhere.
    fn used(p: Prefix, inside: &[u32], anywhere: &[u32]) -> FxMap<Ipv4Addr, Span> {
        let size = p.size();
        let at = |o: u32| Ipv4Addr::from((u64::from(p.network()) + u64::from(o) % size) as u32);
        inside
            .iter()
            .map(|&o| at(o))
            .chain(anywhere.iter().map(|&a| Ipv4Addr::from(a)))
            .map(|a| (a, Span::default()))
            .collect()
    }

    /// The addresses `Pool::new` may hand out: all of a /31 or /32, else all but network
    /// and broadcast.
    fn usable(p: Prefix) -> (u64, u64) {
        let (net, last) = (u64::from(p.network()), u64::from(p.last()));
        if p.len >= 31 {
            (net, last)
        } else {
            (net + 1, last - 1)
        }
    }

    proptest! {
        #[test]
        fn take_hands_out_distinct_free_addresses_inside_the_pool(
            p in prefix(),
            inside in proptest::collection::vec(any::<u32>(), 0..40),
            anywhere in proptest::collection::vec(any::<u32>(), 0..8),
            n in 0usize..600,
        ) {
            let used = used(p, &inside, &anywhere);
            let (first, last) = usable(p);
            let mut pool = Pool::new(p);
            prop_assert_eq!(pool.capacity(), last + 1 - first);
            let mut seen = HashSet::new();
            while seen.len() < n {
                let Some(a) = pool.take(&used) else { break };
                prop_assert!(p.contains(a), "{a} outside {p}");
                prop_assert!((first..=last).contains(&u64::from(u32::from(a))), "{a} is {p}'s network or broadcast");
                prop_assert!(!used.contains_key(&a), "{a} was taken");
                prop_assert!(seen.insert(a), "{a} handed out twice");
            }
            // Short only when every usable address is used or handed out.
            let taken = used.keys().filter(|a| (first..=last).contains(&u64::from(u32::from(**a)))).count() as u64;
            prop_assert_eq!(seen.len() as u64, (n as u64).min(last + 1 - first - taken));
            if (seen.len()) < n {
                prop_assert_eq!(pool.take(&used), None);
            }
        }

        #[test]
        fn take_pair_hands_out_disjoint_aligned_free_pairs_inside_the_pool(
            p in prefix(),
            inside in proptest::collection::vec(any::<u32>(), 0..40),
            n in 0usize..300,
        ) {
            let used = used(p, &inside, &[]);
            let mut pool = Pool::new(p);
            let mut seen = HashSet::new();
            let mut pairs = 0;
            while pairs < n {
                let Some((a, b)) = pool.take_pair(&used) else { break };
                let (x, y) = (u32::from(a), u32::from(b));
                prop_assert!(x % 2 == 0 && y == x + 1, "{a}/{b} is not an aligned /31");
                prop_assert!(p.contains(a) && p.contains(b), "{a}/{b} outside {p}");
                prop_assert!(!used.contains_key(&a) && !used.contains_key(&b), "{a}/{b} was taken");
                prop_assert!(seen.insert(a) && seen.insert(b), "{a}/{b} handed out twice");
                pairs += 1;
            }
            if pairs < n {
                // Exhausted: no free aligned pair is left past the pool's first address.
                prop_assert_eq!(pool.take_pair(&used), None);
                let (first, _) = usable(p);
                let last = u64::from(p.last());
                if last - first < 1 << 16 {
                    let free = (first..last).filter(|x| x % 2 == 0).any(|x| {
                        let (a, b) = (Ipv4Addr::from(x as u32), Ipv4Addr::from(x as u32 + 1));
                        !used.contains_key(&a) && !used.contains_key(&b) && !seen.contains(&a)
                    });
                    prop_assert!(!free, "{p} has a free pair left but take_pair said exhausted");
                }
            }
        }
    }

    #[test]
    fn edge_pools() {
        let none = FxMap::default();
        let p = |a: [u8; 4], len| Prefix {
            addr: Ipv4Addr::from(a),
            len,
        };
        let mut all = Pool::new(p([255, 255, 255, 255], 32));
        assert_eq!(all.take(&none), Some(Ipv4Addr::new(255, 255, 255, 255)));
        assert_eq!(all.take(&none), None);
        let mut zero = Pool::new(p([0, 0, 0, 0], 0));
        assert_eq!(zero.take(&none), Some(Ipv4Addr::new(0, 0, 0, 1)));
        assert_eq!(zero.capacity(), (1u64 << 32) - 2);
        let mut top = Pool::new(p([255, 255, 255, 254], 31));
        assert_eq!(
            top.take_pair(&none),
            Some((
                Ipv4Addr::new(255, 255, 255, 254),
                Ipv4Addr::new(255, 255, 255, 255)
            ))
        );
        assert_eq!(top.take_pair(&none), None);
        assert_eq!(Pool::new(p([10, 0, 0, 7], 32)).take_pair(&none), None);
    }
}
