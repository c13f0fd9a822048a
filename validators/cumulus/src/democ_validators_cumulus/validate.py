"""Every NVUE file of a democ build (each Cumulus switch's IR names its file) checked
as `nv config replace` reads it: a YAML list of one `- set:` document whose tree
validates against NVIDIA's NVUE models (keys, types, ranges, enumerations; unknown keys
are errors), plus what the models leave open: interface names follow NVUE's pattern and
a bond's members are interfaces of the same file."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from .schema import interface_name, model


@dataclass
class Result:
    switch: str
    file: str
    error: str | None  # None: valid

    @property
    def ok(self) -> bool:
        return self.error is None


def _references(tree: dict) -> str | None:
    interfaces = tree.get("interface") or {}
    pattern = re.compile(interface_name())
    for name, body in interfaces.items():
        if not pattern.fullmatch(str(name)):
            return f"interface {name!r}: not an NVUE interface name ({pattern.pattern})"
        members = ((body or {}).get("bond") or {}).get("member") or {}
        for m in members:
            if m not in interfaces:
                return f"interface {name}: bond member {m!r} is no interface of this file"
    return None


def validate_text(text: str) -> str | None:
    """None when the NVUE text is valid, else why not."""
    try:
        docs = yaml.safe_load(text)
    except yaml.YAMLError as e:
        return f"not YAML: {e}"
    if not (isinstance(docs, list) and len(docs) == 1 and isinstance(docs[0], dict)
            and list(docs[0]) == ["set"] and isinstance(docs[0]["set"], dict)):
        return "not a startup file: expected a list of one `- set:` document"
    tree = docs[0]["set"]
    try:
        model().model_validate(tree)
    except ValidationError as e:
        return str(e)
    return _references(tree)


def _cumulus_switches(build: Path) -> list[tuple[str, str]]:
    out = []
    for p in sorted((build / "ir").glob("*.json")):
        if p.is_symlink() or not p.is_file():
            continue
        ir = json.loads(p.read_text())
        if not isinstance(ir, dict) or ir.get("external"):
            continue
        cumulus = ir.get("cumulus")
        if isinstance(cumulus, dict) and isinstance(cumulus.get("nvue_file"), str):
            out.append((str(ir.get("hostname")), cumulus["nvue_file"]))
    return out


def validate_build(build: str | Path) -> list[Result]:
    build = Path(build)
    if not (build / "ir").is_dir():
        raise FileNotFoundError(f"{build}: not a democ build (no ir/)")
    results = []
    for name, rel in _cumulus_switches(build):
        path = build / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute() or path.is_symlink() or not path.is_file():
            results.append(Result(name, rel, "the IR names a file that is not a regular file inside the build"))
            continue
        results.append(Result(name, rel, validate_text(path.read_text())))
    return results
