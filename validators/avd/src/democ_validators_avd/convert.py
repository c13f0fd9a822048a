"""democ IR (one switch, `ir/<name>.json`) -> AVD `eos_cli_config_gen` structured config.

The conversion reads the IR's *meaning* (modes, VLAN ids, addresses, speeds in Mbit/s,
FEC modes) and writes AVD's own keys, so that pyavd — not democ's template — decides the
EOS syntax. Two places take a democ keyword as is, each checked on the way:

* `speed`: the IR's `cli.speed` ("forced 25gfull") is passed to AVD, whose schema accepts
  only EOS speed keywords, and is checked against `speed_mbps` here (`speed_findings`).
* nothing else: FEC is rebuilt from `fec` (rs/fc/none), not from `cli.fec`.

What AVD cannot express is produced by `supplement_lines` from the IR, each with the
reason; the cross-check compares those lines like any other (see `SUPPLEMENT_REASONS`).
"""

from __future__ import annotations

from typing import Any

# EOS speed keywords democ may emit, and the rate each one sets (Mbit/s).
EOS_SPEED_MBPS = {
    "forced 1000full": 1_000,
    "forced 10000full": 10_000,
    "forced 25gfull": 25_000,
    "forced 40gfull": 40_000,
    "forced 50gfull": 50_000,
    "forced 100gfull": 100_000,
}

# Lines democ writes that AVD 6.4's eos_cli_config_gen schema has no key for (or renders
# as nothing), keyed by the short name used in reports. Each is generated from the IR by
# `supplement_lines`, so a wrong or missing line is still caught.
SUPPLEMENT_REASONS = {
    "lldp-run": (
        "`lldp run` is the EOS default; AVD's `lldp.run: true` renders nothing (only "
        "`run: false` renders `no lldp run`). democ states it explicitly."
    ),
    "flowcontrol-send": (
        "AVD's `ethernet_interfaces[].flowcontrol` has only `received`; EOS also takes "
        "`flowcontrol send on|off` (Arista's own pyeapi system tests configure "
        "`flowcontrol send off` on EOS DUTs)."
    ),
    "openflow": (
        "AVD has no `openflow` key at all; the `openflow` block (controller, `bind mode "
        "interface`, `bind interface`) follows the EOS manual's OpenFlow chapter as cited "
        "in templates/arista/vendor.yaml."
    ),
}


def compress_vlans(ids: list[int]) -> str:
    """`[10, 11, 12, 20]` -> `"10-12,20"` (EOS and AVD both accept ranges)."""
    out: list[str] = []
    nums = sorted(set(ids))
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return ",".join(out)


def _l2l3(obj: dict[str, Any], target: dict[str, Any]) -> None:
    """Mode of a port or port-channel -> AVD `switchport` / `ip_address`."""
    mode = obj.get("mode")
    if mode == "routed":
        target["switchport"] = {"enabled": False}
        if obj.get("ipv4"):
            target["ip_address"] = obj["ipv4"]["cidr"]
    elif mode == "access":
        # `enabled` left unset: AVD then prints no bare `switchport` line, which on EOS is
        # the default for Ethernet and Port-Channel interfaces.
        target["switchport"] = {"mode": "access", "access_vlan": obj["access_vlan"]}
    elif mode == "trunk":
        trunk: dict[str, Any] = {"allowed_vlan": compress_vlans(obj["trunk_vlans"])}
        if obj.get("native_vlan"):
            trunk["native_vlan"] = obj["native_vlan"]
        target["switchport"] = {"mode": "trunk", "trunk": trunk}


def _fec(mode: str | None) -> dict[str, Any] | None:
    if mode is None:
        return None
    if mode == "rs":
        return {"enabled": True, "reed_solomon": True}
    if mode == "fc":
        return {"enabled": True, "fire_code": True}
    if mode == "none":
        return {"enabled": False}
    raise ValueError(f"unknown FEC mode {mode!r}")


# The egress-queue model of an EOS platform, as AVD splits it: VOQ platforms (7280R,
# 7500R: Broadcom Jericho, "Sand") have `tx_queues` only; Trident and Tomahawk
# switches (7050X, 7060X, 7260X) put unicast ECN under `uc_tx_queues` (AVD
# eos_cli_config_gen `ethernet_interfaces[].tx_queues` / `uc_tx_queues`, "supported
# options are platform dependent"). Kept here from the IR's catalog `platform`, never
# from democ's vendor.yaml or its IR `qos.ecn_queue`, so a wrong keyword in democ's
# vendor data or template shows as a difference.
QUEUE_KEY_BY_PLATFORM = {"sand": "tx_queues"}
DEFAULT_QUEUE_KEY = "uc_tx_queues"


