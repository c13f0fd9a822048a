"""python -m democ_validators_cumulus BUILD_DIR [--json]

Validates every Cumulus Linux switch's NVUE file against NVIDIA's NVUE models. Exit 0:
all valid (or no Cumulus switch); 1: a file fails; 2: usage or I/O.
"""

from __future__ import annotations

import argparse
import json
import sys

from .schema import RELEASE
from .validate import validate_build


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m democ_validators_cumulus",
                                 description="Validate a build's Cumulus Linux NVUE files with NVIDIA's NVUE models.")
    ap.add_argument("build_dir", help="output folder of `democ build`")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    try:
        results = validate_build(args.build_dir)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{"switch": r.switch, "file": r.file, "error": r.error} for r in results], indent=2))
    else:
        for r in results:
            print(f"{r.switch}: {r.file}: " + (f"valid (NVUE {RELEASE})" if r.ok else f"invalid: {r.error}"))
        if not results:
            print("no Cumulus Linux switch in the build")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
