//! Vendor knowledge as data: templates/<vendor>/vendor.yaml, compiled in. Interface
//! naming, MTU ceilings, speed/FEC/breakout keywords and capabilities per OS flavour.
//! Adding a vendor is adding a folder (build.rs embeds every file under templates/).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use error::VendorError;

pub(crate) mod error;
pub(crate) mod profile;

/// Every file under templates/, by path (`dell/os10.j2`), embedded by build.rs.
pub(crate) const EMBEDDED: &[(&str, &str)] =
    &include!(concat!(env!("OUT_DIR"), "/embedded_templates.rs"));

/// One templates/<vendor>/vendor.yaml.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct VendorFile {
    /// Catalog `vendor:` values this folder serves, compared case-insensitively.
    pub(crate) names: Vec<String>,
    /// By OS keyword (`os10`, `ftos9`, `eos`, `picos`, `onyx`).
    pub(crate) flavours: BTreeMap<String, Flavour>,
}

/// A LAG hash as an OS's manual documents it. democ computes a member only from a
/// function given to the bit (key layout, seed, reduction to a member); none of the
/// switch OSes' manuals does, so their LAGs keep the random model (check/hashing.rs).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LagHashDoc {
    /// The header fields hashed by default.
    pub(crate) fields: String,
    /// The function as the manual names it, or `unconfirmed`.
    pub(crate) function: String,
    /// The manual gives the function to the bit.
    pub(crate) exact: bool,
    /// Manual and page, with [C]/[U].
    pub(crate) source: String,
}