def _threshold(qos: dict[str, Any]) -> dict[str, Any]:
    # pyavd requires `max_probability` under `tx_queues` (Sand): passed only when the IR
    # has one, so an IR without it is a schema finding.
    t = {"units": "kbytes", "min": qos["ecn_min_kbytes"], "max": qos["ecn_max_kbytes"]}
    if qos.get("ecn_max_mark_probability") is not None:
        t["max_probability"] = qos["ecn_max_mark_probability"]
    return t


def queue_key(sw: dict[str, Any]) -> str:
    """The structured-config key ECN goes under on this switch's platform."""
    return QUEUE_KEY_BY_PLATFORM.get(sw.get("platform") or "", DEFAULT_QUEUE_KEY)


def _ethernet(i: dict[str, Any], sw: dict[str, Any]) -> dict[str, Any]:
    e: dict[str, Any] = {"name": i["name"]}
    if i.get("description"):
        e["description"] = i["description"]
    e["shutdown"] = not i["enabled"]
    # Everything below is what the IR says about the port. democ prints it only on
    # enabled ports; the IR leaves it empty on disabled ones (a difference would show).
    if i.get("mtu"):
        e["mtu"] = i["mtu"]["set"]
    speed = (i.get("cli") or {}).get("speed")
    if speed:
        e["speed"] = speed
    fec = _fec(i.get("fec"))
    if fec is not None:
        e["error_correction_encoding"] = fec
    if i.get("flow_control"):
        e["flowcontrol"] = {"received": "on" if i["flow_control"]["receive"] else "off"}
    if i.get("lag"):
        lacp = i["lag"]["lacp"]
        e["channel_group"] = {"id": i["lag"]["id"], "mode": "on" if lacp == "static" else lacp}
    else:
        _l2l3(i, e)
    if i.get("sflow"):
        e["sflow"] = {"enable": True}
    qos = sw.get("qos") or {}
    if i.get("pfc") and qos.get("dscp_trust"):
        # RoCE ports are untagged: the class rides in DSCP (issue 9 section 5).
        e["qos"] = {"trust": "dscp"}
    if i.get("pfc"):
        e["priority_flow_control"] = {
            "enabled": True,
            "priorities": [{"priority": qos["pfc_priority"], "no_drop": True}],
        }
    if i.get("ecn"):
        e[queue_key(sw)] = [
            {
                "id": qos["pfc_priority"],
                "random_detect": {
                    "ecn": {
                        "threshold": _threshold(qos),
                    }
                },
            }
        ]
    return e


def _services(sv: dict[str, Any]) -> dict[str, Any]:
    """NTP, syslog, SNMP, sFlow and gNMI from the IR's `services`, sent from the management
    interface, in the management VRF when the IR names one (AVD 6 data model)."""
    out: dict[str, Any] = {}
    vrf, src = sv.get("vrf"), sv["source"]
    if sv["ntp"]:
        out["ntp"] = {
            "servers": [{"name": a} for a in sv["ntp"]],
            "local_interface": {"name": src, **({"vrf": vrf} if vrf else {})},
            **({"vrf": vrf} if vrf else {}),
        }
    if sv["syslog"]:
        out["logging"] = {
            "vrfs": [
                {
                    "name": vrf or "default",
                    "hosts": [{"name": a} for a in sv["syslog"]],
                    "source_interface": src,
                }
            ]
        }
    snmp = sv.get("snmp")
    if snmp:
        out["snmp_server"] = {
            "communities": [{"name": snmp["community"], "access": "ro"}],
            "hosts": [
                {"host": a, **({"vrf": vrf} if vrf else {}), "version": "2c", "community": snmp["community"]}
                for a in snmp["traps"]
            ],
            "local_interfaces": [{"name": src, **({"vrf": vrf} if vrf else {})}],
            **({"vrfs": [{"name": vrf, "enable": True}]} if vrf else {}),
        }
    fl = sv.get("sflow")
    if fl:
        dest = {"destinations": [{"destination": fl["collector"], "port": fl["port"]}], "source_interface": src}
        out["sflow"] = {
            "run": True,
            "sample": fl["sample_rate"],
            "polling_interval": fl["polling_interval"],
            **({"vrfs": [{"name": vrf, **dest}]} if vrf else dest),
        }
    if sv.get("gnmi"):
        grpc = {"name": "default", **({"vrf": vrf} if vrf else {})}
        out["management_api_gnmi"] = {"transport": {"grpc": [grpc]}}
    return out


