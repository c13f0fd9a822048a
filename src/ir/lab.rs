//! The show as a containerlab topology (`lab/<show>.clab.yml`): switches under the kind
//! that runs their OS (or a stand-in), DTN hosts, every cable as a link, the management
//! network on the show's pool. `topology` has containerlab's own shape (its JSON Schema
//! validates it); `notes` print as comments above it.

mod check;
mod config;

pub(crate) use config::LabConfig;

pub(crate) use check::linux_ok as linux_iface_ok;

use std::collections::BTreeMap;

use super::error::TopologyError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize, Serializer};

/// What `democ build` writes under lab/.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Containerlab {
    /// `lab/<show>.clab.yml`.
    pub(crate) file: String,
    /// Comments above the topology: stand-ins, placeholder images, WAN delays. A note's
    /// first line is wrapped; lines after a newline (commands) are kept whole.
    pub(crate) notes: Vec<String>,
    pub(crate) topology: Topology,
    /// The scripts the nodes bind, by path in the build (`lab/nodes/<switch>.sh`): written
    /// beside the topology, not part of it.
    #[serde(skip)]
    pub(crate) scripts: BTreeMap<String, String>,
    /// Each host's wired ports: port to the interface the topology names (what its
    /// script's `IF_<port>` is set to in the lab).
    #[serde(skip)]
    pub(crate) host_ports: BTreeMap<String, BTreeMap<String, String>>,
    /// Configs the kinds boot, by path in the build (`lab/configs/<switch>.cfg`): made
    /// from the build's configs once rendered.
    #[serde(skip)]
    pub(crate) configs: BTreeMap<String, LabConfig>,
}

/// A containerlab topology file.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "L: Deserialize<'de>"))]
pub(crate) struct Topology<L = Link> {
    /// The lab name (`containerlab deploy` prefixes containers with `clab-<name>-`).
    pub(crate) name: String,
    /// None when the show has no `addressing.mgmt` pool (containerlab's default network).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mgmt: Option<Mgmt>,
    pub(crate) topology: Body<L>,
}

/// The management network.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Mgmt {
    /// Docker network name.
    pub(crate) network: String,
    /// The show's `addressing.mgmt` pool.
    #[serde(rename = "ipv4-subnet")]
    pub(crate) ipv4_subnet: String,
    /// An address of the pool no node holds (containerlab's default, the first one, may
    /// belong to a switch).
    #[serde(rename = "ipv4-gw", skip_serializing_if = "Option::is_none")]
    pub(crate) ipv4_gw: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "L: Deserialize<'de>"))]
pub(crate) struct Body<L = Link> {
    /// By name: switches and hosts.
    pub(crate) nodes: BTreeMap<String, Node>,
    /// Sorted by endpoints (containerlab wants at least one: none is omitted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) links: Vec<L>,
}

/// A switch, a stand-in or a host.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Node {
    /// `arista_ceos`, `dell_ftosv`, `linux`.
    pub(crate) kind: String,
    /// A placeholder the user overrides (lab/containerlab/README.md).
    pub(crate) image: String,
    /// democ's config, relative to the topology file (`../switches/<name>.cfg`).
    #[serde(rename = "startup-config", skip_serializing_if = "Option::is_none")]
    pub(crate) startup_config: Option<String>,
    #[serde(rename = "mgmt-ipv4", skip_serializing_if = "Option::is_none")]
    pub(crate) mgmt_ipv4: Option<String>,
    /// `democ.role` (`switch`, `stand-in`, `host`), `democ.os`, `democ.model`,
    /// `democ.site`, `democ.stand-in` (why).
    pub(crate) labels: BTreeMap<String, String>,
    /// `source:target[:ro]` files of the build the node sees, the source relative to the
    /// topology file (a stand-in's script and ruleset, a host's script).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) binds: Vec<String>,
    /// Commands containerlab runs once the links are up (stand-in script, host tuning).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) exec: Vec<String>,
}

/// A cable: `node:interface` at each end.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Link {
    #[serde(serialize_with = "flow")]
    pub(crate) endpoints: [String; 2],
}

/// A link of one part of a split lab (`democ lab split`): a cable inside the part, or
/// this part's end of a cable to another part, carried over VXLAN.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum PartLink {
    Veth(Link),
    Vxlan(VxlanLink),
}

/// containerlab's `type: vxlan` link (containerlab's manual, "Links" > "vxlan"; its
/// links/link_vxlan.go): the VXLAN device is made in the host's namespace with the
/// parent interface of the route to `remote`, then moved into the node as `interface`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VxlanLink {
    /// Always `vxlan`.
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) endpoint: VxlanEnd,
    /// The other lab host's underlay address.
    pub(crate) remote: String,
    /// One per cut cable, the same at both ends.
    pub(crate) vni: u32,
    #[serde(rename = "dst-port")]
    pub(crate) dst_port: u16,
    /// The interface's MTU: the largest the show's ports set; the underlay carries 50
    /// bytes more (outer Ethernet, IP, UDP and VXLAN headers).
    pub(crate) mtu: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VxlanEnd {
    pub(crate) node: String,
    pub(crate) interface: String,
}

