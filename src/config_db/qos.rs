//! Lossless RoCE: DSCP_TO_TC_MAP, PORT_QOS_MAP (with `pfc_enable`), and WRED_PROFILE with
//! ECN on the lossless queue of each RDMA port (QUEUE).

use std::collections::BTreeMap;

use super::{ConfigDb, fields, key};
use crate::ir::Switch;

/// The names democ gives its map and profile (sonic-dscp-tc-map.yang and
/// sonic-wred-profile.yang: a letter or digit, then up to 31 of `-_` letters, digits).
const MAP: &str = "DEMOC_ROCE";
const WRED: &str = "DEMOC_LOSSLESS";

pub(super) fn write(sw: &Switch, db: &mut ConfigDb) {
    let Some(q) = sw.qos.as_ref().filter(|q| q.pfc || q.ecn) else {
        return;
    };
    // RoCE data to the lossless class, congestion notifications to theirs; every
    // other DSCP stays in class 0 (SONiC's default for an unmapped DSCP).
    let mut map = BTreeMap::new();
    map.insert(q.dscp.to_string(), q.pfc_priority.to_string());
    map.insert(q.cnp_dscp.to_string(), q.cnp_class.to_string());
    db.dscp_to_tc_map.insert(MAP.into(), map);
    if q.ecn {
        let kb = |k: u32| (u64::from(k) * 1024).to_string();
        db.wred_profile.insert(
            WRED.into(),
            fields([
                ("ecn", Some("ecn_all".into())),
                ("green_drop_probability", Some("5".into())),
                ("green_max_threshold", Some(kb(q.ecn_max_kbytes))),
                ("green_min_threshold", Some(kb(q.ecn_min_kbytes))),
                ("wred_green_enable", Some("true".into())),
            ]),
        );
    }
    // PORT_QOS_MAP and QUEUE name ports: a port-channel's settings go on its members.
    let members: BTreeMap<&str, &[String]> = sw
        .port_channels
        .iter()
        .map(|p| (p.name.as_str(), p.members.as_slice()))
        .collect();
    let ports = q
        .interfaces
        .iter()
        .flat_map(|n| match members.get(n.as_str()) {
            Some(m) => m.iter().collect::<Vec<_>>(),
            None => vec![n],
        });
    let priority = q.pfc_priority.to_string();
    for port in ports {
        db.port_qos_map.insert(
            port.clone(),
            fields([
                ("dscp_to_tc_map", Some(MAP.into())),
                ("pfc_enable", q.pfc.then(|| priority.clone())),
            ]),
        );
        if q.ecn {
            db.queue.insert(
                key(&[port, &priority]),
                fields([("wred_profile", Some(WRED.into()))]),
            );
        }
    }
}
