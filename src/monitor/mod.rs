//! `monitoring/`: what watches the show during the show week, with its thresholds taken
//! from the plan. Prometheus rules (`alerts.rules.yml`) compare each watched link
//! direction with its planned load, each flow with its prediction and each optic with
//! its receive floor; gnmic subscribes to the switches whose config enables gNMI
//! (`gnmic.yaml`); Prometheus scrapes gnmic and, through snmp_exporter, the switches
//! that have only SNMP (`prometheus.yml`, `snmp-auth.yml`). What cannot be watched is
//! listed at the head of the rules, with why.

mod collectors;
pub(crate) mod error;
mod promql;
mod rules;
mod watch;

use std::collections::BTreeMap;

use crate::check::predict::Plan;
use crate::derive::ShowModel;
use crate::ir::Lab;
use crate::write::OutFile;
use error::{MonitorError, Unwatched};
use rules::{Group, RuleFile};
use watch::{Collector, Point, Watched, host_sends};

pub(crate) use rules::TOLERANCE;

/// Comment text that cannot end its line.
fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Every file under `monitoring/`.
pub(crate) fn files(
    front: &ShowModel,
    plan: &Plan,
    lab: &Lab,
) -> Result<Vec<OutFile>, MonitorError> {
    let m = &front.model;
    let watched = Watched::new(lab);
    let mut notes: Vec<String> = Vec::new();
    let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut switches = Vec::new();
    for s in &lab.switches {
        let how = watched.by_name.get(s.hostname.as_str()).and_then(|w| w.1);
        let key = match how {
            Some(Collector::Gnmi) => "watched by gNMI (gnmic.yaml)",
            Some(Collector::Snmp) => "watched by SNMP (snmp_exporter, IF-MIB)",
            None if s.external => "not monitored: owned by others (`external: true`)",
            None => "not monitored: no gNMI democ enables and no SNMP community (`show.services`)",
        };
        by.entry(key).or_default().push(&s.hostname);
        if let Some(c) = how {
            switches.push((s, c));
        }
    }
    for (how, names) in &by {
        notes.push(format!("switches {how}: {}", names.join(", ")));
    }

    let mut links = Vec::new();
    // Per flow: the points at its senders' ports, or why it has none.
    let mut senders: Vec<Result<Vec<Point>, Unwatched>> = vec![Ok(Vec::new()); plan.flows.len()];
    for (res, u) in &plan.links {
        let point = watched.point(m, *res);
        if let Some(p) = &point
            && u.load_gbps > 0.0
        {
            links.extend(rules::link(&u.link, p, u.load_gbps));
        }
        if !host_sends(m, *res) {
            continue;
        }
        for &f in &u.flows {
            let Ok(list) = &mut senders[f] else { continue };
            senders[f] = match (&point, u.flows.len()) {
                (None, _) => Err(Unwatched::NoWatchedSwitch { link: &u.link }),
                (Some(_), n) if n > 1 => Err(Unwatched::Shared {
                    link: &u.link,
                    others: n - 1,
                }),
                (Some(p), _) => {
                    list.push(p.clone());
                    continue;
                }
            };
        }
    }
    let mut flows = Vec::new();
    for (f, sent) in plan.flows.iter().zip(senders) {
        match sent {
            Ok(points) if !points.is_empty() && f.predicted_gbps > 0.0 => {
                flows.extend(rules::flow(&f.name, &points, f.predicted_gbps));
            }
            Ok(_) => notes.push(format!(
                "flow `{}` is not watched: no sender port with a planned load",
                f.name
            )),
            Err(why) => notes.push(format!(
                "flow `{}` is not watched as a flow (its links are): {why}",
                f.name
            )),
        }
    }

    let mut optics = Vec::new();
    for (s, c) in &switches {
        if !rules::reads_optics(*c) {
            continue;
        }
        for i in &s.interfaces {
            let Some(o) = i.optic.as_deref().and_then(|o| front.db.optics.get(o)) else {
                continue;
            };
            if let (Some(floor), Some(_)) = (o.rx_floor_dbm(), &i.peer) {
                optics.extend(rules::optic(&s.hostname, &i.name, floor, o.rx_max_dbm));
            }
        }
    }

    let show = &lab.show;
    let mut groups = Vec::new();
    for (part, rules) in [("links", links), ("flows", flows), ("optics", optics)] {
        if !rules.is_empty() {
            groups.push(Group {
                name: format!("democ-{show}-{part}"),
                rules,
            });
        }
    }
    groups.push(Group {
        name: format!("democ-{show}-alerts"),
        rules: rules::alerts(),
    });
    let body = serde_saphyr::to_string(&RuleFile { groups })
        .map_err(MonitorError::of("monitoring/alerts.rules.yml"))?;
    let mut head = format!(
        "# Prometheus rules for show `{}`, thresholds from its plan (democ build).\n# Alerts fire {}% away from the plan, `democ verify`'s default tolerance.\n",
        comment(show),
        TOLERANCE * 100.0
    );
    for n in &notes {
        head.push_str(&format!("# {}\n", comment(n)));
    }
    let mut out = vec![
        OutFile {
            path: "monitoring/alerts.rules.yml".into(),
            bytes: (head + &body).into_bytes(),
        },
        OutFile {
            path: "monitoring/prometheus.yml".into(),
            bytes: collectors::prometheus(&switches)?.into_bytes(),
        },
    ];
    if switches.iter().any(|(_, c)| *c == Collector::Gnmi) {
        out.push(OutFile {
            path: "monitoring/gnmic.yaml".into(),
            bytes: collectors::gnmic(&switches)?.into_bytes(),
        });
    }
    if let Some(text) = collectors::snmp_auth(&switches)? {
        out.push(OutFile {
            path: "monitoring/snmp-auth.yml".into(),
            bytes: text.into_bytes(),
        });
    }
    Ok(out)
}
