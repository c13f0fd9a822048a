//! Hosts (DTNs): chassis, CPU, NICs in slots, NVMe drives; host ranges expand here.

use crate::catalog::titles;
use crate::fxhash::FxMap as HashMap;

use super::Rx;
use super::model::{Host, Model, Nic, NodeId, NvmeGroup, Port};
use super::switches::claim;
use crate::diag::{Diagnostic, codes, suggest};
use crate::source::Span;
use crate::spec::Spec;
use crate::spec::catalog_file::ChassisModel;
use crate::spec::name::{MAX_HOSTS, parse_pattern};
use crate::yaml::decode::Located;

pub(super) fn slot_names(ch: &ChassisModel) -> Vec<&str> {
    ch.slots.iter().map(|(k, _)| k.as_str()).collect()
}

fn behind_names(ch: &ChassisModel) -> Vec<&str> {
    let sw = ch
        .switches
        .iter()
        .flat_map(|s| s.iter().map(|(k, _)| k.as_str()));
    let bays = ch
        .bays
        .iter()
        .flat_map(|b| b.iter().map(|(k, _)| k.as_str()));
    sw.chain(bays).collect()
}

fn nics(rx: &mut Rx, h: &crate::spec::host::Host, ch: Option<&ChassisModel>, host: &mut Host) {
    // Each port's shell variable in the host scripts, with the port that took it.
    let mut vars: HashMap<String, (&str, Span)> = HashMap::default();
    for nic in h.nics.iter().flatten() {
        let model = rx.db.nics.get(&nic.model);
        if model.is_none() {
            rx.unknown_model(
                nic.model.span,
                "NIC",
                &nic.model,
                &titles(&rx.db.nics, |x| &x.title),
            );
        }
        if let Some(ch) = ch {
            if !ch.slots.iter().any(|(k, _)| k.value == nic.slot.value) {
                let names = slot_names(ch);
                rx.diags.push(
                    Diagnostic::new(
                        codes::UNKNOWN_REF,
                        nic.slot.span,
                        format!(
                            "chassis `{}` has no slot `{}`",
                            h.chassis.value, nic.slot.value
                        ),
                    )
                    .label("no such slot")
                    .help(suggest(&nic.slot, names.iter().copied())),
                );
            }
        }
        let nports = model.map_or(u32::MAX, |m| m.ports) as usize;
        if nic.ports.len() > nports {
            rx.diags.push(
                Diagnostic::new(
                    codes::UNKNOWN_PORT,
                    nic.ports[nports].span,
                    format!(
                        "NIC `{}` has {nports} port(s), {} are named",
                        nic.model.value,
                        nic.ports.len()
                    ),
                )
                .label("one port too many")
                .help(format!("name at most {nports} port(s) on this card")),
            );
        }
        let speeds: std::sync::Arc<[crate::spec::units::Rate]> = model
            .map(|m| m.speeds.iter().map(|s| s.value).collect())
            .unwrap_or_default();
        // One cage name for every host port, as the switch groups share theirs.
        let nic_form: std::sync::Arc<str> = "nic".into();
        let lanes = model
            .and_then(|m| m.electrical.as_ref())
            .map(super::model::Lanes::of);
        let mut idx = Vec::with_capacity(nic.ports.len().min(nports));
        for p in nic.ports.iter().take(nports) {
            let valid = {
                let mut cx = crate::yaml::decode::DecodeContext { diags: rx.diags };
                crate::spec::name::check_name(&mut cx, p)
            };
            if !valid {
                continue;
            }
            if host.port_index.contains_key(p.as_str()) {
                rx.diags.push(
                    Diagnostic::new(
                        codes::DUPLICATE_NAME,
                        p.span,
                        format!("host {} already has a port `{}`", host.shown(), p.value),
                    )
                    .label("second port of this name")
                    .help("give every NIC port of a host its own name"),
                );
                continue;
            }
            let var = crate::spec::name::port_shell_var(p);
            if let Some(&(first, at)) = vars.get(&var) {
                rx.diags.push(
                    Diagnostic::new(
                        codes::SHELL_NAME_CLASH,
                        p.span,
                        format!(
                            "ports `{first}` and `{}` of host {} both become the shell variable `{var}`",
                            p.value,
                            host.shown()
                        ),
                    )
                    .label(format!("same variable as `{first}`"))
                    .also(at, "first here")
                    .help(format!(
                        "rename one so they differ in a letter or digit: the host scripts name each port's interface `IF_<port>`, with `-`, `.`, `/` and `:` as `_`, and `{var}` can hold only one"
                    )),
                );
            } else {
                vars.insert(var, (p.as_str(), p.span));
            }
            host.port_index.insert(p.value.clone(), host.ports.len());
            idx.push(host.ports.len());
            host.ports.push(Port {
                name: p.value.clone(),
                speed: speeds.first().copied().unwrap_or_default(),
                speeds: std::sync::Arc::clone(&speeds),
                parent: None,
                form: std::sync::Arc::clone(&nic_form),
                lanes,
                fec: None,
                mtu: None,
                description: None,
                shutdown: false,
                span: Some(p.span),
                nic: Some(host.nics.len()),
                link: None,
                address: None,
                native: None,
                lane: None,
                openflow: false,
            });
        }
        for (pname, addr) in nic.addresses.iter().flatten() {
            match host.port_index.get(pname) {
                Some(&i) if idx.contains(&i) => {
                    host.addresses.insert(i, addr.clone());
                }
                _ => rx.diags.push(
                    Diagnostic::new(
                        codes::UNKNOWN_PORT,
                        addr.span,
                        format!("this NIC has no port `{pname}`"),
                    )
                    .label("address for an unknown port")
                    .help(suggest(pname, nic.ports.iter().map(|p| p.as_str()))),
                ),
            }
        }
        let trained = nic.pcie.as_ref().map_or((None, None), |t| {
            (
                t.generation.as_ref().map(|g| g.value),
                t.width.as_ref().map(|w| w.value),
            )
        });
        host.nics.push(Nic {
            model: nic.model.clone(),
            slot: nic.slot.clone(),
            ports: idx,
            trained,
        });
    }
}

