//! What the planner asked `democ init` for, each value found in the catalog or refused
//! at its place (E0013) with the entries that would do.

use crate::catalog::Catalog;
use crate::catalog::{lookup, titles};
use crate::spec::catalog_file::{ChassisModel, CpuModel, NicModel, SwitchModel};
use crate::spec::units::Rate;

use super::said::Said;

/// What carries the WAN to each remote site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum WanKind {
    /// Unlit fiber with pluggable optics at both ends (400ZR and the like).
    DarkFiber,
    /// A wavelength: the switch ports' clients mapped into OTN by a transponder.
    Otn,
    /// A provisioned circuit with a capacity, a VLAN and an RTT.
    Circuit,
}

impl WanKind {
    pub(super) fn keyword(self) -> &'static str {
        match self {
            WanKind::DarkFiber => "dark-fiber",
            WanKind::Otn => "otn",
            WanKind::Circuit => "circuit",
        }
    }

    /// What the spec's comments call it.
    pub(super) fn words(self) -> &'static str {
        match self {
            WanKind::DarkFiber => "dark fiber",
            WanKind::Otn => "wave (OTN)",
            WanKind::Circuit => "provisioned circuit",
        }
    }

    pub(super) fn parse(text: &str) -> Option<WanKind> {
        [WanKind::DarkFiber, WanKind::Otn, WanKind::Circuit]
            .into_iter()
            .find(|k| k.keyword() == text)
    }
}

/// One site and the switch model it stands on.
pub(super) struct Site<'d> {
    pub(super) name: String,
    pub(super) remote: bool,
    pub(super) model: &'d str,
    pub(super) switch: &'d SwitchModel,
}

pub(super) struct Choices<'d> {
    pub(super) name: String,
    /// Booths first, then remote sites.
    pub(super) sites: Vec<Site<'d>>,
    pub(super) dtns: u32,
    pub(super) chassis: (&'d str, &'d ChassisModel),
    pub(super) nic: (&'d str, &'d NicModel),
    /// The CPU, and whether democ chose it (the spec says so).
    pub(super) cpu: (&'d str, &'d CpuModel, bool),
    pub(super) wan: WanKind,
    pub(super) wan_km: f64,
    pub(super) rate: Option<Rate>,
}

/// An entry of one catalog table, or E0013 at `--flag` naming the entries that match
/// what was written (a part number, a vendor's spelling) or else every entry.
pub(super) fn entry<'d, T: crate::yaml::decode::Decode>(
    said: &mut Said,
    flag: &str,
    written: &str,
    what: &str,
    table: &'d crate::catalog::Table<T>,
    title: impl Fn(&T) -> &str,
) -> Option<(&'d str, &'d T)> {
    if let Some((key, v)) = table.sorted().into_iter().find(|(k, _)| *k == written) {
        return Some((key, v));
    }
    let rows = titles(table, title);
    // A part number or vendor spelling that names one entry (`DCS-7060DX5-64S`) is that
    // entry: the spec is written with its catalog name.
    if let [one] = lookup::matches(&rows, written).as_slice()
        && let Some(found) = table.sorted().into_iter().find(|(k, _)| k == one)
    {
        return Some(found);
    }
    let help = lookup::hint(&rows, written).unwrap_or_else(|| {
        let names: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
        match crate::diag::did_you_mean(written, names.iter().copied()) {
            Some(c) => format!("did you mean `{c}`? `democ catalog {c}` shows it"),
            None => format!(
                "the catalog's {what}s: {} (`democ catalog` lists them with their titles)",
                names.join(", ")
            ),
        }
    });
    said.refuse(
        flag,
        written,
        format!("no {what} `{written}` in the catalog"),
        help,
    );
    None
}

/// A site, switch or show name as the spec takes it, or E0013.
pub(super) fn name(said: &mut Said, flag: &str, written: &str) -> Option<String> {
    match crate::spec::name::name_problem(written, false) {
        None => Some(written.to_owned()),
        Some(why) => {
            said.refuse(
                flag,
                written,
                format!("`{written}` cannot name a site or a show: {why}"),
                "names use letters, digits, `-`, `_` and `.` (`booth-a`, `caltech`)".to_owned(),
            );
            None
        }
    }
}

/// The catalog CPU for a chassis when none is named: of the CPU family the chassis'
/// title names (EPYC, Xeon) where one does, of its newest PCIe generation, the fastest
/// per TCP stream. A guess the spec marks as one.
pub(super) fn cpu_for<'d>(
    db: &'d Catalog,
    chassis: &ChassisModel,
) -> Option<(&'d str, &'d CpuModel)> {
    let top_gen = chassis.slots.iter().map(|(_, s)| s.generation).max()?;
    let title = chassis.title.to_ascii_lowercase();
    let family = |k: &str| k.split('-').next().is_some_and(|f| title.contains(f));
    let cpus = db.cpus.sorted();
    let best = |pick: &dyn Fn(&str, &CpuModel) -> bool| {
        cpus.iter()
            .filter(|(k, c)| pick(k, c))
            .max_by(|a, b| a.1.tcp_stream_gbps.total_cmp(&b.1.tcp_stream_gbps))
            .map(|(k, c)| (*k, *c))
    };
    best(&|k, c| family(k) && c.pcie_gen == top_gen)
        .or_else(|| best(&|_, c| c.pcie_gen == top_gen))
        .or_else(|| best(&|_, c| c.pcie_gen <= top_gen))
}
