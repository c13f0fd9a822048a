//! Each DTN's settings and test transfers (`ir::host`): the fixed part from
//! templates/linux/tuning.yaml (ESnet fasterdata), the rest from the show: interface
//! MTUs and addresses, the NIC's NUMA node, and for every routed pair the server port,
//! the streams the prediction assumed and the pacing that spreads the pair's rate over
//! them.

use super::error::LowerError;
use crate::check::CheckInput;
use crate::check::client_ports::PairPorts;
use crate::derive::ShowModel;
use crate::derive::paths::host_ports;
use crate::host_tuning::{DiskPlan, Tuning, tuning};
use crate::ir::host::{
    BigTcp, Congestion, DiskIo, FabricIo, Host, HostInterface, SourceRoute, Sysctl, Transfer,
};
use crate::resolve::model::HostId;
use crate::spec::fabric::Transport;
use crate::spec::flow::{Protocol, Store};
use crate::spec::switch::Os;

const TEMPLATE: &str = "linux/dtn.sh.j2";

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| (*s).to_owned()).collect()
}

/// Bits per second as iperf3 and tc read them, in whole Mbit/s (at least 1).
fn rate_arg(bps: f64) -> String {
    format!("{}M", (bps / 1e6).round().max(1.0))
}

/// The NUMA node of every host port's NIC, by host then port.
fn numa_nodes(cx: &CheckInput) -> Vec<Vec<Option<u8>>> {
    cx.m.hosts
        .iter()
        .map(|host| {
            let nics: Vec<Option<u8>> = (0..host.nics.len())
                .map(|n| crate::check::pcie::nic_link(cx, host, n).and_then(|l| l.1.socket))
                .collect();
            host.ports
                .iter()
                .map(|p| p.nic.and_then(|n| nics.get(n).copied().flatten()))
                .collect()
        })
        .collect()
}

