"""Shared test helpers: NAPALM mock fixtures and a recorder of the calls the shim makes
on each driver (the sc16 build fixture is in conftest.py)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from democ_push import checks, drivers
from democ_push.build import load

ROOT = Path(__file__).resolve().parents[3]
PASSWORD = "pw-Zq81-never-shown"


def democ_binary() -> Path:
    return Path(os.environ.get("DEMOC") or ROOT / "target" / "debug" / "democ")


def write_fixtures(folder: Path, **methods) -> Path:
    """`method=value` -> `<folder>/<method>.1` (a list of values: `.1`, `.2`, ...), the
    names NAPALM's mock driver reads; a value {"exception": ..., "args": [...]} makes the
    call raise."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, value in methods.items():
        values = value if isinstance(value, list) else [value]
        for i, v in enumerate(values, 1):
            (folder / f"{name}.{i}").write_text(json.dumps(v))
    return folder


def healthy(build: Path, mock_dir: Path, device: str, diff: str = "+description changed\n", **over) -> Path:
    """Fixtures under which `device` takes a commit cleanly: it answers with its own
    hostname and sees every LLDP neighbour the build's cabling gives it."""
    switches = {d.name for d in load(build)}
    seen = {i: [{"hostname": p, "port": "x"}] for i, p in checks.expected_neighbors(build, device, switches).items()}
    methods = dict(
        load_replace_candidate={}, compare_config={"diff": diff}, discard_config={},
        commit_config={}, confirm_commit={},
        get_facts={"hostname": device, "os_version": "mock", "vendor": "mock", "model": "mock",
                   "uptime": 1.0, "serial_number": "1", "fqdn": device, "interface_list": []},
        get_lldp_neighbors=seen,
    )
    methods.update(over)
    return write_fixtures(mock_dir / device, **methods)


def mock_env(mock_dir: Path) -> dict[str, str]:
    return {"DEMOC_PUSH_DRIVER": "mock", "DEMOC_PUSH_MOCK_DIR": str(mock_dir),
            "DEMOC_PUSH_USER": "admin", "DEMOC_PUSH_PASSWORD": PASSWORD}


class Recorder:
    """Wraps an open driver and logs each method the shim calls on it. functools.wraps
    keeps the signatures, so the shim sees the same `revert_in` it would on the driver."""

    def __init__(self, dev):
        self._dev = dev
        self.log: list[str] = []
        # Each method's last keyword arguments (the config a candidate was loaded with).
        self.kwargs: dict[str, dict] = {}

    def __getattr__(self, name):
        attr = getattr(self._dev, name)
        if not callable(attr):
            return attr

        @functools.wraps(attr)
        def call(*a, **k):
            self.log.append(name)
            self.kwargs[name] = k
            return attr(*a, **k)

        return call


def recording(env: dict[str, str]):
    """A `connect` for cli.main that opens the mock driver and keeps a Recorder per device."""
    opened: dict[str, Recorder] = {}

    def connect(drv, dev, creds):
        opened[dev.name] = Recorder(drivers.connect(drv, dev, creds, env))
        return opened[dev.name]

    return connect, opened


def run_module(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """`python -m democ_push ARGS` as democ runs it: a separate process, real stdout/stderr."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("DEMOC_PUSH")}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "democ_push", *args], capture_output=True, text=True, env=full)


def reports(folder: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in folder.glob("*.json")}
