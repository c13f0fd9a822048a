"""The sc16 build every test reads, made once per session by the democ binary in $DEMOC
(default <repo>/target/debug/democ, as `cargo build` leaves it)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from pushfix import ROOT, democ_binary


def _build(tmp_path_factory, example: str) -> Path:
    exe = democ_binary()
    if not exe.is_file():
        pytest.fail(f"democ binary not found at {exe}: run `cargo build` or set DEMOC")
    out = tmp_path_factory.mktemp(example) / "build"
    proc = subprocess.run([str(exe), "build", str(ROOT / f"examples/{example}/show.yaml"), "-o", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="session")
def sc16(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, "sc16")


@pytest.fixture(scope="session")
def sc25(tmp_path_factory) -> Path:
    """sc25-400g, whose `scinet-core` runs SONiC."""
    return _build(tmp_path_factory, "sc25-400g")
