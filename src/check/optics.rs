//! Optics on fiber: for every LAN link with optics (or `media: fiber`), every dark-fiber
//! WAN connection and every OTN client run (switch port to transponder), the optic's rate
//! against the port, the two ends against each other, the optic against the declared
//! fiber type, the length against the rated reach and the power budget against the
//! required margin. Every figure comes from the catalog.

use std::collections::HashSet;

use super::CheckInput;
use crate::diag::{Diagnostic, Diags, codes, plural};
use crate::resolve::model::{ClientRun, End, Link, LinkKind, NodeId};
use crate::source::Span;
use crate::spec::catalog_file::{OpticModel, Physics};
use crate::spec::link::Media;
use crate::spec::switch::Fec;
use crate::spec::units::Rate;
use crate::spec::wan::{Fiber, WanKind};
use crate::yaml::decode::Located;

/// The fiber plant between two optics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plant {
    pub(crate) length_km: f64,
    pub(crate) connectors: u32,
    pub(crate) splices: u32,
}

/// The power budget of a link, in its worse direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Budget {
    /// What the optics may lose: launch minus sensitivity, or the published maximum loss, dB.
    pub(crate) available_db: f64,
    /// Loss of the plant at the transmitter's band, dB.
    pub(crate) loss_db: f64,
    /// The budget is a standard's maximum channel insertion loss, which already holds
    /// the transmitter and dispersion penalties: no further margin is required on it.
    pub(crate) channel_limit: bool,
}

impl Budget {
    pub(crate) fn margin_db(&self) -> f64 {
        self.available_db - self.loss_db
    }

    /// The margin this budget must keep when the plan asks for `planned` dB: none on a
    /// standard's channel insertion loss, which holds its margin already.
    pub(crate) fn required(&self, planned: f64) -> f64 {
        if self.channel_limit { 0.0 } else { planned }
    }
}

/// The one margin rule, in the words the report and every help use (`explain W0211`
/// says the same): the planned margin applies to budgets from launch power and
/// sensitivity, none to a standard's maximum channel insertion loss.
pub(crate) const CHANNEL_LIMIT_RULE: &str = "an optic rated by a standard's maximum channel \
     insertion loss needs no margin on top: the standard allocated it already";

/// `M dB of margin over this span`, and for a maximum-channel-loss rating why that is
/// enough whatever the planned margin.
fn margin_words(b: &Budget) -> String {
    let m = num((b.margin_db() * 10.0).round() / 10.0);
    if b.channel_limit {
        format!(
            "{m} dB of margin over this span, enough for an optic rated by maximum channel \
             loss, which holds its margin already"
        )
    } else {
        format!("{m} dB of margin over this span")
    }
}

/// The key of `physics.attenuation_db_per_km` for an optic's band. The edges are the
/// ITU-T G.Sup39 band names (O 1260-1360 nm, E 1360-1460 nm, S/C/L above 1460 nm);
/// multimode optics run at 850 nm or 1300 nm.
pub(crate) fn band_key(o: &OpticModel) -> &'static str {
    match o.fiber {
        Fiber::Smf if o.wavelength_nm < 1460.0 => "smf_1310",
        Fiber::Smf => "smf_1550",
        Fiber::Mmf if o.wavelength_nm < 1000.0 => "mmf_850",
        Fiber::Mmf => "mmf_1300",
    }
}

fn attenuation(physics: &Physics, key: &str) -> Result<f64, String> {
    physics
        .attenuation_db_per_km
        .iter()
        .find(|(k, _)| k.as_str() == key)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("the catalog's physics has no attenuation for `{key}`"))
}

/// Loss the direction `tx` -> `rx` can take, dB, and whether it is a standard's channel
/// insertion loss. A published maximum channel loss decides when either end has one:
/// launch minus sensitivity from the same standard's average-power tables is that
/// figure again (the IEEE "average receive power, each lane (min)" is the launch minimum
/// less the channel's maximum loss), and asking the planned margin on top of it would
/// count the transmitter and dispersion penalties twice. Launch and sensitivity decide
/// for optics rated by them alone.
fn available(tx: &OpticModel, rx: &OpticModel) -> Option<(f64, bool)> {
    match (tx.max_loss_db, rx.max_loss_db) {
        (Some(a), Some(b)) => Some((a.min(b), true)),
        (Some(a), None) | (None, Some(a)) => Some((a, true)),
        (None, None) => Some((tx.tx_min_dbm? - rx.rx_sensitivity_dbm?, false)),
    }
}

