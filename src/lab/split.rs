//! `democ lab split BUILD --lab-hosts ...`: the build's lab spread over several
//! machines. Its nodes are partitioned (lab/partition.rs), each host gets a containerlab
//! topology of its own (`lab/split/<host>.clab.yml`) and every cable between two hosts
//! becomes a containerlab `vxlan` link at each end, one VNI per cable; containerlab's
//! multi-host labs, not a home-made distribution. `lab/split/partition.json` says which
//! node went where and what was cut; `lab up --on HOST` deploys one part.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::hosts::LabHost;
use super::partition::Graph;
use crate::build_dir::BuildDir;
use crate::ir::lab::{Body, Node, PartLink, Topology, VxlanEnd, VxlanLink};

/// Where the parts are written, in the build.
pub(crate) const DIR: &str = "lab/split";
pub(crate) const SUMMARY: &str = "lab/split/partition.json";

/// The VXLAN header cost on the underlay: outer Ethernet 14, IPv4 20, UDP 8, VXLAN 8.
pub(crate) const VXLAN_OVERHEAD: u32 = 50;

/// The first cut cable's VNI (then one more each): clear of the small VNIs a show's own
/// VXLAN fabric tends to use.
const VNI_BASE: u32 = 10_000;

/// `lab/split/partition.json`.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Split {
    /// The build's lab name.
    pub(crate) lab: String,
    /// The UDP port of every tunnel.
    pub(crate) dst_port: u16,
    /// The tunnels' interface MTU; the underlay must carry `mtu + 50`.
    pub(crate) mtu: u32,
    pub(crate) hosts: Vec<Part>,
    pub(crate) cut: Vec<Cut>,
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Part {
    pub(crate) host: String,
    pub(crate) address: String,
    /// Its topology, in the build.
    pub(crate) topology: String,
    pub(crate) nodes: Vec<String>,
}

/// A cable between two hosts.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Cut {
    pub(crate) vni: u32,
    /// `node:interface` and the host it is on, at each end.
    pub(crate) ends: [(String, String); 2],
}

fn node_of(end: &str) -> &str {
    end.split(':').next().unwrap_or_default()
}

/// A node's files as the part's topology (one folder deeper) names them.
fn deeper(mut node: Node) -> Node {
    let up = |p: &str| {
        if p.starts_with('/') {
            p.to_owned()
        } else {
            format!("../{p}")
        }
    };
    node.binds = node.binds.iter().map(|b| up(b)).collect();
    node.startup_config = node.startup_config.as_deref().map(up);
    node
}

/// The parts of `topo` over `hosts` (at least two, no more than the nodes): the summary
/// and each part's topology by host.
pub(crate) fn split(
    topo: &Topology,
    hosts: &[LabHost],
    dst_port: u16,
    mtu: u32,
) -> (Split, Vec<Topology<PartLink>>) {
    let names: Vec<&String> = topo.topology.nodes.keys().collect();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let links = &topo.topology.links;
    let graph = Graph {
        n: names.len(),
        links: links
            .iter()
            .filter_map(|l| {
                Some((
                    *index.get(node_of(&l.endpoints[0]))?,
                    *index.get(node_of(&l.endpoints[1]))?,
                ))
            })
            .collect(),
    };
    let part = graph.split(hosts.len());
    let host_of = |end: &str| index.get(node_of(end)).map(|&i| part[i]);
    let mut bodies: Vec<Body<PartLink>> = hosts
        .iter()
        .map(|_| Body {
            nodes: BTreeMap::new(),
            links: Vec::new(),
        })
        .collect();
    for (i, (name, node)) in topo.topology.nodes.iter().enumerate() {
        bodies[part[i]]
            .nodes
            .insert(name.clone(), deeper(node.clone()));
    }
    let mut cut = Vec::new();
    for l in links {
        let (Some(pa), Some(pb)) = (host_of(&l.endpoints[0]), host_of(&l.endpoints[1])) else {
            continue;
        };
        if pa == pb {
            bodies[pa].links.push(PartLink::Veth(l.clone()));
            continue;
        }
        let vni = VNI_BASE + u32::try_from(cut.len()).unwrap_or(u32::MAX - VNI_BASE);
        for (here, there, end) in [(pa, pb, &l.endpoints[0]), (pb, pa, &l.endpoints[1])] {
            let (node, interface) = end.split_once(':').unwrap_or((end, ""));
            bodies[here].links.push(PartLink::Vxlan(VxlanLink {
                kind: "vxlan".into(),
                endpoint: VxlanEnd {
                    node: node.into(),
                    interface: interface.into(),
                },
                remote: hosts[there].address.to_string(),
                vni,
                dst_port,
                mtu,
            }));
        }
        cut.push(Cut {
            vni,
            ends: [
                (l.endpoints[0].clone(), hosts[pa].name.clone()),
                (l.endpoints[1].clone(), hosts[pb].name.clone()),
            ],
        });
    }
    let parts: Vec<Topology<PartLink>> = bodies
        .into_iter()
        .map(|body| Topology {
            name: topo.name.clone(),
            mgmt: topo.mgmt.clone(),
            topology: body,
        })
        .collect();
    let summary = Split {
        lab: topo.name.clone(),
        dst_port,
        mtu,
        hosts: hosts
            .iter()
            .zip(&parts)
            .map(|(h, t)| Part {
                host: h.name.clone(),
                address: h.address.to_string(),
                topology: format!("{DIR}/{}.clab.yml", h.name),
                nodes: t.topology.nodes.keys().cloned().collect(),
            })
            .collect(),
        cut,
    };
    (summary, parts)
}

