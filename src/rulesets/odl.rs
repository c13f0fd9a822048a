//! A ruleset as OpenDaylight RESTCONF bodies for the `opendaylight-inventory` config
//! datastore (`openflow/odl/<switch>.json`).
//!
//! The shape follows openflowplugin's YANG models (github.com/opendaylight/openflowplugin
//! at b8f40de1, model/): `flow-node-inventory.yang` augments each inventory node with
//! `table` (key `id`) holding `flow` (key `id`) and `meter` (key `meter-id`);
//! `opendaylight-flow-types.yang` gives a flow's `priority`, `table_id`, `cookie`,
//! `cookie_mask`, `flow-name`, `match` and `instructions` (`meter`, `apply-actions`);
//! `opendaylight-match-types.yang` the `in-port`, `ethernet-match`, `ipv4-source` /
//! `ipv4-destination` and `arp-source-` / `arp-target-transport-address` leaves (IPv4
//! prefixes); `opendaylight-action-types.yang` `output-action`'s `output-node-connector`
//! and `set-queue-action`'s `queue-id`; `opendaylight-meter-types.yang` the meter's
//! `flags` and drop band. docs/users/flow-examples.rst shows the same bodies PUT to
//! `/rests/data/opendaylight-inventory:nodes/node=<node>/table=<t>/flow=<id>`. JSON
//! encoding per RFC 7951: module-qualified top-level names, 64-bit integers (cookies) as
//! decimal strings, bits as space-separated names.
//!
//! The file is one `opendaylight-inventory:nodes` document, laid out so that every flow
//! and every meter is one line of its own: `push.sh` PUTs them one by one without a JSON
//! parser (serde escapes every newline a name could hold).

use serde::Serialize;

use crate::ir::rules::{EtherType, Miss, Output, Rule, Ruleset};

/// The table every democ rule lives in.
const TABLE: u8 = 0;

#[derive(Serialize)]
struct Flow<'a> {
    id: String,
    table_id: u8,
    priority: u16,
    /// uint64: a decimal string (RFC 7951 §6.1).
    cookie: String,
    cookie_mask: String,
    #[serde(rename = "flow-name")]
    flow_name: &'a str,
    #[serde(rename = "match")]
    matches: Match<'a>,
    instructions: Instructions,
}

#[derive(Serialize, Default)]
struct Match<'a> {
    #[serde(rename = "in-port", skip_serializing_if = "Option::is_none")]
    in_port: Option<String>,
    #[serde(rename = "ethernet-match", skip_serializing_if = "Option::is_none")]
    ethernet_match: Option<EthernetMatch>,
    #[serde(rename = "vlan-match", skip_serializing_if = "Option::is_none")]
    vlan_match: Option<VlanMatch>,
    #[serde(rename = "ipv4-source", skip_serializing_if = "Option::is_none")]
    ipv4_source: Option<Prefix<'a>>,
    #[serde(rename = "ipv4-destination", skip_serializing_if = "Option::is_none")]
    ipv4_destination: Option<Prefix<'a>>,
    #[serde(
        rename = "arp-source-transport-address",
        skip_serializing_if = "Option::is_none"
    )]
    arp_source: Option<Prefix<'a>>,
    #[serde(
        rename = "arp-target-transport-address",
        skip_serializing_if = "Option::is_none"
    )]
    arp_target: Option<Prefix<'a>>,
}

/// A host address as the `inet:ipv4-prefix` the match leaves take.
struct Prefix<'a>(&'a str);

impl Serialize for Prefix<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{}/32", self.0))
    }
}

#[derive(Serialize)]
struct EthernetMatch {
    #[serde(rename = "ethernet-type")]
    ethernet_type: EthernetType,
}

#[derive(Serialize)]
struct EthernetType {
    #[serde(rename = "type")]
    value: u16,
}

#[derive(Serialize)]
struct Instructions {
    instruction: Vec<Instruction>,
}

