//! Lossless is a property of a path, not of a host: a RoCE host's script may say its
//! traffic is lossless only where every switch its RDMA flows cross classifies the hosts'
//! DSCP marking and pauses that class. The gaps come from the same vendor data the
//! switch configs are lowered from (vendor.yaml `qos`, and the OpenFlow boundary's DCB
//! rule), and each one is also the located W0303 lowering reports at the switch.

use std::collections::BTreeMap;

use crate::derive::ShowModel;
use crate::resolve::model::{HostId, NodeId, SwitchId};
use crate::spec::flow::Protocol;
use crate::spec::switch::OfMode;
use crate::vendor::{OfForbid, Vendors};

/// Why switch `s` cannot keep RoCE lossless when `openflow_port` (a port the path
/// crosses is under its controller), or None.
fn gap(front: &ShowModel, vendors: &Vendors, s: SwitchId, openflow_port: bool) -> Option<String> {
    let sw = &front.model.switches[s];
    let Some((_, f)) = vendors.flavour(&sw.vendor, sw.os.as_str()) else {
        return Some("no vendor data".into());
    };
    let mut missing = Vec::new();
    if !f.qos.pfc {
        missing.push("PFC");
    }
    if !f.qos.dscp_trust {
        missing.push("DSCP trust");
    }
    if !missing.is_empty() {
        return Some(format!(
            "no confirmed {} syntax on `{}`",
            missing.join(" or "),
            sw.os.as_str()
        ));
    }
    let no_dcb = f
        .openflow
        .as_ref()
        .is_some_and(|c| c.forbids(OfForbid::Dcb));
    (openflow_port && no_dcb)
        .then(|| format!("`{}` allows no DCB on OpenFlow ports", sw.os.as_str()))
}

/// For every host, the switches on its RDMA flows' paths that do not keep RoCE lossless,
/// as `` `switch`: why ``, sorted.
pub(crate) fn gaps(front: &ShowModel, vendors: &Vendors) -> BTreeMap<HostId, Vec<String>> {
    let m = &front.model;
    let mut out: BTreeMap<HostId, Vec<String>> = BTreeMap::new();
    for (f, fr) in m.flows.iter().zip(&front.routes.flows) {
        if f.protocol.value != Protocol::Rdma {
            continue;
        }
        for pr in &fr.pairs {
            let mut found = Vec::new();
            for w in pr.hops.windows(2) {
                let NodeId::Switch(s) = w[0].to else { continue };
                let of_on = m.switches[s]
                    .openflow
                    .as_ref()
                    .is_some_and(|o| o.mode != OfMode::Off);
                let openflow_port = of_on
                    && [w[0].via, w[1].via].iter().any(|via| {
                        via.links(m).iter().any(|&l| {
                            let link = &m.links[l];
                            [link.a, link.b]
                                .into_iter()
                                .any(|e| e.node == NodeId::Switch(s) && m.port(e).openflow)
                        })
                    });
                if let Some(why) = gap(front, vendors, s, openflow_port) {
                    found.push(format!("`{}`: {why}", m.switches[s].name.value));
                }
            }
            for h in [pr.src, pr.dst] {
                let list = out.entry(h).or_default();
                list.extend(found.iter().cloned());
                list.sort();
                list.dedup();
            }
        }
    }
    out
}
