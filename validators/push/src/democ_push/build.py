"""Reading a `democ build` folder: the switches to push, their configs and addresses.

Only the files democ writes are read (`manifest.json`, `ir/<switch>.json`, the config the
IR's `config_file` names); nothing in the folder is ever written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


class BuildError(Exception):
    """The folder is not a readable democ build (exit 2)."""


@dataclass(frozen=True)
class Device:
    name: str
    os: str
    # The IR's management address, without its prefix length; None when the IR has none.
    address: str | None
    # Path of the config (or, for PicOS in OVS mode, the script) inside the build.
    config_file: str
    config: str


def _inside(build: Path, rel: str) -> Path:
    # The IR names files inside the build; a path that leaves it is not democ's.
    p = PurePosixPath(rel)
    if p.is_absolute() or any(part in ("..", "") for part in p.parts):
        raise BuildError(f"{build}: `{rel}` is outside the build")
    return build / p


def _address(ir: dict) -> str | None:
    mgmt = ir.get("management") or {}
    addr = mgmt.get("address") or {}
    value = addr.get("address") if isinstance(addr, dict) else None
    return value or None


def load(build: Path) -> list[Device]:
    """Every switch of the build, sorted by name."""
    manifest = build / "manifest.json"
    try:
        doc = json.loads(manifest.read_text())
    except (OSError, ValueError) as e:
        raise BuildError(f"{build}: no readable manifest.json ({e}); is it a `democ build` folder?")
    if doc.get("format") != "democ-build-manifest":
        raise BuildError(f"{manifest}: not a democ build manifest")
    devices = []
    for f in sorted((build / "ir").glob("*.json")):
        try:
            ir = json.loads(f.read_text())
        except (OSError, ValueError) as e:
            raise BuildError(f"{f}: {e}")
        # ir/ also holds show-wide files; a switch's IR has a hostname and an OS.
        if not isinstance(ir, dict) or "hostname" not in ir or "os" not in ir:
            continue
        # Owned by others: democ wrote no config, so there is nothing to push.
        if ir.get("external"):
            continue
        rel = ir.get("config_file") or f"switches/{ir['hostname']}.cfg"
        try:
            text = _inside(build, rel).read_text()
        except OSError as e:
            raise BuildError(f"{build}/{rel}: {e}")
        devices.append(Device(ir["hostname"], ir["os"], _address(ir), rel, text))
    if not devices:
        raise BuildError(f"{build}: the build has no switch IR (ir/<switch>.json)")
    return devices


def ports(build: Path, device: str) -> dict[str, tuple[str, bool]]:
    """The IR's port id (`1/1`, or `1/31:2` for a breakout lane) -> (interface name as
    the switch spells it, whether the IR runs LLDP on it)."""
    ir = json.loads((build / "ir" / f"{device}.json").read_text())
    return {i["port"]: (i["name"], bool(i.get("lldp"))) for i in ir.get("interfaces", [])}
