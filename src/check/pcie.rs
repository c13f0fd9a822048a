//! PCIe: usable bandwidth of a link from its generation, width, line encoding and TLP
//! efficiency; where each card and drive group sits in the slot tree; lanes per socket.

use crate::diag::{Diagnostic, Diags, codes};
use crate::fxhash::FxMap;
use crate::resolve::model::Host;
use crate::source::Span;
use crate::spec::catalog_file::{ChassisModel, PcieLink};

use super::CheckInput;
use super::pcie_dma::{Dir, Platform, Unit, dma_gbps};

/// A negotiated PCIe link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Lanes {
    pub(crate) generation: u8,
    pub(crate) width: u8,
}

impl std::fmt::Display for Lanes {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "PCIe {}.0 x{}", self.generation, self.width)
    }
}

impl From<&PcieLink> for Lanes {
    fn from(l: &PcieLink) -> Lanes {
        Lanes {
            generation: l.generation.value,
            width: l.width.value,
        }
    }
}

/// What a link carries, so its DMA can be costed in the right direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Use {
    /// A NIC sending: it reads the packets from host memory.
    NicSend,
    /// A NIC receiving: it writes the packets to host memory.
    NicReceive,
    /// A NIC whose direction the caller does not know: the lower of the two.
    Nic,
    /// Drives being read write host memory; drives being written read it.
    DriveRead,
    DriveWrite,
    /// Bulk DMA in a direction the caller does not know: the lower of the two.
    Bulk,
}

/// The Max_Payload_Size and Max_Read_Request_Size a host's devices run with: the spec's
/// `pcie_mps` if set, else the chassis's figures, else the catalog defaults.
pub(crate) fn platform(cx: &CheckInput, h: &Host) -> Platform {
    let m = cx.pcie_dma;
    let ch = cx.db.chassis.get(&h.chassis);
    Platform {
        mps: cx
            .m
            .settings
            .pcie_mps
            .or(ch.and_then(|c| c.pcie_mps))
            .unwrap_or(m.default_mps),
        mrrs: ch.and_then(|c| c.pcie_mrrs).unwrap_or(m.default_mrrs),
    }
}

/// Usable one-direction bandwidth of a link on a host, Gbit/s, for what it carries: the
/// DMA model of `pcie_dma` (catalog/physics.yaml).
pub(crate) fn usable_gbps(cx: &CheckInput, h: &Host, l: Lanes, u: Use) -> Result<f64, String> {
    let g = cx
        .db
        .pcie
        .get(&l.generation.to_string())
        .ok_or_else(|| format!("PCIe generation {} is not in the catalog", l.generation))?;
    let (m, p) = (cx.pcie_dma, platform(cx, h));
    // A NIC moves the host's MTU-sized packets with their Ethernet header.
    let packet = Unit::Packet(h.mtu.value + m.nic.frame_header_bytes as u32);
    let one = |dir, unit| dma_gbps(m, g, l, p, dir, unit);
    match u {
        Use::NicSend => one(Dir::Read, packet),
        Use::NicReceive => one(Dir::Write, packet),
        Use::Nic => Ok(one(Dir::Read, packet)?.min(one(Dir::Write, packet)?)),
        Use::DriveRead => one(Dir::Write, Unit::Bulk),
        Use::DriveWrite => one(Dir::Read, Unit::Bulk),
        Use::Bulk => Ok(one(Dir::Read, Unit::Bulk)?.min(one(Dir::Write, Unit::Bulk)?)),
    }
}

/// `usable_gbps` remembered by everything it reads (lanes, platform, the host's MTU,
/// the use): the hosts of a large show mostly share a few chassis and NICs, so the DMA
/// model is worked out once per combination.
#[derive(Default)]
pub(crate) struct Usable(FxMap<UsableKey, Result<f64, String>>);

/// (generation, width, MPS, MRRS, host MTU, use): what `usable_gbps` reads.
type UsableKey = (u8, u8, u32, u32, u32, u8);

