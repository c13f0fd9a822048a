//! An OpenFlow switch's ruleset: the flow entries and meters that carry the show's flows
//! across it, as structured data. `openflow/<switch>.flows` (ovs-ofctl), the OpenDaylight
//! bodies and the PicOS OVS script only print it; the twin reads it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Priority of every rule that carries a flow (IPv4 and ARP differ in `dl_type`).
pub(crate) const FLOW_PRIORITY: u16 = 1000;

/// One OpenFlow port: a port or port-channel under the controller and its number.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OfPort {
    /// Vendor name of the port or port-channel.
    pub(crate) interface: String,
    /// OpenFlow port number, from the model's port map (catalog `openflow.port_numbers`).
    pub(crate) number: u32,
}

/// What a table-miss entry does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Miss {
    /// Pure OpenFlow: unmatched packets are dropped.
    #[default]
    Drop,
    /// Hybrid where the vendor has the NORMAL action: the legacy pipeline forwards them.
    Normal,
}

/// Which way a rule carries its flow's packets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Direction {
    /// From the flow's `from` host to its `to` host.
    Forward,
    /// Back from `to` to `from` (replies and acknowledgements, or the return half of a
    /// bidirectional flow).
    Reverse,
}

/// Where a rule sends its packets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase", tag = "kind", deny_unknown_fields)]
pub(crate) enum Output {
    /// Out of this OpenFlow port.
    Port { number: u32 },
    /// Into the switch's legacy pipeline (the NORMAL action).
    Normal,
}

/// Ethernet type a rule matches.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum EtherType {
    /// 0x0800; addresses are `nw_src`/`nw_dst`.
    Ipv4,
    /// 0x0806; addresses are the sender and target protocol addresses.
    Arp,
}

impl Rule {
    /// Whether this rule carries `flow`'s packets (its own, or shared with it).
    pub(crate) fn carries(&self, flow: &str) -> bool {
        self.flow == flow || self.shared_with.iter().any(|f| f == flow)
    }

    /// The rule's match fields and actions as ovs-ofctl names them in OpenFlow `version`,
    /// each with its value (empty for an action without one): what
    /// `openflow/<switch>.flows` prints and what the OS's profile is checked against.
    pub(crate) fn fields(&self, version: &str) -> (Vec<Field>, Vec<Field>) {
        let m = &self.matches;
        let mut matches = vec![("in_port", m.in_port.to_string())];
        // A tagged arrival matches its VLAN id (OpenFlow 1.3 sets OFPVID_PRESENT for it).
        if let Some(v) = m.vlan {
            matches.push(("dl_vlan", v.to_string()));
        }
        matches.push(("dl_type", format!("0x{:04x}", m.ether_type.value())));
        let (src, dst) = match m.ether_type {
            EtherType::Ipv4 => ("nw_src", "nw_dst"),
            EtherType::Arp => ("arp_spa", "arp_tpa"),
        };
        matches.push((src, m.src.clone()));
        matches.push((dst, m.dst.clone()));
        (matches, self.actions.fields(version))
    }
}

/// A match field or action: its ovs-ofctl name and value.
pub(crate) type Field = (&'static str, String);

impl Actions {
    /// OpenFlow 1.0 has no push/pop or set_queue: a tag is stripped or set
    /// (OFPAT_STRIP_VLAN, OFPAT_SET_VLAN_VID, which tags an untagged frame) and a queue
    /// is an enqueue to the output port (OpenFlow 1.0.0 specification, 5.2.4 "Action
    /// Structures"). 1.3 pushes an 802.1Q header, then sets its VID with the present bit
    /// (0x1000) on, as ovs-actions(7) writes it.
    fn fields(&self, version: &str) -> Vec<Field> {
        let v10 = version == "1.0";
        let none = String::new;
        let mut out = Vec::new();
        if let Some(id) = self.meter {
            out.push(("meter", id.to_string()));
        }
        match (v10, self.pop_vlan, self.push_vlan) {
            (true, _, Some(v)) => out.push(("mod_vlan_vid", v.to_string())),
            (true, true, None) => out.push(("strip_vlan", none())),
            (false, pop, push) => {
                if pop {
                    out.push(("pop_vlan", none()));
                }
                if let Some(v) = push {
                    out.push(("push_vlan", "0x8100".into()));
                    out.push(("set_field", format!("{}->vlan_vid", 0x1000 | u32::from(v))));
                }
            }
            (true, false, None) => {}
        }
        match (self.output, self.queue) {
            (Output::Port { number }, Some(q)) if v10 => {
                out.push(("enqueue", format!("{number}:{q}")))
            }
            (output, q) => {
                if let Some(q) = q.filter(|_| !v10) {
                    out.push(("set_queue", q.to_string()));
                }
                match output {
                    Output::Port { number } => out.push(("output", number.to_string())),
                    Output::Normal => out.push(("NORMAL", none())),
                }
            }
        }
        out
    }
}

impl EtherType {
    pub(crate) fn value(self) -> u16 {
        match self {
            EtherType::Ipv4 => 0x0800,
            EtherType::Arp => 0x0806,
        }
    }
}

/// The match of a flow rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Match {
    pub(crate) in_port: u32,
    /// The VLAN id the frames arrive tagged with (a circuit's, or a trunk's toward a
    /// legacy port); absent: they arrive untagged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) vlan: Option<u16>,
    pub(crate) ether_type: EtherType,
    /// Source host address (IPv4 source, or ARP sender).
    #[schemars(regex(pattern = r"^[0-9]{1,3}(\.[0-9]{1,3}){3}$"))]
    pub(crate) src: String,
    /// Destination host address (IPv4 destination, or ARP target).
    #[schemars(regex(pattern = r"^[0-9]{1,3}(\.[0-9]{1,3}){3}$"))]
    pub(crate) dst: String,
}

