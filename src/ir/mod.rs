//! The intermediate representation: per switch (and per DTN, `host.rs`), vendor-neutral structured data (the
//! AVD "structured config" idea) plus the few vendor tokens lowering already chose
//! (interface names, speed and FEC keywords). Templates only print it; validators read
//! it. Everything is ordered: vectors are sorted, maps are BTreeMaps, so the JSON is
//! byte-identical from run to run.

pub(crate) mod cabling;
pub(crate) mod error;
pub(crate) mod fabric;
pub(crate) mod flow;
pub(crate) mod host;
pub(crate) mod interface;
pub(crate) mod lab;
pub(crate) mod openflow;
pub(crate) mod qos;
pub(crate) mod routing;
pub(crate) mod rules;
pub(crate) mod switch;

use std::io::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

pub(crate) use switch::Switch;

/// Every switch of one show, and the show as a containerlab lab.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Lab {
    /// `show.name`.
    pub(crate) show: String,
    /// Switches sorted by hostname.
    pub(crate) switches: Vec<Switch>,
    /// DTNs sorted by name: host settings and test transfers.
    pub(crate) hosts: Vec<host::Host>,
    /// NVMe-oF fabrics in the spec's order: target and initiator setup (with the hosts).
    pub(crate) fabrics: Vec<fabric::Fabric>,
    /// Declared flows in the show's order: pairs, addresses, planned paths, cookies.
    pub(crate) flows: Vec<flow::Flow>,
    /// `lab/<show>.clab.yml`.
    pub(crate) containerlab: lab::Containerlab,
    /// The management network and the control channel's path.
    pub(crate) management: ManagementNetwork,
    /// Every cable with both ends, and the bill of materials.
    pub(crate) cabling: cabling::Cabling,
}

/// `show.management` with the `addressing.mgmt` pool: what a twin needs to build the
/// out-of-band network without reading vendor text.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ManagementNetwork {
    /// `addressing.mgmt` (`192.168.16.0/24`).
    pub(crate) network: Option<String>,
    pub(crate) gateway: Option<String>,
    pub(crate) vrf: Option<String>,
    /// `mgmt` or `inband`: how OpenFlow switches reach their controller.
    pub(crate) controller_via: String,
    /// `rfc8040` or `bierman02`: the controller's RESTCONF northbound, which
    /// `openflow/odl/push.sh` speaks unless `ODL_API` says otherwise.
    pub(crate) restconf: String,
}

/// The JSON Schema of `democ ir` output (schema/ir.schema.json).
pub(crate) fn json_schema() -> String {
    let mut schema = schemars::schema_for!(Lab);
    schema.insert(
        "$id".into(),
        "https://democ.dev/schema/ir.schema.json".into(),
    );
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Pretty JSON with a final newline (the shape of every IR file democ writes).
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// [`to_json`] written to `w` as it is made (the largest files of a build).
pub(crate) fn write_json<T: Serialize + ?Sized>(
    w: &mut dyn std::io::Write,
    value: &T,
) -> std::io::Result<()> {
    // Buffered here: serde_json writes a few bytes at a time, and each write to `w`
    // would be a call through its vtable.
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    serde_json::to_writer_pretty(&mut w, value)?;
    w.write_all(b"\n")?;
    w.flush()
}
