"""python -m democ_validators_avd BUILD_DIR [--json] [--switch NAME]... [--avd-out DIR]

Exit 0: every EOS switch agrees with pyavd; 1: differences (or the converted IR fails
AVD's schema); 2: usage or I/O problems.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .crosscheck import check_build


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m democ_validators_avd",
        description="Cross-check democ's Arista EOS configs against pyavd's rendering of the same IR.",
    )
    ap.add_argument("build_dir", help="output folder of `democ build` (has ir/ and switches/)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--switch", action="append", metavar="NAME", help="check only this switch (repeatable)")
    ap.add_argument(
        "--avd-out",
        metavar="DIR",
        help="also write <host>.structured.json and <host>.avd.cfg (pyavd's render) there",
    )
    args = ap.parse_args(argv)
    try:
        report = check_build(args.build_dir, only=args.switch)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.avd_out:
        out = Path(args.avd_out)
        out.mkdir(parents=True, exist_ok=True)
        for s in report.switches:
            (out / f"{s.hostname}.structured.json").write_text(
                json.dumps(s.structured_config, indent=2) + "\n"
            )
            if s.avd_config:
                (out / f"{s.hostname}.avd.cfg").write_text(s.avd_config)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(report.text())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
