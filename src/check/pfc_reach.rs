//! PFC over distance: a lossless priority needs, on every port that sends PAUSE, buffer
//! headroom for what is still in flight when the pause takes effect, which grows with the
//! cable's length and the port's speed. The NVIDIA mlx5 driver's formula (cited with its
//! figures in catalog/physics.yaml) gives the headroom; a RoCE flow whose path crosses a
//! link needing more than the whole packet buffer of a switch at its ends cannot be
//! lossless there whatever the configuration (issue 9 §5). The whole buffer is the most
//! generous bound (a port gets a share of it), so the warning never fires wrongly.

use super::CheckInput;
use crate::derive::topology::link_latency_us;
use crate::diag::{Diagnostic, Diags, codes};
use crate::fxhash::FxSet;
use crate::resolve::model::{LinkId, NodeId};
use crate::spec::flow::Protocol;

/// W0268 once per link, at the first RoCE flow (in spec order) whose path crosses it.
pub(crate) fn check(cx: &CheckInput, diags: &mut Diags) {
    let p = cx.physics;
    let (Some(fixed), Some(per_m), Some(mtu_factor)) = (
        p.pfc_headroom_fixed_bytes_per_gbps,
        p.pfc_headroom_bytes_per_gbps_m,
        p.pfc_headroom_mtu_factor,
    ) else {
        return;
    };
    let m = cx.m;
    let mut warned: FxSet<LinkId> = FxSet::default();
    for (i, f) in m.flows.iter().enumerate() {
        if f.protocol.value != Protocol::Rdma {
            continue;
        }
        for pr in &cx.routes.flows[i].pairs {
            let mtu = f64::from(m.hosts[pr.src].mtu.value.max(m.hosts[pr.dst].mtu.value));
            for hop in &pr.hops {
                for &l in hop.via.links(m) {
                    if warned.contains(&l) {
                        continue;
                    }
                    let link = &m.links[l];
                    // The length light covers in the link's one-way latency (circuits
                    // included): what the formula's cable length stands for.
                    let metres =
                        link_latency_us(m, l, p.fiber_us_per_km) / p.fiber_us_per_km * 1000.0;
                    let gbps = link.capacity.bps() / 1e9;
                    let need = (fixed + per_m * metres) * gbps + mtu_factor * mtu;
                    let smallest = [link.a.node, link.b.node]
                        .into_iter()
                        .filter_map(|n| match n {
                            NodeId::Switch(s) => {
                                let sw = &m.switches[s];
                                let mb = cx.db.switches.get(&sw.model.value)?.buffer_mb?;
                                Some((mb, sw.name.value.as_str()))
                            }
                            NodeId::Host(_) => None,
                        })
                        .min_by(|a, b| a.0.total_cmp(&b.0));
                    let Some((mb, sw)) = smallest else { continue };
                    if need <= mb * 1e6 {
                        continue;
                    }
                    warned.insert(l);
                    diags.push(
                        Diagnostic::new(
                            codes::PFC_REACH,
                            f.protocol.span,
                            format!(
                                "RoCE flow `{}` crosses {}, too long for PFC to keep it lossless",
                                f.name.value,
                                m.link_name(l)
                            ),
                        )
                        .label("lossless priority across the link")
                        .also(
                            link.span,
                            format!(
                                "{:.0} km of latency at {gbps:.0} Gbit/s needs {:.0} MB of PFC headroom; \
                                 `{sw}` has {mb} MB of packet buffer in all",
                                metres / 1000.0,
                                need / 1e6
                            ),
                        )
                        .help(
                            "keep RoCE within a site (PFC is hop by hop and its headroom grows \
                             with distance), or carry this flow over TCP across the WAN",
                        ),
                    );
                }
            }
        }
    }
}