/// Loss of the plant for light of `tx`'s band, dB.
pub(crate) fn loss_db(tx: &OpticModel, plant: Plant, physics: &Physics) -> Result<f64, String> {
    Ok(plant.length_km * attenuation(physics, band_key(tx))?
        + f64::from(plant.connectors) * physics.connector_db
        + f64::from(plant.splices) * physics.splice_db)
}

/// The power budget of optic `a` at one end and `b` at the other over `plant`, in the
/// worse direction: margin = (launch min - sensitivity) - (length x attenuation +
/// connectors + splices), or maximum channel loss - plant loss when only that is published.
pub(crate) fn budget(
    a: &OpticModel,
    b: &OpticModel,
    plant: Plant,
    physics: &Physics,
) -> Result<Budget, String> {
    let mut worst: Option<Budget> = None;
    for (tx, rx) in [(a, b), (b, a)] {
        let (available_db, channel_limit) = available(tx, rx)
            .ok_or("the catalog gives neither launch power and receiver sensitivity nor a maximum channel loss")?;
        let one = Budget {
            available_db,
            loss_db: loss_db(tx, plant, physics)?,
            channel_limit,
        };
        if worst.is_none_or(|w| one.margin_db() < w.margin_db()) {
            worst = Some(one);
        }
    }
    worst.ok_or_else(|| "no direction to compute".to_owned())
}

/// Two optics talk to each other: same rate, fiber type and band. The form factor does
/// not matter on the fiber side (an LR4 QSFP28 talks to an LR4 CFP), and one port of a
/// twin-port module (`ports: 2`, each at half its rate) talks to a single-port one.
pub(crate) fn compatible(a: &OpticModel, b: &OpticModel) -> bool {
    let rates = |o: &OpticModel| {
        let per_port = Rate(o.rate.bps() / f64::from(o.ports.unwrap_or(1).max(1)));
        [o.rate.value, per_port]
    };
    let (ra, rb) = (rates(a), rates(b));
    ra.iter().any(|&x| rb.iter().any(|&y| same_rate(x, y)))
        && a.fiber == b.fiber
        && band_key(a) == band_key(b)
}

pub(crate) fn same_rate(a: Rate, b: Rate) -> bool {
    (a.bps() - b.bps()).abs() <= 1e-9 * a.bps().abs().max(b.bps().abs())
}

/// A number for messages: at most three decimals, no trailing zeros.
pub(crate) fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// The catalog optics of `rate` for `fiber` that close `plant` with `required` dB of
/// margin, shortest reach first (ties: by name).
fn closers<'a>(
    cx: &CheckInput<'a>,
    rate: Rate,
    fiber: Fiber,
    plant: Plant,
    required: f64,
) -> Vec<(&'a str, &'a OpticModel, Budget)> {
    let mut out: Vec<_> = cx
        .db
        .optics
        .sorted()
        .into_iter()
        .filter(|(_, o)| {
            same_rate(o.rate.value, rate) && o.fiber == fiber && o.reach_km >= plant.length_km
        })
        .filter_map(|(n, o)| {
            budget(o, o, plant, cx.physics)
                .ok()
                .filter(|b| b.margin_db() >= b.required(required))
                .map(|b| (n, o, b))
        })
        .collect();
    out.sort_by(|a, b| a.1.reach_km.total_cmp(&b.1.reach_km));
    out
}

/// `use `x` (reach N km): M dB of margin over this span`; with `alternatives`, the
/// second candidate too.
fn proposal(found: &[(&str, &OpticModel, Budget)], alternatives: bool) -> String {
    let margin = |b: &Budget| num((b.margin_db() * 10.0).round() / 10.0);
    match found {
        [(a, oa, ba), (b, ob, bb), ..]
            if alternatives && !ba.channel_limit && !bb.channel_limit =>
        {
            format!(
                "use `{a}` (reach {} km, {} dB of margin over this span) or `{b}` (reach {} km, {} dB)",
                num(oa.reach_km),
                margin(ba),
                num(ob.reach_km),
                margin(bb)
            )
        }
        [(a, oa, ba), (b, ob, bb), ..] if alternatives => format!(
            "use `{a}` (reach {} km, {}) or `{b}` (reach {} km, {})",
            num(oa.reach_km),
            margin_words(ba),
            num(ob.reach_km),
            margin_words(bb)
        ),
        [(name, o, b), ..] => format!(
            "use `{name}` (reach {} km): {}",
            num(o.reach_km),
            margin_words(b)
        ),
        [] => String::new(),
    }
}

