//! The schema as an editor uses it (yaml-language-server through the `$schema` modeline):
//! the types give structure and bounds, this pass adds what completion needs. It drops
//! `null` (an optional key is left out, never written as `~`, so offering `null` only
//! misleads), gives every property a description and `examples` (values from the embedded
//! SC16 show and catalog, else from the property's type), offers the catalog's model names
//! for `model`, `chassis`, `cpu`, `optic` (with their titles), and splits `wan:` entries by
//! `kind` so that an OTN link is not offered dark-fiber fields.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::catalog::Catalog;

/// Values seen per (definition, property), in the order met.
type Seen = BTreeMap<(String, String), Vec<Value>>;

/// The root's properties are filed under this name.
const ROOT: &str = "";

/// The JSON Schema of a spec file (what `democ schema` prints): the spec's types, with
/// the embedded catalog's names as completions.
pub(crate) fn spec_schema() -> String {
    let mut schema = crate::spec::json_schema_value();
    refine(&mut schema, &crate::catalog::embedded_db());
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Adds the editor's view to a schema that `schemars` generated for `SpecFile`.
pub(crate) fn refine(schema: &mut Value, db: &Catalog) {
    strip_null(schema);
    let mut seen = Seen::new();
    harvest_embedded(schema, &mut seen);
    if let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) {
        catalog_names(defs, db);
        split_wan(defs);
    }
    annotate(schema, &seen);
}

/// Removes `null` from `type` lists, `anyOf`/`oneOf` branches and `enum`s.
fn strip_null(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Array(types)) = o.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    o.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(e)) = o.get_mut("enum") {
                e.retain(|x| !x.is_null());
            }
            for key in ["anyOf", "oneOf"] {
                let Some(Value::Array(branches)) = o.get_mut(key) else {
                    continue;
                };
                branches.retain(|b| b.get("type").is_none_or(|t| t != "null"));
                if branches.len() == 1 {
                    // `anyOf: [{$ref: X}]` is `$ref: X` beside the property's description.
                    let Some(Value::Object(only)) = branches.pop() else {
                        continue;
                    };
                    o.remove(key);
                    for (k, x) in only {
                        o.entry(k).or_insert(x);
                    }
                }
            }
            for x in o.values_mut() {
                strip_null(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strip_null),
        _ => {}
    }
}

/// The definition a `$ref` names.
fn target(schema: &Value, node: &Value) -> Option<(String, Value)> {
    let name = node.get("$ref")?.as_str()?.strip_prefix("#/$defs/")?;
    let def = schema.get("$defs")?.get(name)?.clone();
    Some((name.to_owned(), def))
}