#[derive(Serialize)]
struct Instruction {
    order: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    meter: Option<MeterInstruction>,
    #[serde(rename = "apply-actions", skip_serializing_if = "Option::is_none")]
    apply_actions: Option<ActionList>,
}

#[derive(Serialize)]
struct MeterInstruction {
    #[serde(rename = "meter-id")]
    meter_id: u32,
}

#[derive(Serialize)]
struct ActionList {
    action: Vec<Action>,
}

#[derive(Serialize, Default)]
struct Action {
    order: u32,
    #[serde(rename = "pop-vlan-action", skip_serializing_if = "Option::is_none")]
    pop_vlan: Option<Empty>,
    #[serde(rename = "push-vlan-action", skip_serializing_if = "Option::is_none")]
    push_vlan: Option<PushVlan>,
    #[serde(rename = "set-field", skip_serializing_if = "Option::is_none")]
    set_field: Option<SetField>,
    #[serde(rename = "set-queue-action", skip_serializing_if = "Option::is_none")]
    set_queue: Option<SetQueue>,
    #[serde(rename = "output-action", skip_serializing_if = "Option::is_none")]
    output: Option<OutputAction>,
    #[serde(rename = "drop-action", skip_serializing_if = "Option::is_none")]
    drop: Option<Empty>,
}

/// `push-vlan-action` (opendaylight-action-types.yang): the tag's ether type.
#[derive(Serialize)]
struct PushVlan {
    #[serde(rename = "ethernet-type")]
    ethernet_type: u16,
}

/// `set-field` holds a match (opendaylight-action-types.yang `uses match:match`); democ
/// sets only the VLAN id of a tag it has just pushed.
#[derive(Serialize)]
struct SetField {
    #[serde(rename = "vlan-match")]
    vlan_match: VlanMatch,
}

/// `vlan-match` (opendaylight-match-types.yang `vlan-match-fields`).
#[derive(Serialize)]
struct VlanMatch {
    #[serde(rename = "vlan-id")]
    vlan_id: VlanId,
}

#[derive(Serialize)]
struct VlanId {
    #[serde(rename = "vlan-id")]
    vlan_id: u16,
    #[serde(rename = "vlan-id-present")]
    present: bool,
}

fn vlan_match(v: u16) -> VlanMatch {
    VlanMatch {
        vlan_id: VlanId {
            vlan_id: v,
            present: true,
        },
    }
}

#[derive(Serialize)]
struct SetQueue {
    #[serde(rename = "queue-id")]
    queue_id: u32,
}

#[derive(Serialize)]
struct OutputAction {
    /// A port number, or a reserved port (`NORMAL`), as in the flow examples.
    #[serde(rename = "output-node-connector")]
    connector: String,
}

#[derive(Serialize, Default)]
struct Empty {}

#[derive(Serialize)]
struct Meter<'a> {
    #[serde(rename = "meter-id")]
    meter_id: u32,
    #[serde(rename = "meter-name")]
    name: &'a str,
    flags: &'static str,
    #[serde(rename = "meter-band-headers")]
    bands: Bands,
}

#[derive(Serialize)]
struct Bands {
    #[serde(rename = "meter-band-header")]
    header: [Band; 1],
}

#[derive(Serialize)]
struct Band {
    #[serde(rename = "band-id")]
    band_id: u32,
    #[serde(rename = "meter-band-types")]
    types: BandTypes,
    #[serde(rename = "band-rate")]
    rate: u32,
    #[serde(rename = "band-burst-size")]
    burst: u32,
    #[serde(rename = "drop-rate")]
    drop_rate: u32,
    #[serde(rename = "drop-burst-size")]
    drop_burst: u32,
}

#[derive(Serialize)]
struct BandTypes {
    flags: &'static str,
}

