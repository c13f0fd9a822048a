//! The cabling plan and the bill of materials from the model's links: both ends of
//! every cable, the optic in each port, and the parts to order per site. A breakout
//! counts once per parent port: one breakout cable (copper, AOC) or one optic and one
//! fan-out (fiber) for all its lanes.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::catalog::Catalog;
use crate::ir::cabling::{BomLine, Cable, CableEnd, Cabling};
use crate::resolve::model::{ClientRun, End, Link, LinkKind, Model, NodeId, Wan};
use crate::spec::link::Media;
use crate::spec::wan::WanKind;
use crate::yaml::decode::Located;

/// (site, category, part, length in millimetres).
type Key = (String, &'static str, String, Option<u64>);

/// Lanes per breakout parent: (switch, parent port) -> how many subports.
type Lanes<'a> = HashMap<(usize, &'a str), usize>;

/// Lanes per breakout parent.
fn lanes(m: &Model) -> Lanes<'_> {
    let mut out = HashMap::new();
    for (s, sw) in m.switches.iter().enumerate() {
        for p in &sw.ports {
            if let Some(parent) = &p.parent {
                *out.entry((s, parent.as_str())).or_insert(0) += 1;
            }
        }
    }
    out
}

fn site_of(m: &Model, e: End) -> usize {
    match e.node {
        NodeId::Switch(s) => m.switches[s].site,
        NodeId::Host(h) => m.hosts[h].site,
    }
}

fn optic_at(l: &Link, e: End) -> Option<&str> {
    if e == l.a { &l.optic_a } else { &l.optic_b }
        .as_ref()
        .map(|o| o.value.as_str())
}

fn end(m: &Model, l: &Link, e: End) -> CableEnd {
    let site = m.sites.get(site_of(m, e));
    let p = m.port(e);
    let (port, subport) = match &p.parent {
        Some(parent) => (
            parent.clone(),
            p.name.rsplit_once(':').map(|(_, k)| k.to_owned()),
        ),
        None => (p.name.clone(), None),
    };
    CableEnd {
        site: site.map(|s| s.name.value.clone()).unwrap_or_default(),
        booth: site.and_then(|s| s.booth.clone().or_else(|| s.location.clone())),
        device: m.node_name(e.node).to_owned(),
        port,
        subport,
        optic: optic_at(l, e).map(str::to_owned),
    }
}

/// The breakout parent an end sits on, for switch ends on a subport.
fn parent(m: &Model, e: End) -> Option<(usize, &str)> {
    match e.node {
        NodeId::Switch(s) => m.switches[s].ports[e.port]
            .parent
            .as_deref()
            .map(|p| (s, p)),
        NodeId::Host(_) => None,
    }
}

fn media_name(l: &Link) -> &'static str {
    match l.media {
        Some(m) => m.as_str(),
        None if l.optic_a.is_some() || l.optic_b.is_some() => "fiber",
        None => "",
    }
}

fn notes(m: &Model, l: &Link, breakout: Option<(usize, &str, usize)>) -> String {
    let mut n = Vec::new();
    if let LinkKind::Wan(w) = l.kind {
        let wan = &m.wans[w];
        n.push(match wan.kind {
            crate::spec::wan::WanKind::DarkFiber => format!(
                "dark fiber {:.1} km, {} connectors, {} splices",
                l.length_km, l.connectors, l.splices
            ),
            crate::spec::wan::WanKind::Otn => {
                "hand-off to the OTN transponder's client port".into()
            }
            crate::spec::wan::WanKind::Circuit => "hand-off to the carrier's circuit".into(),
        });
    } else if l.media == Some(Media::Fiber) {
        n.push(format!(
            "{} connectors, {} splices",
            l.connectors, l.splices
        ));
        if l.cords > 1 && breakout.is_none() {
            let each = l
                .length_span
                .map(|_| segment_m(l.length_km * 1000.0, l.cords));
            n.push(match each {
                Some(x) => format!("{} patch cords of {x} m, one per segment", l.cords),
                None => format!("{} patch cords, one per segment", l.cords),
            });
        }
    }
    if let Some((s, p, k)) = breakout {
        n.push(format!(
            "breakout {k} lanes of {}:{p}",
            m.switches[s].name.value
        ));
    }
    if let Some(d) = &l.description {
        n.push(d.clone());
    }
    n.join("; ")
}

struct Bom<'a> {
    m: &'a Model,
    counts: BTreeMap<Key, u32>,
    /// Breakout parents already counted (one optic, one cable or fan-out each).
    parents: HashSet<(usize, &'a str, &'static str)>,
}

