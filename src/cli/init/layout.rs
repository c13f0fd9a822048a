//! The network `democ init` lays out from the choices: a switch per site, the DTNs cabled
//! to its first ports (broken out when the NIC is slower than the cages), the other
//! booths and the WAN on its last ports, and the optic, slot and speed of each picked
//! from the catalog the way `democ check` will judge them.

use crate::catalog::Catalog;
use crate::check::cages::misfit;
use crate::check::optics::{Plant, budget, same_rate};
use crate::resolve::model::Lanes;
use crate::spec::catalog_file::{NicModel, OpticModel, PortGroup, SwitchModel};
use crate::spec::units::Rate;

use super::choices::{Choices, WanKind};

/// Why a layout cannot be made: the flag to blame, its value, the message and help.
pub(super) struct Refusal {
    pub(super) flag: &'static str,
    pub(super) value: String,
    pub(super) message: String,
    pub(super) help: String,
}

/// One site's switch ports: the DTNs' and the free ones left for uplinks.
pub(super) struct SitePorts<'d> {
    /// Each DTN's port, in host order.
    pub(super) dtn: Vec<String>,
    /// Parents to break out, with the mode.
    pub(super) breakouts: Vec<(String, String)>,
    /// The DTN links' speed, and whether the spec must say it (not both ends' default).
    pub(super) dtn_speed: Rate,
    pub(super) say_speed: bool,
    /// The fastest group's ports no DTN uses, last first.
    free: Vec<String>,
    uplink_group: &'d PortGroup,
}

impl SitePorts<'_> {
    /// The next free port for an uplink.
    pub(super) fn take(&mut self) -> Option<String> {
        (!self.free.is_empty()).then(|| self.free.remove(0))
    }
}

fn fastest(g: &PortGroup) -> f64 {
    g.speeds.iter().map(|s| s.value.gbps()).fold(0.0, f64::max)
}

/// `4x100G` as (4, 100G).
fn breakout_mode(mode: &str) -> Option<(u32, Rate)> {
    let (k, rate) = mode.split_once('x')?;
    Some((k.parse().ok()?, crate::spec::units::parse_rate(rate).ok()?))
}