/// One OS flavour of a vendor.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Flavour {
    /// Documentation for readers of vendor.yaml (checked non-empty by a test).
    #[allow(dead_code)]
    pub(crate) title: String,
    /// File name of the template in the vendor's folder.
    pub(crate) template: String,
    /// Extension of the rendered file.
    pub(crate) extension: String,
    /// The OS loads a `config_db.json` (SONiC), written by democ's serde writer
    /// (src/config_db) beside the template's file, under this extension.
    #[serde(default)]
    pub(crate) config_db: Option<String>,
    /// The OS loads an NVUE startup YAML (Cumulus Linux), written by democ's serde
    /// writer (src/nvue) beside the template's file, under this extension.
    #[serde(default)]
    pub(crate) nvue: Option<String>,
    /// Where the syntax comes from, with [C]/[U] marks.
    #[allow(dead_code)]
    pub(crate) source: String,
    /// Interface naming; the first rule whose speeds and forms hold the port's wins.
    pub(crate) interfaces: Vec<NameRule>,
    /// Port-channel name with `{id}`.
    pub(crate) port_channel: String,
    /// Port-channels can run without LACP (`lacp: static`); SONiC's teamd always
    /// runs LACP (PORTCHANNEL has no static mode).
    #[serde(default = "yes")]
    pub(crate) static_lags: bool,
    /// Largest port-channel number the OS accepts (ids start at 1), from its manual;
    /// absent where no source gives one (then only the general 1-65535 bound holds).
    #[serde(default)]
    pub(crate) port_channel_max: Option<u16>,
    /// What the OS's manual says of the hash that spreads a port-channel's traffic over
    /// its members: the fields, the function, and whether it is given to the bit.
    pub(crate) lag_hash: LagHashDoc,
    /// Routed VLAN interface name with `{id}`.
    pub(crate) vlan_interface: String,
    pub(crate) management: Option<String>,
    /// The management port routes in a table of its own (Dell `management route`, Onyx
    /// and PicOS management interfaces), apart from the data plane's.
    #[serde(default)]
    pub(crate) management_table_separate: bool,
    /// The OS puts the management port in a VRF (EOS): `show.management.vrf`, else `MGMT`.
    #[serde(default)]
    pub(crate) management_vrf: bool,
    /// The OpenFlow agent connects to its controller from the management VRF. Where it
    /// cannot, an OpenFlow switch reaching its controller out of band keeps the
    /// management port in the global table (W0306).
    #[serde(default)]
    pub(crate) management_vrf_openflow: bool,
    /// How lab/<show>.clab.yml runs this OS; absent: a stand-in.
    #[serde(default)]
    pub(crate) containerlab: Option<ClabCaps>,
    /// Largest MTU the OS accepts, in its unit (may be below the hardware's: EOS 9214).
    pub(crate) max_mtu: u32,
    /// What the OS's `mtu` command means.
    pub(crate) mtu: MtuCli,
    /// Speed (`25G`) to the OS's speed argument.
    pub(crate) speeds: BTreeMap<String, String>,
    /// Subports carry their lane speed explicitly (EOS breakout).
    #[serde(default)]
    pub(crate) speed_on_subports: bool,
    /// A port runs below its default speed through the breakout command's `1x<speed>`
    /// mode (FTOS `portmode single speed 40G`), not a `speed` line.
    #[serde(default)]
    pub(crate) speed_via_breakout: bool,
    /// Port-channel members inherit the port-channel's MTU and QoS and carry none of
    /// their own (OS10, Onyx).
    #[serde(default)]
    pub(crate) lag_members_inherit: bool,
    /// None: the OS cannot (or democ does not know how to) break ports out.
    pub(crate) breakout: Option<BreakoutCaps>,
    /// Speeds whose keyword the manual does not confirm (listed by W0305 when used).
    #[serde(default)]
    pub(crate) unconfirmed_speeds: Vec<String>,
    pub(crate) fec: Vec<FecRule>,
    pub(crate) text: TextRules,
    pub(crate) routed_ports: RoutedPorts,
    #[serde(default)]
    pub(crate) svi_vlan_base: Option<u16>,
    pub(crate) bgp: bool,
    /// The template prints `network` statements (`bgp.networks`).
    #[serde(default)]
    pub(crate) bgp_network: bool,
    /// The template prints each neighbor's import and export prefix lists.
    #[serde(default)]
    pub(crate) bgp_policy: bool,
    pub(crate) qos: QosCaps,
    /// The base services (`show.services`) democ writes on this OS; one left out is a
    /// W0303 naming what to configure by hand.
    #[serde(default)]
    pub(crate) services: ServiceCaps,
    /// What differs on a silicon family (the catalog model's `platform`).
    #[serde(default)]
    pub(crate) platforms: BTreeMap<String, PlatformCaps>,
    /// Lane 1 of a split port carries the lane speed even when nothing is cabled to
    /// it: the other lanes come up only then (EOS).
    #[serde(default)]
    pub(crate) breakout_lane1_speed: bool,
    /// None: no OpenFlow on this OS.
    #[serde(default)]
    pub(crate) openflow: Option<OfCaps>,
    /// The OS runs no spanning tree by default, and democ configures this one where a
    /// switch has a layer-2 port toward another switch; absent: the OS's default
    /// spanning tree runs and democ leaves it as it is.
    #[serde(default)]
    pub(crate) spanning_tree: Option<StpCaps>,
    /// Quirks lowering applies, for documentation.
    #[serde(default)]
    #[allow(dead_code)]
    pub(crate) quirks: Vec<String>,
}

/// The spanning tree democ turns on (`spanning_tree:` in vendor.yaml).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StpCaps {
    /// The protocol the template configures (`rstp`).
    pub(crate) protocol: String,
    /// Where the default and the syntax come from.
    #[allow(dead_code)]
    pub(crate) source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NameRule {
    /// Port speeds the rule covers (default all).
    #[serde(default)]
    pub(crate) speeds: Option<Vec<String>>,
    /// Cage forms the rule covers (`qsfp28`, `sfp+`; default all).
    #[serde(default)]
    pub(crate) forms: Option<Vec<String>>,
    /// The rule covers canonical units from this one up (modular chassis, whose line-card
    /// slots are the unit: EOS `Ethernet3/1/1` on a 7800R3); default all.
    #[serde(default)]
    pub(crate) min_unit: Option<u32>,
    /// `{unit}`, `{n}` from the canonical `unit/n`.
    pub(crate) port: String,
    /// `{unit}`, `{n}`, `{k}` from the canonical `unit/n:k`; absent: no breakout subports.
    #[serde(default)]
    pub(crate) subport: Option<String>,
    /// Lanes each subport of a speed takes (`{ 100G: 2 }`): subport k is then named by
    /// its first lane, 1 + (k - 1) x lanes (EOS octal ports: 4x100G-2 is /1, /3, /5, /7);
    /// a speed not listed takes one lane, k itself.
    #[serde(default)]
    pub(crate) lanes: std::collections::BTreeMap<String, u32>,
}

