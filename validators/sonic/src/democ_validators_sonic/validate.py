"""Every `config_db.json` of a democ build (each SONiC switch's IR names its file)
validated against SONiC's YANG models with libyang: types, ranges, patterns, mandatory
leaves, leafrefs (a VLAN member names a port that exists) and `must` rules."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import libyang

from .convert import ConvertError, to_yang
from .models import Models


@dataclass
class Result:
    switch: str
    file: str
    error: str | None  # None: valid

    @property
    def ok(self) -> bool:
        return self.error is None


def validate_text(models: Models, text: str) -> str | None:
    """None when the config_db.json text is valid, else why not."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return f"not JSON: {e}"
    if not isinstance(data, dict):
        return "not an object of tables"
    try:
        tree = to_yang(models, data)
    except ConvertError as e:
        return str(e)
    try:
        dnode = models.ctx.parse_data_mem(json.dumps(tree), "json", strict=True, validate_present=True)
    except libyang.LibyangError as e:
        return str(e)
    if dnode is not None:
        dnode.free()
    return None


def _sonic_switches(build: Path) -> list[tuple[str, str]]:
    out = []
    for p in sorted((build / "ir").glob("*.json")):
        if p.is_symlink() or not p.is_file():
            continue
        ir = json.loads(p.read_text())
        if not isinstance(ir, dict) or ir.get("external"):
            continue
        sonic = ir.get("sonic")
        if isinstance(sonic, dict) and isinstance(sonic.get("config_db_file"), str):
            out.append((str(ir.get("hostname")), sonic["config_db_file"]))
    return out


def validate_build(build: str | Path, models: Models) -> list[Result]:
    build = Path(build)
    if not (build / "ir").is_dir():
        raise FileNotFoundError(f"{build}: not a democ build (no ir/)")
    results = []
    for name, rel in _sonic_switches(build):
        path = build / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute() or path.is_symlink() or not path.is_file():
            results.append(Result(name, rel, "the IR names a file that is not a regular file inside the build"))
            continue
        results.append(Result(name, rel, validate_text(models, path.read_text())))
    return results