/// What a rule does, in order: meter, pop the arriving VLAN tag, push the leaving one,
/// queue, output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Actions {
    /// Meter id (`meters`), for flows with a rate cap.
    pub(crate) meter: Option<u32>,
    /// Remove the VLAN tag the frames arrived with (`match.vlan`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) pop_vlan: bool,
    /// Tag the frames with this VLAN id before they leave (toward a circuit, or a legacy
    /// trunk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) push_vlan: Option<u16>,
    /// Egress queue: the lossless queue for RoCE flows.
    pub(crate) queue: Option<u8>,
    pub(crate) output: Output,
}

/// One flow entry that carries one direction of one pair of a flow.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Rule {
    /// 64 bits as `0x` + 16 hex digits: democ's tag, the flow, the direction and the pair
    /// (see `cookie_mask`); the same for a pair's IPv4 and ARP rules.
    #[schemars(regex(pattern = r"^0x[0-9a-f]{16}$"))]
    pub(crate) cookie: String,
    pub(crate) priority: u16,
    /// The flow's name.
    pub(crate) flow: String,
    /// The pair's index in the flow (0-based, in the order `from`/`to` expand).
    pub(crate) pair: u32,
    pub(crate) direction: Direction,
    /// The hosts the packets go from and to.
    pub(crate) from_host: String,
    pub(crate) to_host: String,
    #[serde(rename = "match")]
    pub(crate) matches: Match,
    pub(crate) actions: Actions,
    /// Other flows carrying the same packets through the same ports (the rule is theirs
    /// too; its cookie is the first flow's).
    pub(crate) shared_with: Vec<String>,
}

/// An OpenFlow 1.3 meter: one drop band at the flow's rate cap.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Meter {
    pub(crate) id: u32,
    /// The flow it caps.
    pub(crate) flow: String,
    /// The drop band's rate: the flow's cap times the share of its pairs metered here.
    pub(crate) rate_kbps: u64,
}

// A ruleset into a config template's value as none: no template reads it (a config
// that loads its rules gets their ovs-ofctl text, `openflow_rules`), and converting tens
// of thousands of rules into template values per switch was most of rendering a switch's
// config in an all-OpenFlow show. The IR's JSON files get it in full.
pub(crate) fn outside_templates<S: serde::Serializer>(
    rules: &Ruleset,
    s: S,
) -> Result<S::Ok, S::Error> {
    if minijinja::value::serializing_for_value() {
        s.serialize_none()
    } else {
        rules.serialize(s)
    }
}

/// The rules of one switch. Sorted by cookie, then ether type and in_port, so the
/// files are byte-identical from build to build.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ruleset {
    /// The OpenFlow version the rules are written in (`1.0`, `1.3`, `1.4`): the switch's.
    pub(crate) version: String,
    /// Cookie of the table-miss entry (priority 0, matches everything).
    #[schemars(regex(pattern = r"^0x[0-9a-f]{16}$"))]
    pub(crate) table_miss_cookie: String,
    pub(crate) table_miss: Miss,
    /// A rule's cookie ANDed with this names its flow (`ovs-ofctl dump-flows br
    /// cookie=C/MASK`); `direction_mask` adds the direction.
    #[schemars(regex(pattern = r"^0x[0-9a-f]{16}$"))]
    pub(crate) cookie_mask: String,
    #[schemars(regex(pattern = r"^0x[0-9a-f]{16}$"))]
    pub(crate) direction_mask: String,
    pub(crate) rules: Vec<Rule>,
    /// Sorted by id.
    pub(crate) meters: Vec<Meter>,
    /// Ports whose unmatched packets are dropped (priority 1) rather than handed to the
    /// legacy pipeline by a NORMAL table miss: members of LAGs placed by OpenFlow, which
    /// are parallel links in no port-channel, so legacy flooding over them would loop.
    /// Ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) isolated_ports: Vec<u32>,
}
