"""Builds made once per session by the democ binary in $DEMOC (default
<repo>/target/debug/democ), and SONiC's models loaded once."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from democ_validators_sonic.models import DEFAULT, Models

ROOT = Path(__file__).resolve().parents[3]


def _democ() -> Path:
    return Path(os.environ.get("DEMOC", ROOT / "target" / "debug" / "democ"))


def _build(tmp_path_factory, spec: str, name: str) -> Path:
    exe = _democ()
    if not exe.is_file():
        pytest.fail(f"democ binary not found at {exe}: run `cargo build` or set DEMOC")
    out = tmp_path_factory.mktemp(name) / "build"
    proc = subprocess.run([str(exe), "build", str(ROOT / spec), "-o", str(out), "--no-lock"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="session")
def models():
    if not (DEFAULT / "yang-models").is_dir():
        pytest.skip(f"SONiC's YANG models are not at {DEFAULT} (../shared beside the checkout)")
    m = Models()
    yield m
    m.close()


@pytest.fixture(scope="session")
def sc25(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, "examples/sc25-400g/show.yaml", "sc25")


@pytest.fixture(scope="session")
def fixture(tmp_path_factory) -> Path:
    """The render fixture with a SONiC switch: LAG, routed ports, BGP, RoCE, management."""
    return _build(tmp_path_factory, "tests/fixtures/render/sonic.yaml", "sonic")
