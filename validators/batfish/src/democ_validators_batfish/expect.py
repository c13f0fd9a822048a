"""What Batfish should find in a snapshot, derived from democ's IR.

Used by questions.py to read Batfish's answers against the spec rather than only
listing them: the MTU each interface must have, and the layer-3 adjacencies the routed
links must form.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any

from .snapshot import RANCID_TYPE, Switch, batfish_interface_name

Iface = tuple[str, str]  # (hostname, Batfish interface name)


@dataclass
class Expectations:
    files: dict[str, str] = field(default_factory=dict)  # configs/<host>.cfg -> os
    mtu: dict[Iface, int] = field(default_factory=dict)
    # Unordered routed adjacencies: both ends in the snapshot, same subnet.
    l3: set[frozenset[Iface]] = field(default_factory=set)
    addresses: dict[Iface, str] = field(default_factory=dict)  # -> cidr


def expectations(switches: list[Switch]) -> Expectations:
    e = Expectations()
    by_net: dict[ipaddress.IPv4Network, list[Iface]] = {}

    def address(host: str, iface: str, cidr: str) -> None:
        e.addresses[(host, iface)] = cidr
        net = ipaddress.ip_interface(cidr).network
        by_net.setdefault(net, []).append((host, iface))

    for s in switches:
        if s.os not in RANCID_TYPE:
            continue
        e.files[f"configs/{s.hostname}.cfg"] = s.os
        name = lambda n: batfish_interface_name(s.os, n)  # noqa: E731
        for i in s.ir["interfaces"]:
            if not i["enabled"]:
                continue
            if i.get("mtu"):
                e.mtu[(s.hostname, name(i["name"]))] = i["mtu"]["set"]
            if i.get("mode") == "routed" and i.get("ipv4") and not i.get("lag"):
                address(s.hostname, name(i["name"]), i["ipv4"]["cidr"])
        for pc in s.ir["port_channels"]:
            if pc.get("mtu"):
                e.mtu[(s.hostname, name(pc["name"]))] = pc["mtu"]["set"]
            if pc.get("mode") == "routed" and pc.get("ipv4"):
                address(s.hostname, name(pc["name"]), pc["ipv4"]["cidr"])
        for v in s.ir["vlans"]:
            l3 = v.get("l3")
            if not l3:
                continue
            if l3.get("mtu"):
                e.mtu[(s.hostname, name(l3["name"]))] = l3["mtu"]["set"]
            address(s.hostname, name(l3["name"]), l3["ipv4"]["cidr"])

    for members in by_net.values():
        for a in members:
            for b in members:
                if a[0] < b[0]:
                    e.l3.add(frozenset((a, b)))
    return e


@dataclass
class Trace:
    """One declared flow pair in one direction, and the path democ planned for it."""

    key: str  # "<flow> <src> -> <dst>"
    src: str
    dst: str
    src_ip: str
    dst_ip: str
    nodes: list[str]  # src host, the switches in order, dst host


def _roles(s: Switch) -> dict[str, str]:
    return {i["port"]: i.get("role", "legacy") for i in s.ir["interfaces"]}


def traces(
    flows: list[dict[str, Any]], switches: list[Switch], hosts: set[str]
) -> tuple[list[Trace], list[str]]:
    """The traceroute each flow pair should pass in Batfish (both directions: TCP and
    RDMA need the return path), and why the others cannot be asked.

    A pair is asked only when Batfish can model every hop: both DTNs in the snapshot's
    hosts/, every switch on the path parsed by Batfish, and no hop forwarded by OpenFlow
    rules (Batfish has no OpenFlow model; the twin proves those hops).
    """
    by_name = {s.hostname: s for s in switches}
    roles = {s.hostname: _roles(s) for s in switches}
    asked: list[Trace] = []
    skipped: list[str] = []
    for f in flows:
        for p in f.get("pairs", []):
            key = f"{f['name']} {p['src']} -> {p['dst']}"
            why = None
            if p["src"] not in hosts or p["dst"] not in hosts:
                why = "its DTNs are not in the snapshot (build with --hosts)"
            for hop in p["path"]:
                if why:
                    break
                sw = by_name.get(hop["switch"])
                if sw is None or sw.os not in RANCID_TYPE:
                    os_ = sw.os if sw else "unknown"
                    why = f"`{hop['switch']}` ({os_}) is not in the snapshot"
                elif "openflow" in (
                    roles[sw.hostname].get(hop["in_port"]),
                    roles[sw.hostname].get(hop["out_port"]),
                ):
                    why = f"`{hop['switch']}` forwards it by OpenFlow rules, which Batfish does not model"
            if why:
                skipped.append(f"{key}: {why}")
                continue
            nodes = [p["src"], *(h["switch"] for h in p["path"]), p["dst"]]
            asked.append(Trace(key, p["src"], p["dst"], p["src_address"], p["dst_address"], nodes))
            back = f"{f['name']} {p['dst']} -> {p['src']}"
            asked.append(
                Trace(back, p["dst"], p["src"], p["dst_address"], p["src_address"], nodes[::-1])
            )
    return asked, skipped
