//! Which reader a switch's state file needs: the switch's network OS in the build
//! (`ir/<switch>.json`'s `os`) decides, since each OS prints the same state in its own
//! JSON. Arista EOS's `| json` is the default (the shape the other CLIs that print
//! EOS-like JSON follow, and the one verify read before it knew OSes); Dell OS10 is read
//! from its RESTCONF reply, SONiC from sonic-utilities' `--json` and lldpd's JSON.
//! State an OS prints no JSON for is refused with what to save instead.

use std::collections::BTreeMap;

use super::inputs::State;
use super::located::{Bad, Text};
use super::switch::{self, Counters, Neighbor, Rates, Rule};
use super::{lldpd, restconf, sonic, stamp};

/// One state file, read; ports still by the switch's own names.
pub(crate) enum Reading {
    /// A counter snapshot, and the rates the same output printed (SONiC).
    Counters(BTreeMap<String, Counters>, Option<BTreeMap<String, Rates>>),
    Rates(BTreeMap<String, Rates>),
    /// Receive power, dBm.
    Optics(BTreeMap<String, f64>),
    Lldp(Vec<Neighbor>),
    Rules(Vec<Rule>),
}

/// Why an OS's state cannot be read, and what to save instead.
fn none(t: &Text, os: &str, state: &str, instead: &str) -> Bad {
    t.syntax(
        &format!("verify reads no `{state}` state of {os} switches: {os} prints none as JSON"),
        instead,
    )
}

pub(crate) fn read(os: &str, state: State, t: &Text, when: &str) -> Result<Reading, Bad> {
    Ok(match (os, state) {
        ("os10", State::Counters) => {
            let mut c = restconf::counters(t)?;
            let at = stamp::seconds(when);
            for x in c.values_mut() {
                x.at = at;
            }
            Reading::Counters(c, None)
        }
        ("os10", State::Rates) => {
            return Err(none(
                t,
                "OS10",
                "rates",
                "save two `counters` snapshots (OS10's RESTCONF `ietf-interfaces:interfaces-state`) named by their UTC times, before and after the test: verify takes the rate between them",
            ));
        }
        ("os10", State::Transceiver) => {
            return Err(none(
                t,
                "OS10",
                "transceiver",
                "OS10's `show interface transceiver` prints text (or XML with `| display-xml`); compare receive power by hand against the optics report",
            ));
        }
        ("os10", State::Lldp) => {
            return Err(none(
                t,
                "OS10",
                "lldp",
                "OS10's `show lldp neighbors` prints text (or XML with `| display-xml`); compare it by hand against cabling.csv",
            ));
        }
        ("sonic", State::Counters) => {
            let (c, r) = sonic::counters(t)?;
            Reading::Counters(c, Some(r))
        }
        ("sonic", State::Rates) => Reading::Rates(sonic::rates(t)?),
        ("sonic", State::Transceiver) => {
            return Err(none(
                t,
                "SONiC",
                "transceiver",
                "SONiC's `show interfaces transceiver eeprom --dom` prints text only; compare its RXnPower lines by hand against the optics report",
            ));
        }
        ("sonic", State::Lldp) => Reading::Lldp(lldpd::neighbors(t)?),
        (_, State::Counters) => Reading::Counters(switch::eos_counters(t)?, None),
        (_, State::DumpPorts) => Reading::Counters(switch::dump_ports(t)?, None),
        (_, State::Rates) => Reading::Rates(switch::eos_rates(t)?),
        (_, State::Transceiver) => Reading::Optics(switch::eos_transceiver(t)?),
        (_, State::Lldp) => Reading::Lldp(switch::eos_lldp(t)?),
        (_, State::DumpFlows) => Reading::Rules(switch::dump_flows(t)?),
    })
}
