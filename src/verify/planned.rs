//! What the build planned, as `democ verify` compares it: the plan's flows and link
//! loads (`plan.json`), each flow's pairs and their paths (`ir/flows/flows.json`), every
//! switch's ports with their vendor names, MTUs, peers and optics (`ir/<switch>.json`)
//! and the cabling plan (`cabling.csv`). Read through [`BuildDir`]: a build folder is
//! input, and only the fields verify needs are kept.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::build_dir::{BuildDir, MAX_BYTES, SMALL_BYTES};

#[derive(Debug, Deserialize)]
pub(crate) struct Limit {
    pub(crate) kind: String,
    pub(crate) gbps: f64,
    pub(crate) why: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct PlanFlow {
    pub(crate) name: String,
    /// `tcp`, `udp`, `rdma`, ...
    #[serde(default)]
    pub(crate) protocol: String,
    pub(crate) demand_gbps: f64,
    pub(crate) predicted_gbps: f64,
    pub(crate) bottleneck: Limit,
    #[serde(default)]
    pub(crate) limits: Vec<Limit>,
    pub(crate) rtt_ms: f64,
}

#[derive(Debug, Deserialize)]
pub(crate) struct PlanLink {
    /// `[WAN `name` ]A:port -> B:port` (traffic from A to B) or `A:port <- B:port`.
    pub(crate) link: String,
    pub(crate) load_gbps: f64,
    pub(crate) capacity_gbps: f64,
    /// The flows the load is from.
    #[serde(default)]
    pub(crate) flows: Vec<String>,
}

/// A link's end: a device and its port (`lag<id>` for a port-channel).
pub(crate) type End<'a> = (&'a str, String);

impl PlanLink {
    /// The device and port the planned load leaves by, and the one it enters by. A
    /// port-channel (`port-channel N A -> B`) leaves by `lagN` and enters by whatever
    /// bundle the far switch gave its members (`lag?`: find them by their peers).
    pub(crate) fn ends(&self) -> Option<(End<'_>, End<'_>)> {
        fn end(s: &str) -> Option<End<'_>> {
            let (d, p) = s.trim().split_once(':')?;
            Some((d, p.to_owned()))
        }
        if let Some(rest) = self.link.strip_prefix("port-channel ") {
            let (id, text) = rest.split_once(' ')?;
            let lag = format!("lag{id}");
            let (from, to) = match text.split_once(" -> ") {
                Some((a, b)) => (a, b),
                None => text.split_once(" <- ").map(|(a, b)| (b, a))?,
            };
            return Some(((from.trim(), lag), (to.trim(), "lag?".to_owned())));
        }
        let text = match self.link.rfind("` ") {
            Some(i) if self.link.starts_with("WAN `") => &self.link[i + 2..],
            _ => self.link.as_str(),
        };
        if let Some((a, b)) = text.split_once(" -> ") {
            Some((end(a)?, end(b)?))
        } else {
            let (a, b) = text.split_once(" <- ")?;
            Some((end(b)?, end(a)?))
        }
    }
}