/// A flavour's `containerlab:` section: the kind that runs the OS, or why none does.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClabCaps {
    /// Why no containerlab kind runs this OS: the switch is a stand-in.
    #[serde(default)]
    pub(crate) standin: Option<String>,
    #[serde(default)]
    pub(crate) kind: Option<String>,
    /// A placeholder the user overrides (documented in vendor.yaml).
    #[serde(default)]
    pub(crate) image: Option<String>,
    /// The kind boots democ's config (`startup-config`).
    #[serde(default)]
    pub(crate) startup_config: bool,
    /// Highest front-panel port number the kind can wire.
    #[serde(default)]
    pub(crate) max_port: Option<u32>,
    /// Linux interface names containerlab wires, as `interfaces` above.
    #[serde(default)]
    pub(crate) interfaces: Vec<NameRule>,
    /// The management port's name under this kind when it differs from the switch's
    /// (cEOS-lab: `Management0`): the lab's config (`lab/configs/`) renames it.
    #[serde(default)]
    pub(crate) management: Option<String>,
    /// The kind has only the interfaces the lab wires and refuses configuration of any
    /// other: the lab's config leaves their blocks out.
    #[serde(default)]
    pub(crate) wired_only: bool,
}

/// templates/containerlab.yaml: hosts and stand-ins.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LabNodes {
    /// Image of hosts and stand-ins (lab/containerlab/node/Dockerfile).
    pub(crate) image: String,
    pub(crate) host: LabHost,
    pub(crate) standin: LabStandin,
    pub(crate) controller: LabController,
}