def _port_channel(pc: dict[str, Any], sw: dict[str, Any]) -> dict[str, Any]:
    p: dict[str, Any] = {"name": pc["name"]}
    if pc.get("description"):
        p["description"] = pc["description"]
    p["shutdown"] = False
    if pc.get("mtu"):
        p["mtu"] = pc["mtu"]["set"]
    _l2l3(pc, p)
    if pc.get("pfc") and (sw.get("qos") or {}).get("dscp_trust"):
        p["qos"] = {"trust": "dscp"}
    # PFC/ECN of a port-channel are configured on its members (EOS applies them per
    # physical port); the IR marks the members too, and those are what get rendered.
    return p


def structured_config(sw: dict[str, Any]) -> dict[str, Any]:
    """AVD `eos_cli_config_gen` structured config for one EOS switch of the IR."""
    if sw.get("os") != "eos":
        raise ValueError(f"{sw.get('hostname')}: os is {sw.get('os')!r}, not eos")
    sc: dict[str, Any] = {"hostname": sw["hostname"], "config_end": True}
    if sw.get("ip_routing"):
        sc["ip_routing"] = True
    if not sw["lldp"]["enabled"]:
        sc["lldp"] = {"run": False}
    if sw.get("management"):
        m = sw["management"]
        mi = {"name": m["interface"], "type": "oob", "ip_address": m["address"]["cidr"]}
        if m.get("vrf"):
            mi["vrf"] = m["vrf"]
            sc["vrfs"] = [{"name": m["vrf"]}]
        sc["management_interfaces"] = [mi]
    if sw.get("services"):
        sc.update(_services(sw["services"]))
    qos = sw.get("qos") or {}
    if qos.get("dscp_trust"):
        sc["qos"] = {
            "map": {
                "dscp": [
                    f"{qos['dscp']} to traffic-class {qos['pfc_priority']}",
                    f"{qos['cnp_dscp']} to traffic-class {qos['cnp_class']}",
                ]
            }
        }
    if sw.get("vlans"):
        sc["vlans"] = [{"id": v["id"], "name": v["name"]} for v in sw["vlans"]]
        svis = []
        for v in sw["vlans"]:
            l3 = v.get("l3")
            if not l3:
                continue
            svi: dict[str, Any] = {"name": l3["name"], "description": v["name"], "shutdown": False}
            if l3.get("mtu"):
                svi["mtu"] = l3["mtu"]["set"]
            svi["ip_address"] = l3["ipv4"]["cidr"]
            svis.append(svi)
        if svis:
            sc["vlan_interfaces"] = svis
    if sw.get("port_channels"):
        sc["port_channel_interfaces"] = [_port_channel(pc, sw) for pc in sw["port_channels"]]
    if sw.get("interfaces"):
        sc["ethernet_interfaces"] = [_ethernet(i, sw) for i in sw["interfaces"]]
    routes = [
        {"prefix": r["prefix"], "next_hop": r["next_hop"]} for r in sw.get("static_routes") or []
    ]
    # The management port's own routes (to the controller and services beyond the
    # management gateway), in the management VRF when there is one.
    m = sw.get("management") or {}
    for r in m.get("routes") or []:
        vrf = {"vrf": m["vrf"]} if m.get("vrf") else {}
        routes.append({**vrf, "prefix": r["prefix"], "next_hop": r["next_hop"]})
    if routes:
        sc["static_routes"] = routes
    bgp = sw.get("bgp")
    if bgp:
        # democ's EOS convention (as AVD's eos_designs): no implicit IPv4 activation,
        # every neighbor activated under `address-family ipv4`.
        sc["router_bgp"] = {
            "as": str(bgp["asn"]),
            "router_id": bgp["router_id"],
            "bgp": {"default": {"ipv4_unicast": False}},
            "neighbors": [
                {
                    "ip_address": n["address"],
                    "remote_as": str(n["remote_as"]),
                    "description": n["description"],
                    "route_map_in": n["import"]["name"],
                    "route_map_out": n["export"]["name"],
                }
                for n in bgp["neighbors"]
            ],
            "address_family_ipv4": {
                "neighbors": [{"ip_address": n["address"], "activate": True} for n in bgp["neighbors"]]
            },
        }
        if bgp.get("networks"):
            sc["router_bgp"]["address_family_ipv4"]["networks"] = [
                {"prefix": p["cidr"]} for p in bgp["networks"]
            ]
        policies = [pol for n in bgp["neighbors"] for pol in (n["import"], n["export"])]
        if policies:
            sc["prefix_lists"] = [_prefix_list(pol) for pol in policies]
            sc["route_maps"] = [_route_map(pol) for pol in policies]
    return sc


