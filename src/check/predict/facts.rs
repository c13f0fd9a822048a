//! What the engine reads of each host once, before any flow: its NICs' sockets, PCIe
//! paths and usable rates, its storage and its CPU's per-stream figure; and the wire's
//! payload share for a protocol at an MTU.

use super::CheckInput;
use crate::check::pcie::{Usable, Use, nic_link};
use crate::check::storage::{Io, host_io};
use crate::resolve::model::HostId;
use crate::spec::flow::Protocol;

/// Payload share of the wire for a protocol at an MTU.
pub(crate) fn goodput(cx: &CheckInput, protocol: Protocol, mtu: u32) -> f64 {
    let p = cx.physics;
    let header = match protocol {
        Protocol::Tcp => p.tcp_ip_header_bytes,
        Protocol::Udp => p.udp_ip_header_bytes,
        Protocol::Rdma => p.roce_header_bytes,
    };
    let mtu = f64::from(mtu);
    ((mtu - header) / (mtu + p.ethernet_wire_overhead_bytes)).clamp(0.0, 1.0)
}

/// Per-host figures computed once.
pub(crate) struct HostFacts {
    pub(crate) io: Io,
    /// Socket of each NIC.
    pub(crate) nic_socket: Vec<Option<u8>>,
    /// PCIe switches between each NIC and its socket, as indices into the chassis' switches.
    pub(crate) nic_switches: Vec<Vec<u16>>,
    /// What each NIC's PCIe link carries sending (the NIC reads host memory) and
    /// receiving (it writes host memory), Gbit/s.
    pub(crate) nic_send: Vec<Option<f64>>,
    pub(crate) nic_receive: Vec<Option<f64>>,
    /// The CPU's per-stream figure (Gbit/s) and cores over all sockets.
    pub(crate) cpu: Option<(f64, u32)>,
}

/// Index of a chassis PCIe switch by name.
pub(super) fn switch_index(
    cx: &CheckInput,
    h: &crate::resolve::model::Host,
    name: &str,
) -> Option<u16> {
    let ch = cx.db.chassis.get(&h.chassis)?;
    let pos = ch
        .switches
        .as_ref()?
        .entries
        .iter()
        .position(|(k, _)| k.value == name)?;
    u16::try_from(pos).ok()
}

/// Name of a chassis PCIe switch by index.
pub(super) fn switch_name<'a>(cx: &CheckInput<'a>, h: HostId, i: u16) -> &'a str {
    cx.db
        .chassis
        .get(&cx.m.hosts[h].chassis)
        .and_then(|c| c.switches.as_ref())
        .and_then(|s| s.entries.get(usize::from(i)))
        .map_or("?", |(k, _)| k.value.as_str())
}

pub(crate) fn host_facts(cx: &CheckInput) -> Vec<HostFacts> {
    host_facts_of(cx, &cx.m.hosts)
}

pub(super) fn host_facts_of(
    cx: &CheckInput,
    hosts: &[crate::resolve::model::Host],
) -> Vec<HostFacts> {
    // What the PCIe links carry, remembered per run of hosts (the same few kinds recur).
    let mut usable = Usable::default();
    hosts
        .iter()
        .map(|h| {
            let links: Vec<_> = (0..h.nics.len()).map(|i| nic_link(cx, h, i)).collect();
            HostFacts {
                io: if !h.nvme.is_empty() {
                    host_io(cx, h)
                } else if !h.raid.is_empty() {
                    crate::check::raid::raid_io(cx, h)
                } else {
                    Io::default()
                },
                nic_socket: links
                    .iter()
                    .map(|l| l.as_ref().and_then(|(_, a)| a.socket))
                    .collect(),
                nic_switches: links
                    .iter()
                    .map(|l| {
                        let names = l
                            .as_ref()
                            .map(|(_, a)| a.switches.as_slice())
                            .unwrap_or_default();
                        names
                            .iter()
                            .filter_map(|n| switch_index(cx, h, n))
                            .collect()
                    })
                    .collect(),
                nic_send: links
                    .iter()
                    .map(|l| usable.gbps(cx, h, l.as_ref()?.0, Use::NicSend).ok())
                    .collect(),
                nic_receive: links
                    .iter()
                    .map(|l| usable.gbps(cx, h, l.as_ref()?.0, Use::NicReceive).ok())
                    .collect(),
                cpu: cx
                    .db
                    .cpus
                    .get(&h.cpu)
                    .map(|c| (c.tcp_stream_gbps, c.cores * u32::from(h.sockets))),
            }
        })
        .collect()
}