/// The ports of `sw` that `n` DTNs with `nic` are cabled to: at the NIC's fastest speed
/// any port group runs, natively or broken out.
pub(super) fn site_ports<'d>(
    sw: &'d SwitchModel,
    nic: &NicModel,
    n: usize,
) -> Result<SitePorts<'d>, String> {
    let uplink_group = sw
        .ports
        .iter()
        .map(|g| &g.value)
        .max_by(|a, b| fastest(a).total_cmp(&fastest(b)))
        .ok_or("the model has no ports")?;
    let mut speeds: Vec<Rate> = nic.speeds.iter().map(|s| s.value).collect();
    speeds.sort_by(|a, b| b.gbps().total_cmp(&a.gbps()));
    let nic_default = nic.speeds.first().map(|s| s.value);
    for speed in speeds {
        let nic_says = nic_default.is_none_or(|d| !same_rate(d, speed));
        for g in sw.ports.iter().map(|g| &g.value) {
            let names = g.names.value.expand();
            if g.speeds.iter().any(|s| same_rate(s.value, speed)) && names.len() >= n {
                let default = g.speeds.first().is_some_and(|s| same_rate(s.value, speed));
                return Ok(with_free(
                    names[..n].to_vec(),
                    Vec::new(),
                    speed,
                    nic_says || !default,
                    uplink_group,
                ));
            }
            for mode in g.breakout.iter().flatten() {
                let Some((k, sub)) = breakout_mode(&mode.value) else {
                    continue;
                };
                let parents = n.div_ceil(k as usize);
                if !same_rate(sub, speed) || parents > names.len() {
                    continue;
                }
                let dtn = (0..n)
                    .map(|i| format!("{}:{}", names[i / k as usize], i % k as usize + 1))
                    .collect();
                let outs = names[..parents]
                    .iter()
                    .map(|p| (p.clone(), mode.value.clone()))
                    .collect();
                return Ok(with_free(dtn, outs, speed, nic_says, uplink_group));
            }
        }
    }
    Err(format!(
        "it has no port, nor a breakout, at any of the NIC's speeds ({})",
        nic.speeds
            .iter()
            .map(|s| s.value.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn with_free<'d>(
    dtn: Vec<String>,
    breakouts: Vec<(String, String)>,
    dtn_speed: Rate,
    say_speed: bool,
    uplink_group: &'d PortGroup,
) -> SitePorts<'d> {
    let used = |p: &str| {
        dtn.iter().any(|d| d == p || d.split(':').next() == Some(p))
            || breakouts.iter().any(|(b, _)| b == p)
    };
    let mut free: Vec<String> = uplink_group
        .names
        .value
        .expand()
        .into_iter()
        .filter(|p| !used(p))
        .collect();
    free.reverse();
    SitePorts {
        dtn,
        breakouts,
        dtn_speed,
        say_speed,
        free,
        uplink_group,
    }
}

/// The speeds both sites' uplink ports run, fastest first.
pub(super) fn common_speeds(a: &SitePorts, b: &SitePorts) -> Vec<Rate> {
    let mut out: Vec<Rate> = a
        .uplink_group
        .speeds
        .iter()
        .map(|s| s.value)
        .filter(|s| b.uplink_group.speeds.iter().any(|t| same_rate(t.value, *s)))
        .collect();
    out.sort_by(|x, y| y.gbps().total_cmp(&x.gbps()));
    out
}

/// Whether the uplink ports' speed must be written (it is not both ends' default).
pub(super) fn say_uplink_speed(a: &SitePorts, b: &SitePorts, speed: Rate) -> bool {
    let default = |s: &SitePorts| {
        s.uplink_group
            .speeds
            .first()
            .is_some_and(|d| same_rate(d.value, speed))
    };
    !(default(a) && default(b))
}

/// An optic fitting both uplink cages.
fn fits_both(o: &OpticModel, a: &SitePorts, b: &SitePorts) -> bool {
    let fits = |s: &SitePorts| {
        let g = s.uplink_group;
        misfit(o, &g.form, g.electrical.as_ref().map(Lanes::of)).is_none()
    };
    fits(a) && fits(b)
}

/// A dark-fiber span's plant: `km` of fiber, a connector at each end.
pub(super) const SPAN_CONNECTORS: u32 = 2;

/// The dark fiber's speed and optic: the fastest speed both ends run with an optic that
/// fits both cages and carries `km` within its power budget and the planned margin
/// (the shortest-reach such optic).
pub(super) fn dark_fiber<'d>(
    db: &'d Catalog,
    a: &SitePorts,
    b: &SitePorts,
    km: f64,
) -> Result<(Rate, &'d str), String> {
    let physics = db.physics.as_ref().ok_or("the catalog has no physics")?;
    let plant = Plant {
        length_km: km,
        connectors: SPAN_CONNECTORS,
        splices: 0,
    };
    let carries = |o: &OpticModel| {
        o.reach_km >= km
            && budget(o, o, plant, physics)
                .is_ok_and(|b| b.margin_db() >= b.required(physics.default_margin_db))
    };
    for speed in common_speeds(a, b) {
        let best = db
            .optics
            .sorted()
            .into_iter()
            .filter(|(_, o)| same_rate(o.rate.value, speed) && o.ports.unwrap_or(1) == 1)
            .filter(|(_, o)| fits_both(o, a, b) && carries(o))
            .min_by(|x, y| x.1.reach_km.total_cmp(&y.1.reach_km));
        if let Some((name, _)) = best {
            return Ok((speed, name));
        }
    }
    // The plant's loss grows with its length: the span each optic carries is where its
    // margin runs out, or its rated reach.
    let longest = |o: &OpticModel| {
        let at = |length_km| budget(o, o, Plant { length_km, ..plant }, physics).ok();
        let (Some(b0), Some(b1)) = (at(0.0), at(1.0)) else {
            return 0.0;
        };
        let spare = b0.margin_db() - b0.required(physics.default_margin_db);
        (spare / (b1.loss_db - b0.loss_db)).clamp(0.0, o.reach_km)
    };
    let mut fitting: Vec<(f64, &str)> = db
        .optics
        .sorted()
        .into_iter()
        .filter(|(_, o)| fits_both(o, a, b) && o.ports.unwrap_or(1) == 1)
        .map(|(n, o)| (longest(o), n))
        .collect();
    fitting.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(y.1)));
    let shown: Vec<String> = fitting
        .iter()
        .take(4)
        .map(|(km, n)| format!("`{n}` up to {} km", crate::check::optics::num(km.floor())))
        .collect();
    Err(if shown.is_empty() {
        "no catalog optic fits both ends' cages".to_owned()
    } else {
        format!(
            "the longest spans of the optics that fit these cages (power budget with {} dB margin, and rated reach): {}",
            crate::check::optics::num(physics.default_margin_db),
            shown.join(", ")
        )
    })
}

/// The OTN client both ends run: (its speed, the client name, the switch-port optic).
pub(super) fn otn_client<'d>(
    db: &'d Catalog,
    a: &SitePorts,
    b: &SitePorts,
) -> Option<(Rate, &'d str, &'d str)> {
    let signals = db.otn.sorted();
    common_speeds(a, b).into_iter().find_map(|speed| {
        signals.iter().find_map(|(_, s)| {
            let optic = s.client_optic.as_deref()?;
            let (name, o) = db.optics.sorted().into_iter().find(|(n, _)| *n == optic)?;
            (same_rate(s.client_rate.value, speed) && fits_both(o, a, b)).then_some((
                speed,
                s.client.as_str(),
                name,
            ))
        })
    })
}

/// The WAN kind's words for a refusal's help.
pub(super) fn wan_help(kind: WanKind) -> &'static str {
    match kind {
        WanKind::DarkFiber => {
            "a shorter `--wan-km`, or `--wan otn` / `--wan circuit` for a longer reach"
        }
        WanKind::Otn => {
            "`--wan dark-fiber` or `--wan circuit`, or a switch model whose ports run an OTN client (10GE, 40GE, 100GE, 400GE)"
        }
        WanKind::Circuit => "a switch model with faster ports",
    }
}

/// Each DTN's NIC slot: the one that carries the NIC fastest (generation and width up
/// to the card's own), on a socket rather than behind a PCIe switch, first by name.
pub(super) fn slot<'d>(c: &Choices<'d>) -> Option<&'d str> {
    let (nic, chassis) = (c.nic.1, c.chassis.1);
    let speed = |s: &crate::spec::catalog_file::ChassisSlot| {
        (
            s.socket.is_some(),
            s.generation.min(nic.pcie.generation.value),
            s.width.min(nic.pcie.width.value),
        )
    };
    let mut best: Option<(&str, (bool, u8, u8))> = None;
    for (name, s) in chassis.slots.iter() {
        let here = speed(s);
        if best.is_none_or(|(_, b)| here > b) {
            best = Some((name.value.as_str(), here));
        }
    }
    best.map(|(n, _)| n)
}