impl Usable {
    pub(crate) fn gbps(
        &mut self,
        cx: &CheckInput,
        h: &Host,
        l: Lanes,
        u: Use,
    ) -> Result<f64, String> {
        let p = platform(cx, h);
        let k = (l.generation, l.width, p.mps, p.mrrs, h.mtu.value, u as u8);
        self.0
            .entry(k)
            .or_insert_with(|| usable_gbps(cx, h, l, u))
            .clone()
    }
}

/// A card negotiates the lower generation and the narrower width of card and slot.
pub(crate) fn negotiate(card: Lanes, slot: Lanes) -> Lanes {
    Lanes {
        generation: card.generation.min(slot.generation),
        width: card.width.min(slot.width),
    }
}

/// Where something attaches: its socket and the PCIe switches between it and the socket
/// (nearest first).
#[derive(Clone, Debug, Default)]
pub(crate) struct Attach {
    pub(crate) socket: Option<u8>,
    pub(crate) switches: Vec<String>,
}

/// Follows `via` up to a socket. Cycles and dangling names end the walk.
pub(crate) fn attach(ch: &ChassisModel, socket: Option<u8>, via: Option<&String>) -> Attach {
    let mut a = Attach {
        socket,
        switches: Vec::new(),
    };
    let mut next = via.cloned();
    while let Some(name) = next.take() {
        if a.switches.contains(&name) || a.switches.len() > 8 {
            break;
        }
        let Some((_, sw)) = ch
            .switches
            .iter()
            .flat_map(|s| s.iter())
            .find(|(k, _)| k.value == name)
        else {
            break;
        };
        a.switches.push(name);
        a.socket = sw.socket.or(a.socket);
        next = sw.via.clone();
    }
    a
}

/// Uplink of a chassis PCIe switch.
pub(crate) fn uplink(ch: &ChassisModel, name: &str) -> Option<Lanes> {
    ch.switches
        .iter()
        .flat_map(|s| s.iter())
        .find(|(k, _)| k.value == name)
        .map(|(_, s)| Lanes::from(&s.uplink))
}

/// What to call a chassis switch in messages: the chipset or a PCIe switch.
pub(crate) fn hub_word(ch: &ChassisModel, name: &str) -> &'static str {
    let pch = ch
        .switches
        .iter()
        .flat_map(|s| s.iter())
        .any(|(k, s)| k.value == name && s.pch == Some(true));
    if pch { "chipset (PCH)" } else { "PCIe switch" }
}

/// Slot of a chassis by name.
pub(crate) fn slot<'a>(
    ch: &'a ChassisModel,
    name: &str,
) -> Option<&'a crate::spec::catalog_file::ChassisSlot> {
    ch.slots
        .iter()
        .find(|(k, _)| k.value == name)
        .map(|(_, s)| s)
}

/// A NIC's negotiated link and attachment.
pub(crate) fn nic_link(cx: &CheckInput, h: &Host, nic: usize) -> Option<(Lanes, Attach)> {
    let ch = cx.db.chassis.get(&h.chassis)?;
    let n = &h.nics[nic];
    let model = cx.db.nics.get(&n.model)?;
    let s = slot(ch, &n.slot)?;
    let lanes = negotiate(
        Lanes::from(&model.pcie),
        Lanes {
            generation: s.generation,
            width: s.width,
        },
    );
    // A slot the spec says trains lower (BIOS, riser) caps what card and slot agree on.
    let lanes = Lanes {
        generation: n
            .trained
            .0
            .map_or(lanes.generation, |g| g.min(lanes.generation)),
        width: n.trained.1.map_or(lanes.width, |w| w.min(lanes.width)),
    };
    Some((lanes, attach(ch, s.socket, s.via.as_ref())))
}