impl<'a> Bom<'a> {
    fn add(&mut self, site: usize, category: &'static str, part: String, length_m: Option<f64>) {
        let site = self
            .m
            .sites
            .get(site)
            .map(|s| s.name.value.clone())
            .unwrap_or_default();
        let mm = length_m.map(|l| (l * 1000.0).round() as u64);
        *self.counts.entry((site, category, part, mm)).or_insert(0) += 1;
    }

    /// Counts a part once per breakout parent (`what` tells the parts of one parent apart).
    fn first(&mut self, parent: Option<(usize, &'a str)>, what: &'static str) -> bool {
        parent.is_none_or(|(s, p)| self.parents.insert((s, p, what)))
    }

    fn link(&mut self, db: &Catalog, l: &'a Link, lanes: &Lanes) {
        let m = self.m;
        let length = l.length_span.map(|_| l.length_km * 1000.0);
        for e in [l.a, l.b] {
            if let Some(o) = optic_at(l, e) {
                if self.first(parent(m, e), "optic") {
                    self.add(site_of(m, e), "optic", o.to_owned(), None);
                }
            }
        }
        if let LinkKind::Wan(w) = l.kind {
            self.hand_offs(db, l, &m.wans[w]);
        }
        if l.kind != LinkKind::Lan {
            return;
        }
        let on = parent(m, l.a).or(parent(m, l.b));
        let site = site_of(m, l.a);
        let mode = breakout_mode(lanes, on, l);
        let media = media_name(l);
        let item = match (l.media, mode) {
            (Some(Media::Dac | Media::Aoc), Some(mode)) => self
                .first(on, "cable")
                .then(|| ("breakout-cable", format!("{mode} {}", media.to_uppercase()))),
            (Some(Media::Dac | Media::Aoc), None) => Some((
                if media == "dac" { "dac" } else { "aoc" },
                format!("{} {}", l.cable_rate, media.to_uppercase()),
            )),
            (_, mode) if l.optic_a.is_some() => {
                let mode = mode.filter(|_| !split_by_module(db, m, l, lanes));
                let cord = Cord::of(db, fiber_of(db, l), l.optic_a.as_ref(), l.cords);
                self.fiber_part(site, on, mode, &cord, length);
                None
            }
            _ => None,
        };
        if let Some((category, part)) = item {
            self.add(site, category, part, length);
        }
    }

    /// The optics of an OTN member's hand-offs without a client run (a run orders its
    /// own): the transponder's client optic, the same as the switch port's, and where the
    /// spec names neither, the catalog's default client optic at both (W0223).
    fn hand_offs(&mut self, db: &Catalog, l: &'a Link, w: &Wan) {
        if w.kind != WanKind::Otn {
            return;
        }
        let m = self.m;
        for (k, e) in [l.a, l.b].into_iter().enumerate() {
            if w.client_runs[k].is_some() {
                continue;
            }
            let named = optic_at(l, e);
            let Some(o) = named.or_else(|| crate::check::otn::default_client_optic(db, w)) else {
                continue;
            };
            if named.is_none() && self.first(parent(m, e), "optic") {
                self.add(site_of(m, e), "optic", o.to_owned(), None);
            }
            self.add(site_of(m, e), "optic", o.to_owned(), None);
        }
    }

    /// The fiber of one cable: a fan-out per breakout parent, else a patch cord per
    /// segment (`cords` of them, the run's length split evenly, rounded up to the metre).
    fn fiber_part(
        &mut self,
        site: usize,
        on: Option<(usize, &'a str)>,
        mode: Option<String>,
        cord: &Cord,
        length: Option<f64>,
    ) {
        match mode {
            Some(mode) => {
                if self.first(on, "fan-out") {
                    self.add(
                        site,
                        "breakout-fiber",
                        format!("{mode} MPO fan-out"),
                        length,
                    );
                }
            }
            None => {
                let each = length.map(|x| segment_m(x, cord.count));
                for _ in 0..cord.count.max(1) {
                    self.add(site, "fiber-patch", cord.part(), each);
                }
            }
        }
    }

    /// An OTN client run at end `e` of `l`: the transponder's client optic and the
    /// fiber to it (the switch port's optic is counted with the WAN link).
    fn client_run(
        &mut self,
        db: &Catalog,
        l: &'a Link,
        e: End,
        r: &ClientRun,
        fiber: Option<&str>,
        lanes: &Lanes,
    ) {
        let m = self.m;
        let site = site_of(m, e);
        self.add(site, "optic", r.transponder_optic.value.clone(), None);
        let on = parent(m, e);
        let mode = breakout_mode(lanes, on, l);
        let cord = Cord::of(db, fiber, Some(&r.optic), r.cords);
        self.fiber_part(site, on, mode, &cord, Some(r.length_m));
    }
}

/// The patch cords of one fiber run: how many, of which fiber and connector.
struct Cord {
    count: u32,
    fiber: String,
    /// `MPO-12` for parallel optics, else `duplex` (LC).
    connector: &'static str,
}

impl Cord {
    fn of(db: &Catalog, fiber: Option<&str>, optic: Option<&Located<String>>, count: u32) -> Cord {
        let mpo = optic
            .and_then(|o| db.optics.get(o))
            .and_then(|o| o.connector.as_deref())
            .is_some_and(|c| c.eq_ignore_ascii_case("mpo-12"));
        Cord {
            count,
            fiber: fiber.unwrap_or("smf").to_owned(),
            connector: if mpo { "MPO-12" } else { "duplex" },
        }
    }

    fn part(&self) -> String {
        format!("{} {} patch cord", self.fiber, self.connector)
    }
}

/// One of `n` even segments of a `length_m` run: the whole length for one cord, else
/// rounded up to the metre.
fn segment_m(length_m: f64, n: u32) -> f64 {
    if n <= 1 {
        length_m
    } else {
        (length_m / f64::from(n)).ceil()
    }
}

/// A link whose breakout end holds a module with one optical port per subport (a twin-port
/// 2 x 400G OSFP in a cage split 2x400G): each subport is its own run to its own far end,
/// not a lane of a fan-out.
fn split_by_module(db: &Catalog, m: &Model, l: &Link, lanes: &Lanes) -> bool {
    [l.a, l.b].into_iter().any(|e| {
        let Some(on) = parent(m, e) else { return false };
        let ports = optic_at(l, e)
            .and_then(|o| db.optics.get(o))
            .and_then(|o| o.ports)
            .unwrap_or(1);
        ports > 1 && lanes.get(&on).is_some_and(|&k| k == ports as usize)
    })
}

fn wan_of<'m>(m: &'m Model, l: &Link) -> Option<&'m Wan> {
    match l.kind {
        LinkKind::Wan(w) => Some(&m.wans[w]),
        LinkKind::Lan => None,
    }
}

