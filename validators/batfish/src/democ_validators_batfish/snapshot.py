"""Build a Batfish snapshot offline from a `democ build` output folder.

Layout written (Batfish's documented snapshot format):

    SNAPSHOT/configs/<hostname>.cfg          democ's config, with a format header first
    SNAPSHOT/sonic_configs/<hostname>/       a SONiC switch: its config_db.json and
                                             frr.conf, as democ ships them
    SNAPSHOT/hosts/<dtn>.json                Batfish's host model of each DTN (its data
                                             ports, addresses and static routes), from
                                             the IR of a `democ build --hosts`
    SNAPSHOT/batfish/layer1_topology.json    the cabling between the switches and DTNs
                                             included

Only the OSes Batfish parses are included: Arista EOS and Dell FTOS 9 (Batfish's
"Force10" format, read by its Cisco-family parser), and SONiC, which Batfish reads from
a folder per device under `sonic_configs/` holding `config_db.json` and `frr.conf`
(Batfish's "Format of vendor and supplemental data", SONiC; `BfConsts.
RELPATH_SONIC_CONFIGS_DIR` in its source) [U: no Batfish service runs here to parse
them]. The others are skipped with the reason in `SKIP_REASONS`; Cumulus among them,
since Batfish reads Cumulus's NCLU output or its files, not NVUE YAML.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# democ `os` -> the RANCID content type that makes Batfish pick the right parser.
# Batfish reads `!RANCID-CONTENT-TYPE: <type>` before any heuristic
# (VendorConfigurationFormatDetector.checkRancid: "arista" -> ARISTA, "force10" -> FORCE10).
# Without it, democ's first line `! name: model (eos), ...` would send EOS files to the
# Cisco IOS parser (the fallback for files that start with `!`).
RANCID_TYPE = {"eos": "arista", "ftos9": "force10"}

# SONiC switches go to sonic_configs/<hostname>/ instead of configs/.
SONIC = "sonic"

# The File_Format Batfish should report for each, checked by questions.py.
BATFISH_FORMAT = {"eos": "ARISTA", "ftos9": "FORCE10", SONIC: "SONIC"}

SKIP_REASONS = {
    "os10": "Batfish has no Dell OS10 (SmartFabric OS10) parser",
    "picos": "Batfish has no Pica8 PicOS parser (nor a model of the OVS-mode script)",
    "onyx": "Batfish has no Mellanox Onyx (MLNX-OS) parser",
    "cumulus": "Batfish reads Cumulus's NCLU output or its files, not NVUE YAML",
}

# democ's FTOS 9 interface prefixes -> the canonical prefix Batfish's Cisco-family parser
# gives them (CiscoConfiguration.CISCO_INTERFACE_PREFIXES; the space before the number is
# dropped). Layer-1 edges must name interfaces the way Batfish's model does.
FTOS_PREFIXES = {
    "hundredGigE": "HundredGigabitEthernet",
    "fortyGigE": "FortyGigabitEthernet",
    "twentyFiveGigE": "TwentyFiveGigE",
    "TenGigabitEthernet": "TenGigabitEthernet",
    "GigabitEthernet": "GigabitEthernet",
    "Port-channel": "Port-channel",
    "Vlan": "Vlan",
    "ManagementEthernet": "ManagementEthernet",
}

_PREFIX = re.compile(r"^([A-Za-z][-A-Za-z]*)\s*(\d.*)$")


def batfish_interface_name(os_: str, name: str) -> str:
    """The name Batfish gives democ's interface `name` on a switch running `os_`."""
    if os_ == "eos":
        return name  # `Ethernet1/1`, `Port-Channel10`, `Vlan3016`, `Management1`: canonical
    if os_ == SONIC:
        return name  # config_db.json's own keys (`Ethernet0`, `PortChannel10`), as Batfish reads them
    if os_ == "ftos9":
        m = _PREFIX.match(name)
        if not m or m.group(1) not in FTOS_PREFIXES:
            raise ValueError(f"FTOS interface {name!r}: prefix unknown to this snapshot builder")
        return FTOS_PREFIXES[m.group(1)] + m.group(2).replace(" ", "")
    raise ValueError(f"no Batfish interface naming for os {os_!r}")


@dataclass
class Switch:
    hostname: str
    os: str
    ir: dict[str, Any] = field(repr=False)