/// The largest interface MTU a node's script sets: the switches' ports (as the
/// stand-ins set them) and the hosts' ports and bonds.
pub(crate) fn largest_mtu(b: &crate::twin::build::Build) -> u32 {
    let switches = b
        .switches
        .values()
        .flat_map(|s| &s.interfaces)
        .map(crate::twin::switch::ip_mtu);
    let hosts = b.hosts.values().flat_map(|h| {
        h.interfaces
            .iter()
            .map(|p| p.mtu)
            .chain(h.bonds.iter().map(|x| x.mtu))
    });
    switches.chain(hosts).max().unwrap_or(1500).max(1500)
}

/// The comment lines above a part's topology.
fn header(s: &Split, p: &Part) -> String {
    let mut out = String::from(
        "# yaml-language-server: $schema=https://raw.githubusercontent.com/srl-labs/containerlab/main/schemas/clab.schema.json\n",
    );
    let lines = [
        format!(
            "Part `{}` of lab `{}`, for lab host {}: written by `democ lab split`; deploy it there with `democ lab up BUILD --on {}` (docs/lab.md).",
            p.host, s.lab, p.address, p.host
        ),
        format!(
            "Cables to other hosts are containerlab `vxlan` links (UDP port {}, one VNI each). Their interfaces carry {} bytes, so the underlay between the hosts must carry {}-byte packets ({} plus 50 bytes of outer Ethernet, IP, UDP and VXLAN headers): set that MTU on the interfaces routing to the other hosts, and open UDP {} between them.",
            s.dst_port,
            s.mtu,
            s.mtu + VXLAN_OVERHEAD,
            s.mtu,
            s.dst_port
        ),
    ];
    for l in lines {
        for w in crate::ir::lab::wrap_note(&l) {
            out.push_str("# ");
            out.push_str(&w);
            out.push('\n');
        }
    }
    out
}

/// The files of a split: each part's topology and the summary, by path in the build.
pub(crate) fn files(
    s: &Split,
    parts: &[Topology<PartLink>],
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut options = serde_saphyr::SerializerOptions::default();
    options.prefer_block_scalars = false;
    for (p, t) in s.hosts.iter().zip(parts) {
        let body = serde_saphyr::to_string_with_options(t, options.clone())
            .map_err(|e| format!("{}: {e}", p.topology))?;
        out.push((p.topology.clone(), header(s, p) + &body));
    }
    let json = serde_json::to_string_pretty(s).map_err(|e| e.to_string())?;
    out.push((SUMMARY.to_owned(), json + "\n"));
    Ok(out)
}

/// What a split did, for the terminal.
pub(crate) fn summary(s: &Split) -> String {
    let mut out = format!(
        "lab `{}` split over {} hosts, {} cables cut (VXLAN, UDP {}):\n",
        s.lab,
        s.hosts.len(),
        s.cut.len(),
        s.dst_port
    );
    for p in &s.hosts {
        out.push_str(&format!(
            "  {} ({}): {} nodes, {}\n",
            p.host,
            p.address,
            p.nodes.len(),
            p.topology
        ));
    }
    for c in &s.cut {
        out.push_str(&format!(
            "  vni {}: {} ({}) - {} ({})\n",
            c.vni, c.ends[0].0, c.ends[0].1, c.ends[1].0, c.ends[1].1
        ));
    }
    out
}

/// The split a build holds, if any.
pub(crate) fn read(dir: &BuildDir) -> Result<Option<Split>, String> {
    match dir.read(SUMMARY, crate::build_dir::SMALL_BYTES) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{}/{SUMMARY}: {e}", dir.path().display())),
        Err(e) if e.missing => Ok(None),
        Err(e) => Err(e.message),
    }
}

