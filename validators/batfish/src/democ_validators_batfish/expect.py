"""What Batfish should find in a snapshot, derived from democ's IR.

Used by questions.py to read Batfish's answers against the spec rather than only
listing them: the MTU each interface must have, and the layer-3 adjacencies the routed
links must form.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

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
