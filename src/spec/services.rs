//! `show.services:`: the base services every switch of the show is pointed at (time,
//! logs, monitoring, neighbour discovery). democ reaches them the way it reaches the
//! controller out of band: from each switch's management port, over the management
//! network and its gateway.

use super::addr::Addr;
use super::macros::spec_struct;
use crate::yaml::decode::Located;

spec_struct! {
    /// NTP, syslog, SNMP, sFlow and LLDP on every switch, reached over the management
    /// network (inside `addressing.mgmt`, or beyond `show.management.gateway`).
    pub struct Services ("services") {
        /// NTP servers, by IPv4 address.
        ntp: Option<Vec<Located<Addr>>> = opt,
        /// Remote syslog servers (UDP 514), by IPv4 address.
        syslog: Option<Vec<Located<Addr>>> = opt,
        /// SNMP v2c: a read-only community and the hosts that receive traps.
        snmp: Option<Snmp> = opt,
        /// An sFlow collector; every legacy-forwarded data port is sampled.
        sflow: Option<Sflow> = opt,
        /// LLDP on the legacy-forwarded ports (default true). OpenFlow ports whose OS
        /// forbids LLDP there never get it.
        lldp: Option<Located<bool>> = opt,
        /// gNMI on the management port of every switch whose OS democ can enable it on
        /// (EOS: `management api gnmi`; Cumulus: `system gnmi-server`), for the build's
        /// `monitoring/gnmic.yaml` subscription (default false). Switches without it are
        /// polled over SNMP when `snmp:` is set, or listed as not monitored.
        gnmi: Option<Located<bool>> = opt,
    }
}

spec_struct! {
    /// SNMP v2c. The community is written into every switch's config in clear, as v2c
    /// requires: use a read-only community made for the show.
    pub struct Snmp ("snmp") {
        /// Read-only community: letters, digits, `-`, `_` and `.`, at most 20 (FTOS 9's
        /// limit, the smallest of the OSes democ writes).
        community: Located<String> = req,
        /// Hosts that receive v2c traps with that community.
        traps: Option<Vec<Located<Addr>>> = opt,
    }
}

spec_struct! {
    /// sFlow to one collector.
    pub struct Sflow ("sflow") {
        /// The collector's IPv4 address.
        collector: Located<Addr> = req,
        /// The collector's UDP port (default 6343, the port IANA assigned to sFlow).
        port: Option<Located<u16>> = opt in TCP_PORT,
        /// One packet in N is sampled (default 16384, a common setting for 100G ports).
        sample_rate: Option<Located<u32>> = opt in SFLOW_SAMPLE_RATE,
        /// Seconds between counter samples (default 20).
        polling_s: Option<Located<u32>> = opt in SFLOW_POLLING_S,
    }
}