/// The RESTCONF flow id of a rule: its cookie, ether type and in_port, so ids are unique
/// on a switch, stable from build to build, URL-safe, and name their cookie (`push.sh
/// delete` selects by it).
pub(crate) fn flow_id(r: &Rule) -> String {
    let kind = match r.matches.ether_type {
        EtherType::Ipv4 => "ipv4",
        EtherType::Arp => "arp",
    };
    format!(
        "{}-{kind}-{}",
        r.cookie.trim_start_matches("0x"),
        r.matches.in_port
    )
}

/// A `0x` + 16 hex digit cookie as RFC 7951's decimal string.
fn decimal(hex: &str) -> String {
    u64::from_str_radix(hex.trim_start_matches("0x"), 16)
        .map(|c| c.to_string())
        .unwrap_or_default()
}

fn connector(o: Output) -> String {
    match o {
        Output::Port { number } => number.to_string(),
        Output::Normal => "NORMAL".to_owned(),
    }
}

fn rule<'a>(r: &'a Rule, mask: &str) -> Flow<'a> {
    let m = &r.matches;
    let (src, dst) = (Some(Prefix(&m.src)), Some(Prefix(&m.dst)));
    let mut matches = Match {
        in_port: Some(m.in_port.to_string()),
        ethernet_match: Some(EthernetMatch {
            ethernet_type: EthernetType {
                value: m.ether_type.value(),
            },
        }),
        vlan_match: m.vlan.map(vlan_match),
        ..Match::default()
    };
    match m.ether_type {
        EtherType::Ipv4 => (matches.ipv4_source, matches.ipv4_destination) = (src, dst),
        EtherType::Arp => (matches.arp_source, matches.arp_target) = (src, dst),
    }
    let mut instruction = Vec::with_capacity(2);
    if let Some(id) = r.actions.meter {
        instruction.push(Instruction {
            order: 0,
            meter: Some(MeterInstruction { meter_id: id }),
            apply_actions: None,
        });
    }
    // apply-actions in the order OpenFlow applies them: pop the arriving tag, push and
    // set the leaving one, queue, output.
    let a = &r.actions;
    let mut action: Vec<Action> = Vec::with_capacity(5);
    if a.pop_vlan {
        action.push(Action {
            pop_vlan: Some(Empty {}),
            ..Action::default()
        });
    }
    if let Some(v) = a.push_vlan {
        action.push(Action {
            push_vlan: Some(PushVlan {
                ethernet_type: 0x8100,
            }),
            ..Action::default()
        });
        action.push(Action {
            set_field: Some(SetField {
                vlan_match: vlan_match(v),
            }),
            ..Action::default()
        });
    }
    if let Some(q) = a.queue {
        action.push(Action {
            set_queue: Some(SetQueue {
                queue_id: u32::from(q),
            }),
            ..Action::default()
        });
    }
    action.push(Action {
        output: Some(OutputAction {
            connector: connector(a.output),
        }),
        ..Action::default()
    });
    for (i, x) in action.iter_mut().enumerate() {
        x.order = i as u32;
    }
    instruction.push(Instruction {
        order: instruction.len() as u32,
        meter: None,
        apply_actions: Some(ActionList { action }),
    });
    Flow {
        id: flow_id(r),
        table_id: TABLE,
        priority: r.priority,
        cookie: decimal(&r.cookie),
        cookie_mask: decimal(mask),
        flow_name: &r.flow,
        matches,
        instructions: Instructions { instruction },
    }
}

/// Drops what no rule matched on an isolated port (`Ruleset::isolated_ports`), above
/// the table miss.
fn isolation(rs: &Ruleset, port: u32) -> Flow<'_> {
    Flow {
        id: format!(
            "{}-isolate-{port}",
            rs.table_miss_cookie.trim_start_matches("0x")
        ),
        priority: 1,
        flow_name: "isolated-port",
        matches: Match {
            in_port: Some(port.to_string()),
            ..Match::default()
        },
        instructions: Instructions {
            instruction: vec![Instruction {
                order: 0,
                meter: None,
                apply_actions: Some(ActionList {
                    action: vec![Action {
                        drop: Some(Empty {}),
                        ..Action::default()
                    }],
                }),
            }],
        },
        ..table_miss(rs)
    }
}