fn nvme(rx: &mut Rx, h: &crate::spec::host::Host, ch: Option<&ChassisModel>, host: &mut Host) {
    for g in h.nvme.iter().flatten() {
        if rx.db.drives.get(&g.model).is_none() {
            rx.unknown_model(
                g.model.span,
                "drive",
                &g.model,
                &titles(&rx.db.drives, |x| &x.title),
            );
        }
        let count = g.count.as_ref().map_or(1, |c| c.value);
        if count == 0 {
            let span = g.count.as_ref().map_or(g.span, |c| c.span);
            rx.diags.push(
                Diagnostic::new(
                    codes::INVALID_VALUE,
                    span,
                    "a drive group needs at least one drive",
                )
                .label("zero")
                .help("remove the group or set `count: 1` or more"),
            );
        }
        if let Some(ch) = ch {
            if let Some(slot) = &g.slot {
                if !ch.slots.iter().any(|(k, _)| k.value == slot.value) {
                    let names = slot_names(ch);
                    rx.diags.push(
                        Diagnostic::new(
                            codes::UNKNOWN_REF,
                            slot.span,
                            format!("chassis `{}` has no slot `{}`", h.chassis.value, slot.value),
                        )
                        .label("no such slot")
                        .help(suggest(slot, names.iter().copied())),
                    );
                }
            }
            if let Some(b) = &g.behind {
                let names = behind_names(ch);
                if !names.contains(&b.as_str()) {
                    rx.diags.push(
                        Diagnostic::new(
                            codes::UNKNOWN_REF,
                            b.span,
                            format!(
                                "chassis `{}` has no PCIe switch or bay group `{}`",
                                h.chassis.value, b.value
                            ),
                        )
                        .label("not on this board")
                        .help(suggest(b, names.iter().copied())),
                    );
                }
            }
            if g.slot.is_none() && g.behind.is_none() {
                rx.diags.push(
                    Diagnostic::new(codes::MISSING_FIELD, g.span, "a drive group needs `slot:` or `behind:`")
                        .label("where do these drives attach?")
                        .help("add `slot: <slot>` for add-in cards or `behind: <switch or bays>` for U.2 bays"),
                );
            }
        }
        let serials = serials(rx, g, count);
        host.nvme.push(NvmeGroup {
            model: g.model.clone(),
            count,
            slot: g.slot.clone(),
            behind: g.behind.clone(),
            serials,
            span: g.span,
        });
    }
}

