"""Batfish gate for democ builds.

`build_snapshot(BUILD_DIR)` writes an offline Batfish snapshot (EOS and FTOS 9 configs
plus `batfish/layer1_topology.json` from the IR's cabling); `questions` uploads it to a
Batfish service the user runs and reads the answers against the IR.
"""

from .expect import Expectations, expectations
from .snapshot import SKIP_REASONS, Snapshot, batfish_interface_name, build_snapshot

__all__ = [
    "SKIP_REASONS",
    "Expectations",
    "Snapshot",
    "batfish_interface_name",
    "build_snapshot",
    "expectations",
]