/// Lanes wired to each socket against the CPU's lanes; cards in unpopulated sockets.
fn sockets(cx: &CheckInput, h: &Host, diags: &mut Diags) {
    let (Some(ch), Some(cpu)) = (cx.db.chassis.get(&h.chassis), cx.db.cpus.get(&h.cpu)) else {
        return;
    };
    let mut lanes = vec![0u32; usize::from(ch.sockets)];
    for (_, s) in ch.slots.iter() {
        if let (Some(sock), None) = (s.socket, &s.via) {
            if let Some(l) = lanes.get_mut(usize::from(sock)) {
                *l += u32::from(s.width);
            }
        }
    }
    // A chipset's DMI uplink is not one of the CPU's PCIe lanes.
    for (_, sw) in ch.switches.iter().flat_map(|s| s.iter()) {
        if sw.pch == Some(true) {
            continue;
        }
        if let (Some(sock), None) = (sw.socket, &sw.via) {
            if let Some(l) = lanes.get_mut(usize::from(sock)) {
                *l += u32::from(sw.uplink.width.value);
            }
        }
    }
    for (sock, &used) in lanes.iter().enumerate().take(usize::from(h.sockets)) {
        if used > cpu.pcie_lanes {
            diags.push(
                Diagnostic::new(
                    codes::PCIE_LANES,
                    h.cpu.span,
                    format!(
                        "`{}` wires {used} PCIe lanes to socket {sock}, but `{}` has {}",
                        h.chassis.value, h.cpu.value, cpu.pcie_lanes
                    ),
                )
                .label("too few lanes")
                .also(h.chassis.span, "chassis")
                .help("pick a CPU with more lanes or a chassis built for this CPU"),
            );
        }
    }
    for n in &h.nics {
        if let Some(s) = slot(ch, &n.slot) {
            let a = attach(ch, s.socket, s.via.as_ref());
            if a.socket.is_some_and(|s| s >= h.sockets) {
                diags.push(
                    Diagnostic::new(
                        codes::PCIE_LANES,
                        n.slot.span,
                        format!(
                            "slot `{}` hangs off socket {}, which is not populated",
                            n.slot.value,
                            a.socket.unwrap_or(0)
                        ),
                    )
                    .label("dead slot")
                    .help(format!(
                        "populate socket {} or move the card to a slot of socket 0",
                        a.socket.unwrap_or(0)
                    )),
                );
            }
        }
    }
}

/// What a NIC's cabled ports run at together, Gbit/s.
fn cabled_gbps(h: &Host, nic: usize) -> f64 {
    h.nics[nic]
        .ports
        .iter()
        .filter(|&&p| h.ports[p].link.is_some())
        .map(|&p| h.ports[p].speed.gbps())
        .sum()
}

/// A NIC whose ports carry more than its PCIe link passes.
fn nic_line_rate(cx: &CheckInput, h: &Host, usable: &mut Usable, diags: &mut Diags) {
    for (i, n) in h.nics.iter().enumerate() {
        let Some((lanes, _)) = nic_link(cx, h, i) else {
            continue;
        };
        // A NIC both sends and receives: the lower of its two directions bounds it.
        let Ok(usable) = usable.gbps(cx, h, lanes, Use::Nic) else {
            continue;
        };
        let ports = cabled_gbps(h, i);
        if ports > usable {
            let help = match slots_that_fit(cx, h, i, ports, usable) {
                Some((fit, _)) if !fit.is_empty() => format!(
                    "move the card to free slot {}, where its ports' rate fits, or expect at most the usable rate",
                    fit.join(" or ")
                ),
                Some((_, better)) if !better.is_empty() => format!(
                    "no free slot fits its ports' rate; free slot {} passes more than this one, or expect at most the usable rate",
                    better.join(" or ")
                ),
                _ => "no free slot of the chassis passes more: expect at most the usable rate, or use a chassis with a wider or newer slot".to_owned(),
            };
            diags.push(
                Diagnostic::new(codes::PCIE_BANDWIDTH, n.slot.span, format!("{} slot {}: {lanes} gives {usable:.1} Gbit/s usable, the NIC's cabled ports run at {ports:.0} Gbit/s", h.shown(), n.slot.value))
                    .label(format!("{lanes} after negotiation"))
                    .also(n.model.span, "this NIC")
                    .help(help),
            );
        }
    }
}