/// A drive group's serials, checked: at most one per drive, and only characters udev
/// keeps in `/dev/disk/by-id` names (the target script matches them there).
fn serials(rx: &mut Rx, g: &crate::spec::host::HostNvme, count: u32) -> Vec<String> {
    let Some(list) = &g.serials else {
        return Vec::new();
    };
    if list.len() > count as usize {
        let extra = &list[count as usize];
        rx.diags.push(
            Diagnostic::new(
                codes::INVALID_VALUE,
                extra.span,
                format!("{} serials for {count} drive(s)", list.len()),
            )
            .label("one serial too many")
            .help(format!(
                "give one serial per drive of the group, at most {count}, or raise `count`"
            )),
        );
    }
    let mut out = Vec::with_capacity(list.len());
    for s in list.iter().take(count as usize) {
        let ok = !s.value.is_empty()
            && s.value.len() <= 40
            && s.value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if ok {
            out.push(s.value.clone());
        } else {
            rx.diags.push(
                Diagnostic::new(codes::INVALID_VALUE, s.span, "not a drive serial number")
                    .label("letters, digits, `-`, `_` or `.`, at most 40")
                    .help("copy the serial from `nvme list` (the SN column) or from the end of the drive's `/dev/disk/by-id/nvme-MODEL_SERIAL` name"),
            );
        }
    }
    out
}

/// A static address or a drive serial on a host range would be given to every host of
/// the range.
fn static_in_range(rx: &mut Rx, h: &crate::spec::host::Host, key: &Located<String>) {
    for s in h
        .nvme
        .iter()
        .flatten()
        .flat_map(|g| g.serials.iter().flatten())
    {
        rx.diags.push(
            Diagnostic::new(codes::INVALID_VALUE, s.span, format!("every host of the range `{}` would have a drive with this serial", key.value))
                .label("drive serial on a host range")
                .also(key.span, "a range of hosts")
                .help("declare this host on its own with its drives' serials, or leave `serials:` out (the target script then picks drives by their stable names)"),
        );
    }
    let spans = h.mgmt.iter().map(|a| a.span).chain(
        h.nics
            .iter()
            .flatten()
            .flat_map(|n| n.addresses.iter().flatten().map(|(_, a)| a.span)),
    );
    for span in spans {
        rx.diags.push(
            Diagnostic::new(codes::DUPLICATE_ADDRESS, span, format!("every host of the range `{}` would get this address", key.value))
                .label("static address on a host range")
                .also(key.span, "a range of hosts")
                .help("declare this host on its own with its address, or leave the address out so the pool assigns one per host"),
        );
    }
}