/// `4x25G` for a cable on a breakout parent.
fn breakout_mode(lanes: &Lanes, on: Option<(usize, &str)>, l: &Link) -> Option<String> {
    on.map(|(s, p)| {
        let k = lanes.get(&(s, p)).copied().unwrap_or(1);
        format!("{k}x{}", l.cable_rate)
    })
}

fn fiber_of<'d>(db: &'d Catalog, l: &Link) -> Option<&'d str> {
    let o = l.optic_a.as_ref().or(l.optic_b.as_ref())?;
    Some(db.optics.get(o)?.fiber.as_str())
}

fn end_text(e: &CableEnd) -> String {
    match &e.subport {
        Some(k) => format!("{}:{}:{k}", e.device, e.port),
        None => format!("{}:{}", e.device, e.port),
    }
}

/// The cabling row of an OTN client run: the switch port at end `e` of member
/// `member` of the WAN link, to the client port of the transponder at that end.
fn client_cable(
    m: &Model,
    l: &Link,
    e: End,
    r: &ClientRun,
    member: usize,
    fiber: Option<&str>,
    id: String,
) -> Cable {
    let wan = match l.kind {
        LinkKind::Wan(w) => m.wans[w].name.value.as_str(),
        LinkKind::Lan => "",
    };
    let a = end(m, l, e);
    let b = CableEnd {
        site: a.site.clone(),
        booth: a.booth.clone(),
        device: format!("{wan}-transponder-{}", r.end),
        port: format!("client-{member}"),
        subport: None,
        optic: Some(r.transponder_optic.value.clone()),
    };
    Cable {
        label: format!("{id} {} <> {}", end_text(&a), end_text(&b)),
        id,
        kind: "otn-client".into(),
        wan: Some(wan.to_owned()),
        speed: l.cable_rate.to_string(),
        media: "fiber".into(),
        fiber: fiber.map(str::to_owned),
        length_m: Some(r.length_m),
        lag: None,
        notes: format!(
            "client run to the OTN transponder; {} connectors, {} splices",
            r.connectors, r.splices
        ),
        a,
        b,
    }
}

fn spares(q: u32, pct: f64) -> u32 {
    (f64::from(q) * pct / 100.0 - 1e-9).ceil().max(0.0) as u32
}