@dataclass
class Host:
    name: str
    ir: dict[str, Any] = field(repr=False)


def load_hosts(build_dir: Path) -> list[Host]:
    """The DTNs' IR (`ir/hosts/*.json`, written by `democ build --hosts`); none without it."""
    d = Path(build_dir) / "ir" / "hosts"
    out = []
    for p in sorted(d.glob("*.json")) if d.is_dir() else []:
        h = json.loads(p.read_text())
        if isinstance(h, dict) and "name" in h and "interfaces" in h:
            out.append(Host(name=h["name"], ir=h))
    return out


def host_json(h: Host) -> dict[str, Any]:
    """Batfish's host format (org.batfish.representation.host.HostConfiguration): one
    `hostInterfaces` entry per addressed data port, named by the IR's port (`p0`, as the
    switches' `peer` names it), and the IR's static routes as `staticRoutes`
    (HostStaticRoute: prefix, nextHopIp). A host with no route gets Batfish's own default:
    everything out of its first interface, which is what a DTN on one subnet does."""
    ifaces = {}
    for i in h.ir["interfaces"]:
        if i.get("address"):
            ifaces[i["port"]] = {"name": i["port"], "prefix": i["address"]}
    out: dict[str, Any] = {"hostname": h.name, "hostInterfaces": ifaces}
    routes = [
        {"prefix": r["prefix"], "nextHopIp": r["next_hop"]} for r in h.ir.get("routes") or []
    ]
    if routes:
        out["staticRoutes"] = routes
    return out


@dataclass
class Snapshot:
    build_dir: Path
    snapshot_dir: Path
    included: dict[str, str] = field(default_factory=dict)  # hostname -> os
    hosts: list[str] = field(default_factory=list)  # DTNs written to hosts/
    skipped: dict[str, str] = field(default_factory=dict)  # hostname -> reason
    edges: list[dict[str, Any]] = field(default_factory=list)  # as written (both directions)
    # Cabled ports whose far end is not in the snapshot: (host, iface, far device, reason).
    dangling: list[tuple[str, str, str, str]] = field(default_factory=list)

    def summary(self) -> str:
        out = [f"Batfish snapshot {self.snapshot_dir} from {self.build_dir}"]
        for h, os_ in sorted(self.included.items()):
            path = f"sonic_configs/{h}/" if os_ == SONIC else f"configs/{h}.cfg"
            out.append(f"  {path}  ({os_} -> {BATFISH_FORMAT[os_]})")
        if self.hosts:
            out.append(f"  hosts/: {len(self.hosts)} DTNs")
        else:
            out.append("  hosts/: none (build with `democ build --hosts` to include the DTNs)")
        for h, why in sorted(self.skipped.items()):
            out.append(f"  skipped {h}: {why}")
        links = len(self.edges) // 2
        out.append(f"  batfish/layer1_topology.json: {links} links ({len(self.edges)} directed edges)")
        kinds: dict[str, int] = {}
        for *_, why in self.dangling:
            kinds[why] = kinds.get(why, 0) + 1
        for why, n in sorted(kinds.items()):
            out.append(f"  {n} cabled ports left out of layer 1: far end {why}")
        return "\n".join(out)


def load_switches(build_dir: Path) -> list[Switch]:
    ir_dir = build_dir / "ir"
    if not ir_dir.is_dir():
        raise FileNotFoundError(f"{build_dir}: no ir/ folder (is this a `democ build` output?)")
    out = []
    for p in sorted(ir_dir.glob("*.json")):
        sw = json.loads(p.read_text())
        if not (isinstance(sw, dict) and "hostname" in sw and "os" in sw):
            continue  # not a per-switch IR file
        out.append(Switch(hostname=sw["hostname"], os=sw["os"], ir=sw))
    return out


def _skip_reason(os_: str) -> str:
    return SKIP_REASONS.get(os_, f"Batfish does not parse democ's `{os_}` output")