#[derive(Debug, Deserialize)]
struct PlanDoc {
    show: String,
    flows: Vec<PlanFlow>,
    links: Vec<PlanLink>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Hop {
    pub(crate) switch: String,
    pub(crate) in_port: String,
    pub(crate) out_port: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Pair {
    pub(crate) src: String,
    pub(crate) dst: String,
    pub(crate) mtu: u32,
    pub(crate) rtt_ms: f64,
    pub(crate) path: Vec<Hop>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct FlowPairs {
    pub(crate) name: String,
    pub(crate) cookie: String,
    pub(crate) cookie_mask: String,
    pub(crate) pairs: Vec<Pair>,
}

#[derive(Debug, Deserialize)]
struct Peer {
    device: String,
    port: String,
}

#[derive(Debug, Deserialize)]
struct LagRef {
    id: u32,
}

#[derive(Debug, Deserialize)]
struct Interface {
    name: String,
    port: String,
    peer: Option<Peer>,
    optic: Option<String>,
    lag: Option<LagRef>,
    #[serde(default)]
    lldp: bool,
}

#[derive(Debug, Deserialize)]
struct PortNumber {
    interface: String,
    number: u32,
}

#[derive(Debug, Deserialize)]
struct OpenFlow {
    #[serde(default)]
    port_numbers: Vec<PortNumber>,
}

#[derive(Debug, Deserialize)]
struct SwitchDoc {
    hostname: String,
    /// The network OS (`eos`, `os10`, `sonic`, ...): which reader its state needs.
    #[serde(default)]
    os: String,
    interfaces: Vec<Interface>,
    openflow: Option<OpenFlow>,
}

/// One port of a switch as the build configured it.
#[derive(Debug)]
pub(crate) struct Port {
    /// The vendor's name (`Ethernet1/1`, `hundredGigE 1/1`).
    pub(crate) name: String,
    /// democ's canonical name (`1/1`, `1/31:1`).
    pub(crate) port: String,
    pub(crate) peer: Option<(String, String)>,
    pub(crate) optic: Option<String>,
    /// Its OpenFlow port number, on an OpenFlow switch.
    pub(crate) ofport: Option<u32>,
    /// The port-channel it is a member of.
    pub(crate) lag: Option<u32>,
    /// Whether the build runs LLDP on it.
    pub(crate) lldp: bool,
}

#[derive(Debug)]
pub(crate) struct Switch {
    /// The network OS the build configured (`eos`, `os10`, `sonic`, ...).
    pub(crate) os: String,
    pub(crate) ports: Vec<Port>,
}

impl Switch {
    /// A port by any name a switch's output uses for it: the vendor's, democ's, an
    /// OpenFlow port number, or EOS's short form (`Et1/1`).
    pub(crate) fn port(&self, name: &str) -> Option<&Port> {
        let n = name.trim();
        let long = n
            .strip_prefix("Et")
            .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
            .map(|r| format!("Ethernet{r}"));
        self.ports.iter().find(|p| {
            p.name == n
                || p.port == n
                || long.as_deref() == Some(p.name.as_str())
                || p.ofport.is_some_and(|o| n.parse() == Ok(o))
        })
    }

    /// The ports a path hop names: the port, or a port-channel's members (`lag<id>`).
    /// `lag?` names the members whose peer is `toward`'s device (the far end of a
    /// port-channel whose id on this side the plan does not say).
    pub(crate) fn hop_ports_toward(&self, port: &str, toward: &str) -> Vec<&Port> {
        if port == "lag?" {
            return self
                .ports
                .iter()
                .filter(|p| p.lag.is_some() && p.peer.as_ref().is_some_and(|(d, _)| d == toward))
                .collect();
        }
        self.hop_ports(port)
    }

    /// The ports a path hop names: the port, or a port-channel's members (`lag<id>`).
    pub(crate) fn hop_ports(&self, port: &str) -> Vec<&Port> {
        match port
            .strip_prefix("lag")
            .and_then(|id| id.parse::<u32>().ok())
        {
            Some(id) => self.ports.iter().filter(|p| p.lag == Some(id)).collect(),
            None => self.ports.iter().filter(|p| p.port == port).collect(),
        }
    }
}

/// One cable of `cabling.csv`: each end's device and port (with its breakout subport).
#[derive(Debug)]
pub(crate) struct Cable {
    pub(crate) id: String,
    pub(crate) a: (String, String),
    pub(crate) b: (String, String),
}

/// Everything verify compares against.
#[derive(Debug)]
pub(crate) struct Planned {
    pub(crate) show: String,
    pub(crate) flows: Vec<PlanFlow>,
    pub(crate) links: Vec<PlanLink>,
    pub(crate) pairs: BTreeMap<String, FlowPairs>,
    pub(crate) switches: BTreeMap<String, Switch>,
    pub(crate) cables: Vec<Cable>,
}

fn not_a_build(e: crate::build_dir::BuildReadError) -> String {
    format!("{e}; is it a `democ build` folder?")
}

fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8], shown: &str) -> Result<T, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("{shown}: {e}"))
}

