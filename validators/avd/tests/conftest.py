"""Builds democ examples once per session with the binary from $DEMOC
(default: <repo>/target/debug/democ, as `cargo build` leaves it), with `--hosts`, so
the DTNs' IR is there for the snapshot's hosts/.

validators/avd/tests/conftest.py is the same file: each package's tests run on their own
too (its pyproject sets the test root), and when ./test.sh runs both in one pytest,
pytest imports the first `conftest` module for both, so the two must not differ."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def democ_binary() -> Path:
    return Path(os.environ.get("DEMOC") or ROOT / "target" / "debug" / "democ")


@pytest.fixture(scope="session")
def democ_build(tmp_path_factory):
    built: dict[str, Path] = {}

    def build(spec: str) -> Path:
        if spec not in built:
            exe = democ_binary()
            if not exe.is_file():
                pytest.fail(f"democ binary not found at {exe}: run `cargo build` or set DEMOC")
            out = tmp_path_factory.mktemp(spec.replace("/", "_")) / "out"
            proc = subprocess.run(
                [str(exe), "build", str(ROOT / spec), "-o", str(out), "--hosts"],
                capture_output=True,
                text=True,
            )
            assert proc.returncode == 0, f"democ build {spec} failed:\n{proc.stderr}"
            built[spec] = out
        return built[spec]

    return build
