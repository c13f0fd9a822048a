"""Reading a `democ build` folder: the switches to push, their configs and addresses.

Only the files democ writes are read (`manifest.json`, `ir/<switch>.json`, the config the
IR's `config_file` names), through safefs (no symlink, regular files, a size cap), and each
is checked against the manifest's sha256; nothing in the folder is ever written.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from . import safefs


# The spec's name rules (src/spec/name.rs): what democ writes as a switch's hostname.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")


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
    # Why the IR and config are not as the manifest lists them (None: they are). The
    # address a password is sent to comes from the IR, so --commit refuses such a
    # device unless the user names it.
    unverified: str | None = None
    # SONiC: the config_db.json beside the FRR file (`config_file`); None elsewhere.
    config_db_file: str | None = None
    # Cumulus Linux: the NVUE file beside the derived FRR file (`config_file`, not to
    # load); None elsewhere.
    nvue_file: str | None = None


def _inside(build: Path, rel: str) -> Path:
    # The IR names files inside the build; a path that leaves it is not democ's.
    p = PurePosixPath(rel)
    if p.is_absolute() or any(part in ("..", "") for part in p.parts):
        raise BuildError(f"{build}: `{rel}` is outside the build")
    return build / p


def _side_file(build: Path, rel_ir: str, ir: dict, section: str, key: str) -> str | None:
    """The file an OS loads beside `config_file` (SONiC's config_db.json, Cumulus's
    NVUE file), named by the IR's `section.key`; None where the IR names none."""
    part = ir.get(section) if isinstance(ir.get(section), dict) else {}
    rel = part.get(key)
    if rel is None:
        return None
    if not isinstance(rel, str):
        raise BuildError(f"{build}/{rel_ir}: its {key} is not a path; the build was altered")
    _inside(build, rel)
    return rel


def _address(ir: dict) -> str | None:
    mgmt = ir.get("management") or {}
    addr = mgmt.get("address") or {}
    value = addr.get("address") if isinstance(addr, dict) else None
    return value or None


def _read(build: Path, rel: str) -> bytes:
    try:
        return safefs.read_bytes(build, rel)
    except safefs.UnsafeFile as e:
        raise BuildError(str(e)) from None


def load(build: Path) -> list[Device]:
    """Every switch of the build, sorted by name."""
    try:
        doc = json.loads(safefs.read_bytes(build, "manifest.json"))
    except (safefs.UnsafeFile, ValueError) as e:
        raise BuildError(f"{build}: no readable manifest.json ({e}); is it a `democ build` folder?")
    if not isinstance(doc, dict) or doc.get("format") != "democ-build-manifest":
        raise BuildError(f"{build}/manifest.json: not a democ build manifest")
    listed = {e.get("path"): e.get("sha256") for e in doc.get("files", []) if isinstance(e, dict)}

    def mismatch(rel: str, data: bytes) -> str | None:
        want = listed.get(rel)
        if want is None:
            return f"`{rel}` is not in the build's manifest"
        if hashlib.sha256(data).hexdigest() != want:
            return f"`{rel}` differs from the build's manifest"
        return None

    devices = []
    try:
        names = safefs.files_in(build, "ir")
    except safefs.UnsafeFile as e:
        raise BuildError(str(e)) from None
    for name in names:
        if not name.endswith(".json"):
            continue
        rel_ir = f"ir/{name}"
        raw = _read(build, rel_ir)
        try:
            ir = json.loads(raw)
        except ValueError as e:
            raise BuildError(f"{build}/{rel_ir}: {e}")
        # ir/ also holds show-wide files; a switch's IR has a hostname and an OS.
        if not isinstance(ir, dict) or "hostname" not in ir or "os" not in ir:
            continue
        # Owned by others: democ wrote no config, so there is nothing to push.
        if ir.get("external"):
            continue
        # Text democ never writes is refused, not obeyed: the name goes into file names
        # and messages, the address is where the password goes.
        if not isinstance(ir["hostname"], str) or not _NAME.fullmatch(ir["hostname"]):
            raise BuildError(f"{build}/{rel_ir}: its hostname is not a name democ writes; the build was altered")
        address = _address(ir)
        if address is not None:
            try:
                ipaddress.ip_address(address)
            except ValueError:
                raise BuildError(f"{build}/{rel_ir}: its management address is not an IP address; the build was altered") from None
        rel = ir.get("config_file") or f"switches/{ir['hostname']}.cfg"
        _inside(build, rel)
        data = _read(build, rel)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BuildError(f"{build}/{rel}: not UTF-8 text") from None
        why = mismatch(rel_ir, raw) or mismatch(rel, data)
        config_db = _side_file(build, rel_ir, ir, "sonic", "config_db_file")
        nvue = _side_file(build, rel_ir, ir, "cumulus", "nvue_file")
        for side in (config_db, nvue):
            if side is not None:
                why = why or mismatch(side, _read(build, side))
        devices.append(Device(ir["hostname"], ir["os"], address, rel, text, why, config_db, nvue))
    if not devices:
        raise BuildError(f"{build}: the build has no switch IR (ir/<switch>.json)")
    return devices


def ports(build: Path, device: str) -> dict[str, tuple[str, bool]]:
    """The IR's port id (`1/1`, or `1/31:2` for a breakout lane) -> (interface name as
    the switch spells it, whether the IR runs LLDP on it)."""
    ir = json.loads(_read(build, f"ir/{device}.json"))
    return {i["port"]: (i["name"], bool(i.get("lldp"))) for i in ir.get("interfaces", [])}
