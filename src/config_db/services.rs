//! `show.services`: NTP, NTP_SERVER, SYSLOG_SERVER, SNMP_COMMUNITY and
//! SNMP_AGENT_ADDRESS_CONFIG, every one in the management VRF (`mgmt`), where the
//! management port sits (MGMT_VRF_CONFIG): the servers are reached from there, as on the
//! other OSes. Which model each table follows is in templates/sonic/vendor.yaml.

use super::{ConfigDb, Fields, fields, key};
use crate::ir::Switch;

/// SONiC's management VRF: the one name its models accept for it.
const MGMT: &str = "mgmt";

/// The SNMP agent's UDP port (snmpd's default, written out: the key needs all parts).
const SNMP_PORT: &str = "161";

pub(super) fn write(sw: &Switch, db: &mut ConfigDb) {
    let (Some(sv), Some(m)) = (&sw.services, &sw.management) else {
        return;
    };
    if !sv.ntp.is_empty() {
        db.ntp
            .insert("global".into(), fields([("vrf", Some(MGMT.into()))]));
    }
    for a in &sv.ntp {
        db.ntp_server.insert(a.clone(), Fields::new());
    }
    for a in &sv.syslog {
        db.syslog_server
            .insert(a.clone(), fields([("vrf", Some(MGMT.into()))]));
    }
    if let Some(snmp) = &sv.snmp {
        db.snmp_community.insert(
            snmp.community.clone(),
            fields([("TYPE", Some("RO".into()))]),
        );
        db.snmp_agent_address_config
            .insert(key(&[&m.address.address, SNMP_PORT, MGMT]), Fields::new());
    }
}
