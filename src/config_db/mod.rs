//! SONiC's `config_db.json` for a switch, made from its IR with serde: one field per
//! table (serialised in this order, empty tables left out), rows keyed as SONiC keys
//! them (`Vlan1000|Ethernet0`) in sorted maps, every value a string as in SONiC's own
//! files. Which YANG model each table follows is in templates/sonic/vendor.yaml;
//! `democ validate` checks the file against those models (validators/sonic).

mod l2l3;
mod ports;
mod qos;
mod services;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::ir::Switch;

/// A table: row key to its fields.
type Table<R> = BTreeMap<String, R>;

/// A row of `field: value` strings (SONiC stores every value as a string).
type Fields = BTreeMap<&'static str, String>;

/// The tables democ writes, in the order they are printed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(crate) struct ConfigDb {
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    device_metadata: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    breakout_cfg: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    port: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    portchannel: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    portchannel_member: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    portchannel_interface: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    vlan: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    vlan_member: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    vlan_interface: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    interface: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    loopback_interface: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    mgmt_port: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    mgmt_interface: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    mgmt_vrf_config: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    ntp: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    ntp_server: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    syslog_server: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    snmp_community: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    snmp_agent_address_config: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    lldp_port: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    dscp_to_tc_map: Table<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    port_qos_map: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    wred_profile: Table<Fields>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    queue: Table<Fields>,
}

/// Fields from `(name, value)` pairs, the absent ones left out.
fn fields<const N: usize>(pairs: [(&'static str, Option<String>); N]) -> Fields {
    pairs
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
}

/// A SONiC key of several parts: `Vlan1000|Ethernet0`.
fn key(parts: &[&str]) -> String {
    parts.join("|")
}

/// The switch's config_db.json text (pretty, four-space indents as SONiC writes it,
/// one final newline).
pub(crate) fn text(sw: &Switch) -> String {
    let db = build(sw);
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    // A struct of string maps always serialises.
    db.serialize(&mut ser)
        .expect("config_db tables are string maps");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    text.push('\n');
    text
}

fn build(sw: &Switch) -> ConfigDb {
    let mut db = ConfigDb::default();
    let sonic = sw.sonic.as_ref();
    db.device_metadata.insert(
        "localhost".to_owned(),
        fields([
            ("hostname", Some(sw.hostname.clone())),
            ("hwsku", sonic.and_then(|s| s.hwsku.clone())),
            ("platform", sonic.and_then(|s| s.platform.clone())),
            (
                "docker_routing_config_mode",
                sonic.map(|s| s.routing_config_mode.clone()),
            ),
            ("bgp_asn", sw.bgp.as_ref().map(|b| b.asn.to_string())),
        ]),
    );
    ports::write(sw, &mut db);
    l2l3::write(sw, &mut db);
    qos::write(sw, &mut db);
    services::write(sw, &mut db);
    db
}

#[cfg(test)]
mod tests {
    /// Every SONiC switch of the render fixture gets a config_db.json whose tables are
    /// JSON objects of objects, rows sorted, and the same text twice.
    #[test]
    fn tables_are_objects_and_deterministic() {
        let (_, mut lab) = crate::testkit::render_fixture();
        for sw in &mut lab.switches {
            sw.sonic = Some(crate::ir::switch::Sonic {
                config_db_file: "x".into(),
                platform: None,
                hwsku: None,
                routing_config_mode: "split-unified".into(),
            });
            let text = super::text(sw);
            assert_eq!(text, super::text(sw));
            let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            let tables = v.as_object().expect("an object");
            assert!(tables.contains_key("DEVICE_METADATA") && tables.contains_key("PORT"));
            for (name, rows) in tables {
                assert!(rows.as_object().is_some(), "{name} is an object");
            }
        }
    }
}
