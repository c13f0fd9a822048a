"""The post-commit check: the device still answers, says the hostname the build gave it,
and its LLDP neighbours are the ones the build's `cabling.csv` puts on each port.

A commit is confirmed only when every check here passes (push.py).
"""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path

from . import build as build_mod
from . import safefs


def _short(name: str) -> str:
    # Switches often report an FQDN as their LLDP system name.
    return name.split(".")[0].strip().lower()


def _iface(name: str) -> str:
    # FTOS writes `hundredGigE 1/1`, drivers may return it without the space.
    return "".join(name.split()).lower()


LLDP_TRANSPARENT = {"lan", "dark-fiber", "otn"}


def expected_neighbors(build: Path, device: str, switches: set[str]) -> dict[str, str]:
    """Interface name -> the switch cabled to it, for the cables between two switches of
    the build that carry LLDP frames end to end, on ports where the IR runs LLDP.

    That is LAN cables, dark fibre and OTN (a 100GE client mapped bit-transparently into
    ODU4 arrives whole, LLDP included). Carrier circuits are left out: LLDP frames stop
    at the carrier's equipment, so the far switch is not what the port sees. DTNs are left out: their LLDP daemon (if any)
    reports the host's own name for a port democ calls `p0`, which the build cannot
    predict."""
    try:
        text = safefs.read_text(build, "cabling.csv")
    except safefs.UnsafeFile:
        return {}
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    ports = build_mod.ports(build, device)
    out = {}
    for r in rows:
        if r.get("kind") not in LLDP_TRANSPARENT:
            continue
        for me, them in (("a", "b"), ("b", "a")):
            if r.get(f"{me}_device") != device or r.get(f"{them}_device") not in switches:
                continue
            port = r[f"{me}_port"] + (f":{r[f'{me}_subport']}" if r.get(f"{me}_subport") else "")
            name, lldp = ports.get(port, (None, False))
            if name and lldp:
                out[name] = r[f"{them}_device"]
    return out


def lldp_mismatches(expected: dict[str, str], seen: dict[str, list[dict]]) -> list[str]:
    """One line per expected neighbour the device does not see on that port."""
    by_iface = {_iface(k): v for k, v in seen.items()}
    problems = []
    for iface, peer in sorted(expected.items()):
        names = [_short(n.get("hostname", "")) for n in by_iface.get(_iface(iface), [])]
        if _short(peer) not in names:
            saw = ", ".join(names) if names else "no neighbour"
            problems.append(f"{iface}: cabling says {peer}, LLDP sees {saw}")
    return problems


def run(dev, device: build_mod.Device, expected: dict[str, str], lldp_wait: float) -> dict:
    """Runs the checks on an open driver; returns {"ok": bool, ...} for the report.

    LLDP is polled for up to `lldp_wait` seconds: a link the new config brought up
    announces its neighbour only after the next LLDP transmit interval."""
    result: dict = {"ok": False, "facts": None, "lldp": None}
    facts = dev.get_facts()
    host = str(facts.get("hostname", ""))
    result["facts"] = {"hostname": host, "os_version": facts.get("os_version")}
    if _short(host) != _short(device.name):
        result["facts"]["problem"] = f"device says hostname {host!r}, the build says {device.name!r}"
        return result
    deadline = time.monotonic() + lldp_wait
    while True:
        try:
            seen = dev.get_lldp_neighbors()
        except NotImplementedError:
            # The device answered and has the right name; a driver that cannot read LLDP
            # does not make the commit wrong. The report says it was not checked.
            result["lldp"] = {"checked": False, "why": "the driver cannot read LLDP neighbours"}
            result["ok"] = True
            return result
        problems = lldp_mismatches(expected, seen)
        if not problems or time.monotonic() >= deadline:
            break
        time.sleep(min(5.0, max(0.0, deadline - time.monotonic())))
    result["lldp"] = {"checked": True, "expected": expected, "problems": problems}
    result["ok"] = not problems
    return result