fn fiber_words(f: Fiber) -> &'static str {
    match f {
        Fiber::Smf => "single-mode",
        Fiber::Mmf => "multimode",
    }
}

/// What to change when an optic cannot close a span. Amplification is proposed only when
/// no pluggable of the rate closes it on any fiber: a multimode span too long for every
/// multimode optic (400 m of SR4) needs single-mode optics (CWDM4, LR4), not an EDFA.
fn remedy(cx: &CheckInput, rate: Rate, fiber: Fiber, plant: Plant, required: f64) -> String {
    let same = closers(cx, rate, fiber, plant, required);
    if !same.is_empty() {
        return proposal(&same, false);
    }
    let other = match fiber {
        Fiber::Mmf => Fiber::Smf,
        Fiber::Smf => Fiber::Mmf,
    };
    let across = closers(cx, rate, other, plant, required);
    if !across.is_empty() {
        return format!(
            "no {rate} {} pluggable reaches {} km: run {} fiber ({}) and {}",
            fiber_words(fiber),
            num(plant.length_km),
            fiber_words(other),
            other.as_str(),
            proposal(&across, true)
        );
    }
    if fiber == Fiber::Mmf {
        // Lost in its connectors or too long for the fiber's modal bandwidth: amplifiers
        // do not exist for multimode, fewer connections or single-mode do.
        return format!(
            "no {rate} optic in the catalog closes {} m of multimode through {}: remove \
             patch-panel connections or shorten the run, or run single-mode fiber with a {rate} \
             single-mode optic",
            num((plant.length_km * 1000.0).round()),
            plural(plant.connectors as usize, "connector")
        );
    }
    format!(
        "no {rate} pluggable in the catalog closes {} km with {} dB of margin: the span needs \
         in-line amplification (EDFA huts, typically every ~80 km) or an OTN/coherent \
         transponder (a `kind: otn` WAN link)",
        num(plant.length_km),
        num(required)
    )
}

/// One fiber run as this check sees it: a LAN cable, a dark-fiber span, or the client
/// run between a switch port and an OTN transponder.
struct FiberLink<'a> {
    /// The ports the fiber plugs into, where each is written and the optic in it: both
    /// ends of a cable or span; the switch end only of a client run (the transponder is
    /// not a node of the model).
    ports: Vec<(End, Span, &'a Located<String>)>,
    /// The optics at the two ends of the fiber; none when a fiber cable names none.
    optics: Option<(&'a Located<String>, &'a Located<String>)>,
    /// The link entry.
    span: Span,
    /// `link `a` -- `b``, `WAN link `x`` or `the `client_a` run of WAN link `x``.
    name: String,
    /// Fiber type the spec declares (a WAN's, a client run's), where, and the key to
    /// correct; LAN cables do not say.
    fiber: Option<(Fiber, Span, String)>,
    /// Where the length was written (`length_km:` of a WAN), else the link entry.
    length_span: Span,
    plant: Plant,
}

struct Run<'c, 'a> {
    cx: &'c CheckInput<'a>,
    diags: &'c mut Diags,
    seen: HashSet<(&'static str, Span)>,
}

impl Run<'_, '_> {
    /// Reports once per code and primary span: the members of a bundle share their spans.
    fn push(&mut self, d: Diagnostic) {
        if self.seen.insert((d.code.id, d.primary.span)) {
            self.diags.push(d);
        }
    }

    fn required(&self) -> (f64, Option<Span>) {
        let m = &self.cx.m.settings.margin_db;
        if m.value.is_nan() {
            (self.cx.physics.default_margin_db, None)
        } else {
            (m.value, Some(m.span))
        }
    }

    /// The speed an optic at `e` must run at: the port's, times the subports of a breakout.
    fn port_rates(&self, e: End) -> (Rate, Option<Rate>) {
        let p = self.cx.m.port(e);
        let siblings = match (e.node, &p.parent) {
            (NodeId::Switch(s), Some(parent)) => self.cx.m.switches[s]
                .ports
                .iter()
                .filter(|q| q.parent.as_ref() == Some(parent))
                .count(),
            _ => 1,
        };
        let whole = (siblings > 1).then(|| Rate(p.speed.bps() * siblings as f64));
        (p.speed, whole)
    }