/// The OpenFlow controller's node when no host holds the controller's address.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LabController {
    pub(crate) kind: String,
    /// OpenDaylight's image, the user's to provide (a placeholder).
    pub(crate) image: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LabHost {
    pub(crate) kind: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LabStandin {
    pub(crate) kind: String,
    pub(crate) interfaces: Vec<NameRule>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BreakoutCaps {
    /// What the breakout command names, with `{unit}` and `{n}`; none: split by lane speed.
    #[serde(default)]
    pub(crate) target: Option<String>,
    /// Mode (`4x25G`) to the OS's keyword.
    pub(crate) modes: BTreeMap<String, String>,
    /// Modes whose keyword the manual does not confirm: a build using one lists it
    /// (W0305).
    #[serde(default)]
    pub(crate) unconfirmed: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FecRule {
    /// `rs`, `fc` or `none`.
    pub(crate) mode: String,
    #[serde(default)]
    pub(crate) speeds: Option<Vec<String>>,
    /// The OS's argument; empty means "turn FEC off".
    pub(crate) set: String,
}

/// How free text (descriptions) is made safe for the CLI. Control characters never
/// survive (see lower::safe_text); these are the vendor's extra rules.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TextRules {
    pub(crate) max_len: usize,
    /// Characters replaced (quotes inside quoted strings, `?` that opens CLI help).
    pub(crate) replace: BTreeMap<String, String>,
}

/// What a flavour's `mtu N` counts (src/derive/mtu.rs has the model).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MtuCli {
    /// `frame`: the layer-2 frame size; `ip`: the IP MTU.
    pub(crate) counts: MtuUnit,
    /// A frame size that includes the FCS (Dell: 18 bytes of overhead untagged).
    pub(crate) fcs: bool,
    /// Routed interfaces also take `ip mtu`, at least this many bytes below the frame
    /// size (OS10: 32).
    #[serde(default)]
    pub(crate) ip_below_frame: Option<u32>,
    /// Where the meaning is documented, with [C]/[U] marks.
    #[allow(dead_code)]
    pub(crate) source: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum MtuUnit {
    Frame,
    Ip,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RoutedPorts {
    /// `no switchport` + an address on the port.
    Native,
    /// An access port in a VLAN of its own with an L3 VLAN interface.
    Svi,
}

/// A silicon family's differences from the flavour's defaults.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlatformCaps {
    /// The egress-queue keyword ECN is configured under.
    #[serde(default)]
    pub(crate) ecn_queue: Option<String>,
    /// `max-mark-probability` (percent) the platform's ECN line requires (EOS Sand).
    #[serde(default)]
    pub(crate) ecn_max_mark_probability: Option<u8>,
    /// Lines the platform needs before any other (the SX6036's Ethernet profile).
    #[serde(default)]
    pub(crate) setup: Vec<String>,
    /// Speed arguments that differ on this silicon (EOS PAM4 cages: `100g-2`), over
    /// the flavour's `speeds`.
    #[serde(default)]
    pub(crate) speeds: BTreeMap<String, String>,
    /// Why, with the source.
    #[allow(dead_code)]
    pub(crate) source: String,
}

/// Which base services the template writes, each from the OS's manual (vendor.yaml cites it).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServiceCaps {
    #[serde(default)]
    pub(crate) ntp: bool,
    #[serde(default)]
    pub(crate) syslog: bool,
    #[serde(default)]
    pub(crate) snmp: bool,
    /// Whether the config also sends SNMP traps; unset: with `snmp` (SONiC's models have
    /// a community table but none for trap receivers).
    #[serde(default)]
    pub(crate) snmp_traps: Option<bool>,
    #[serde(default)]
    pub(crate) sflow: Option<SflowCaps>,
    /// A gNMI server democ can enable on the management port (`show.services.gnmi`).
    #[serde(default)]
    pub(crate) gnmi: Option<GnmiCaps>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GnmiCaps {
    /// The TCP port the server listens on when the config names none.
    pub(crate) port: u16,
    /// The server speaks TLS with a certificate of its own making (self-signed), so a
    /// collector connects with TLS and does not verify it; false: plain gRPC.
    #[serde(default)]
    pub(crate) tls: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SflowCaps {
    /// The OS sends sFlow datagrams out of its management port. Where it sends them only
    /// from data ports (OS10), a collector on the management network is not reached.
    pub(crate) from_management: bool,
    /// Sampling rates the OS accepts, `[lowest, highest]`.
    pub(crate) sample_rate: [u32; 2],
    /// Counter-polling intervals the OS accepts, seconds, `[lowest, highest]`.
    pub(crate) polling_s: [u32; 2],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QosCaps {
    pub(crate) pfc: bool,
    pub(crate) ecn: bool,
    pub(crate) ecn_min_kbytes: u32,
    pub(crate) ecn_max_kbytes: u32,
    /// The template classifies RoCE by DSCP (trust and the DSCP -> traffic-class map).
    #[serde(default)]
    pub(crate) dscp_trust: bool,
    /// The egress-queue keyword ECN is configured under (EOS `uc-tx-queue`), unless
    /// the platform's says otherwise.
    #[serde(default)]
    pub(crate) ecn_queue: Option<String>,
    /// PFC (DCB) cannot run beside link-level flow control on any port (FTOS 9): a
    /// switch with PFC gets no `flowcontrol` lines.
    #[serde(default)]
    pub(crate) pfc_excludes_flow_control: bool,
    /// The OS's RoCE mode puts lossless traffic on this priority and no other
    /// (Cumulus `qos roce`: 3): a show asking another gets a W0303.
    #[serde(default)]
    pub(crate) fixed_priority: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DpidRule {
    /// Any 16 hex digits.
    Settable,
    /// High 16 bits are the instance number (FTOS).
    InstancePrefixed,
    /// The OS derives it; democ cannot set it.
    None,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OfCaps {
    /// `hybrid`, `pure`, `ovs`.
    pub(crate) modes: Vec<String>,
    /// Version (`1.3`) to the OS's spelling.
    pub(crate) versions: BTreeMap<String, String>,
    /// The OS has a version setting. Without one (EOS) the switch speaks the versions
    /// its manual documents, and a show asking for another gets a warning, not an error.
    #[serde(default = "yes")]
    pub(crate) version_knob: bool,
    /// Instance/bridge name, with `{instance}`.
    pub(crate) name: String,
    pub(crate) dpid: DpidRule,
    /// democ knows how to configure the controller connection.
    pub(crate) controller: bool,
    #[serde(default)]
    pub(crate) preconditions: Vec<String>,
    /// A hybrid OpenFlow rule can hand packets to the legacy pipeline (the NORMAL
    /// action): rules may leave through a legacy port, and the table-miss entry of a
    /// hybrid switch is NORMAL rather than drop.
    #[serde(default)]
    pub(crate) normal: bool,
    /// What OpenFlow ports may share with the switch's own forwarding.
    pub(crate) boundary: OfBoundary,
    /// What rules may match and do on this OS's agent.
    pub(crate) profile: profile::Profile,
    /// How the agent numbers its ports.
    pub(crate) port_numbers: profile::Numbering,
    /// OVS mode renders this template instead.
    #[serde(default)]
    pub(crate) ovs: Option<OvsOutput>,
}

/// The OS's line between OpenFlow ports and legacy (switch-forwarded) ports, from its
/// manual (cited beside the data in vendor.yaml).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OfBoundary {
    /// A packet entering on an OpenFlow port can leave on a legacy port, and the reverse.
    pub(crate) bridges_legacy: bool,
    /// A packet no rule matches on an OpenFlow port falls to the normal L2/L3 pipeline, so
    /// the port forwards before the controller writes anything (Onyx hybrid).
    pub(crate) forwards_without_rules: bool,
    /// Features never configured on an OpenFlow port.
    pub(crate) forbids: Vec<OfForbid>,
}

/// What the manual says of one OpenFlow ability.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Support {
    Yes,
    No,
    /// Not found in the manual either way: the rules use it, with a warning.
    #[default]
    Unconfirmed,
}

/// A feature an OS does not allow on OpenFlow ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum OfForbid {
    /// DCB: PFC and ECN (the lossless class).
    Dcb,
    /// The switch's own LLDP.
    Lldp,
    /// Port-channel members in the OpenFlow instance (the port-channel joins instead).
    LagMembers,
}

impl OfCaps {
    pub(crate) fn forbids(&self, f: OfForbid) -> bool {
        self.boundary.forbids.contains(&f)
    }

    /// The version a switch asked for `asked` speaks: that one where the OS has it,
    /// otherwise (no version setting) the newest its manual documents.
    pub(crate) fn version(&self, asked: &str) -> String {
        if self.versions.contains_key(asked) {
            asked.to_owned()
        } else {
            self.versions.keys().last().cloned().unwrap_or_default()
        }
    }

    /// Whether democ writes ARP rules for this agent at `version`: not where the profile
    /// rules ARP's addresses out (FTOS), nor at OpenFlow 1.0, whose ARP match
    /// OpenDaylight's openflowplugin does not carry (its `MatchV10Convertor` converts the
    /// IPv4 addresses only, so a controller would install every ARP rule of a port as one
    /// rule). Their pairs' hosts hold static neighbours instead.
    pub(crate) fn writes_arp(&self, version: &str) -> bool {
        version != "1.0" && self.profile.forwards_arp()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OvsOutput {
    pub(crate) template: String,
    pub(crate) extension: String,
    /// Speed to the OVS interface option's value.
    pub(crate) speeds: BTreeMap<String, String>,
    /// DAC-cabled ports are flagged (`options:is_dac=true`).
    #[serde(default)]
    pub(crate) flag_dac: bool,
}

fn yes() -> bool {
    true
}

/// All vendors, by folder name, and the containerlab nodes that are no vendor's.
#[derive(Debug)]
pub(crate) struct Vendors {
    pub(crate) by_folder: BTreeMap<String, VendorFile>,
    pub(crate) lab: LabNodes,
}

impl Vendors {
    /// The folder and flavour for an OS keyword. OS keywords name one vendor's software
    /// (a whitebox from Inventec runs Pica8's PicOS), so the OS decides; the catalog
    /// vendor only breaks a tie between folders offering the same keyword.
    pub(crate) fn flavour(&self, vendor: &str, os: &str) -> Option<(&str, &Flavour)> {
        let v = vendor.trim().to_lowercase();
        let mut offers = self
            .by_folder
            .iter()
            .filter_map(|(folder, f)| f.flavours.get(os).map(|fl| (folder.as_str(), f, fl)));
        let all: Vec<_> = offers.by_ref().collect();
        let by_vendor = all
            .iter()
            .find(|(folder, f, _)| *folder == v || f.names.iter().any(|n| n.to_lowercase() == v));
        by_vendor
            .or(all.first())
            .map(|(folder, _, fl)| (*folder, *fl))
    }

    pub(crate) fn folders(&self) -> impl Iterator<Item = &str> {
        self.by_folder.keys().map(String::as_str)
    }
}

const LAB_NODES: &str = "containerlab.yaml";

fn parse() -> Result<Vendors, VendorError> {
    let lab: LabNodes = crate::yaml::embedded::data(&format!("templates/{LAB_NODES}"))?;
    let mut out = Vendors {
        by_folder: BTreeMap::new(),
        lab,
    };
    for (path, _) in EMBEDDED {
        let Some(folder) = path.strip_suffix("/vendor.yaml") else {
            continue;
        };
        let file: VendorFile = crate::yaml::embedded::data(&format!("templates/{path}"))?;
        for (os, fl) in &file.flavours {
            let template = format!("{folder}/{}", fl.template);
            if !EMBEDDED.iter().any(|(p, _)| *p == template) {
                return Err(VendorError::MissingTemplate {
                    path: (*path).to_owned(),
                    os: os.clone(),
                    template,
                });
            }
            if let Some(c) = &fl.containerlab {
                let whole = c.kind.is_some() && c.image.is_some() && !c.interfaces.is_empty();
                if c.standin.is_some() == whole || (c.standin.is_some() && c.startup_config) {
                    return Err(VendorError::LabKind {
                        path: (*path).to_owned(),
                        os: os.clone(),
                    });
                }
            }
        }
        out.by_folder.insert(folder.to_owned(), file);
    }
    Ok(out)
}

/// The embedded vendor data, parsed once. An error is a bug in templates/ (a test
/// parses every file).
pub(crate) fn vendors() -> Result<&'static Vendors, VendorError> {
    static CELL: OnceLock<Result<Vendors, VendorError>> = OnceLock::new();
    CELL.get_or_init(parse).as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_vendor_file_parses() {
        let v = super::vendors().expect("vendor.yaml files parse");
        let folders: Vec<&str> = v.folders().collect();
        assert_eq!(
            folders,
            [
                "appliance",
                "arista",
                "cumulus",
                "dell",
                "mellanox",
                "pica8",
                "sonic"
            ]
        );
        for (os, vendor) in [
            ("os10", "Dell"),
            ("ftos9", "dell"),
            ("eos", "Arista"),
            ("picos", "Pica8"),
            ("onyx", "Mellanox"),
            ("picos", "Inventec"),
            ("sonic", "NVIDIA"),
            ("sonic", "Edgecore"),
            ("cumulus", "NVIDIA"),
        ] {
            assert!(v.flavour(vendor, os).is_some(), "{vendor}/{os}");
        }
        assert_eq!(
            v.flavour("Inventec", "picos").map(|(f, _)| f),
            Some("pica8")
        );
    }
}
