//! `raid:` on a host: each array's controller and members looked up in the catalog, its
//! slot on the chassis, and whether the array can be built (E0273).

use super::Rx;
use super::model::{Host, RaidArray};
use crate::catalog::titles;
use crate::diag::{Diagnostic, codes, suggest};
use crate::spec::catalog_file::ChassisModel;
use crate::spec::host::RaidLevel;

/// The fewest members a level is built from, and whether it needs an even count.
pub(crate) fn minimum(level: RaidLevel) -> (u32, bool) {
    match level {
        RaidLevel::Raid0 | RaidLevel::Raid1 => (2, false),
        RaidLevel::Raid5 => (3, false),
        RaidLevel::Raid6 => (4, false),
        RaidLevel::Raid10 => (4, true),
    }
}

pub(super) fn arrays(
    rx: &mut Rx,
    h: &crate::spec::host::Host,
    ch: Option<&ChassisModel>,
    host: &mut Host,
) {
    let Some(list) = &h.raid else { return };
    if let (Some(first), Some(nvme)) = (list.first(), h.nvme.as_ref().and_then(|n| n.first())) {
        rx.diags.push(
            Diagnostic::new(
                codes::RAID_ARRAY,
                first.span,
                format!("`{}` has both NVMe drives and RAID arrays", h_name(host)),
            )
            .label("a RAID array")
            .also(nvme.span, "NVMe drives")
            .help("democ models one local store per host (a flow's `nvme` or `raid`): declare the NVMe drives or the arrays, or split them over two hosts"),
        );
    }
    for a in list {
        let controller = rx.db.raid_controllers.get(&a.controller);
        if controller.is_none() {
            let t = titles(&rx.db.raid_controllers, |x| &x.title);
            rx.unknown_model(a.controller.span, "RAID controller", &a.controller, &t);
        }
        if rx.db.disks.get(&a.disks).is_none() {
            let t = titles(&rx.db.disks, |x| &x.title);
            rx.unknown_model(a.disks.span, "disk", &a.disks, &t);
        }
        if let Some(ch) = ch {
            if !ch.slots.iter().any(|(k, _)| k.value == a.slot.value) {
                rx.diags.push(
                    Diagnostic::new(
                        codes::UNKNOWN_REF,
                        a.slot.span,
                        format!(
                            "chassis `{}` has no slot `{}`",
                            h.chassis.value, a.slot.value
                        ),
                    )
                    .label("no such slot")
                    .help(suggest(
                        &a.slot,
                        super::hosts::slot_names(ch).iter().copied(),
                    )),
                );
            }
        }
        let (level, n) = (a.level.value, a.count.value);
        let (least, even) = minimum(level);
        if n < least || (even && n % 2 == 1) {
            rx.diags.push(
                Diagnostic::new(
                    codes::RAID_ARRAY,
                    a.count.span,
                    format!("{} cannot be built from {n} drive(s)", level.as_str()),
                )
                .label(format!(
                    "{} needs {}{least} or more",
                    level.as_str(),
                    if even { "an even " } else { "" }
                ))
                .also(a.level.span, "the level")
                .help("add members, or pick a level the drives can build"),
            );
        }
        if let Some(c) = controller {
            if n > c.drives {
                rx.diags.push(
                    Diagnostic::new(
                        codes::RAID_ARRAY,
                        a.count.span,
                        format!("`{}` attaches {} drives, not {n}", a.controller.value, c.drives),
                    )
                    .label("more members than the controller attaches")
                    .help("split the drives over two controllers (two arrays), or pick a controller with more ports"),
                );
            }
            if !c.levels.iter().any(|l| l == level.as_str()) {
                rx.diags.push(
                    Diagnostic::new(
                        codes::RAID_ARRAY,
                        a.level.span,
                        format!("`{}` does not build {}", a.controller.value, level.as_str()),
                    )
                    .label("not one of its levels")
                    .help(format!("it builds {}", c.levels.join(", "))),
                );
            }
        }
        host.raid.push(RaidArray {
            controller: a.controller.clone(),
            slot: a.slot.clone(),
            level,
            disks: a.disks.clone(),
            count: n,
            span: a.span,
        });
    }
}

fn h_name(h: &Host) -> &str {
    &h.name.value
}