/// The files of a build verify reads, as bytes: `plan.json`, `ir/flows/flows.json`,
/// each switch's IR, `cabling.csv`. From a build folder, or made in memory
/// (`report --results`).
pub(crate) struct Parts {
    pub(crate) plan: Vec<u8>,
    pub(crate) flows: Vec<u8>,
    pub(crate) switches: Vec<Vec<u8>>,
    pub(crate) cabling: String,
}

/// Reads a build folder; the error names the file and what is wrong with it.
pub(crate) fn read(path: &Path) -> Result<Planned, String> {
    let dir = BuildDir::open(path)?;
    let shown = |rel: &str| format!("{}/{rel}", dir.path().display());
    let mut switches = Vec::new();
    for f in dir.files_in("ir").map_err(String::from)? {
        if f.ends_with(".json") {
            switches.push(
                dir.read(&format!("ir/{f}"), SMALL_BYTES)
                    .map_err(String::from)?,
            );
        }
    }
    let parts = Parts {
        plan: dir.read("plan.json", MAX_BYTES).map_err(not_a_build)?,
        flows: dir
            .read("ir/flows/flows.json", MAX_BYTES)
            .map_err(not_a_build)?,
        switches,
        cabling: dir.text("cabling.csv", SMALL_BYTES).map_err(String::from)?,
    };
    from_parts(&parts, &shown)
}

/// What a build planned, from its files; `shown` names a file in an error.
pub(crate) fn from_parts(p: &Parts, shown: &dyn Fn(&str) -> String) -> Result<Planned, String> {
    let plan: PlanDoc = parse(&p.plan, &shown("plan.json"))?;
    let flows: Vec<FlowPairs> = parse(&p.flows, &shown("ir/flows/flows.json"))?;
    let mut switches = BTreeMap::new();
    for bytes in &p.switches {
        // Only switch IR has these fields; other IR documents are not switches.
        let Ok(doc) = serde_json::from_slice::<SwitchDoc>(bytes) else {
            continue;
        };
        let numbers: BTreeMap<&str, u32> = doc
            .openflow
            .iter()
            .flat_map(|o| &o.port_numbers)
            .map(|p| (p.interface.as_str(), p.number))
            .collect();
        let ports = doc
            .interfaces
            .iter()
            .map(|i| Port {
                name: i.name.clone(),
                port: i.port.clone(),
                peer: i.peer.as_ref().map(|p| (p.device.clone(), p.port.clone())),
                optic: i.optic.clone(),
                ofport: numbers.get(i.name.as_str()).copied(),
                lag: i.lag.as_ref().map(|l| l.id),
                lldp: i.lldp,
            })
            .collect();
        switches.insert(doc.hostname, Switch { os: doc.os, ports });
    }
    Ok(Planned {
        show: plan.show,
        flows: plan.flows,
        links: plan.links,
        pairs: flows.into_iter().map(|f| (f.name.clone(), f)).collect(),
        switches,
        cables: cabling(&p.cabling)?,
    })
}

/// `cabling.csv`'s device and port columns (a port with a breakout subport is written
/// `port:subport`, as the plan writes it).
fn cabling(text: &str) -> Result<Vec<Cable>, String> {
    let mut rows = crate::csv::parse(text).into_iter();
    let Some(head) = rows.next() else {
        return Ok(Vec::new());
    };
    let col = |name: &str| head.iter().position(|h| h == name);
    let need = |name: &str| col(name).ok_or(format!("cabling.csv has no `{name}` column"));
    let (id, ad, ap, asub, bd, bp, bsub) = (
        need("id")?,
        need("a_device")?,
        need("a_port")?,
        need("a_subport")?,
        need("b_device")?,
        need("b_port")?,
        need("b_subport")?,
    );
    let port = |r: &[String], p: usize, s: usize| {
        let sub = r.get(s).map_or("", String::as_str);
        let p = r.get(p).cloned().unwrap_or_default();
        if sub.is_empty() {
            p
        } else {
            format!("{p}:{sub}")
        }
    };
    Ok(rows
        .filter(|r| r.len() == head.len())
        .map(|r| Cable {
            id: r[id].clone(),
            a: (r[ad].clone(), port(&r, ap, asub)),
            b: (r[bd].clone(), port(&r, bp, bsub)),
        })
        .collect())
}