/// Every DTN's settings and transfers, sorted by name. `Err` is a bug in templates/.
pub(crate) fn lower(front: &ShowModel) -> Result<Vec<Host>, LowerError> {
    let t = tuning()?;
    let Some(cx) = CheckInput::new(front) else {
        return Ok(Vec::new());
    };
    let m = cx.m;
    let numa = numa_nodes(&cx);
    // The port-channel id of every link in one.
    let mut lags = vec![None; m.links.len()];
    for g in &m.lags {
        for &l in &g.members {
            lags[l] = Some(g.id);
        }
    }
    let pause = pause_ports(&cx);
    let mut hosts: Vec<Host> = (0..m.hosts.len())
        .map(|h| settings(&cx, t, h, &numa[h], &lags, &pause[h]))
        .collect();
    let nqns = m
        .fabrics
        .iter()
        .map(|f| {
            super::fabrics::subsystem_nqn(
                &super::safe_text::name_like(&m.settings.name),
                &f.name.value,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    transfers(&cx, t, &numa, &nqns, &mut hosts);
    // RoCE fabrics need the same lossless settings on their target and initiators,
    // whether or not a declared flow joins them.
    for fab in m.fabrics.iter().filter(|f| f.transport == Transport::Rdma) {
        for h in std::iter::once(fab.target).chain(fab.initiators.iter().copied()) {
            hosts[h]
                .roce
                .get_or_insert_with(|| roce(m.settings.pfc_priority));
        }
    }
    for h in &mut hosts {
        needs(t, h);
    }
    gateway_routes(&cx, &mut hosts);
    neighbors(front, &mut hosts)?;
    let gaps = crate::lower::lossless::gaps(front, crate::vendor::vendors()?);
    for (h, list) in gaps {
        if let Some(r) = hosts[h].roce.as_mut() {
            r.not_lossless = list;
        }
    }
    hosts.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(hosts)
}

/// The OSes whose templates write the `flow_control` of a host-facing port
/// (`flowcontrol receive on`): eos.j2, os10.j2, ftos9.j2, onyx.j2; PicOS's do not.
const WRITES_FLOW_CONTROL: [Os; 4] = [Os::Eos, Os::Os10, Os::Ftos9, Os::Onyx];

/// Per host, per port: whether the switch port facing it honours 802.3x pause, as
/// `lower::interfaces` configures it (a cabled, enabled host port carrying no RDMA, on
/// an OS whose config writes it).
fn pause_ports(cx: &CheckInput) -> Vec<Vec<bool>> {
    use crate::resolve::model::NodeId;
    let m = cx.m;
    let rdma = crate::lower::qos::rdma_by_switch(m, cx.routes);
    let mut out: Vec<Vec<bool>> = m.hosts.iter().map(|h| vec![false; h.ports.len()]).collect();
    for l in &m.links {
        for (mine, other) in [(l.a, l.b), (l.b, l.a)] {
            let (NodeId::Host(h), NodeId::Switch(s)) = (mine.node, other.node) else {
                continue;
            };
            let sw = &m.switches[s];
            out[h][mine.port] = WRITES_FLOW_CONTROL.contains(&sw.os)
                && !sw.ports[other.port].shutdown
                && !rdma[s].ports.contains(&other.port);
        }
    }
    out
}

/// Ports of one host with addresses in one subnet (outside bonds), each with a table
/// of its own; empty when no two share one.
fn same_subnet(
    h: &crate::resolve::model::Host,
    lags: &[Option<u16>],
    first_table: u32,
) -> Vec<SourceRoute> {
    // A bond's member holds no address (the bond does): a table sourcing from it would
    // name an address no interface has, which the kernel refuses ("Invalid prefsrc").
    let addressed: Vec<(usize, crate::spec::addr::Prefix)> = h
        .ports
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.link
                .is_some_and(|l| lags.get(l).copied().flatten().is_none())
        })
        .filter_map(|(i, p)| p.address.map(|a| (i, a)))
        .collect();
    let shared: Vec<&(usize, crate::spec::addr::Prefix)> = addressed
        .iter()
        .filter(|(i, a)| {
            addressed
                .iter()
                .any(|(j, b)| j != i && a.subnet() == b.subnet())
        })
        .collect();
    shared
        .into_iter()
        .zip(first_table..)
        .map(|(&(i, a), table)| SourceRoute {
            var: crate::spec::name::port_shell_var(&h.ports[i].name),
            port: h.ports[i].name.clone(),
            address: a.addr.to_string(),
            subnet: a.subnet().to_string(),
            table,
        })
        .collect()
}

/// The other host's port when link `l` of host `id` goes straight to a host.
fn direct_peer(
    m: &crate::resolve::model::Model,
    id: HostId,
    l: crate::resolve::model::LinkId,
) -> Option<crate::ir::host::DirectPeer> {
    use crate::resolve::model::NodeId;
    let link = m.links.get(l)?;
    let far = if link.a.node == NodeId::Host(id) {
        link.b
    } else {
        link.a
    };
    let NodeId::Host(h) = far.node else {
        return None;
    };
    Some(crate::ir::host::DirectPeer {
        host: m.hosts[h].name.value.clone(),
        port: m.hosts[h].ports[far.port].name.clone(),
    })
}

fn settings(
    cx: &CheckInput,
    t: &Tuning,
    id: HostId,
    numa: &[Option<u8>],
    lags: &[Option<u16>],
    pause: &[bool],
) -> Host {
    let h = &cx.m.hosts[id];
    let interfaces = h
        .ports
        .iter()
        .enumerate()
        .filter(|(_, p)| p.link.is_some())
        .map(|(i, p)| HostInterface {
            port: p.name.clone(),
            var: crate::spec::name::port_shell_var(&p.name),
            mtu: h.mtu.value,
            address: p.address.map(|a| a.to_string()),
            numa_node: numa.get(i).copied().flatten(),
            nic: p
                .nic
                .and_then(|n| h.nics.get(n))
                .map_or(String::new(), |n| n.model.value.clone()),
            lag: p.link.and_then(|l| lags.get(l).copied().flatten()),
            rings: (p.speed.gbps() >= t.rings.min_gbps).then_some(t.rings.entries),
            pause: pause.get(i).copied().unwrap_or(false),
            mac: None,
            direct: p.link.and_then(|l| direct_peer(cx.m, id, l)),
        })
        .collect();
    let same_subnet = same_subnet(h, lags, t.same_subnet.first_table);
    let jumbo = h.mtu.value > 1500;
    let sysctl = t
        .sysctl
        .iter()
        .chain(t.jumbo_sysctl.iter().filter(|_| jumbo))
        .chain(
            t.same_subnet
                .sysctl
                .iter()
                .filter(|_| !same_subnet.is_empty()),
        )
        .map(|s| Sysctl {
            key: s.key.clone(),
            value: s.value.clone(),
        })
        .collect();
    Host {
        name: h.name.value.clone(),
        script_file: format!("hosts/{}.sh", h.name.value),
        template: TEMPLATE.into(),
        bonds: bonds(cx.m, id),
        interfaces,
        modules: t.modules.clone(),
        big_tcp: h.kernel.and_then(|k| big_tcp(&t.big_tcp, k)),
        sysctl,
        governor: t.governor.clone(),
        coalescing: t.coalescing.clone(),
        drives: drives(cx, h, &t.disk),
        needs: Vec::new(),
        iperf3_threads: None,
        seconds: t.transfers.seconds,
        routes: Vec::new(),
        neighbors: Vec::new(),
        management: super::host_mgmt::management(cx.m, id),
        roce: None,
        same_subnet,
        serve: Vec::new(),
        send: Vec::new(),
    }
}

/// BIG TCP where kernel `k` has it: IPv6's from `ipv6_since`, IPv4's too from
/// `ipv4_since`.
fn big_tcp(b: &crate::host_tuning::BigTcp, k: crate::spec::kernel::Kernel) -> Option<BigTcp> {
    k.at_least(b.ipv6_since).then(|| BigTcp {
        size: b.size,
        ipv4: k.at_least(b.ipv4_since),
        kernel: k.to_string(),
    })
}

/// What the host's transfers need, from the commands they run.
fn needs(t: &Tuning, h: &mut Host) {
    let all = || h.serve.iter().chain(&h.send);
    let runs = |tool: &str| all().any(|x| x.argv.iter().any(|w| w == tool));
    let threads = h.send.iter().any(|x| {
        x.argv.iter().any(|w| w == "iperf3")
            && x.argv.windows(2).any(|w| w[0] == "-P" && w[1] != "1")
    });
    h.iperf3_threads = threads.then(|| t.needs.iperf3_min_version.clone());
    let mut needs = Vec::new();
    if threads {
        needs.push(t.needs.iperf3.clone());
    }
    if runs("ib_write_bw") {
        needs.push(t.needs.perftest.clone());
    }
    let fabric_io = || {
        all()
            .filter_map(|x| x.fabric.as_ref())
            .filter(|f| f.rw.is_some())
    };
    if all().any(|x| x.disk.is_some()) || fabric_io().next().is_some() {
        needs.push(t.needs.fio.clone());
    }
    if fabric_io().next().is_some() {
        needs.push(t.needs.fabric.clone());
    }
    if runs("numactl") || fabric_io().any(|f| f.pin.iter().any(|w| w == "numactl")) {
        needs.push(t.needs.numactl.clone());
    }
    h.needs = needs;
}

/// The host's drives, numbered across its groups in declaration order, with the socket
/// each group hangs off.
fn drives(
    cx: &CheckInput,
    h: &crate::resolve::model::Host,
    d: &DiskPlan,
) -> Vec<crate::ir::host::Drive> {
    let ch = cx.db.chassis.get(&h.chassis);
    if h.nvme.is_empty() && !h.raid.is_empty() {
        return arrays(ch, h);
    }
    h.nvme
        .iter()
        .flat_map(|g| {
            let node = ch
                .and_then(|c| crate::check::storage::group_attach(c, g))
                .and_then(|a| a.socket);
            std::iter::repeat_n((g.model.value.clone(), node), g.count as usize)
        })
        .enumerate()
        .map(|(i, (model, numa_node))| crate::ir::host::Drive {
            var: format!("DRIVE_{}", i + 1),
            default_dir: format!("{}{i}", d.drive_dir),
            model,
            numa_node,
        })
        .collect()
}

/// A host's RAID arrays as the drives its transfers read and write: one block device
/// (a virtual drive of its controller) per array, mounted at `/mnt/raid<i>` by default.
fn arrays(
    ch: Option<&crate::spec::catalog_file::ChassisModel>,
    h: &crate::resolve::model::Host,
) -> Vec<crate::ir::host::Drive> {
    h.raid
        .iter()
        .enumerate()
        .map(|(i, a)| crate::ir::host::Drive {
            var: format!("DRIVE_{}", i + 1),
            default_dir: format!("/mnt/raid{i}"),
            model: a.disks.value.clone(),
            numa_node: ch
                .and_then(|c| crate::check::pcie::slot(c, &a.slot))
                .and_then(|s| s.socket),
        })
        .collect()
}

/// The host's bonds: one per LAG with members on it, its members in the LAG's order, so
/// the first member's address (the one the flows and rules use) goes on the bond.
fn bonds(m: &crate::resolve::model::Model, id: HostId) -> Vec<crate::ir::host::Bond> {
    use crate::resolve::model::NodeId;
    use crate::spec::link::Lacp;
    let h = &m.hosts[id];
    let mut out: Vec<crate::ir::host::Bond> = m
        .lags
        .iter()
        .filter_map(|g| {
            let ports: Vec<usize> = g
                .members
                .iter()
                .filter_map(|&l| {
                    let link = &m.links[l];
                    [link.a, link.b]
                        .into_iter()
                        .find(|e| e.node == NodeId::Host(id))
                        .map(|e| e.port)
                })
                .collect();
            let first = *ports.first()?;
            let lacp = match g.lacp {
                Lacp::Active => Some("active"),
                Lacp::Passive => Some("passive"),
                Lacp::Static => None,
            };
            Some(crate::ir::host::Bond {
                name: format!("bond{}", g.id),
                lag: g.id,
                mode: if lacp.is_some() {
                    "802.3ad"
                } else {
                    "balance-xor"
                }
                .into(),
                lacp: lacp.map(str::to_owned),
                members: ports
                    .iter()
                    .map(|&p| crate::spec::name::port_shell_var(&h.ports[p].name))
                    .collect(),
                ports: ports.iter().map(|&p| h.ports[p].name.clone()).collect(),
                mtu: h.mtu.value,
                address: h.ports[first].address.map(|a| a.to_string()),
                mac: None,
            })
        })
        .collect();
    out.sort_by_key(|b| b.lag);
    out
}

/// ToS of RoCE data: the DSCP in the upper six bits, ECT(0) in the ECN bits.
fn roce_tos() -> u8 {
    (crate::lower::qos::ROCE_DSCP << 2) | 2
}

fn roce(pfc_priority: u8) -> crate::ir::host::Roce {
    crate::ir::host::Roce {
        pfc: (0..8)
            .map(|i| if i == pfc_priority { "1" } else { "0" })
            .collect::<Vec<_>>()
            .join(","),
        tos: roce_tos(),
        dscp: crate::lower::qos::ROCE_DSCP,
        not_lossless: Vec::new(),
    }
}

/// For every pair, each end behind a gateway routes the other end's subnet (its
/// gateway's, else the host itself) through that gateway, when it is off its own subnet.
fn gateway_routes(cx: &CheckInput, hosts: &mut [Host]) {
    use crate::derive::bgp::{address, gateway};
    let m = cx.m;
    let mut want = vec![std::collections::BTreeSet::new(); m.hosts.len()];
    for pr in cx.routes.flows.iter().flat_map(|f| &f.pairs) {
        for (a, b) in [(pr.src, pr.dst), (pr.dst, pr.src)] {
            let (Some((g, _)), Some((_, mine)), Some((_, theirs))) =
                (gateway(m, a), address(m, a), address(m, b))
            else {
                continue;
            };
            if mine.contains(theirs.addr) {
                continue;
            }
            let to = gateway(m, b).map_or(
                crate::spec::addr::Prefix {
                    addr: theirs.addr,
                    len: 32,
                },
                |(_, p)| p.subnet(),
            );
            if let Some(gw) = &m.switches[g].gateway {
                want[a].insert((to, gw.addr));
            }
        }
    }
    for (h, set) in hosts.iter_mut().zip(want) {
        h.routes = set
            .into_iter()
            .map(|(p, via)| crate::ir::routing::StaticRoute {
                prefix: p.to_string(),
                next_hop: via.to_string(),
            })
            .collect();
    }
}

/// Every routed pair, in flow order: a server on the receiving host (ports counted per
/// host from `first_port`) and a client on the sending one, pinned to its NIC's node.
fn transfers(
    cx: &CheckInput,
    t: &Tuning,
    numa: &[Vec<Option<u8>>],
    nqns: &[String],
    hosts: &mut [Host],
) {
    let m = cx.m;
    let fallback = crate::host_tuning::default_congestion_control(t);
    // Server and client ports, as the prediction saw them (check::client_ports).
    let ports = cx.test_ports();
    for (fi, f) in m.flows.iter().enumerate() {
        let routes = &cx.routes.flows[fi];
        let streams = crate::check::client_ports::pair_streams(cx, fi);
        let paced = cx.paced().get(fi);
        for (pi, (pr, pp)) in routes.pairs.iter().zip(&ports[fi]).enumerate() {
            // Each stream at its share of the pair's rate: the demand, or below it the
            // pacing of a sender whose kernel paces (check/pacing.rs).
            let pair_bps = paced
                .and_then(|p| p.get(pi).copied().flatten())
                .unwrap_or_else(|| f.pair_rate().bps());
            let per_stream = pair_bps / f64::from(streams.max(1));
            let (src, dst) = (pr.src, pr.dst);
            let t_ports = match pp {
                PairPorts::Fabric(i) => {
                    fabric_pair(cx, t, numa, (*i, &nqns[*i]), fi, pr, hosts);
                    continue;
                }
                PairPorts::Untested => continue,
                PairPorts::Test(p) => p,
            };
            let (sp, dp) = t_ports.ends;
            let (src_addr, dst_addr) = (t_ports.addrs.0.to_string(), t_ports.addrs.1.to_string());
            let pin = |node: Option<u8>| -> Vec<String> {
                node.map_or(Vec::new(), |n| {
                    let n = n.to_string();
                    words(&["numactl", "-N", &n, "-m", &n])
                })
            };
            let port = t_ports.server.to_string();
            let n = streams.to_string();
            let mut congestion = None;
            let (server, client): (Vec<String>, Vec<String>) = match f.protocol.value {
                Protocol::Rdma => {
                    for h in [src, dst] {
                        hosts[h]
                            .roce
                            .get_or_insert_with(|| roce(cx.m.settings.pfc_priority));
                    }
                    // -R: connect through RDMA-CM (which resolves the RoCEv2 GID, so no
                    // `-x` index is guessed); -T: the ToS the switches trust.
                    let tos = roce_tos().to_string();
                    let server = words(&[
                        "ib_write_bw",
                        "-R",
                        "-T",
                        &tos,
                        "--report_gbits",
                        "-q",
                        &n,
                        "-p",
                        &port,
                    ]);
                    let mut client = server.clone();
                    client.push(dst_addr);
                    (server, client)
                }
                proto => {
                    // A bonded host's address is its bond's (the script builds it).
                    let mut c = words(&["iperf3", "-c", &dst_addr, "-p", &port, "-B", &src_addr]);
                    if let Some(p) = &t_ports.picked {
                        c.extend(["--cport".into(), p.cport.to_string()]);
                    }
                    c.extend(words(&["-P", &n]));
                    // The flow's own congestion control, where it is not the default
                    // `tune` sets (`-C`, appended by the script with its fallback); the
                    // others run the default, which is what the plan assumed for them.
                    if proto == Protocol::Tcp && Some(f.cc.as_str()) != fallback {
                        congestion = fallback.map(|d| Congestion {
                            algorithm: f.cc.as_str().into(),
                            fallback: d.into(),
                        });
                        if let Some(module) = t.congestion_modules.get(f.cc.as_str()) {
                            let modules = &mut hosts[src].modules;
                            if !modules.contains(module) {
                                modules.push(module.clone());
                            }
                        }
                    }
                    if proto == Protocol::Udp {
                        c.extend(["-u".into(), "-b".into(), rate_arg(per_stream)]);
                    } else {
                        c.extend(["--fq-rate".into(), rate_arg(per_stream)]);
                    }
                    let server = words(&["iperf3", "-s", "-D", "-p", &port, "-B", &dst_addr]);
                    (server, c)
                }
            };
            let numa_of = |h: HostId, p: usize| numa[h].get(p).copied().flatten();
            // A `pin:` runs the end on its socket instead of its NIC's.
            let mut serve = pin(f.pin.1.or(numa_of(dst, dp)));
            serve.extend(server);
            let mut send = pin(f.pin.0.or(numa_of(src, sp)));
            send.extend(client);
            let rdma = f.protocol.value == Protocol::Rdma;
            let disk = |me: HostId, peer: HostId, store: Store, read: bool, pin: Vec<String>| {
                (store != Store::Memory && !hosts[me].drives.is_empty()).then(|| DiskIo {
                    rw: if read { "read" } else { "write" }.into(),
                    drives: hosts[me].drives.iter().map(|d| d.var.clone()).collect(),
                    rate_bytes: (f.pair_rate().bps() / 8.0 / hosts[me].drives.len() as f64)
                        .ceil()
                        .max(1.0) as u64,
                    file: format!("democ-{}-{}.dat", f.name.value, m.hosts[peer].name.value),
                    options: t.disk.options.clone(),
                    extra_seconds: if read { 0 } else { t.disk.receiver_lead_s },
                    pin,
                })
            };
            let serve_disk = disk(dst, src, f.sink, false, pin(f.pin.1.or(numa_of(dst, dp))));
            let send_disk = disk(src, dst, f.source, true, pin(f.pin.0.or(numa_of(src, sp))));
            let transfer = |me: HostId, peer: HostId, argv: Vec<String>, duration, disk| Transfer {
                flow: f.name.value.clone(),
                peer: m.hosts[peer].name.value.clone(),
                argv,
                duration,
                disk,
                fabric: None,
                congestion: None,
                zerocopy: None,
                // A stripe's results carry its port: the pair runs once per port.
                result: if f.stripe_width > 1 {
                    format!(
                        "{}+{}",
                        result_stem(&f.name.value, m, (src, dst), me),
                        m.hosts[pr.src].ports[sp].name
                    )
                } else {
                    result_stem(&f.name.value, m, (src, dst), me)
                },
            };
            // ib_write_bw's server runs for the test's length too; iperf3's until stopped.
            let server_duration = rdma.then(|| "-D".to_owned());
            let client_duration = Some(if rdma { "-D" } else { "-t" }.to_owned());
            hosts[dst]
                .serve
                .push(transfer(dst, src, serve, server_duration, serve_disk));
            let mut sent = transfer(src, dst, send, client_duration, send_disk);
            sent.congestion = congestion;
            // MSG_ZEROCOPY where the sender's declared kernel has it for TCP; the script
            // asks its iperf3 for the option (templates/linux/tuning.yaml, `zerocopy`).
            let zc = &t.transfers.zerocopy;
            if f.protocol.value == Protocol::Tcp
                && m.hosts[src].kernel.is_some_and(|k| k.at_least(zc.since))
            {
                sent.zerocopy = Some(zc.option.clone());
            }
            hosts[src].send.push(sent);
        }
    }
}

/// A pair of a fabric's target and one of its initiators: the initiator's `send` runs
/// fio on the fabric's namespaces (reading them when the flow leaves the target, writing
/// them when it goes to it), with its own drives written or read beside it when the
/// flow's sink or source there is `nvme`; the target's `serve` says nvmet serves them
/// (its drives are the fabric's namespaces, so nothing else runs on them).
fn fabric_pair(
    cx: &CheckInput,
    t: &Tuning,
    numa: &[Vec<Option<u8>>],
    (fabric, nqn): (usize, &str),
    fi: usize,
    pr: &crate::derive::paths::PairRoute,
    hosts: &mut [Host],
) {
    let m = cx.m;
    let (f, fab) = (&m.flows[fi], &m.fabrics[fabric]);
    let reads = fab.target == pr.src;
    let (target, initiator) = if reads {
        (pr.src, pr.dst)
    } else {
        (pr.dst, pr.src)
    };
    let Some(port) = host_ports(m, pr, !reads).next().map(|(_, p)| p) else {
        return;
    };
    let pin = numa[initiator]
        .get(port)
        .copied()
        .flatten()
        .map_or(Vec::new(), |n| {
            let n = n.to_string();
            words(&["numactl", "-N", &n, "-m", &n])
        });
    let rate_bytes = (f.pair_rate().bps() / 8.0).ceil().max(1.0) as u64;
    let (name, flow) = (&fab.name.value, &f.name.value);
    let host = |h: HostId| m.hosts[h].name.value.clone();
    let store = if reads { f.sink } else { f.source };
    let drives = &hosts[initiator].drives;
    let disk = (store != Store::Memory && !drives.is_empty()).then(|| DiskIo {
        rw: if reads { "write" } else { "read" }.into(),
        drives: drives.iter().map(|d| d.var.clone()).collect(),
        rate_bytes: (rate_bytes as f64 / drives.len() as f64).ceil() as u64,
        file: format!("democ-{flow}-{}.dat", host(target)),
        options: t.disk.options.clone(),
        extra_seconds: 0,
        pin: pin.clone(),
    });
    let stem = |me: HostId| result_stem(flow, m, (pr.src, pr.dst), me);
    let io = |rw: Option<&str>, setup: String| FabricIo {
        name: name.clone(),
        nqn: nqn.to_owned(),
        rw: rw.map(str::to_owned),
        setup,
        rate_bytes,
        log: stem(initiator),
        options: t.disk.options.clone(),
        pin: pin.clone(),
    };
    let send = Transfer {
        flow: flow.clone(),
        peer: host(target),
        argv: Vec::new(),
        duration: None,
        disk,
        fabric: Some(io(
            Some(if reads { "read" } else { "write" }),
            format!("nvmeof/{name}/initiator-{}.sh", host(initiator)),
        )),
        congestion: None,
        zerocopy: None,
        result: stem(initiator),
    };
    let serve = Transfer {
        flow: flow.clone(),
        peer: host(initiator),
        argv: Vec::new(),
        duration: None,
        disk: None,
        fabric: Some(io(
            None,
            format!("nvmeof/{name}/target-{}.sh", host(target)),
        )),
        congestion: None,
        zerocopy: None,
        result: stem(target),
    };
    hosts[initiator].send.push(send);
    hosts[target].serve.push(serve);
}

/// The stem of a transfer's result files (`Transfer::result`): the flow, the pair's
/// source and sink, and the host that writes them.
fn result_stem(
    flow: &str,
    m: &crate::resolve::model::Model,
    (src, dst): (HostId, HostId),
    me: HostId,
) -> String {
    let name = |h: HostId| m.hosts[h].name.value.as_str();
    format!("{flow}+{}+{}+{}", name(src), name(dst), name(me))
}

/// Static neighbours for the pairs whose ARP cannot cross their path, and the MACs they
/// name (`rules::arpless`). `hosts` is in the model's host order.
fn neighbors(front: &ShowModel, hosts: &mut [Host]) -> Result<(), LowerError> {
    let pairs = crate::lower::rules::arpless::pairs(front, crate::vendor::vendors()?);
    let m = &front.model;
    let show = &m.settings.name;
    for &(a, b) in &pairs {
        for (me, peer) in [(a, b), (b, a)] {
            let (ph, pp, paddr) = peer;
            let mac = port_mac(show, &m.hosts[ph].name.value, &m.hosts[ph].ports[pp].name);
            let peer_host = &mut hosts[ph];
            match peer_host.interfaces[pp].lag {
                Some(id) => {
                    if let Some(b) = peer_host.bonds.iter_mut().find(|b| b.lag == id) {
                        b.mac = Some(mac.clone());
                    }
                }
                None => peer_host.interfaces[pp].mac = Some(mac.clone()),
            }
            let (h, p, _) = me;
            let intf = &hosts[h].interfaces[p];
            let device = match intf.lag {
                Some(id) => format!("bond{id}"),
                None => format!("${}", intf.var),
            };
            let n = crate::ir::host::Neighbor {
                peer: m.hosts[ph].name.value.clone(),
                address: paddr.to_string(),
                mac,
                port: intf.port.clone(),
                device,
            };
            let list = &mut hosts[h].neighbors;
            if !list
                .iter()
                .any(|x| x.address == n.address && x.port == n.port)
            {
                list.push(n);
            }
        }
    }
    for h in hosts.iter_mut() {
        h.neighbors
            .sort_by(|x, y| (&x.address, &x.port).cmp(&(&y.address, &y.port)));
    }
    Ok(())
}

/// A locally administered unicast MAC (`02:` and five bytes of a SHA-256 of the show,
/// host and port names): stable from build to build, so the scripts and the twin agree.
fn port_mac(show: &str, host: &str, port: &str) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(format!("{show}\0{host}\0{port}").as_bytes());
    let mut out = String::from("02");
    for b in &d[..5] {
        out.push_str(&format!(":{b:02x}"));
    }
    out
}
