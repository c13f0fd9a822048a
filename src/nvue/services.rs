//! `show.services` in NVUE: NTP, syslog and SNMP, each reached from the management port
//! in its `mgmt` VRF (templates/cumulus/vendor.yaml cites the commands).

use super::routing::MGMT_VRF;
use super::tree::{
    Access, Config, Empty, InVrf, Ntp, Set, SnmpServer, Syslog, TrapDestination, TrapVrf, Version,
};
use crate::ir::Switch;

pub(super) fn write(sw: &Switch, c: &mut Config) {
    let (Some(sv), Some(m)) = (&sw.services, &sw.management) else {
        return;
    };
    if !sv.ntp.is_empty() {
        let server = sv.ntp.iter().map(|a| (a.clone(), Empty {})).collect();
        c.service.ntp.insert(MGMT_VRF, Ntp { server });
    }
    if !sv.syslog.is_empty() {
        let server = sv
            .syslog
            .iter()
            .map(|a| (a.clone(), InVrf { vrf: MGMT_VRF }))
            .collect();
        c.system.syslog = Some(Syslog { server });
    }
    if let Some(snmp) = &sv.snmp {
        let any: Set = [("any".to_owned(), Empty {})].into_iter().collect();
        let trap = || TrapDestination {
            vrf: [(
                MGMT_VRF,
                TrapVrf {
                    community_password: [(snmp.community.clone(), Version { version: "2c" })]
                        .into_iter()
                        .collect(),
                },
            )]
            .into_iter()
            .collect(),
        };
        c.system.snmp_server = Some(SnmpServer {
            state: "enabled",
            listening_address: [(m.address.address.clone(), InVrf { vrf: MGMT_VRF })]
                .into_iter()
                .collect(),
            readonly_community: [(snmp.community.clone(), Access { access: any })]
                .into_iter()
                .collect(),
            trap_destination: snmp.traps.iter().map(|a| (a.clone(), trap())).collect(),
        });
    }
}
