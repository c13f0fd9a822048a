//! PORT, BREAKOUT_CFG, LLDP_PORT and the management port's tables.

use super::{ConfigDb, fields};
use crate::ir::Switch;

pub(super) fn write(sw: &Switch, db: &mut ConfigDb) {
    for b in &sw.breakouts {
        if let Some(parent) = &b.target {
            db.breakout_cfg.insert(
                parent.clone(),
                fields([("brkout_mode", Some(b.map.clone()))]),
            );
        }
    }
    for i in &sw.interfaces {
        db.port.insert(
            i.name.clone(),
            fields([
                (
                    "admin_status",
                    Some(if i.enabled { "up" } else { "down" }.into()),
                ),
                ("alias", Some(i.port.clone())),
                ("description", i.description.clone()),
                ("fec", i.cli.fec.clone()),
                ("lanes", i.cli.lanes.clone()),
                // A LAG member takes its port-channel's MTU (PORTCHANNEL.mtu) too;
                // SONiC's member ports keep their own, so both carry it.
                ("mtu", i.mtu.map(|m| m.set.to_string())),
                ("speed", Some(i.speed_mbps.to_string())),
            ]),
        );
        db.lldp_port.insert(
            i.name.clone(),
            fields([("enabled", Some(i.lldp.to_string()))]),
        );
    }
    if let Some(m) = &sw.management {
        db.mgmt_port.insert(
            m.interface.clone(),
            fields([
                ("admin_status", Some("up".into())),
                ("alias", Some(m.interface.clone())),
            ]),
        );
        db.mgmt_interface.insert(
            super::key(&[&m.interface, &m.address.cidr]),
            fields([("gwaddr", m.gateway.clone())]),
        );
        // The management port in its own VRF (`mgmt`), apart from the data plane's
        // routes, as the other OSes keep it in a table of its own.
        db.mgmt_vrf_config.insert(
            "vrf_global".into(),
            fields([("mgmtVrfEnabled", Some("true".into()))]),
        );
    }
}
