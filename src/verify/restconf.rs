//! Dell OS10's interface counters as its RESTCONF server returns them: the IETF
//! interfaces model (RFC 8343: `interface[]` with `name` and `statistics`: `in-octets`,
//! `out-octets`, `in-discards`, `out-discards`), in the JSON encoding of RFC 7951 (a
//! 64-bit counter is a string, a 32-bit one a number). OS10's CLI prints XML only
//! (`| display-xml`), so its JSON is RESTCONF's: `GET
//! /restconf/data/ietf-interfaces:interfaces-state` (or one interface,
//! `.../interface=ethernet1%2F1%2F1`). The reply carries no time of reading: the
//! file name's time is used when it is a UTC stamp (see `stamp`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::located::{Bad, Text};
use super::switch::Counters;

const HELP: &str = "save OS10's RESTCONF reply as it comes: `curl -k -u USER -H 'Accept: application/yang-data+json' https://SWITCH/restconf/data/ietf-interfaces:interfaces-state` as <switch>+counters+<YYYYMMDDTHHMMSSZ>.json";

/// A counter of RFC 7951 JSON: a number, or a string of digits (64-bit counters).
fn counter(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64().filter(|x| x.is_finite() && *x >= 0.0),
        Value::String(s) => s.parse::<u64>().ok().map(|n| n as f64),
        _ => None,
    }
}

/// The reply's interface list, under any of the containers a GET may name.
fn list<'v>(t: &Text, v: &'v Value) -> Result<&'v Vec<Value>, Bad> {
    let found = [
        "ietf-interfaces:interfaces-state",
        "ietf-interfaces:interfaces",
    ]
    .iter()
    .find_map(|k| v.get(k)?.get("interface")?.as_array())
    .or_else(|| v.get("ietf-interfaces:interface")?.as_array());
    found.ok_or_else(|| {
        t.bad(
            t.at("{"),
            "no `ietf-interfaces:interfaces-state` (or `ietf-interfaces:interface`) list: not OS10's RESTCONF reply for its interfaces",
            HELP,
        )
    })
}

pub(crate) fn counters(t: &Text) -> Result<BTreeMap<String, Counters>, Bad> {
    let v = t.json("RESTCONF JSON")?;
    let mut out = BTreeMap::new();
    for i in list(t, &v)? {
        let Some(name) = i.get("name").and_then(Value::as_str) else {
            return Err(t.bad(t.at_key("interface"), "an interface without `name`", HELP));
        };
        let Some(s) = i.get("statistics").filter(|s| s.is_object()) else {
            // Interfaces the switch keeps no counters for (management, down) say so by
            // leaving `statistics` out.
            continue;
        };
        if s.get("in-octets").is_none() && s.get("out-octets").is_none() {
            return Err(t.bad(
                t.at(name),
                format!("`{name}`'s `statistics` has neither `in-octets` nor `out-octets`"),
                HELP,
            ));
        }
        out.insert(
            name.to_owned(),
            Counters {
                in_octets: counter(&s["in-octets"]),
                out_octets: counter(&s["out-octets"]),
                in_discards: counter(&s["in-discards"]),
                out_discards: counter(&s["out-discards"]),
                at: None,
            },
        );
    }
    Ok(out)
}
