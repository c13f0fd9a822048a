"""python -m democ_validators_batfish BUILD_DIR [-o SNAPSHOT_DIR]

Writes the Batfish snapshot offline (no service needed) and prints what it holds.
Exit 2 on I/O or IR problems.
"""

from __future__ import annotations

import argparse
import sys

from .snapshot import build_snapshot


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m democ_validators_batfish")
    ap.add_argument("build_dir", help="output folder of `democ build`")
    ap.add_argument("-o", "--output", help="snapshot folder (default BUILD_DIR/snapshot)")
    args = ap.parse_args(argv)
    try:
        snap = build_snapshot(args.build_dir, args.output)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(snap.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