def layer1_edges(
    switches: list[Switch], hosts: list[Host] | None = None
) -> tuple[list[dict[str, Any]], list[tuple[str, str, str, str]]]:
    """Layer-1 edges between included switches, from the IR's `peer` of each port.

    Each cable is written in both directions: Batfish's Layer1Topology is a directed graph
    of the edges given.
    """
    by_host = {s.hostname: s for s in switches}
    included = {s.hostname for s in switches if s.os in BATFISH_FORMAT}
    # DTN ports the host model has (an addressed port), by (host, port).
    host_ports = {
        (h.name, i["port"]) for h in hosts or [] for i in h.ir["interfaces"] if i.get("address")
    }
    host_names = {h.name for h in hosts or []}
    pairs: set[tuple[tuple[str, str], tuple[str, str]]] = set()
    dangling: list[tuple[str, str, str, str]] = []
    for s in switches:
        if s.hostname not in included:
            continue
        for i in s.ir["interfaces"]:
            peer = i.get("peer")
            if not peer:
                continue
            far = by_host.get(peer["device"])
            if far is None:
                if (peer["device"], peer["port"]) in host_ports:
                    a = (s.hostname, batfish_interface_name(s.os, i["name"]))
                    b = (peer["device"], peer["port"])
                    pairs.add((a, b))
                    pairs.add((b, a))
                    continue
                why = (
                    "is a host port with no address (a bond member)"
                    if peer["device"] in host_names
                    else "is a host, not in the snapshot (build with --hosts)"
                )
                dangling.append((s.hostname, i["name"], peer["device"], why))
                continue
            if far.hostname not in included:
                dangling.append((s.hostname, i["name"], far.hostname, f"is skipped ({far.os})"))
                continue
            far_if = next((x for x in far.ir["interfaces"] if x["port"] == peer["port"]), None)
            if far_if is None:
                raise ValueError(
                    f"{s.hostname} {i['name']}: peer {far.hostname} has no port {peer['port']!r}"
                )
            a = (s.hostname, batfish_interface_name(s.os, i["name"]))
            b = (far.hostname, batfish_interface_name(far.os, far_if["name"]))
            pairs.add((a, b))
            pairs.add((b, a))
    edges = [
        {
            "node1": {"hostname": a[0], "interfaceName": a[1]},
            "node2": {"hostname": b[0], "interfaceName": b[1]},
        }
        for a, b in sorted(pairs)
    ]
    return edges, dangling


def build_snapshot(build_dir: str | Path, snapshot_dir: str | Path | None = None) -> Snapshot:
    build = Path(build_dir)
    snap = Path(snapshot_dir) if snapshot_dir else build / "snapshot"
    switches = load_switches(build)
    hosts = load_hosts(build)
    result = Snapshot(build_dir=build, snapshot_dir=snap)

    # Start from an empty snapshot: a stale config left from an earlier build would be
    # uploaded too.
    for sub in ("configs", "sonic_configs", "hosts", "batfish"):
        if (snap / sub).exists():
            shutil.rmtree(snap / sub)
    (snap / "configs").mkdir(parents=True)
    (snap / "batfish").mkdir(parents=True)

    for s in switches:
        if s.ir.get("external"):
            result.skipped[s.hostname] = "external: owned by others, democ writes no config for it"
            continue
        if s.os == SONIC:
            # democ ships `<host>.config_db.json` and `<host>.frr.conf` (its config_file).
            folder = snap / "sonic_configs" / s.hostname
            folder.mkdir(parents=True)
            shutil.copyfile(build / "switches" / f"{s.hostname}.config_db.json", folder / "config_db.json")
            shutil.copyfile(build / s.ir["config_file"], folder / "frr.conf")
            result.included[s.hostname] = s.os
            continue
        if s.os not in RANCID_TYPE:
            result.skipped[s.hostname] = _skip_reason(s.os)
            continue
        text = (build / s.ir["config_file"]).read_text()
        header = f"!RANCID-CONTENT-TYPE: {RANCID_TYPE[s.os]}\n"
        (snap / "configs" / f"{s.hostname}.cfg").write_text(header + text)
        result.included[s.hostname] = s.os

    if hosts:
        (snap / "hosts").mkdir(parents=True)
    for h in hosts:
        (snap / "hosts" / f"{h.name}.json").write_text(json.dumps(host_json(h), indent=2) + "\n")
        result.hosts.append(h.name)

    result.edges, result.dangling = layer1_edges(switches, hosts)
    (snap / "batfish" / "layer1_topology.json").write_text(
        json.dumps({"edges": result.edges}, indent=2) + "\n"
    )
    return result