/// `lab up --on HOST`: Err with E0703 when the build's split names no host `host`.
pub(crate) fn check_on(build: &std::path::Path, host: &str) -> Result<(), Refused> {
    use crate::diag::{Diagnostic, Diags, codes};
    use crate::source::{Sources, Span};
    let dir = BuildDir::open(build).map_err(|e| Refused::Other(e.to_string()))?;
    let Some(s) = read(&dir).map_err(Refused::Other)? else {
        return Err(Refused::Other(format!(
            "{} holds no split lab ({SUMMARY} is missing): `democ lab split` it first",
            build.display()
        )));
    };
    if s.hosts.iter().any(|h| h.host == host) {
        return Ok(());
    }
    let mut sources = Sources::default();
    let file = sources.add("--on", host.to_owned());
    let names: Vec<&str> = s.hosts.iter().map(|h| h.host.as_str()).collect();
    let mut d = Diags::default();
    d.push(
        Diagnostic::new(
            codes::UNKNOWN_LAB_HOST,
            Span::new(file, 0, host.len()),
            format!("the split lab has no lab host `{host}`"),
        )
        .label("not a host of lab/split/partition.json")
        .help(format!(
            "its hosts are {}; `democ lab split` again to change them",
            crate::diag::list(&names)
        )),
    );
    Err(Refused::Diags(sources, d))
}

/// Why a split was refused: located diagnostics, or a plain message (an unreadable
/// build).
pub(crate) enum Refused {
    Diags(crate::source::Sources, crate::diag::Diags),
    Other(String),
}

/// Where the lab hosts come from.
pub(crate) enum HostsFrom<'a> {
    /// `--lab-hosts a=10.0.0.1,b=10.0.0.2`.
    Line(&'a str),
    /// `--lab-hosts-file FILE`.
    File(&'a std::path::Path),
}

/// `democ lab split`: Ok((what was written, the underlay warning)).
pub(crate) fn run(
    build: &std::path::Path,
    from: HostsFrom,
    dst_port: u16,
) -> Result<(String, String), Refused> {
    use crate::diag::{Diagnostic, Diags, codes};
    use crate::source::{Sources, Span};
    let mut sources = Sources::default();
    let (text, name, lines) = match from {
        HostsFrom::Line(t) => (t.to_owned(), "--lab-hosts".to_owned(), false),
        HostsFrom::File(p) => {
            // A list of machines: a few hundred bytes.
            let text =
                crate::read::text(p, 64 * 1024).map_err(|e| Refused::Other(e.to_string()))?;
            (text, p.display().to_string(), true)
        }
    };
    let file = sources.add(name, text.clone());
    let hosts = match super::hosts::parse(&text, file, lines) {
        Ok(h) => h,
        Err(d) => return Err(Refused::Diags(sources, d)),
    };
    let dir = BuildDir::open(build).map_err(|e| Refused::Other(e.to_string()))?;
    let (_, topo) = super::copy::read(&dir).map_err(Refused::Other)?;
    let n = topo.topology.nodes.len();
    if n < hosts.len() {
        let mut d = Diags::default();
        d.push(
            Diagnostic::new(
                codes::LAB_PARTITION,
                Span::new(file, 0, text.trim_end().len()),
                format!(
                    "lab `{}` has {n} nodes, fewer than the {} lab hosts named",
                    topo.name,
                    hosts.len()
                ),
            )
            .label(format!("{} hosts", hosts.len()))
            .help(format!(
                "name at most {n} lab hosts, so each gets a node, or deploy the lab on one machine with `democ lab up`"
            )),
        );
        return Err(Refused::Diags(sources, d));
    }
    let b = crate::twin::build::Build::read(build).map_err(Refused::Other)?;
    let mtu = largest_mtu(&b);
    let (s, parts) = split(&topo, &hosts, dst_port, mtu);
    // A part of an earlier split over other hosts would be deployable still: gone.
    if let Ok(old) = std::fs::read_dir(build.join(DIR)) {
        for f in old.filter_map(Result::ok) {
            let name = f.file_name().to_string_lossy().into_owned();
            let ours = s
                .hosts
                .iter()
                .any(|h| h.topology == format!("{DIR}/{name}"));
            if name.ends_with(".clab.yml") && !ours {
                let _ = std::fs::remove_file(f.path());
            }
        }
    }
    for (path, text) in files(&s, &parts).map_err(Refused::Other)? {
        let at = build.join(&path);
        if let Some(up) = at.parent() {
            std::fs::create_dir_all(up)
                .map_err(|e| Refused::Other(format!("{}: {e}", up.display())))?;
        }
        crate::write::file(&at, text.as_bytes()).map_err(|e| Refused::Other(e.to_string()))?;
    }
    let warning = format!(
        "the {} tunnels' interfaces carry {} bytes (the show's largest MTU): the underlay between the lab hosts must carry {}-byte packets (VXLAN adds {VXLAN_OVERHEAD}), and UDP {} must pass between them",
        s.cut.len(),
        s.mtu,
        s.mtu + VXLAN_OVERHEAD,
        s.dst_port
    );
    Ok((summary(&s), warning))
}