def _prefix_list(pol: dict[str, Any]) -> dict[str, Any]:
    """A BGP policy's prefix list: the IR's prefixes permitted, everything else denied
    (democ's explicit closing entry, seq 1000)."""
    seqs = [{"sequence": 10 * (i + 1), "action": f"permit {p}"} for i, p in enumerate(pol["prefixes"])]
    seqs.append({"sequence": 1000, "action": "deny 0.0.0.0/0 le 32"})
    return {"name": pol["name"], "sequence_numbers": seqs}


def _route_map(pol: dict[str, Any]) -> dict[str, Any]:
    """The route map a neighbor applies: its prefix list, permitted."""
    return {
        "name": pol["name"],
        "sequence_numbers": [
            {"sequence": 10, "type": "permit", "match": [f"ip address prefix-list {pol['name']}"]}
        ],
    }


def supplement_lines(sw: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(section, line, reason key) for what democ should print that AVD cannot model.

    Same shape as `eos_text.parse` pairs: a top-level line is (line, "").
    """
    out: list[tuple[str, str, str]] = []
    if sw["lldp"]["enabled"]:
        out.append(("lldp run", "", "lldp-run"))
    for i in sw.get("interfaces", []):
        fc = i.get("flow_control")
        if fc:
            section = f"interface {i['name']}"
            out.append((section, f"flowcontrol send {'on' if fc['send'] else 'off'}", "flowcontrol-send"))
    of = sw.get("openflow")
    if of:
        c = of["controller"]
        out.append(("openflow", "", "openflow"))
        out.append(("openflow", f"controller tcp:{c['address']}:{c['port']}", "openflow"))
        out.append(("openflow", "bind mode interface", "openflow"))
        for p in of.get("ports", []):
            out.append(("openflow", f"bind interface {p}", "openflow"))
        for g in of.get("lags", []):
            out.append(("openflow", f"bind interface {g['name']}", "openflow"))
        out.append(("openflow", "no shutdown", "openflow"))
    return out


def speed_findings(sw: dict[str, Any]) -> list[str]:
    """IR ports whose EOS speed keyword does not set the rate the IR gives."""
    out = []
    for i in sw.get("interfaces", []):
        kw = (i.get("cli") or {}).get("speed")
        if not kw:
            continue
        want = EOS_SPEED_MBPS.get(kw)
        if want is None:
            out.append(f"interface {i['name']}: speed keyword {kw!r} is not one democ's check knows")
        elif want != i["speed_mbps"]:
            out.append(
                f"interface {i['name']}: `speed {kw}` sets {want} Mbit/s but the IR says {i['speed_mbps']}"
            )
    return out


def vlan_findings(sw: dict[str, Any]) -> list[str]:
    """VLANs a port uses but the switch does not define (AVD issue #7329's check), and
    VLAN member lists that disagree with the ports' own modes."""
    out = []
    defined = {v["id"] for v in sw.get("vlans", [])}
    ports = {i["name"]: i for i in sw.get("interfaces", [])}
    ports.update({p["name"]: p for p in sw.get("port_channels", [])})
    for name, p in ports.items():
        used = set(p.get("trunk_vlans") or [])
        used.update(v for v in (p.get("access_vlan"), p.get("native_vlan")) if v)
        for v in sorted(used - defined):
            out.append(f"interface {name}: uses VLAN {v}, which the switch does not define")
    for v in sw.get("vlans", []):
        for m in v["untagged"]:
            p = ports.get(m, {})
            if not (p.get("mode") == "access" and p.get("access_vlan") == v["id"]) and not (
                p.get("mode") == "trunk" and p.get("native_vlan") == v["id"]
            ):
                out.append(f"vlan {v['id']}: lists {m} untagged, but the port does not carry it untagged")
        for m in v["tagged"]:
            p = ports.get(m, {})
            if not (p.get("mode") == "trunk" and v["id"] in (p.get("trunk_vlans") or [])):
                out.append(f"vlan {v['id']}: lists {m} tagged, but the port does not trunk it")
    return out
