"""python -m democ_validators_sonic BUILD_DIR [--yang DIR] [--json]

Validates every SONiC switch's config_db.json against SONiC's YANG models. Exit 0: all
valid (or no SONiC switch); 1: a file fails; 2: usage, I/O or missing models.
"""

from __future__ import annotations

import argparse
import json
import sys

import libyang

from .models import Models
from .validate import validate_build


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m democ_validators_sonic",
                                 description="Validate a build's SONiC config_db.json files with SONiC's YANG models.")
    ap.add_argument("build_dir", help="output folder of `democ build`")
    ap.add_argument("--yang", metavar="DIR", help="the sonic-yang folder (default ../shared/schemas/sonic-yang beside democ)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    try:
        models = Models(args.yang)
    except (OSError, libyang.LibyangError) as e:
        print(f"error: SONiC YANG models: {e}", file=sys.stderr)
        return 2
    try:
        results = validate_build(args.build_dir, models)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        models.close()
    if args.json:
        print(json.dumps([{"switch": r.switch, "file": r.file, "error": r.error} for r in results], indent=2))
    else:
        for r in results:
            print(f"{r.switch}: {r.file}: " + ("valid" if r.ok else f"invalid: {r.error}"))
        if not results:
            print("no SONiC switch in the build")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