/// `["a:x", "b:y"]` on one line in YAML, as containerlab's docs write it (a plain
/// array in JSON).
fn flow<S: Serializer>(e: &[String; 2], s: S) -> Result<S::Ok, S::Error> {
    use serde_saphyr::DoubleQuoted as Q;
    serde_saphyr::FlowSeq([Q(&e[0]), Q(&e[1])]).serialize(s)
}

impl Containerlab {
    /// The topology file: a schema modeline, the notes as comments, then the YAML.
    /// `Err` when the topology is inconsistent (a democ bug: lowering builds it).
    pub(crate) fn to_yaml(&self) -> Result<String, TopologyError> {
        let problems = check::problems(&self.topology);
        if !problems.is_empty() {
            return Err(TopologyError::Inconsistent {
                file: self.file.clone(),
                problems,
            });
        }
        // One line per command, never a folded block.
        let mut options = serde_saphyr::SerializerOptions::default();
        options.prefer_block_scalars = false;
        let body =
            serde_saphyr::to_string_with_options(&self.topology, options).map_err(|error| {
                TopologyError::Serialize {
                    file: self.file.clone(),
                    error,
                }
            })?;
        let mut out = String::from(
            "# yaml-language-server: $schema=https://raw.githubusercontent.com/srl-labs/containerlab/main/schemas/clab.schema.json\n",
        );
        for note in &self.notes {
            let mut parts = note.split('\n');
            let first = wrap(parts.next().unwrap_or_default(), 88);
            for line in first.iter().map(String::as_str).chain(parts) {
                out.push_str("# ");
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        out.push_str(&body);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        Ok(out)
    }
}

/// A note's lines as a topology's comments wrap them.
pub(crate) fn wrap_note(text: &str) -> Vec<String> {
    wrap(text, 88)
}

/// Words of `text` in lines of at most `width` characters (a longer word stands alone);
/// continuation lines are indented by two spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
            line.push_str("  ");
        }
        if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.trim().is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn sample() -> Containerlab {
        let node = |kind: &str| Node {
            kind: kind.into(),
            image: "img:1".into(),
            startup_config: None,
            mgmt_ipv4: None,
            labels: BTreeMap::from([("democ.role".into(), "switch".into())]),
            binds: Vec::new(),
            exec: Vec::new(),
        };
        Containerlab {
            file: "lab/t.clab.yml".into(),
            notes: vec!["one two three four five".into()],
            topology: Topology {
                name: "t".into(),
                mgmt: Some(Mgmt {
                    network: "democ-t".into(),
                    ipv4_subnet: "192.168.16.0/24".into(),
                    ipv4_gw: Some("192.168.16.254".into()),
                }),
                topology: Body {
                    nodes: BTreeMap::from([
                        ("a".into(), node("arista_ceos")),
                        ("b".into(), node("linux")),
                    ]),
                    links: vec![Link {
                        endpoints: ["a:eth1_1".into(), "b:e1-1".into()],
                    }],
                },
            },
            scripts: BTreeMap::new(),
            host_ports: BTreeMap::new(),
            configs: BTreeMap::new(),
        }
    }

    #[test]
    fn yaml_has_containerlab_keys_and_flow_endpoints() {
        let text = sample().to_yaml().expect("consistent");
        assert!(
            text.starts_with("# yaml-language-server: $schema="),
            "{text}"
        );
        assert!(
            text.contains("# one two three four five\nname: t\n"),
            "{text}"
        );
        assert!(text.contains("ipv4-subnet: 192.168.16.0/24"), "{text}");
        assert!(text.contains("ipv4-gw: \"192.168.16.254\""), "{text}");
        assert!(
            text.contains(r#"endpoints: ["a:eth1_1", "b:e1-1"]"#),
            "{text}"
        );
        let back: serde_json::Value = serde_saphyr::from_str(&text).expect("YAML parses");
        assert_eq!(back["topology"]["links"][0]["endpoints"][1], "b:e1-1");
        assert_eq!(
            back["topology"]["nodes"]["a"]["labels"]["democ.role"],
            "switch"
        );
    }

    #[test]
    fn an_inconsistent_topology_is_refused() {
        let mut lab = sample();
        lab.topology.topology.links[0].endpoints[1] = "c:e1-1".into();
        let err = lab.to_yaml().expect_err("missing node");
        assert!(err.to_string().contains("`c`"), "{err}");
    }

    #[test]
    fn notes_wrap_at_words() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "  cc"]);
        assert_eq!(wrap("averyverylongword x", 5), ["averyverylongword", "  x"]);
        assert!(wrap("  ", 5).is_empty());
    }
}
