//! One switch's structured configuration.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::interface::{Breakout, Interface, PortChannel, Vlan};
use super::openflow::Openflow;
use super::qos::Qos;
use super::routing::{Bgp, StaticRoute};

/// A switch: identity, management, ports, L2, L3, OpenFlow and QoS.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Switch {
    pub(crate) hostname: String,
    /// Folder under templates/: `dell`, `arista`, `pica8`, `mellanox`.
    pub(crate) vendor: String,
    /// OS flavour: `os10`, `ftos9`, `eos`, `picos`, `onyx`.
    pub(crate) os: String,
    /// Catalog model.
    pub(crate) model: String,
    /// The model's silicon family where the catalog names one (`sand`): validators
    /// and twins read it to know which platform-specific syntax the switch takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) platform: Option<String>,
    pub(crate) site: String,
    /// The template that prints this switch (`dell/os10.j2`).
    pub(crate) template: String,
    /// Where `democ build` writes the rendered text (`switches/<name>.cfg`, or `.sh` for an OVS script).
    /// Not written for an external switch.
    pub(crate) config_file: String,
    /// Owned by others (`external: true` in the spec): this IR is what democ assumes it
    /// does; no config is written, pushed or cross-checked for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) external: bool,
    /// Free text from the spec, sanitized for the vendor's CLI.
    pub(crate) description: Option<String>,
    /// Why this file is a planning artefact, not a config to load (no source confirms
    /// that the model runs this OS); printed at the top of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) planning_only: Option<String>,
    pub(crate) management: Option<Management>,
    /// Lines the model's platform needs first (templates/<vendor>/vendor.yaml
    /// `platforms:`), such as the SX6036's switch to Ethernet; a reload follows them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) platform_setup: Vec<String>,
    /// `ip routing` needed: some interface is routed or BGP runs.
    pub(crate) ip_routing: bool,
    /// Breakout commands on parent ports, by port.
    pub(crate) breakouts: Vec<Breakout>,
    /// Every port of the model, in port order; unused ports are administratively down.
    pub(crate) interfaces: Vec<Interface>,
    pub(crate) port_channels: Vec<PortChannel>,
    /// Sorted by id.
    pub(crate) vlans: Vec<Vlan>,
    pub(crate) static_routes: Vec<StaticRoute>,
    pub(crate) bgp: Option<Bgp>,
    pub(crate) lldp: Lldp,
    /// Spanning tree democ configures: only where the OS runs none by default and the
    /// switch has a layer-2 port toward another switch (lower/spanning_tree.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) spanning_tree: Option<SpanningTree>,
    /// `show.services`: time, logs and monitoring, reached from the management port.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) services: Option<Services>,
    pub(crate) openflow: Option<Openflow>,
    /// Lossless RoCE: PFC and ECN on the ports RDMA flows cross.
    pub(crate) qos: Option<Qos>,
    /// SONiC: the config_db.json written beside `config_file` (which holds FRR's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) sonic: Option<Sonic>,
    /// Cumulus Linux: the NVUE file written beside `config_file` (which holds the FRR
    /// configuration NVUE derives on the switch, what the twin runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cumulus: Option<Cumulus>,
}

/// Where a Cumulus switch's NVUE startup YAML goes.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cumulus {
    /// `switches/<name>.nvue.yaml`: `nv config replace` it, then `nv config apply`.
    pub(crate) nvue_file: String,
}

/// What a SONiC switch needs besides the IR's tables: where its config_db.json goes and
/// DEVICE_METADATA's platform fields.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Sonic {
    /// `switches/<name>.config_db.json`.
    pub(crate) config_db_file: String,
    /// The platform folder (`x86_64-nvidia_sn5600-r0`), where the catalog names one.
    pub(crate) platform: Option<String>,
    /// The HWSKU, where the catalog names one.
    pub(crate) hwsku: Option<String>,
    /// DEVICE_METADATA `docker_routing_config_mode`: `split-unified`, FRR runs
    /// `config_file` as written.
    pub(crate) routing_config_mode: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Management {
    /// Vendor name of the out-of-band port (`Management1`, `mgmt1/1/1`).
    pub(crate) interface: String,
    pub(crate) address: Ipv4,
    /// `show.management.gateway`, the management network's router.
    pub(crate) gateway: Option<String>,
    /// The VRF the management port and its routes live in, on OSes that use one (EOS).
    pub(crate) vrf: Option<String>,
    /// Routes of the management port's own table (`management route`, `ip route vrf`,
    /// the management default gateway): `0.0.0.0/0` via the gateway where the OS keeps
    /// management routes apart from the data plane; else only the controller's host route.
    pub(crate) routes: Vec<super::routing::StaticRoute>,
}

/// Base services, each reached from the management port (`source`), in the management
/// VRF where the OS keeps one (`vrf`).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Services {
    pub(crate) ntp: Vec<String>,
    pub(crate) syslog: Vec<String>,
    pub(crate) snmp: Option<Snmp>,
    pub(crate) sflow: Option<Sflow>,
    /// The gNMI server on the management port (`show.services.gnmi`), where the OS has one
    /// democ can enable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gnmi: Option<Gnmi>,
    /// The management VRF the services are reached in (EOS with `show.management.vrf`).
    pub(crate) vrf: Option<String>,
    /// The management interface the switch sends from, in the vendor's spelling.
    pub(crate) source: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Gnmi {
    /// The TCP port it listens on (the OS's default).
    pub(crate) port: u16,
    /// It serves TLS with a self-signed certificate (else plain gRPC).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) tls: bool,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Snmp {
    /// Read-only v2c community (letters, digits, `-`, `_`, `.`).
    pub(crate) community: String,
    /// v2c trap receivers.
    pub(crate) traps: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Sflow {
    pub(crate) collector: String,
    pub(crate) port: u16,
    /// One packet in `sample_rate` is sampled.
    pub(crate) sample_rate: u32,
    /// Seconds between counter samples.
    pub(crate) polling_interval: u32,
    /// The agent address sFlow datagrams name: the switch's management address.
    pub(crate) agent: String,
}

/// A spanning tree the switch runs.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpanningTree {
    /// `rstp`.
    pub(crate) protocol: String,
    /// Vendor names of the layer-2 ports and port-channels toward hosts: edge ports,
    /// which forward at once (the spanning tree runs between switches).
    pub(crate) edge_ports: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Lldp {
    pub(crate) enabled: bool,
}

/// An interface address in the three spellings the CLIs use.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ipv4 {
    /// `10.255.0.0`
    #[schemars(regex(pattern = r"^[0-9]{1,3}(\.[0-9]{1,3}){3}$"))]
    pub(crate) address: String,
    /// `31`
    #[schemars(range(max = 32))]
    pub(crate) prefix_length: u8,
    /// `10.255.0.0/31`
    #[schemars(regex(pattern = r"^[0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}$"))]
    pub(crate) cidr: String,
}

impl Switch {
    /// Whether the canonical port (or `lag<id>`) is under the controller.
    pub(crate) fn under_controller(&self, port: &str) -> bool {
        if let Some(id) = port.strip_prefix("lag").and_then(|i| i.parse::<u16>().ok()) {
            return self
                .port_channels
                .iter()
                .any(|p| p.id == id && p.openflow());
        }
        self.interfaces
            .iter()
            .any(|i| i.port == port && i.openflow())
    }
}

impl Ipv4 {
    pub(crate) fn new(address: std::net::Ipv4Addr, prefix_length: u8) -> Ipv4 {
        Ipv4 {
            address: address.to_string(),
            prefix_length,
            cidr: format!("{address}/{prefix_length}"),
        }
    }
}