    fn rate(
        &mut self,
        f: &FiberLink,
        e: End,
        end_span: Span,
        name: &Located<String>,
        o: &OpticModel,
    ) {
        let (speed, whole) = self.port_rates(e);
        if same_rate(o.rate.value, speed) || whole.is_some_and(|w| same_rate(o.rate.value, w)) {
            return;
        }
        let port = self.cx.m.end_name(e);
        self.push(
            Diagnostic::new(
                codes::OPTIC_RATE,
                name.span,
                format!(
                    "optic `{}` runs at {} but `{port}` runs at {speed}",
                    name.value, o.rate.value
                ),
            )
            .label(format!("a {} optic", o.rate.value))
            .also(end_span, format!("`{port}` runs at {speed}"))
            .help(format!(
                "use a {speed} optic on {}, or run the port at {}",
                f.name, o.rate.value
            )),
        );
    }

    fn fec(&mut self, f: &FiberLink, name: &Located<String>, o: &OpticModel) {
        if o.needs_fec != Some(true) {
            return;
        }
        for &(e, _, _) in &f.ports {
            let p = self.cx.m.port(e);
            let (Some(fec @ (Fec::None | Fec::Fc)), Some(span)) = (p.fec, p.span) else {
                continue;
            };
            let port = self.cx.m.end_name(e);
            self.push(
                Diagnostic::new(
                    codes::OPTIC_FEC,
                    span,
                    format!(
                        "`{port}` has FEC `{}` but optic `{}` needs RS-FEC",
                        fec.as_str(),
                        name.value
                    ),
                )
                .label(format!("FEC `{}`", fec.as_str()))
                .also(name.span, "reaches its rated distance only with RS-FEC")
                .help(format!("set `fec: rs` on `{port}`")),
            );
        }
    }

    /// Ends that cannot talk, or an optic for the wrong fiber; true when the link is sound.
    fn pairing(
        &mut self,
        f: &FiberLink,
        a: (&Located<String>, &OpticModel),
        b: (&Located<String>, &OpticModel),
    ) -> bool {
        if a.0.value != b.0.value && !compatible(a.1, b.1) {
            let what = |o: &OpticModel| {
                format!(
                    "{} {} at {} nm",
                    o.rate.value,
                    o.fiber.as_str().to_uppercase(),
                    num(o.wavelength_nm)
                )
            };
            self.push(
                Diagnostic::new(codes::OPTIC_MISMATCH, b.0.span, format!("the optics at the two ends of {} cannot talk to each other", f.name))
                    .label(format!("`{}`: {}", b.0.value, what(b.1)))
                    .also(a.0.span, format!("`{}`: {}", a.0.value, what(a.1)))
                    .help("use the same optic at both ends, or optics of the same rate, fiber type and wavelength band"),
            );
            return false;
        }
        let Some((fiber, span, key)) = &f.fiber else {
            return true;
        };
        for (name, o) in [a, b] {
            if o.fiber != *fiber {
                let (of, wf) = (
                    o.fiber.as_str().to_uppercase(),
                    fiber.as_str().to_uppercase(),
                );
                self.push(
                    Diagnostic::new(
                        codes::FIBER_MISMATCH,
                        name.span,
                        format!("optic `{}` is for {of} but {} is {wf}", name.value, f.name),
                    )
                    .label(format!("an {of} optic"))
                    .also(*span, format!("{wf} fiber"))
                    .help(format!("pick an {wf} optic, or correct {key}")),
                );
                return false;
            }
        }
        true
    }

    fn reach(
        &mut self,
        f: &FiberLink,
        a: (&Located<String>, &OpticModel),
        b: (&Located<String>, &OpticModel),
    ) -> bool {
        let (name, o) = if b.1.reach_km < a.1.reach_km { b } else { a };
        if f.plant.length_km <= o.reach_km {
            return true;
        }
        let (required, _) = self.required();
        let help = remedy(self.cx, o.rate.value, o.fiber, f.plant, required);
        self.push(
            Diagnostic::new(
                codes::OPTIC_REACH,
                f.length_span,
                format!(
                    "{} is {} km long, beyond the {} km reach of `{}`",
                    f.name,
                    num(f.plant.length_km),
                    num(o.reach_km),
                    name.value
                ),
            )
            .label(format!("{} km", num(f.plant.length_km)))
            .also(name.span, format!("rated for {} km", num(o.reach_km)))
            .help(help),
        );
        false
    }