/// Resolves every host; false when the show declares more than [`MAX_HOSTS`] (reported).
pub(super) fn resolve(spec: &Spec, rx: &mut Rx, m: &mut Model) -> bool {
    let mut declared = 0usize;
    for (key, h) in &spec.hosts {
        let names = match parse_pattern(key, false) {
            Ok(p) if declared + p.count() > MAX_HOSTS => {
                rx.diags.push(
                    Diagnostic::new(
                        codes::LIMIT,
                        key.span,
                        format!(
                            "this entry brings the show to {} hosts, above the limit of {MAX_HOSTS}",
                            declared + p.count()
                        ),
                    )
                    .label("too many hosts")
                    .help(format!("a show declares at most {MAX_HOSTS} hosts, ranges expanded: shorten the range or split the show")),
                );
                return false;
            }
            Ok(p) => {
                declared += p.count();
                p.expand()
            }
            Err((msg, help)) => {
                let code = if msg.contains("above the limit") {
                    codes::LIMIT
                } else {
                    codes::BAD_NAME
                };
                let help = if help.is_empty() {
                    "use only letters, digits, `-`, `_` and `.`".into()
                } else {
                    help
                };
                rx.diags.push(
                    Diagnostic::new(code, key.span, msg)
                        .label("this host name")
                        .help(help),
                );
                continue;
            }
        };
        let site = rx.site(&h.site);
        let ch = rx.db.chassis.get(&h.chassis);
        if ch.is_none() {
            rx.unknown_model(
                h.chassis.span,
                "chassis",
                &h.chassis,
                &titles(&rx.db.chassis, |x| &x.title),
            );
        }
        if rx.db.cpus.get(&h.cpu).is_none() {
            rx.unknown_model(
                h.cpu.span,
                "CPU",
                &h.cpu,
                &titles(&rx.db.cpus, |x| &x.title),
            );
        }
        let max_sockets = ch.map_or(2, |c| c.sockets);
        let sockets = match &h.sockets {
            Some(s) if s.value == 0 || s.value > max_sockets => {
                rx.diags.push(
                    Diagnostic::new(
                        codes::CAPABILITY,
                        s.span,
                        format!("chassis `{}` has {max_sockets} socket(s)", h.chassis.value),
                    )
                    .label("impossible socket count")
                    .help(format!("use 1 to {max_sockets}")),
                );
                max_sockets
            }
            Some(s) => s.value,
            None => max_sockets,
        };
        let mtu = h.mtu.clone().unwrap_or_else(|| m.settings.host_mtu.clone());
        let count = names.len();
        let nic_count = h.nics.as_ref().map_or(0, Vec::len);
        let port_count: usize = h.nics.iter().flatten().map(|n| n.ports.len()).sum();
        for (i, name) in names.into_iter().enumerate() {
            let sp = Located::new(name, key.span);
            if !claim(rx, &sp, NodeId::Host(m.hosts.len()), "host") {
                continue;
            }
            let mut host = Host {
                name: sp,
                site: site.unwrap_or(0),
                chassis: h.chassis.clone(),
                cpu: h.cpu.clone(),
                sockets,
                memory_gb: h.memory_gb.clone(),
                kernel: h.kernel.as_ref().map(|k| k.value),
                mtu: mtu.clone(),
                mgmt: h.mgmt.as_ref().map(|a| Located::new(a.0, a.span)),
                // Sized ahead: the counts are known, and a large show has many hosts.
                nics: Vec::with_capacity(nic_count),
                nvme: Vec::with_capacity(h.nvme.as_ref().map_or(0, Vec::len)),
                raid: Vec::new(),
                ports: Vec::with_capacity(port_count),
                port_index: HashMap::default(),
                addresses: HashMap::default(),
                range: (count > 1).then(|| (key.value.clone(), count)),
            };
            // Errors in a range's shared body are reported once, for its first host.
            let mut scratch = crate::diag::Diags::default();
            if i > 0 {
                std::mem::swap(rx.diags, &mut scratch);
            }
            nics(rx, h, ch, &mut host);
            nvme(rx, h, ch, &mut host);
            super::raid::arrays(rx, h, ch, &mut host);
            // Nothing but findings, which the range's later hosts would drop.
            if i == 0 {
                one_card_per_slot(rx, h);
            }
            if i > 0 {
                std::mem::swap(rx.diags, &mut scratch);
            } else if count > 1 {
                static_in_range(rx, h, key);
            }
            if count > 1 {
                // Reported above; the range's hosts draw from the pools instead.
                host.mgmt = None;
                host.addresses.clear();
            }
            m.hosts.push(host);
        }
    }
    true
}

/// A slot holds one card: NICs and NVMe add-in cards name different slots (E0121).
fn one_card_per_slot(rx: &mut Rx, h: &crate::spec::host::Host) {
    let mut taken: Vec<(&str, Span, &'static str)> = Vec::new();
    let nics = h
        .nics
        .iter()
        .flatten()
        .map(|n| (n.slot.value.as_str(), n.slot.span, "a NIC"));
    let drives = h.nvme.iter().flatten().filter_map(|g| {
        let s = g.slot.as_ref()?;
        Some((s.value.as_str(), s.span, "an NVMe card"))
    });
    let raid = h
        .raid
        .iter()
        .flatten()
        .map(|r| (r.slot.value.as_str(), r.slot.span, "a RAID controller"));
    for (slot, span, what) in nics.chain(drives).chain(raid) {
        match taken.iter().find(|(s, ..)| *s == slot) {
            Some(&(_, first, first_what)) => rx.diags.push(
                Diagnostic::new(
                    codes::SLOT_TAKEN,
                    span,
                    format!(
                        "slot `{slot}` holds two cards: {first_what} and {}",
                        if what == first_what {
                            what.replacen("an ", "another ", 1).replacen("a ", "another ", 1)
                        } else {
                            what.to_owned()
                        }
                    ),
                )
                .label(format!("{what} in slot `{slot}`"))
                .also(first, format!("{first_what} already sits in slot `{slot}`"))
                .help("a slot holds one card (a carrier of several drives is one `nvme:` entry with a `count`): move one to a free slot; `democ catalog` lists the chassis' slots"),
            ),
            None => taken.push((slot, span, what)),
        }
    }
}
