//! RAID arrays behind controller cards: what each reads and writes sequentially, the
//! least of its members' share for the level (catalog/raid.yaml cites the arithmetic),
//! its controller's own figure and the PCIe slot the controller sits in.

use super::CheckInput;
use super::pcie::{Lanes, Use, attach, negotiate, slot, usable_gbps};
use super::storage::Io;
use crate::resolve::model::{Host, RaidArray};
use crate::spec::host::RaidLevel;

/// Members whose rate a sequential read and a full-stripe write add up, of `n`.
pub(crate) fn data_members(level: RaidLevel, n: u32) -> (f64, f64) {
    let n = f64::from(n);
    match level {
        RaidLevel::Raid0 => (n, n),
        // A mirror reads from every member and writes every block to each copy.
        RaidLevel::Raid1 => (n, 1.0),
        RaidLevel::Raid10 => (n, n / 2.0),
        RaidLevel::Raid5 => (n - 1.0, n - 1.0),
        RaidLevel::Raid6 => (n - 2.0, n - 2.0),
    }
}

/// A bound and its words.
type Bound = (f64, String);

/// One array's read and write bound, Gbit/s, each with its words.
fn array(cx: &CheckInput, h: &Host, a: &RaidArray) -> Option<(Bound, Bound, Option<u8>)> {
    let d = cx.db.disks.get(&a.disks)?;
    let c = cx.db.raid_controllers.get(&a.controller)?;
    let ch = cx.db.chassis.get(&h.chassis)?;
    let s = slot(ch, &a.slot)?;
    let socket = attach(ch, s.socket, s.via.as_ref()).socket;
    let lanes = negotiate(
        Lanes::from(&c.pcie),
        Lanes {
            generation: s.generation,
            width: s.width,
        },
    );
    let link = d.interface.link_mbyte_s();
    let (reads, writes) = data_members(a.level, a.count);
    let level = a.level.as_str();
    let name = &h.name.value;
    let bound = |per_mbyte: f64, members: f64, ctrl_gbyte: f64, u: Use, verb: &str| {
        let per = per_mbyte.min(link);
        let disks = members * per * 8.0 / 1000.0;
        let ctrl = ctrl_gbyte * 8.0;
        let pcie = usable_gbps(cx, h, lanes, u).unwrap_or(f64::INFINITY);
        let held = if per < per_mbyte {
            format!(
                " (held to the {} link's {link:.0} MB/s)",
                d.interface.as_str()
            )
        } else {
            String::new()
        };
        let rate = disks.min(ctrl).min(pcie);
        let why = if rate == disks {
            format!(
                "`{name}` {level} of {} x `{}` {verb} {members} member(s) x {per:.0} MB/s{held} = {disks:.1} Gbit/s",
                a.count, a.disks.value
            )
        } else if rate == ctrl {
            format!(
                "`{name}` controller `{}` {verb} at most {ctrl_gbyte} GB/s = {ctrl:.1} Gbit/s (its {level} members would give {disks:.1})",
                a.controller.value
            )
        } else {
            format!(
                "`{name}` slot {}: the controller's {lanes} gives {pcie:.1} Gbit/s usable",
                a.slot.value
            )
        };
        (rate, why)
    };
    Some((
        bound(
            d.read_mbyte_s,
            reads,
            c.read_gbyte_s,
            Use::DriveRead,
            "reads",
        ),
        bound(
            d.write_mbyte_s,
            writes,
            c.write_gbyte_s,
            Use::DriveWrite,
            "writes",
        ),
        socket,
    ))
}

/// The host's arrays together: what a flow with `source: raid` reads and a `sink: raid`
/// writes.
pub(crate) fn raid_io(cx: &CheckInput, h: &Host) -> Io {
    let mut io = Io::default();
    let mut why = (Vec::new(), Vec::new());
    for a in &h.raid {
        let Some(((r, rw), (w, ww), socket)) = array(cx, h, a) else {
            continue;
        };
        io.read_gbps += r;
        io.write_gbps += w;
        why.0.push(rw);
        why.1.push(ww);
        io.drives += a.count;
        if let Some(s) = socket.filter(|s| !io.sockets.contains(s)) {
            io.sockets.push(s);
        }
    }
    io.read_why = why.0.join("; ");
    io.write_why = why.1.join("; ");
    io
}

/// A flow that reads or writes `raid` on a host with no array, or `nvme` on a host whose
/// only store is its arrays (E0273).
pub(crate) fn check(cx: &CheckInput, diags: &mut crate::diag::Diags) {
    use crate::diag::{Diagnostic, codes};
    use crate::spec::flow::Store;
    let m = cx.m;
    for f in &m.flows {
        let ends = [(f.source, true), (f.sink, false)];
        for (store, sender) in ends {
            let wrong = f
                .pairs
                .iter()
                .map(|&(s, d)| if sender { s } else { d })
                .find(|&h| {
                    let h = &m.hosts[h];
                    match store {
                        Store::Raid => h.raid.is_empty(),
                        Store::Nvme => h.nvme.is_empty() && !h.raid.is_empty(),
                        Store::Memory => false,
                    }
                });
            let Some(h) = wrong else { continue };
            let h = &m.hosts[h];
            let (what, help) = if store == Store::Raid {
                (
                    "no RAID array",
                    "declare the host's arrays under `raid:`, or read from `memory` or `nvme`",
                )
            } else {
                (
                    "RAID arrays but no NVMe drives",
                    "its store is its arrays: write `raid` instead of `nvme`",
                )
            };
            let mut d = Diagnostic::new(
                codes::RAID_ARRAY,
                f.span,
                format!(
                    "flow `{}` {} `{}` on `{}`, which has {what}",
                    f.name.value,
                    if sender { "reads" } else { "writes" },
                    store.as_str(),
                    h.name.value
                ),
            )
            .label(if sender { "source" } else { "sink" })
            .help(help);
            if let Some(a) = h.raid.first() {
                d = d.also(a.span, "the host's arrays");
            }
            diags.push(d);
        }
    }
}