    fn power(
        &mut self,
        f: &FiberLink,
        a: (&Located<String>, &OpticModel),
        b: (&Located<String>, &OpticModel),
    ) {
        let physics = self.cx.physics;
        let bud = match budget(a.1, b.1, f.plant, physics) {
            Ok(x) => x,
            Err(why) => {
                let name = if available(a.1, b.1).is_none() && a.0.value != b.0.value {
                    b.0
                } else {
                    a.0
                };
                return self.push(
                    Diagnostic::new(codes::OPTIC_FIGURES, name.span, format!("cannot compute the optical budget of {}", f.name))
                        .label(why)
                        .help(format!("add `tx_min_dbm` and `rx_sensitivity_dbm` (or `max_loss_db`) to the catalog entry `{}`", name.value)),
                );
            }
        };
        let (planned, required_span) = self.required();
        let required = bud.required(planned);
        let margin = bud.margin_db();
        if margin >= required {
            return;
        }
        let p = f.plant;
        let loss = format!(
            "{} dB of loss: {} km x {} dB/km, {}, {}",
            num((bud.loss_db * 10.0).round() / 10.0),
            num(p.length_km),
            num(attenuation(physics, band_key(a.1)).unwrap_or(f64::NAN)),
            plural(p.connectors as usize, "connector"),
            plural(p.splices as usize, "splice")
        );
        let avail = |o: &OpticModel| match (bud.channel_limit, o.tx_min_dbm, o.rx_sensitivity_dbm) {
            (false, Some(t), Some(r)) => {
                format!("launch {} dBm, sensitivity {} dBm", num(t), num(r))
            }
            _ => "maximum channel loss".to_owned(),
        };
        let optic_label = format!(
            "`{}` can lose {} dB ({})",
            a.0.value,
            num((bud.available_db * 10.0).round() / 10.0),
            avail(a.1)
        );
        let help = remedy(self.cx, a.1.rate.value, a.1.fiber, p, planned);
        let d = if margin < 0.0 {
            Diagnostic::new(
                codes::OPTICAL_BUDGET,
                f.length_span,
                format!(
                    "the optical budget of {} does not close: {} dB short",
                    f.name,
                    num((-margin * 10.0).round() / 10.0)
                ),
            )
        } else {
            let d = Diagnostic::new(
                codes::OPTICAL_MARGIN,
                f.length_span,
                format!(
                    "the optical margin of {} is {} dB, below the required {} dB",
                    f.name,
                    num((margin * 10.0).round() / 10.0),
                    num(required)
                ),
            );
            match required_span {
                Some(s) => d.also(s, "required margin set here"),
                None => d,
            }
        };
        self.push(d.label(loss).also(a.0.span, optic_label).help(help));
    }

