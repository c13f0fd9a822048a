//! NVMe storage: what each host's drives can read and write, bounded by the PCIe path
//! they sit behind, against the disk-to-disk flows that use them.

use std::collections::BTreeMap;

use crate::resolve::model::{Host, NvmeGroup};
use crate::spec::catalog_file::ChassisModel;

use super::CheckInput;
use super::pcie::{Attach, Lanes, Use, attach, negotiate, slot, uplink, usable_gbps};

/// Where a drive group attaches.
pub(crate) fn group_attach(ch: &ChassisModel, g: &NvmeGroup) -> Option<Attach> {
    if let Some(s) = &g.slot {
        let s = slot(ch, s)?;
        return Some(attach(ch, s.socket, s.via.as_ref()));
    }
    let b = g.behind.as_ref()?;
    if let Some((_, bays)) = ch
        .bays
        .iter()
        .flat_map(|x| x.iter())
        .find(|(k, _)| k.value == b.value)
    {
        return Some(attach(ch, bays.socket, bays.via.as_ref()));
    }
    Some(attach(ch, None, Some(&b.value)))
}

/// Read and write rate of one host's drives, Gbit/s, with the reason for each bound.
#[derive(Clone, Debug, Default)]
pub(crate) struct Io {
    pub(crate) read_gbps: f64,
    pub(crate) write_gbps: f64,
    pub(crate) read_why: String,
    pub(crate) write_why: String,
    /// Sockets the drives hang off.
    pub(crate) sockets: Vec<u8>,
    pub(crate) drives: u32,
    /// Per-drive figures of the first group, Gbit/s.
    pub(crate) per_drive_read: f64,
    pub(crate) per_drive_write: f64,
}

/// Aggregate drive bandwidth of a host: per group count x per-drive figure, each drive
/// bounded by its own link, the group bounded by the slot or the switch uplink(s) it
/// shares. Groups behind the same switch share that switch's uplink.
pub(crate) fn host_io(cx: &CheckInput, h: &Host) -> Io {
    let mut io = Io::default();
    let Some(ch) = cx.db.chassis.get(&h.chassis) else {
        return io;
    };
    // Per shared bottleneck (a switch, or a slot), the raw demand and its usable bound.
    type Bound = (f64, f64, (f64, f64), (String, String));
    let mut shared: BTreeMap<String, Bound> = BTreeMap::new();
    for g in &h.nvme {
        let Some(d) = cx.db.drives.get(&g.model) else {
            continue;
        };
        let Some(a) = group_attach(ch, g) else {
            continue;
        };
        let mut lanes = Lanes::from(&d.pcie);
        // A group of several drives in one slot is a carrier card: each drive keeps its
        // own link (at the slot's generation), the group shares the slot's full width.
        let mut slot_lanes = None;
        if let Some(s) = g.slot.as_ref().and_then(|s| slot(ch, s)) {
            let sl = Lanes {
                generation: s.generation,
                width: s.width,
            };
            lanes = if g.count > 1 {
                Lanes {
                    generation: lanes.generation.min(sl.generation),
                    width: lanes.width,
                }
            } else {
                negotiate(lanes, sl)
            };
            slot_lanes = Some(Lanes {
                generation: d.pcie.generation.value.min(sl.generation),
                width: sl.width,
            });
        }
        if let Some(b) = g.behind.as_ref().and_then(|b| {
            ch.bays
                .iter()
                .flat_map(|x| x.iter())
                .find(|(k, _)| k.value == b.value)
        }) {
            lanes = negotiate(lanes, Lanes::from(&b.1.link));
        }
        // A drive being read writes host memory (MWr); being written, it reads it
        // (MRd + CplD): each direction has its own DMA cost.
        let link = |u| usable_gbps(cx, h, lanes, u).unwrap_or(f64::INFINITY);
        let per_read = (d.read_gbyte_s * 8.0).min(link(Use::DriveRead));
        let per_write = (d.write_gbyte_s * 8.0).min(link(Use::DriveWrite));
        if io.drives == 0 {
            io.per_drive_read = per_read;
            io.per_drive_write = per_write;
        }
        io.drives += g.count;
        let n = f64::from(g.count);
        // The shared link's bound reading and writing, and the words for each.
        let both = |l: Option<Lanes>| {
            let g = |u| {
                l.and_then(|l| usable_gbps(cx, h, l, u).ok())
                    .unwrap_or(f64::INFINITY)
            };
            (g(Use::DriveRead), g(Use::DriveWrite))
        };
        let (key, bound, why) = match (a.switches.first(), &g.slot) {
            (Some(sw), _) => {
                let up = uplink(ch, sw);
                let bound = both(up);
                let why = |b: f64| {
                    up.map_or(String::new(), |u| {
                        format!(
                            "`{}` drives behind `{sw}` share its {u} uplink ({b:.1} Gbit/s)",
                            h.name.value
                        )
                    })
                };
                (sw.clone(), bound, (why(bound.0), why(bound.1)))
            }
            (None, Some(s)) => {
                let sl = slot_lanes.unwrap_or(lanes);
                let bound = both(Some(sl));
                let why = |b: f64| {
                    format!(
                        "`{}` slot {}: {sl} gives {b:.1} Gbit/s usable",
                        h.name.value, s.value
                    )
                };
                (
                    format!("slot {}", s.value),
                    bound,
                    (why(bound.0), why(bound.1)),
                )
            }
            (None, None) => (
                g.model.value.clone(),
                (f64::INFINITY, f64::INFINITY),
                (String::new(), String::new()),
            ),
        };
        let e = shared.entry(key).or_insert((0.0, 0.0, bound, why));
        e.0 += per_read * n;
        e.1 += per_write * n;
        if let Some(s) = a.socket {
            if !io.sockets.contains(&s) {
                io.sockets.push(s);
            }
        }
    }
    let mut read_raw = 0.0;
    let mut write_raw = 0.0;
    for (_, (r, w, (read_bound, write_bound), (read_why, write_why))) in shared {
        read_raw += r;
        write_raw += w;
        if r > read_bound {
            io.read_why = read_why;
        }
        if w > write_bound {
            io.write_why = write_why;
        }
        io.read_gbps += r.min(read_bound);
        io.write_gbps += w.min(write_bound);
    }
    if io.read_why.is_empty() {
        io.read_why = format!(
            "`{}`: {} drive(s) read {read_raw:.1} Gbit/s",
            h.name.value, io.drives
        );
    }
    if io.write_why.is_empty() {
        io.write_why = format!(
            "`{}`: {} drive(s) write {write_raw:.1} Gbit/s",
            h.name.value, io.drives
        );
    }
    io
}
