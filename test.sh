#!/usr/bin/env bash
# Runs every test: Rust (unit, integration, snapshots, property tests), clippy and
# rustfmt, then the Python checks (JSON Schema against every example) in a venv.
# Snapshots are never written here: CI=true makes insta fail on any mismatch.
set -euo pipefail
cd "$(dirname "$0")"
export CI=true INSTA_UPDATE=no

cargo fmt --check
cargo clippy --all-targets --quiet -- -D warnings
cargo test --all-targets --quiet

venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r tests/python/requirements.txt
cargo build --quiet
# yaml-language-server (npm) for tests/python/test_yaml_language_server.py, pinned by
# tests/editor/package-lock.json; without npm that test skips with its reason.
if command -v npm >/dev/null 2>&1; then
  npm ci --prefix tests/editor --no-audit --no-fund --silent || echo "npm ci failed: the yaml-language-server test will skip"
fi
DEMOC="$PWD/target/debug/democ" "$venv/bin/python" -m pytest -q tests/python

# validators/: democ's EOS output against Arista's pyavd, the offline Batfish snapshot,
# the push shim against NAPALM's mock driver, every SONiC config_db.json against
# SONiC's YANG models and every Cumulus NVUE file against NVIDIA's NVUE models
# (validators/README.md). Same venv; the tests build the examples with this binary.
# validators/sonic builds the libyang bindings against Debian's libyang2-dev (.ci/run).
"$venv/bin/pip" install --quiet --disable-pip-version-check -e validators/avd -e validators/batfish -e validators/push -e validators/sonic -e validators/cumulus
DEMOC="$PWD/target/debug/democ" "$venv/bin/python" -m pytest -q validators/avd/tests validators/batfish/tests validators/push/tests validators/sonic/tests validators/cumulus/tests

# `democ push` hands its work to validators/push (the NAPALM shim). On a fresh machine
# tests/push.rs ran above before the venv had the shim, and said it skipped its dry run;
# now that it is installed, run it again.
cargo test --quiet --test push