fn table_miss(rs: &Ruleset) -> Flow<'_> {
    let action = match rs.table_miss {
        Miss::Drop => Action {
            drop: Some(Empty {}),
            ..Action::default()
        },
        Miss::Normal => Action {
            output: Some(OutputAction {
                connector: connector(Output::Normal),
            }),
            ..Action::default()
        },
    };
    Flow {
        id: format!("{}-miss", rs.table_miss_cookie.trim_start_matches("0x")),
        table_id: TABLE,
        priority: 0,
        cookie: decimal(&rs.table_miss_cookie),
        cookie_mask: decimal(&rs.cookie_mask),
        flow_name: "table-miss",
        matches: Match::default(),
        instructions: Instructions {
            instruction: vec![Instruction {
                order: 0,
                meter: None,
                apply_actions: Some(ActionList {
                    action: vec![action],
                }),
            }],
        },
    }
}

fn meter(m: &crate::ir::rules::Meter) -> Meter<'_> {
    // uint32 kb/s tops out at 4.29 Tb/s, beyond any port a meter sits on.
    let rate = u32::try_from(m.rate_kbps).unwrap_or(u32::MAX);
    Meter {
        meter_id: m.id,
        name: &m.flow,
        flags: "meter-kbps",
        bands: Bands {
            header: [Band {
                band_id: 0,
                types: BandTypes {
                    flags: "ofpmbt-drop",
                },
                rate,
                burst: 0,
                drop_rate: rate,
                drop_burst: 0,
            }],
        },
    }
}

/// The inventory node id OpenDaylight's OpenFlow plugin gives the switch:
/// `openflow:` and the datapath id in decimal.
pub(crate) fn node_id(datapath_id: &str) -> Option<String> {
    u64::from_str_radix(datapath_id, 16)
        .ok()
        .map(|d| format!("openflow:{d}"))
}

fn one_line<T: Serialize>(v: &T) -> String {
    // Plain structs of strings and numbers: serialization cannot fail.
    serde_json::to_string(v).unwrap_or_default()
}

/// Prints `items` one per line, each at `indent`, comma-separated.
fn lines(out: &mut String, indent: &str, items: impl Iterator<Item = String>) {
    let mut first = true;
    for item in items {
        if !first {
            out.push_str(",\n");
        }
        first = false;
        out.push_str(indent);
        out.push_str(&item);
    }
    out.push('\n');
}