/// The chassis' free slots (no NIC or NVMe card in them) where NIC `nic` would pass its
/// cabled ports' rate, each as `` `name` (PCIe G.0 xW) `` (the card's own link there),
/// and the free slots that pass more than `now` without fitting. None without the
/// chassis or NIC in the catalog.
fn slots_that_fit(
    cx: &CheckInput,
    h: &Host,
    nic: usize,
    ports: f64,
    now: f64,
) -> Option<(Vec<String>, Vec<String>)> {
    let ch = cx.db.chassis.get(&h.chassis)?;
    let card = Lanes::from(&cx.db.nics.get(&h.nics[nic].model)?.pcie);
    let taken = |name: &str| {
        h.nics.iter().any(|n| n.slot.value == name)
            || h.nvme
                .iter()
                .any(|g| g.slot.as_ref().is_some_and(|s| s.value == name))
    };
    let mut usable = Usable::default();
    let mut fit = Vec::new();
    let mut better = Vec::new();
    for (name, s) in ch.slots.iter() {
        if taken(&name.value) {
            continue;
        }
        let slot = Lanes {
            generation: s.generation,
            width: s.width,
        };
        let Ok(gbps) = usable.gbps(cx, h, negotiate(card, slot), Use::Nic) else {
            continue;
        };
        let text = format!("`{}` ({slot})", name.value);
        if gbps >= ports {
            fit.push(text);
        } else if gbps > now {
            better.push(text);
        }
    }
    Some((fit, better))
}

/// Sum of downstream demand (NIC ports, NVMe reads) behind each PCIe switch vs its uplink.
fn switch_uplinks(cx: &CheckInput, h: &Host, usable: &mut Usable, diags: &mut Diags) {
    let Some(ch) = cx.db.chassis.get(&h.chassis) else {
        return;
    };
    let mut demand: std::collections::BTreeMap<String, (f64, Vec<Span>)> = Default::default();
    for (i, n) in h.nics.iter().enumerate() {
        let Some((lanes, a)) = nic_link(cx, h, i) else {
            continue;
        };
        let ports = cabled_gbps(h, i);
        let d = ports.min(usable.gbps(cx, h, lanes, Use::Nic).unwrap_or(ports));
        for sw in a.switches {
            let e = demand.entry(sw).or_default();
            e.0 += d;
            e.1.push(n.slot.span);
        }
    }
    for g in &h.nvme {
        let (Some(drive), Some(a)) = (
            cx.db.drives.get(&g.model),
            super::storage::group_attach(ch, g),
        ) else {
            continue;
        };
        let d = drive.read_gbyte_s * 8.0 * f64::from(g.count);
        for sw in a.switches {
            let e = demand.entry(sw).or_default();
            e.0 += d;
            e.1.push(g.span);
        }
    }
    for (sw, (d, spans)) in demand {
        let Some(up) = uplink(ch, &sw) else { continue };
        // NICs and drives behind one switch mix directions: the lower bulk figure.
        let Ok(usable) = usable.gbps(cx, h, up, Use::Bulk) else {
            continue;
        };
        if d > usable * 1.0001 {
            let mut diag = Diagnostic::new(codes::PCIE_BANDWIDTH, h.chassis.span, format!("{}: devices behind {} `{sw}` can move {d:.0} Gbit/s, its {up} uplink passes {usable:.1}", h.shown(), hub_word(ch, &sw)))
                .label(format!("{:.1}x oversubscribed", d / usable))
                .help("spread cards and drives over switches and sockets, or accept the uplink as the ceiling")
                .severity(crate::diag::Severity::Warning);
            for s in spans.into_iter().take(4) {
                diag = diag.also(s, "behind this switch");
            }
            diags.push(diag);
        }
    }
}

pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let mut usable = Usable::default();
    for h in &cx.m.hosts {
        sockets(cx, h, diags);
        nic_line_rate(cx, h, &mut usable, diags);
        switch_uplinks(cx, h, &mut usable, diags);
    }
}