    fn link(&mut self, f: &FiberLink) {
        let Some((na, nb)) = f.optics else {
            self.push(
                Diagnostic::new(
                    codes::MISSING_OPTIC,
                    f.span,
                    format!("fiber {} names no optic", f.name),
                )
                .label("`media: fiber` without `optic:`")
                .help(
                    "add `optic:` with a catalog optic (and `optic_b:` when the far end differs)",
                ),
            );
            return;
        };
        let optics = &self.cx.db.optics;
        let (Some(oa), Some(ob)) = (optics.get(na), optics.get(nb)) else {
            return;
        };
        for &(e, span, name) in &f.ports {
            if let Some(o) = optics.get(name) {
                self.rate(f, e, span, name, o);
            }
        }
        self.fec(f, na, oa);
        if na.value != nb.value {
            self.fec(f, nb, ob);
        }
        let (a, b) = ((na, oa), (nb, ob));
        if self.pairing(f, a, b) && self.reach(f, a, b) {
            self.power(f, a, b);
        }
    }
}

fn fiber_link<'a>(cx: &CheckInput<'a>, l: &'a Link) -> Option<FiberLink<'a>> {
    let m = cx.m;
    let plant = Plant {
        length_km: l.length_km,
        connectors: l.connectors,
        splices: l.splices,
    };
    let optics = l.optic_a.as_ref().zip(l.optic_b.as_ref());
    let ports = optics.map_or_else(Vec::new, |(na, nb)| {
        vec![(l.a, l.span_a, na), (l.b, l.span_b, nb)]
    });
    match l.kind {
        LinkKind::Lan => {
            if matches!(l.media, Some(Media::Dac | Media::Aoc))
                || l.optic_a.is_none() && l.media != Some(Media::Fiber)
            {
                return None;
            }
            let name = format!("link `{}` -- `{}`", m.end_name(l.a), m.end_name(l.b));
            Some(FiberLink {
                ports,
                optics,
                span: l.span,
                name,
                fiber: None,
                length_span: l.span,
                plant,
            })
        }
        LinkKind::Wan(w) => {
            let wan = &m.wans[w];
            if wan.kind != WanKind::DarkFiber || optics.is_none() {
                return None;
            }
            let name = format!("WAN link `{}`", wan.name.value);
            let length_span = wan.length_km.as_ref().map_or(wan.span, |x| x.span);
            Some(FiberLink {
                ports,
                optics,
                span: l.span,
                name,
                fiber: Some((wan.fiber, wan.span, "the WAN's `fiber:`".to_owned())),
                length_span,
                plant,
            })
        }
    }
}

/// An OTN client run as a fiber: the switch port at `e` of member `l` to the
/// transponder's client port.
fn client_run<'a>(cx: &CheckInput<'a>, l: &'a Link, e: End, r: &'a ClientRun) -> FiberLink<'a> {
    let wan = match l.kind {
        LinkKind::Wan(w) => cx.m.wans[w].name.value.as_str(),
        LinkKind::Lan => "",
    };
    let span = if e == l.a { l.span_a } else { l.span_b };
    let key = format!("`client_{}`", r.end);
    FiberLink {
        ports: vec![(e, span, &r.optic)],
        optics: Some((&r.optic, &r.transponder_optic)),
        span: r.span,
        name: format!("the {key} run of WAN link `{wan}`"),
        fiber: r
            .fiber
            .as_ref()
            .map(|f| (f.value, f.span, format!("`fiber:` of {key}"))),
        length_span: r.length_span,
        plant: Plant {
            length_km: r.length_km,
            connectors: r.connectors,
            splices: r.splices,
        },
    }
}

