"""Builds made once per session by the democ binary in $DEMOC (default
<repo>/target/debug/democ)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _build(tmp_path_factory, spec: str, name: str) -> Path:
    exe = Path(os.environ.get("DEMOC", ROOT / "target" / "debug" / "democ"))
    if not exe.is_file():
        pytest.fail(f"democ binary not found at {exe}: run `cargo build` or set DEMOC")
    out = tmp_path_factory.mktemp(name) / "build"
    proc = subprocess.run([str(exe), "build", str(ROOT / spec), "-o", str(out), "--no-lock"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="session")
def nvue_sc25(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, "examples/sc25-400g/show.yaml", "sc25")


@pytest.fixture(scope="session")
def nvue_fixture(tmp_path_factory) -> Path:
    """The render fixture with a Cumulus switch: breakout, bond, routed ports, BGP, RoCE."""
    return _build(tmp_path_factory, "tests/fixtures/render/cumulus.yaml", "cumulus")


@pytest.fixture(scope="session")
def nvue_routed(tmp_path_factory) -> Path:
    """The routed show with sw-a on Cumulus: SVIs, BGP over circuits, prefix lists."""
    return _build(tmp_path_factory, "tests/fixtures/show/routes-bgp-cumulus.yaml", "routed")
