"""Render each EOS switch of a democ build with pyavd and compare it with democ's config."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import convert, eos_text
from .eos_text import Pair

# Lines pyavd renders that democ does not manage, as (section regex, line regex, reason).
# With the structured config `convert` writes, pyavd 6.4 renders nothing beyond `!`
# separators (dropped by the parser) and `end` (democ prints it too): the list is empty,
# and tests/test_crosscheck.py keeps it honest. Add an entry here only with its reason.
AVD_UNMANAGED: list[tuple[str, str, str]] = []


def pyavd_version() -> str:
    from importlib.metadata import version

    return version("pyavd")


@dataclass
class SwitchResult:
    hostname: str
    config_file: str
    compared: int = 0
    # In the expectation (pyavd's render plus the IR supplements) but not in democ's text.
    missing: list[Pair] = field(default_factory=list)
    # In democ's text but in neither pyavd's render nor the supplements.
    extra: list[Pair] = field(default_factory=list)
    validation_errors: list[str] = field(default_factory=list)
    deprecations: list[str] = field(default_factory=list)
    ir_findings: list[str] = field(default_factory=list)
    supplements_used: dict[str, int] = field(default_factory=dict)
    ignored_avd: list[Pair] = field(default_factory=list)
    structured_config: dict[str, Any] = field(default_factory=dict, repr=False)
    avd_config: str = field(default="", repr=False)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.extra or self.validation_errors or self.ir_findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "hostname": self.hostname,
            "config_file": self.config_file,
            "ok": self.ok,
            "compared": self.compared,
            "missing_in_democ": eos_text.render(set(self.missing)),
            "extra_in_democ": eos_text.render(set(self.extra)),
            "validation_errors": self.validation_errors,
            "deprecations": self.deprecations,
            "ir_findings": self.ir_findings,
            "supplements_used": self.supplements_used,
            "ignored_avd_lines": eos_text.render(set(self.ignored_avd)),
        }


@dataclass
class Report:
    build_dir: str
    switches: list[SwitchResult] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)  # os -> hostnames

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.switches)

    def to_json(self) -> dict[str, Any]:
        return {
            "build_dir": self.build_dir,
            "pyavd": pyavd_version(),
            "ok": self.ok,
            "switches": [s.to_json() for s in self.switches],
            "skipped_not_eos": self.skipped,
            "supplement_reasons": convert.SUPPLEMENT_REASONS,
            "avd_unmanaged": [{"section": s, "line": l, "reason": r} for s, l, r in AVD_UNMANAGED],
        }

    def text(self) -> str:
        out = [f"democ EOS output vs pyavd {pyavd_version()} (eos_cli_config_gen), build {self.build_dir}"]
        if not self.switches:
            out.append("no EOS switches in this build: nothing to cross-check")
        used: set[str] = set()
        for s in self.switches:
            sup = ", ".join(f"{k} {v}" for k, v in sorted(s.supplements_used.items()))
            used.update(s.supplements_used)
            if s.ok:
                out.append(
                    f"{s.hostname}: OK, {s.compared} (section, line) pairs agree"
                    + (f" (democ-only lines checked against the IR: {sup})" if sup else "")
                )
                continue
            out.append(f"{s.hostname}: DIFFERENCES ({s.config_file})")
            for e in s.validation_errors:
                out.append(f"  AVD schema rejects the converted IR: {e}")
            for f in s.ir_findings:
                out.append(f"  IR: {f}")
            for p in eos_text.render(set(s.missing)):
                out.append(f"  - democ lacks (expected): {p}")
            for p in eos_text.render(set(s.extra)):
                out.append(f"  + democ adds (unexpected): {p}")
        for s in self.switches:
            for d in s.deprecations:
                out.append(f"{s.hostname}: AVD deprecation: {d}")
        if self.skipped:
            out.append(
                "skipped, not EOS: "
                + "; ".join(f"{os_}: {', '.join(h)}" for os_, h in sorted(self.skipped.items()))
            )
        if used:
            out.append("democ-only lines (AVD cannot model them; generated from the IR and compared):")
            for k in sorted(used):
                out.append(f"  {k}: {convert.SUPPLEMENT_REASONS[k]}")
        n_bad = sum(not s.ok for s in self.switches)
        out.append(
            f"{len(self.switches)} EOS switch(es) checked, {n_bad} with differences"
            if self.switches
            else "0 EOS switches checked"
        )
        return "\n".join(out)


def _matches_unmanaged(pair: Pair) -> bool:
    return any(
        re.fullmatch(sr, pair[0]) and re.fullmatch(lr, pair[1]) for sr, lr, _ in AVD_UNMANAGED
    )


def render_avd(sc: dict[str, Any]) -> tuple[str | None, list[str], list[str]]:
    """(config or None, validation errors, deprecations) for a structured config."""
    import pyavd

    res = pyavd.validate_structured_config(sc)
    vr = res.validation_result
    errors = [f"{'.'.join(str(p) for p in v.path)}: {v.message}" for v in vr.violations]
    deprecations = [str(getattr(d, "message", d)) for d in vr.deprecations]
    if errors or res.validated_data is None:
        return None, errors or ["validation failed without a message"], deprecations
    return pyavd.get_device_config(res.validated_data), errors, deprecations


def check_switch(sw: dict[str, Any], democ_text: str) -> SwitchResult:
    r = SwitchResult(hostname=sw["hostname"], config_file=sw.get("config_file", ""))
    r.ir_findings = convert.speed_findings(sw) + convert.vlan_findings(sw)
    try:
        r.structured_config = convert.structured_config(sw)
    except (KeyError, ValueError) as e:
        r.validation_errors = [f"IR could not be converted: {e!r}"]
        return r
    avd_text, r.validation_errors, r.deprecations = render_avd(r.structured_config)
    if avd_text is None:
        return r
    r.avd_config = avd_text

    avd = eos_text.parse(avd_text)
    r.ignored_avd = sorted(p for p in avd if _matches_unmanaged(p))
    expected = avd - set(r.ignored_avd)
    for section, line, key in convert.supplement_lines(sw):
        pair = (section, eos_text.normalize(line) if line else "")
        expected.add(pair)
        r.supplements_used[key] = r.supplements_used.get(key, 0) + 1

    democ = eos_text.parse(democ_text)
    r.missing = sorted(expected - democ)
    r.extra = sorted(democ - expected)
    r.compared = len(expected | democ)
    return r


def check_build(build_dir: str | Path, only: list[str] | None = None) -> Report:
    build = Path(build_dir)
    ir_dir = build / "ir"
    if not ir_dir.is_dir():
        raise FileNotFoundError(f"{build}: no ir/ folder (is this a `democ build` output?)")
    report = Report(build_dir=str(build))
    for path in sorted(ir_dir.glob("*.json")):
        sw = json.loads(path.read_text())
        if not (isinstance(sw, dict) and "hostname" in sw and "os" in sw):
            continue  # not a per-switch IR file
        host = sw["hostname"]
        if only and host not in only:
            continue
        if sw.get("external"):
            # Owned by others: democ wrote no config to cross-check.
            report.skipped.setdefault("external", []).append(host)
            continue
        if sw.get("os") != "eos":
            report.skipped.setdefault(sw.get("os", "?"), []).append(host)
            continue
        cfg = build / sw.get("config_file", f"switches/{host}.cfg")
        report.switches.append(check_switch(sw, cfg.read_text()))
    return report