/// Checks every fiber link.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let mut run = Run {
        cx,
        diags,
        seen: HashSet::new(),
    };
    for l in &cx.m.links {
        if let Some(f) = fiber_link(cx, l) {
            run.link(&f);
        }
    }
    for (i, e, r) in cx.m.client_runs() {
        run.link(&client_run(cx, &cx.m.links[i], e, r));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::checks;

    fn optic(
        rate: f64,
        fiber: Fiber,
        nm: f64,
        tx: Option<f64>,
        rx: Option<f64>,
        max: Option<f64>,
    ) -> OpticModel {
        OpticModel {
            title: "t".into(),
            rate: Located::new(Rate::from_gbps(rate), Span::default()),
            form: "qsfp28".into(),
            fiber,
            wavelength_nm: nm,
            reach_km: 10.0,
            tx_min_dbm: tx,
            rx_sensitivity_dbm: rx,
            rx_max_dbm: None,
            max_loss_db: max,
            needs_fec: None,
            electrical: None,
            ports: None,
            connector: None,
            source: "test".into(),
            confidence: None,
        }
    }

    fn physics() -> Physics {
        checks::physics()
    }

    #[test]
    fn budget_from_launch_and_sensitivity() {
        let ph = physics();
        let lr = optic(10.0, Fiber::Smf, 1310.0, Some(-8.2), Some(-14.4), None);
        let b = budget(
            &lr,
            &lr,
            Plant {
                length_km: 10.0,
                connectors: 2,
                splices: 0,
            },
            &ph,
        )
        .unwrap();
        let loss = 10.0 * attenuation(&ph, "smf_1310").unwrap() + 2.0 * ph.connector_db;
        assert!((b.available_db - 6.2).abs() < 1e-9);
        assert!((b.loss_db - loss).abs() < 1e-9);
        assert!((b.margin_db() - (6.2 - loss)).abs() < 1e-9);
    }

    #[test]
    fn budget_from_max_loss_and_band() {
        let ph = physics();
        let er = optic(10.0, Fiber::Smf, 1550.0, None, None, Some(15.0));
        let b = budget(
            &er,
            &er,
            Plant {
                length_km: 40.0,
                connectors: 2,
                splices: 3,
            },
            &ph,
        )
        .unwrap();
        let loss = 40.0 * attenuation(&ph, "smf_1550").unwrap()
            + 2.0 * ph.connector_db
            + 3.0 * ph.splice_db;
        assert!((b.loss_db - loss).abs() < 1e-9);
        assert!((b.margin_db() - (15.0 - loss)).abs() < 1e-9);
    }

    #[test]
    fn budget_takes_the_worse_direction() {
        let strong = optic(10.0, Fiber::Smf, 1310.0, Some(0.0), Some(-20.0), None);
        let weak = optic(10.0, Fiber::Smf, 1310.0, Some(-8.0), Some(-14.0), None);
        let b = budget(
            &strong,
            &weak,
            Plant {
                length_km: 0.0,
                connectors: 0,
                splices: 0,
            },
            &physics(),
        )
        .unwrap();
        assert!(
            (b.available_db - 12.0).abs() < 1e-9,
            "weak -> strong: -8 - -20 = 12; strong -> weak: 14"
        );
    }

    #[test]
    fn budget_without_figures_is_an_error() {
        let bare = optic(10.0, Fiber::Smf, 1310.0, None, None, None);
        assert!(
            budget(
                &bare,
                &bare,
                Plant {
                    length_km: 1.0,
                    connectors: 2,
                    splices: 0
                },
                &physics()
            )
            .is_err()
        );
        let mut ph = physics();
        ph.attenuation_db_per_km
            .entries
            .retain(|(k, _)| k.as_str() != "smf_1310");
        let lr = optic(10.0, Fiber::Smf, 1310.0, Some(-8.2), Some(-14.4), None);
        let err = budget(
            &lr,
            &lr,
            Plant {
                length_km: 1.0,
                connectors: 2,
                splices: 0,
            },
            &ph,
        )
        .unwrap_err();
        assert!(err.contains("smf_1310"), "{err}");
    }

    #[test]
    fn bands_and_compatibility() {
        let lr = optic(10.0, Fiber::Smf, 1310.0, None, None, None);
        let er = optic(10.0, Fiber::Smf, 1550.0, None, None, None);
        let sr = optic(10.0, Fiber::Mmf, 850.0, None, None, None);
        assert_eq!(
            (band_key(&lr), band_key(&er), band_key(&sr)),
            ("smf_1310", "smf_1550", "mmf_850")
        );
        let mut cfp = lr.clone();
        cfp.form = "cfp".into();
        assert!(compatible(&lr, &cfp));
        assert!(!compatible(&lr, &er));
        assert!(!compatible(&lr, &sr));
        assert!(!compatible(
            &lr,
            &optic(100.0, Fiber::Smf, 1310.0, None, None, None)
        ));
    }

    fn codes_of(yaml: &str) -> Vec<&'static str> {
        checks::run(yaml, check)
    }

    #[test]
    fn a_short_dark_fiber_is_clean() {
        assert!(codes_of(&checks::two_sites("optic: 100gbase-lr4, length_km: 5", "")).is_empty());
    }

    #[test]
    fn long_dark_fiber_needs_another_optic_or_amplifiers() {
        assert_eq!(
            codes_of(&checks::two_sites("optic: 100gbase-lr4, length_km: 30", "")),
            ["E0212"]
        );
        assert_eq!(
            codes_of(&checks::two_sites("optic: 100gbase-lr4, length_km: 9", "")),
            ["W0211"]
        );
        assert_eq!(
            codes_of(&checks::two_sites(
                "optic: 100gbase-er4, length_km: 217",
                ""
            )),
            ["E0212"]
        );
        assert_eq!(
            codes_of(&checks::two_sites(
                "optic: 100gbase-er4, length_km: 39, splices: 40",
                ""
            )),
            ["E0210"]
        );
    }

    #[test]
    fn wrong_fiber_and_rate() {
        assert_eq!(
            codes_of(&checks::two_sites(
                "optic: 100gbase-sr4, length_km: 0.05",
                ""
            )),
            ["E0214"]
        );
        assert_eq!(
            codes_of(&checks::two_sites("optic: 10gbase-lr, length_km: 5", "")),
            ["E0215"]
        );
    }
}