/// Records every property value of `doc` under the definition that declares it.
fn harvest(schema: &Value, node: &Value, owner: &str, doc: &Value, seen: &mut Seen, depth: u8) {
    if depth > 24 {
        return;
    }
    if let Some((name, def)) = target(schema, node) {
        return harvest(schema, &def, &name, doc, seen, depth + 1);
    }
    for key in ["anyOf", "oneOf"] {
        for b in node
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            harvest(schema, b, owner, doc, seen, depth + 1);
        }
    }
    match doc {
        Value::Object(o) => {
            let props = node.get("properties").and_then(Value::as_object);
            for (k, v) in o {
                if let Some(p) = props.and_then(|p| p.get(k)) {
                    let list = seen.entry((owner.to_owned(), k.clone())).or_default();
                    if let Some(v) = short(v).filter(|v| !list.contains(v)) {
                        list.push(v);
                    }
                    harvest(schema, p, owner, v, seen, depth + 1);
                } else if let Some(extra) =
                    node.get("additionalProperties").filter(|a| a.is_object())
                {
                    harvest(schema, extra, owner, v, seen, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = node.get("items") {
                for v in items {
                    harvest(schema, item, owner, v, seen, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// A value short enough to show as an example: itself, else its first entry that is (a
/// map of named things, a list).
fn short(v: &Value) -> Option<Value> {
    const MAX: usize = 160;
    if v.to_string().len() <= MAX {
        return Some(v.clone());
    }
    let fits = |f: &Value| f.to_string().len() <= MAX;
    match v {
        Value::Object(o) => o
            .iter()
            .map(|(k, x)| json!({ k.clone(): x.clone() }))
            .find(fits),
        Value::Array(a) => a.iter().map(|x| json!([x.clone()])).find(fits),
        _ => None,
    }
}

/// Harvests the embedded SC16 show (spec files) and catalog (catalog files).
fn harvest_embedded(schema: &Value, seen: &mut Seen) {
    let parse = |text: &str| serde_saphyr::from_str::<Value>(text).ok();
    for (_, text) in crate::spec::examples::EMBEDDED_SC16 {
        if let Some(doc) = parse(text) {
            harvest(schema, schema, ROOT, &doc, seen, 0);
        }
    }
    let catalog = json!({ "$ref": "#/$defs/CatalogFile" });
    for (_, text) in crate::catalog::EMBEDDED {
        if let Some(doc) = parse(text) {
            harvest(schema, &catalog, ROOT, &doc, seen, 0);
        }
    }
}

/// Catalog names as completions: `anyOf: [{enum: names}, {type: string}]`, since a spec
/// may add models of its own (`catalog:`, `--catalog DIR`).
fn catalog_names(defs: &mut Map<String, Value>, db: &Catalog) {
    let titled = |names: Vec<(String, String)>| {
        let (n, t): (Vec<String>, Vec<String>) = names.into_iter().unzip();
        json!({ "enum": n, "enumDescriptions": t })
    };
    use crate::catalog::titles;
    let optics = titled(titles(&db.optics, |m| &m.title));
    let choices = [
        (
            "Switch",
            "model",
            titled(titles(&db.switches, |m| &m.title)),
        ),
        ("Host", "chassis", titled(titles(&db.chassis, |m| &m.title))),
        ("Host", "cpu", titled(titles(&db.cpus, |m| &m.title))),
        ("HostNic", "model", titled(titles(&db.nics, |m| &m.title))),
        (
            "HostNvme",
            "model",
            titled(titles(&db.drives, |m| &m.title)),
        ),
        ("Link", "optic", optics.clone()),
        ("Link", "optic_b", optics.clone()),
        ("Wan", "optic", optics.clone()),
        ("ClientRun", "optic", optics.clone()),
        ("ClientRun", "transponder_optic", optics),
    ];
    for (def, prop, names) in choices {
        let Some(p) = defs
            .get_mut(def)
            .and_then(|d| d.get_mut("properties"))
            .and_then(|p| p.get_mut(prop))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        p.remove("type");
        p.insert("anyOf".into(), json!([names, { "type": "string" }]));
    }
}

/// Each WAN kind: what it is, the fields it uses beside the common ones, and those
/// resolution demands (`need` in resolve/links.rs).
const WAN_KINDS: &[(&str, &str, &[&str], &[&str])] = &[
    (
        "dark-fiber",
        "Unlit fiber driven by pluggable optics at both ends.",
        &["optic", "length_km", "fiber", "splices", "connectors"],
        &["optic", "length_km"],
    ),
    (
        "otn",
        "Client ports mapped into OTN (OTU2e/OTU3/OTU4/OTUCn) by a transponder.",
        &["client", "length_km", "optic", "client_a", "client_b"],
        &["client"],
    ),
    (
        "circuit",
        "A provisioned circuit (NSI/OSCARS/OESS) with a capacity, VLAN and RTT.",
        &["capacity", "provisioning", "length_km"],
        &["capacity"],
    ),
];
const WAN_COMMON: &[&str] = &[
    "name",
    "kind",
    "a",
    "b",
    "vlan",
    "rtt_ms",
    "loss",
    "mtu",
    "middleboxes",
    "peer_asn",
    "description",
];

/// One schema per `kind:` (`oneOf`, told apart by `kind`'s `const`).
fn split_wan(defs: &mut Map<String, Value>) {
    let Some(wan) = defs.get("Wan").cloned() else {
        return;
    };
    let Some(props) = wan.get("properties").and_then(Value::as_object) else {
        return;
    };
    let mut branches = Vec::new();
    for (kind, what, own, required) in WAN_KINDS {
        let mut p = Map::new();
        for name in WAN_COMMON.iter().chain(own.iter()) {
            if let Some(s) = props.get(*name) {
                p.insert((*name).to_owned(), s.clone());
            }
        }
        p.insert(
            "kind".into(),
            json!({ "const": kind, "description": format!("`{kind}`: {what}"), "examples": [kind] }),
        );
        let mut req = vec!["name", "kind", "a", "b"];
        req.extend_from_slice(required);
        branches.push(json!({
            "title": format!("WAN link, kind: {kind}"),
            "type": "object",
            "properties": p,
            "required": req,
            "additionalProperties": false,
        }));
    }
    let description = wan.get("description").cloned().unwrap_or(Value::Null);
    defs.insert(
        "Wan".into(),
        json!({ "description": description, "oneOf": branches }),
    );
}

/// A property's description when its type gives none: what the name means wherever it
/// appears (these keys recur across the spec and the catalog sections).
fn fallback_description(prop: &str) -> Option<&'static str> {
    Some(match prop {
        "description" => {
            "Free text: printed as the interface or device description in the configs."
        }
        "name" => "Name, unique among its kind; letters, digits, `-`, `_` and `.`.",
        "title" => "Human-readable name of the model, as its vendor writes it.",
        "vendor" => "Vendor; for switches it picks the templates/<vendor> folder.",
        "source" => {
            "Where each figure comes from, tagged [C] confirmed, [D] derived or [U] unconfirmed."
        }
        "confidence" => "The weakest tag among the entry's key figures.",
        "a" | "b" => "One end: `node:port`, ranges allowed (`dtn-[1-4]:p0`).",
        "kind" => "What kind of thing this is (changes which fields apply).",
        "connectors" => "Mated connector pairs on the span (0.5 dB each by default).",
        "splices" => "Fusion splices on the span (0.1 dB each by default).",
        "length_km" => "Fiber length in kilometres.",
        "fiber" => "Fiber type: `smf` single-mode or `mmf` multimode.",
        "vlan" => "802.1Q VLAN id.",
        "provisioning" => "How the circuit is set up: `nsi`, `oscars`, `oess` or `static`.",
        "openflow" => "OpenFlow settings.",
        "show" => "The event: name, title, defaults and address pools (main file only).",
        "sites" => "Booths, the NOC, labs and remote sites, by name.",
        "switches" => "Switches by name: catalog model, OS, site, port overrides.",
        "hosts" => "Servers (DTNs) by name: chassis, CPU, NICs, NVMe drives.",
        "links" => "Cables between switch and host ports on or near the show floor.",
        "wan" => "Connections off the floor: dark fiber, OTN, provisioned circuits.",
        "nvme_fabrics" => "NVMe-over-Fabrics exports between hosts.",
        "flows" => "Demands to plan and test: who sends how much to whom.",
        "from" => "Sending hosts (a name or a range such as `dtn-[1-4]`).",
        "to" => "Receiving hosts (a name or a range).",
        "protocol" => "Transport: `tcp`, `udp` or `rdma`.",
        "sockets" => "CPU sockets.",
        "count" => "How many.",
        "socket" => "The socket (0-based) this hangs off.",
        "via" => "The on-board PCIe switch this hangs off.",
        "gen" => "PCIe generation.",
        "width" => "PCIe lanes (electrical width).",
        "link" => "PCIe link: generation and width.",
        "uplink" => "PCIe uplink: generation and width.",
        "chip" => "PCIe switch chip (`pex8796`).",
        "rate" => "Rate with a unit (`100G`).",
        "max_m" => "Longest cable, metres.",
        "reach" => "Longest cable per port speed.",
        "cores" => "Cores per socket.",
        "base_ghz" | "turbo_ghz" => "Clock, GHz.",
        "pcie_gen" => "PCIe generation of the CPU's lanes.",
        "pcie_lanes" => "PCIe lanes per socket.",
        "pcie" => "PCIe edge connector or link: generation and width.",
        "initiators" => "Hosts that import the namespace.",
        "target" => "Host that exports its drives.",
        "transport" => "NVMe-oF transport (`rdma`, `tcp`).",
        _ => return None,
    })
}

/// An example for a free-text property no embedded file sets (or sets too long).
fn fallback_text(prop: &str) -> Option<Value> {
    Some(json!(match prop {
        "source" => "vendor datasheet rev 3, table 2 (ports, speeds) [C]",
        "via" => "plx-0",
        "vrf" => "MGMT",
        "booth" => "2437",
        "community" => "public",
        "version" => "1.3",
        "kernel" => "6.8",
        "allow" => return Some(json!(["W0246"])),
        "serials" => return Some(json!(["S4EWNX0R123456A", "S4EWNX0R123457B"])),
        "stripe" => return Some(json!(["p0", "p1", "p2", "p3"])),
        "pin" => return Some(json!({ "sender": 1 })),
        "controller" => "broadcom-megaraid-9560-16i",
        "slot" => "3",
        "disks" => "seagate-exos-x18",
        _ => return None,
    }))
}

/// An example value for a property no embedded file sets, from its schema.
fn fallback_example(schema: &Value, p: &Value) -> Option<Value> {
    if let Some(v) = p.get("enum").and_then(|e| e.get(0)) {
        return Some(v.clone());
    }
    if let Some(c) = p.get("const") {
        return Some(c.clone());
    }
    for b in p
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(v) = fallback_example(schema, b) {
            return Some(v);
        }
    }
    if let Some((name, def)) = target(schema, p) {
        let by_name = match name.as_str() {
            "Rate" => Some(json!("100G")),
            "Ipv4Prefix" => Some(json!("10.16.0.0/16")),
            "Ipv4Address" => Some(json!("192.168.16.2")),
            "Controller" => Some(json!("192.168.16.100:6653")),
            "Endpoint" => Some(json!("sw1:1/1")),
            "Name" => Some(json!("booth-a")),
            "NamePattern" => Some(json!("dtn-[1-4]")),
            "PortPattern" => Some(json!("1/[1-32]")),
            _ => None,
        };
        return by_name.or_else(|| fallback_example(schema, &def));
    }
    let min = p.get("minimum").cloned();
    match p.get("type").and_then(Value::as_str) {
        Some("integer") => Some(min.unwrap_or(json!(1))),
        Some("number") => Some(
            min.filter(|m| m.as_f64() != Some(0.0))
                .unwrap_or(json!(1.5)),
        ),
        Some("boolean") => Some(json!(true)),
        Some("array") => p
            .get("items")
            .and_then(|i| fallback_example(schema, i))
            .map(|v| json!([v])),
        Some("object") => Some(json!({})),
        _ => None,
    }
}

/// Gives each property of `node` (a definition or the root) a description and examples.
fn annotate_props(schema: &Value, owner: &str, node: &mut Value, seen: &Seen) {
    let Some(props) = node.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, p) in props.iter_mut() {
        let inherited = target(schema, p).and_then(|(_, d)| d.get("description").cloned());
        let Some(o) = p.as_object_mut() else { continue };
        if !o.contains_key("description") {
            let text = inherited.or_else(|| fallback_description(name).map(Value::from));
            if let Some(t) = text {
                o.insert("description".into(), t);
            }
        }
        if o.contains_key("examples") {
            continue;
        }
        let harvested: Vec<Value> = seen
            .get(&(owner.to_owned(), name.clone()))
            .map(|v| v.iter().take(3).cloned().collect())
            .unwrap_or_default();
        let examples = if harvested.is_empty() {
            fallback_text(name)
                .or_else(|| fallback_example(schema, &Value::Object(o.clone())))
                .map(|v| vec![v])
                .unwrap_or_default()
        } else {
            harvested
        };
        if !examples.is_empty() {
            o.insert("examples".into(), Value::Array(examples));
        }
    }
}

fn annotate(schema: &mut Value, seen: &Seen) {
    let frozen = schema.clone();
    annotate_props(&frozen, ROOT, schema, seen);
    let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, def) in defs.iter_mut() {
        annotate_props(&frozen, name, def, seen);
        // The WAN branches carry the Wan definition's properties.
        for b in def
            .get_mut("oneOf")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            annotate_props(&frozen, name, b, seen);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    fn schema() -> Value {
        serde_json::from_str(&super::spec_schema()).expect("JSON")
    }

    /// Every property object in the schema, with where it is.
    fn properties(v: &Value, at: &str, out: &mut Vec<(String, Value)>) {
        match v {
            Value::Object(o) => {
                if let Some(Value::Object(p)) = o.get("properties") {
                    for (k, x) in p {
                        out.push((format!("{at}.{k}"), x.clone()));
                    }
                }
                for (k, x) in o {
                    properties(x, &format!("{at}/{k}"), out);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| properties(x, at, out)),
            _ => {}
        }
    }

    #[test]
    fn every_property_has_a_description_and_examples() {
        let mut props = Vec::new();
        properties(&schema(), "", &mut props);
        assert!(props.len() > 200, "{} properties", props.len());
        let bare: Vec<&str> = props
            .iter()
            .filter(|(_, p)| p.get("description").is_none() || p.get("examples").is_none())
            .map(|(at, _)| at.as_str())
            .collect();
        assert!(
            bare.is_empty(),
            "properties without description or examples: {bare:?}"
        );
    }

    #[test]
    fn no_null_is_offered() {
        let text = super::spec_schema();
        assert!(!text.contains("\"null\""), "the schema still offers null");
    }

    #[test]
    fn catalog_names_complete_model_and_optic() {
        let s = schema();
        let names = |def: &str, prop: &str| -> Vec<String> {
            s["$defs"][def]["properties"][prop]["anyOf"][0]["enum"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        assert!(names("Switch", "model").contains(&"arista-7060dx5-64s".to_owned()));
        assert!(names("Host", "cpu").contains(&"epyc-9554".to_owned()));
        assert!(names("HostNic", "model").contains(&"nvidia-cx7-400g".to_owned()));
        assert!(names("Link", "optic").contains(&"400gbase-dr4".to_owned()));
    }

    #[test]
    fn wan_kinds_have_their_own_fields() {
        let s = schema();
        let branches = s["$defs"]["Wan"]["oneOf"]
            .as_array()
            .expect("oneOf")
            .clone();
        let of = |kind: &str| {
            branches
                .iter()
                .find(|b| b["properties"]["kind"]["const"] == kind)
                .expect("a branch per kind")
                .clone()
        };
        // An OTN link's `optic:` is the switch ports' optic facing the transponder (the
        // default of its client runs); client runs belong to OTN only (E0221).
        assert!(of("otn")["properties"].get("optic").is_some());
        assert!(of("otn")["properties"].get("client_a").is_some());
        assert!(of("dark-fiber")["properties"].get("client_a").is_none());
        assert!(of("circuit")["properties"].get("client_b").is_none());
        assert!(of("otn")["properties"].get("client").is_some());
        assert!(of("dark-fiber")["properties"].get("splices").is_some());
        assert!(of("circuit")["properties"].get("splices").is_none());
    }
}
