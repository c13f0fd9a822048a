//! LLDP neighbours as lldpd prints them in JSON (`lldpctl -f json`, or `-f json0`; on
//! SONiC `docker exec lldp lldpctl -f json`, the daemon SONiC's own `show lldp` asks in
//! XML). lldpcli(8): `json0` keeps one structure whatever the number of neighbours,
//! `json` folds a single entry into an object. With `json`, `lldp.interface` is an
//! object keyed by the local port, or a list of such objects when there are several;
//! each has `chassis` keyed by the neighbour's system name and `port` with `id`
//! (`type`, `value`) and `descr`. With `json0` every level is a list and names are
//! `name` fields (`chassis[].name[].value`, `port[].id[]`). The neighbour's port is its
//! port id when that is a name (`ifname`, `local`: SONiC sends its port alias, EOS and
//! OS10 their interface name), else its description.

use serde_json::Value;

use super::located::{Bad, Text};
use super::switch::Neighbor;

const HELP: &str = "save lldpd's JSON: `lldpctl -f json` (on SONiC `docker exec lldp lldpctl -f json`) as <switch>+lldp+<time>.json";

/// A json0 leaf (`[{"value": ...}]`) or a json one (a string).
fn text(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) => Some(s),
        Value::Array(a) => a.first()?.get("value")?.as_str(),
        Value::Object(o) => o.get("value")?.as_str(),
        _ => None,
    }
}

/// The first object of a json0 list, or the json object itself.
fn one(v: &Value) -> Option<&Value> {
    match v {
        Value::Array(a) => a.first(),
        Value::Object(_) => Some(v),
        _ => None,
    }
}

/// The neighbour's port: its id when the id is a name, else its description.
fn remote_port(port: &Value) -> Option<String> {
    let id = one(port.get("id")?)?;
    let kind = id.get("type").and_then(Value::as_str);
    let value = id.get("value").and_then(Value::as_str);
    match (kind, value) {
        (Some("ifname" | "local"), Some(v)) => Some(v.to_owned()),
        _ => port
            .get("descr")
            .and_then(text)
            .or(value)
            .map(str::to_owned),
    }
}

/// (local port, the entry) for every interface with a neighbour, in either format.
fn entries(v: &Value) -> Option<Vec<(String, &Value)>> {
    let lldp = one(v.get("lldp")?)?;
    let Some(list) = lldp.get("interface") else {
        // lldpd prints `"lldp": {}` when it has no neighbour.
        return Some(Vec::new());
    };
    let mut out = Vec::new();
    let items: Vec<&Value> = match list {
        Value::Array(a) => a.iter().collect(),
        o @ Value::Object(_) => vec![o],
        _ => return None,
    };
    for item in items {
        let o = item.as_object()?;
        match o.get("name").and_then(Value::as_str) {
            // json0: the entry names its port.
            Some(name) => out.push((name.to_owned(), item)),
            // json: the entry is keyed by its port.
            None => out.extend(o.iter().map(|(k, e)| (k.clone(), e))),
        }
    }
    Some(out)
}

pub(crate) fn neighbors(t: &Text) -> Result<Vec<Neighbor>, Bad> {
    let v = t.json("lldpd JSON")?;
    let Some(list) = entries(&v) else {
        return Err(t.bad(
            t.at("{"),
            "no `lldp.interface` entries: not lldpd's `lldpctl -f json`",
            HELP,
        ));
    };
    let mut out = Vec::new();
    for (port, e) in list {
        let chassis = e.get("chassis").and_then(one);
        // json keys the chassis by its name; json0 has a `name` leaf.
        let device = chassis.and_then(|c| {
            c.get("name").and_then(text).map(str::to_owned).or_else(|| {
                let o = c.as_object()?;
                (o.len() == 1 && o.values().all(Value::is_object))
                    .then(|| o.keys().next().cloned())?
            })
        });
        let remote = e.get("port").and_then(one).and_then(remote_port);
        let (Some(device), Some(remote_port)) = (device, remote) else {
            return Err(t.bad(
                t.at(&format!("\"{port}\"")),
                format!("the neighbour on `{port}` lacks a chassis name or a port id"),
                HELP,
            ));
        };
        out.push(Neighbor {
            port,
            device,
            remote_port,
        });
    }
    Ok(out)
}
