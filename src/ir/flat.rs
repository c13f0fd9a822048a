//! Ports' and port-channels' Serialize, written out: the derive's `#[serde(flatten)]`
//! of their `switching` turns the whole struct into a map serialized entry by entry
//! through serde's buffering flatten machinery, which was most of the cost of handing
//! a switch's IR to its template and of writing `ir/<switch>.json` (16,000
//! instructions a port on the 256-switch ring). Written as a struct with the switching
//! fields in place, the output is the same: the same keys in the same order, the same
//! fields skipped (the golden outputs and the IR's JSON Schema tests hold it).

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::interface::{Interface, PortChannel, Switching};

impl Switching {
    /// The five fields, in their order, into a struct being serialized.
    fn put<S: SerializeStruct>(&self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_field("mode", &self.mode)?;
        s.serialize_field("access_vlan", &self.access_vlan)?;
        s.serialize_field("trunk_vlans", &self.trunk_vlans)?;
        s.serialize_field("native_vlan", &self.native_vlan)?;
        s.serialize_field("ipv4", &self.ipv4)
    }
}

impl Serialize for Interface {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Interface", 25)?;
        s.serialize_field("name", &self.name)?;
        s.serialize_field("port", &self.port)?;
        s.serialize_field("parent", &self.parent)?;
        s.serialize_field("description", &self.description)?;
        s.serialize_field("enabled", &self.enabled)?;
        s.serialize_field("speed_mbps", &self.speed_mbps)?;
        s.serialize_field("mtu", &self.mtu)?;
        s.serialize_field("fec", &self.fec)?;
        s.serialize_field("flow_control", &self.flow_control)?;
        self.switching.put(&mut s)?;
        s.serialize_field("lag", &self.lag)?;
        s.serialize_field("role", &self.role)?;
        s.serialize_field("lldp", &self.lldp)?;
        if self.sflow {
            s.serialize_field("sflow", &self.sflow)?;
        }
        s.serialize_field("pfc", &self.pfc)?;
        s.serialize_field("ecn", &self.ecn)?;
        s.serialize_field("peer", &self.peer)?;
        if self.wan_delay_us.is_some() {
            s.serialize_field("wan_delay_us", &self.wan_delay_us)?;
        }
        s.serialize_field("optic", &self.optic)?;
        s.serialize_field("cli", &self.cli)?;
        s.end()
    }
}

impl Serialize for PortChannel {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("PortChannel", 16)?;
        s.serialize_field("id", &self.id)?;
        s.serialize_field("name", &self.name)?;
        s.serialize_field("members", &self.members)?;
        s.serialize_field("lacp", &self.lacp)?;
        s.serialize_field("description", &self.description)?;
        s.serialize_field("mtu", &self.mtu)?;
        self.switching.put(&mut s)?;
        s.serialize_field("role", &self.role)?;
        s.serialize_field("pfc", &self.pfc)?;
        s.serialize_field("ecn", &self.ecn)?;
        s.serialize_field("peer", &self.peer)?;
        s.end()
    }
}