/// `openflow/odl/<switch>.json`. `node` is the inventory node id when the datapath id is
/// known at build time; without it the node has no `id` and `push.sh` takes it from its
/// command line (EOS and Onyx choose their datapath ids themselves).
pub(crate) fn document(node: Option<&str>, rs: &Ruleset) -> String {
    let mut out = String::with_capacity(700 * (rs.rules.len() + 2));
    out.push_str("{\n  \"opendaylight-inventory:nodes\": {\n    \"node\": [\n      {\n");
    if let Some(id) = node {
        out.push_str("        \"id\": ");
        out.push_str(&one_line(&id));
        out.push_str(",\n");
    }
    if !rs.meters.is_empty() {
        out.push_str("        \"flow-node-inventory:meter\": [\n");
        lines(
            &mut out,
            "          ",
            rs.meters.iter().map(|m| one_line(&meter(m))),
        );
        out.push_str("        ],\n");
    }
    out.push_str(
        "        \"flow-node-inventory:table\": [\n          {\n            \"id\": 0,\n            \"flow\": [\n",
    );
    let flows = rs
        .rules
        .iter()
        .map(|r| one_line(&rule(r, &rs.cookie_mask)))
        .chain(
            rs.isolated_ports
                .iter()
                .map(|&n| one_line(&isolation(rs, n))),
        )
        .chain(std::iter::once(one_line(&table_miss(rs))));
    lines(&mut out, "              ", flows);
    out.push_str("            ]\n          }\n        ]\n      }\n    ]\n  }\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::rules::{Actions, Direction, Match as IrMatch, Meter as IrMeter};

    fn ruleset() -> Ruleset {
        let rule = |ether_type, meter, queue| Rule {
            cookie: "0xdc068cb94d800001".into(),
            priority: 1000,
            flow: "tb\"x".into(),
            pair: 1,
            direction: Direction::Reverse,
            from_host: "a".into(),
            to_host: "b".into(),
            matches: IrMatch {
                in_port: 17,
                vlan: None,
                ether_type,
                src: "10.0.0.1".into(),
                dst: "10.0.0.2".into(),
            },
            actions: Actions {
                meter,
                pop_vlan: false,
                push_vlan: None,
                queue,
                output: Output::Port { number: 1010 },
            },
            shared_with: vec![],
        };
        Ruleset {
            version: "1.3".into(),
            table_miss_cookie: "0xdc00000000000000".into(),
            table_miss: Miss::Normal,
            cookie_mask: "0xffffffffff000000".into(),
            direction_mask: "0xffffffffff800000".into(),
            rules: vec![
                rule(EtherType::Ipv4, Some(1), Some(3)),
                rule(EtherType::Arp, None, None),
            ],
            meters: vec![IrMeter {
                id: 1,
                flow: "tb".into(),
                rate_kbps: 5_000_000_000,
            }],
            isolated_ports: vec![],
        }
    }

    #[test]
    fn bodies_follow_the_inventory_model() {
        let doc = document(node_id("0001000000000005").as_deref(), &ruleset());
        let v: serde_json::Value = serde_json::from_str(&doc).expect("valid JSON");
        let node = &v["opendaylight-inventory:nodes"]["node"][0];
        assert_eq!(node["id"], "openflow:281474976710661");
        let meter = &node["flow-node-inventory:meter"][0];
        assert_eq!(
            meter["meter-band-headers"]["meter-band-header"][0]["drop-rate"],
            u32::MAX
        );
        let flows = &node["flow-node-inventory:table"][0]["flow"];
        let ip = &flows[0];
        assert_eq!(ip["id"], "dc068cb94d800001-ipv4-17");
        assert_eq!(ip["cookie"], "15854514265701482497");
        assert_eq!(ip["cookie_mask"], "18446744073692774400");
        assert_eq!(ip["flow-name"], "tb\"x");
        assert_eq!(ip["match"]["ipv4-source"], "10.0.0.1/32");
        assert_eq!(ip["match"]["in-port"], "17");
        let ins = &ip["instructions"]["instruction"];
        assert_eq!(ins[0]["meter"]["meter-id"], 1);
        let acts = &ins[1]["apply-actions"]["action"];
        assert_eq!(acts[0]["set-queue-action"]["queue-id"], 3);
        assert_eq!(acts[1]["order"], 1);
        assert_eq!(acts[1]["output-action"]["output-node-connector"], "1010");
        assert_eq!(
            flows[1]["match"]["arp-target-transport-address"],
            "10.0.0.2/32"
        );
        assert_eq!(
            flows[1]["match"]["ethernet-match"]["ethernet-type"]["type"],
            2054
        );
        let miss = &flows[2];
        assert_eq!(miss["priority"], 0);
        assert_eq!(miss["match"], serde_json::json!({}));
        // One flow per line: what push.sh relies on.
        let flow_lines = doc
            .lines()
            .filter(|l| l.trim_start().starts_with("{\"id\":\""))
            .count();
        assert_eq!(flow_lines, 3);
    }

    #[test]
    fn no_node_id_without_a_datapath_id() {
        let doc = document(None, &ruleset());
        let v: serde_json::Value = serde_json::from_str(&doc).expect("valid JSON");
        assert!(
            v["opendaylight-inventory:nodes"]["node"][0]
                .get("id")
                .is_none()
        );
        assert_eq!(node_id("zz"), None);
    }
}
