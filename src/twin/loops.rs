//! Spanning tree, converged. A switch runs spanning tree unless told otherwise, so a
//! ring of legacy switches in one VLAN (the synthetic booths: every switch trunked to
//! the next) forwards on all but one link; the twin's bridges run none (RSTP's timers
//! cannot span a ring of 100, and a storm in the one datapath saturates the machine),
//! so `twin up` leaves out of their bridges the links a converged tree would block: of
//! the legacy links between switches, in the order of the switches' names, each one
//! that closes a loop. A port-channel is one link. The show's real root bridge may
//! block another link of the loop; the twin's tests check no legacy hop, so a pair whose
//! plan crosses the blocked link passes the other way round, as it would at the show.

use std::collections::{BTreeMap, BTreeSet};

use super::build::Build;
use crate::ir::Switch;
use crate::ir::interface::{Interface, Mode};

/// One end of a legacy link: the port, or the port-channel it is a member of.
fn end(sw: &Switch, i: &Interface) -> Option<String> {
    if i.openflow() || !i.enabled {
        return None;
    }
    match &i.lag {
        Some(m) => sw
            .port_channels
            .iter()
            .find(|pc| pc.id == m.id && !pc.openflow())
            .filter(|pc| matches!(pc.switching.mode, Some(Mode::Access | Mode::Trunk)))
            .map(|pc| format!("lag{}", pc.id)),
        None => {
            matches!(i.switching.mode, Some(Mode::Access | Mode::Trunk)).then(|| i.port.clone())
        }
    }
}

fn root(parent: &mut BTreeMap<String, String>, x: &str) -> String {
    let mut r = x.to_owned();
    while let Some(p) = parent.get(&r).filter(|p| **p != r) {
        r = p.clone();
    }
    parent.insert(x.to_owned(), r.clone());
    r
}

/// The canonical ports, per switch, that a converged spanning tree blocks (both ends of
/// each such link; every member of such a port-channel).
pub(crate) fn blocked(b: &Build) -> BTreeMap<String, BTreeSet<String>> {
    // (switch, end) -> (peer switch, peer end), each link once, in name order.
    let mut links: BTreeSet<((String, String), (String, String))> = BTreeSet::new();
    for (name, sw) in &b.switches {
        for i in &sw.interfaces {
            let Some(peer) = &i.peer else { continue };
            let Some(ps) = b.switches.get(&peer.device) else {
                continue;
            };
            let Some(pi) = ps.interfaces.iter().find(|x| x.port == peer.port) else {
                continue;
            };
            let (Some(a), Some(z)) = (end(sw, i), end(ps, pi)) else {
                continue;
            };
            let (a, z) = ((name.clone(), a), (peer.device.clone(), z));
            links.insert(if a <= z { (a, z) } else { (z, a) });
        }
    }
    let mut parent = BTreeMap::new();
    let mut cut: BTreeSet<(String, String)> = BTreeSet::new();
    for (a, z) in links {
        let (ra, rz) = (root(&mut parent, &a.0), root(&mut parent, &z.0));
        if ra == rz {
            cut.insert(a);
            cut.insert(z);
        } else {
            parent.insert(ra, rz);
        }
    }
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, sw) in &b.switches {
        for i in &sw.interfaces {
            if let Some(e) = end(sw, i)
                && cut.contains(&(name.clone(), e))
            {
                out.entry(name.clone()).or_default().insert(i.port.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{Input, Options, Session, front};

    /// The twin's view of a synthetic show: `synth` with the shape and switch count.
    fn build(shape: crate::synth::Shape, switches: usize) -> Build {
        let text = crate::synth::generate(&crate::synth::Params {
            shape,
            switches,
            hosts_per_switch: 1,
            flows: 2,
            seed: 1,
            eos_only: false,
        });
        let mut s = Session::default();
        let f = front(
            Input::Bytes {
                name: "synth.yaml",
                bytes: text.as_bytes(),
            },
            &Options::default(),
            &mut s,
        )
        .expect("reads")
        .expect("checks clean");
        let lab = crate::lower::lower(&f, &mut s.diags).expect("lowers");
        Build {
            show: lab.show.clone(),
            switches: lab
                .switches
                .into_iter()
                .map(|s| (s.hostname.clone(), s))
                .collect(),
            hosts: BTreeMap::new(),
            flows: Vec::new(),
            frr: BTreeMap::new(),
        }
    }

    /// Switch-to-switch legacy links, each once, as (switch, port) pairs.
    fn links(b: &Build) -> BTreeSet<((String, String), (String, String))> {
        let mut out = BTreeSet::new();
        for (name, sw) in &b.switches {
            for i in &sw.interfaces {
                let Some(p) = &i.peer else { continue };
                if b.switches.contains_key(&p.device) && end(sw, i).is_some() {
                    let (a, z) = (
                        (name.clone(), i.port.clone()),
                        (p.device.clone(), p.port.clone()),
                    );
                    out.insert(if a <= z { (a, z) } else { (z, a) });
                }
            }
        }
        out
    }

    #[test]
    fn a_ring_loses_exactly_one_link_and_stays_connected() {
        for n in [3, 4, 7] {
            let b = build(crate::synth::Shape::Ring, n);
            let all = links(&b);
            assert_eq!(all.len(), n, "a ring of {n} has {n} links: {all:?}");
            let cut = blocked(&b);
            let blocked_links: Vec<_> = all
                .iter()
                .filter(|((a, ap), (z, zp))| {
                    cut.get(a).is_some_and(|s| s.contains(ap))
                        && cut.get(z).is_some_and(|s| s.contains(zp))
                })
                .collect();
            assert_eq!(blocked_links.len(), 1, "ring of {n}: {cut:?}");
            // Both ends of the one link, nothing else.
            assert_eq!(cut.values().map(BTreeSet::len).sum::<usize>(), 2, "{cut:?}");
            // What stays forms a tree over every switch: n - 1 links joining n switches.
            let mut parent = BTreeMap::new();
            let mut joined = 0;
            for ((a, _), (z, _)) in all.iter().filter(|l| !blocked_links.contains(l)) {
                let (ra, rz) = (root(&mut parent, a), root(&mut parent, z));
                if ra != rz {
                    parent.insert(ra, rz);
                    joined += 1;
                }
            }
            assert_eq!(joined, n - 1, "ring of {n} stays connected");
        }
    }
}
