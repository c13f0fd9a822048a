"""The per-device JSON reports and the printed lines, with every password in use blotted
out: a driver's exception text can quote what it was given (a URL, a failed login
line), and none of it may reach a terminal, a log or a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

MASK = "********"


def redact(value, secrets: list[str]):
    if isinstance(value, str):
        for s in secrets:
            value = value.replace(s, MASK)
        return value
    if isinstance(value, dict):
        return {redact(k, secrets): redact(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, secrets) for v in value]
    return value


def write(report_dir: Path, r: dict) -> Path:
    """`<device>.json`, replaced atomically (a reader never sees half a report)."""
    path = report_dir / f"{r['device']}.json"
    fd, tmp = tempfile.mkstemp(dir=report_dir, prefix=f".{r['device']}.", suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(r, f, indent=2, sort_keys=False)
        f.write("\n")
    os.replace(tmp, path)
    return path


def failed(r: dict) -> bool:
    return r["error"] is not None


def status(r: dict) -> str:
    """The device's one line: what happened, in words."""
    if r["error"]:
        rb = ", rolled back" if r["rolled_back"] else ""
        return f"FAILED{rb}: {r['error']}"
    parts = []
    if r["diff_unavailable"]:
        parts.append("diff unavailable (config that would be sent below)")
    elif r["changed"] is True:
        lines = [ln for ln in r["diff"].splitlines() if ln.strip()]
        parts.append(f"changed ({len(lines)} diff lines)")
    elif r["changed"] is False:
        parts.append("no change")
    if r["committed"]:
        timer = f", confirm timer {r['confirm_timer_s']} s" if r["confirm_timer_s"] else ""
        parts.append(f"committed, checked and confirmed{timer}")
    if r["skipped"]:
        parts.append(f"skipped: {r['skipped']}")
    return "; ".join(parts) or "nothing to do"


def text(r: dict, config: str) -> str:
    """The block printed for one device: its line, then the diff, the config that would
    be sent (when there is no diff) or the manual steps."""
    out = [f"{r['device']} ({r['os']}, {r['driver']}, {r['action']}): {status(r)}"]
    body: list[str] = []
    if r["changed"]:
        body = r["diff"].splitlines()
    elif r["diff_unavailable"] and not r["error"]:
        body = config.splitlines()
    for line in body:
        out.append(f"    {line}")
    if r["lockout"] and not r["error"]:
        out.extend(f"    warning: --commit would refuse this replace: {w}" for w in r["lockout"])
    for i, step in enumerate(r["manual_steps"], 1):
        out.append(f"    {i}. {step}")
    if r["checks"] and r["checks"].get("lldp") and r["checks"]["lldp"].get("problems"):
        out.extend(f"    lldp: {p}" for p in r["checks"]["lldp"]["problems"])
    return "\n".join(out) + "\n"


def summary(reports: list[dict], commit: bool) -> str:
    def count(pred) -> int:
        return sum(1 for r in reports if pred(r))

    parts = [
        f"{count(lambda r: r['changed'] is True and not r['error'])} changed",
        f"{count(lambda r: r['changed'] is False and not r['error'])} unchanged",
        f"{count(lambda r: r['diff_unavailable'] and not r['error'])} without a diff",
    ]
    if commit:
        parts.append(f"{count(lambda r: r['committed'])} committed")
        parts.append(f"{count(lambda r: r['rolled_back'])} rolled back")
    parts.append(f"{count(lambda r: r['skipped'] and not r['error'])} skipped or manual")
    parts.append(f"{count(failed)} failed")
    what = "push --commit" if commit else "push dry run (nothing committed)"
    return f"{what}: {len(reports)} devices: " + ", ".join(parts) + "\n"