pub(crate) fn lower(m: &Model, db: &Catalog, show: &str) -> Cabling {
    let lanes = lanes(m);
    let mut bom = Bom {
        m,
        counts: BTreeMap::new(),
        parents: HashSet::new(),
    };
    let mut cables = Vec::with_capacity(m.links.len());
    for (i, l) in m.links.iter().enumerate() {
        bom.link(db, l, &lanes);
        let (mut a, mut b) = (end(m, l, l.a), end(m, l, l.b));
        // An OTN hand-off that names no optic gets the catalog's default client optic,
        // the one the BOM orders for it (W0223).
        if let Some(w) = wan_of(m, l).filter(|w| w.kind == WanKind::Otn) {
            let default = crate::check::otn::default_client_optic(db, w);
            for e in [&mut a, &mut b] {
                if e.optic.is_none() {
                    e.optic = default.map(str::to_owned);
                }
            }
        }
        let breakout = parent(m, l.a)
            .or(parent(m, l.b))
            .map(|(s, p)| (s, p, lanes.get(&(s, p)).copied().unwrap_or(1)));
        let id = format!("{show}-{:03}", i + 1);
        let wan = match l.kind {
            LinkKind::Wan(w) => Some(&m.wans[w]),
            LinkKind::Lan => None,
        };
        let fiber = match wan {
            Some(w) if w.kind == crate::spec::wan::WanKind::DarkFiber => {
                Some(w.fiber.as_str().to_owned())
            }
            _ => fiber_of(db, l).map(str::to_owned),
        };
        let length_m = match wan {
            Some(w) => w.length_km.as_ref().map(|k| k.value * 1000.0),
            None => l.length_span.map(|_| l.length_km * 1000.0),
        };
        cables.push(Cable {
            label: format!("{id} {} <> {}", end_text(&a), end_text(&b)),
            id,
            kind: wan.map_or("lan", |w| w.kind.as_str()).to_owned(),
            wan: wan.map(|w| w.name.value.clone()),
            speed: l.cable_rate.to_string(),
            media: media_name(l).to_owned(),
            fiber,
            length_m,
            lag: l.lag.map(|g| m.lags[g].id),
            notes: notes(m, l, breakout),
            a,
            b,
        });
    }
    // Client runs after the links, so that a link's id stays its index (the report and
    // the lab name cables by it).
    for (i, e, r) in m.client_runs() {
        let l = &m.links[i];
        let member = match l.kind {
            LinkKind::Wan(w) => m.wans[w].links.iter().position(|&x| x == i),
            LinkKind::Lan => None,
        };
        let fiber = r
            .fiber
            .as_ref()
            .map(|f| f.value.as_str())
            .or_else(|| db.optics.get(&r.optic).map(|o| o.fiber.as_str()));
        bom.client_run(db, l, e, r, fiber, &lanes);
        let id = format!("{show}-{:03}", cables.len() + 1);
        cables.push(client_cable(
            m,
            l,
            e,
            r,
            member.map_or(1, |k| k + 1),
            fiber,
            id,
        ));
    }
    // Management patches last: every data cable keeps its id.
    for (site, device) in super::cabling_mgmt::ends(m) {
        bom.add(
            site,
            super::cabling_mgmt::CATEGORY,
            super::cabling_mgmt::PART.to_owned(),
            None,
        );
        let id = format!("{show}-{:03}", cables.len() + 1);
        cables.push(super::cabling_mgmt::cable(m, site, device, id));
    }
    let pct = m.settings.spares_percent;
    let mut totals: BTreeMap<(&'static str, String, Option<u64>), (u32, u32)> = BTreeMap::new();
    let mut lines = Vec::with_capacity(bom.counts.len() * 2);
    for ((site, category, part, mm), q) in bom.counts {
        let s = spares(q, pct);
        let t = totals.entry((category, part.clone(), mm)).or_insert((0, 0));
        t.0 += q;
        t.1 += s;
        lines.push(BomLine {
            site,
            category: category.to_owned(),
            part,
            length_m: mm.map(|v| v as f64 / 1000.0),
            quantity: q,
            spares: s,
        });
    }
    lines.extend(
        totals
            .into_iter()
            .map(|((category, part, mm), (q, s))| BomLine {
                site: "total".into(),
                category: category.to_owned(),
                part,
                length_m: mm.map(|v| v as f64 / 1000.0),
                quantity: q,
                spares: s,
            }),
    );
    Cabling {
        spares_percent: pct,
        cables,
        bom: lines,
    }
}
