"""`python -m democ_push BUILD_DIR [--device NAME] [--commit] ...`: every device of the
build in parallel (bounded), one report each; exit 0 all ok, 1 any device failed, 2 usage
or I/O problems (not a build folder, a report folder inside the build, an unknown device).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from . import build, checks, credentials, drivers, push, report


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="democ push",
        description="Push a democ build's switch configs (a dry run unless --commit). "
        "Credentials come from DEMOC_PUSH_USER / DEMOC_PUSH_PASSWORD (or per-device "
        "DEMOC_PUSH_USER_<DEVICE> / DEMOC_PUSH_PASSWORD_<DEVICE>) or a netrc file, never "
        "from the command line.",
    )
    p.add_argument("build_dir", type=Path, metavar="BUILD_DIR")
    p.add_argument("--device", action="append", metavar="NAME", help="only this switch (repeatable)")
    p.add_argument("--commit", action="store_true",
                   help="commit with a confirm timer, check, confirm; roll back on failure")
    p.add_argument("--parallel", type=int, default=4, metavar="N", help="devices at once (default 4)")
    p.add_argument("--report-dir", type=Path, metavar="DIR",
                   help="where the <device>.json reports go (default BUILD_DIR/../push-report)")
    p.add_argument("--revert-in", type=int, default=300, metavar="SECONDS",
                   help="confirm timer: the device reverts by itself unless confirmed (default 300)")
    p.add_argument("--lldp-wait", type=float, default=30.0, metavar="SECONDS",
                   help="how long the post-commit check waits for LLDP neighbours (default 30)")
    p.add_argument("--netrc", type=Path, metavar="PATH", help="netrc file (default ~/.netrc)")
    p.add_argument("--preamble", action="append", default=[], metavar="OS=FILE",
                   help="lines put before every config of that OS (eos, os10, ftos9, onyx, picos): "
                   "the site's users and management API, which democ does not write (repeatable)")
    a = p.parse_args(argv)
    if a.parallel < 1:
        p.error("--parallel must be at least 1")
    if a.revert_in < 1 or a.lldp_wait < 0 or a.lldp_wait >= a.revert_in:
        p.error("--revert-in must be at least 1 s and longer than --lldp-wait (the check runs inside it)")
    return a


def preambles(specs: list[str]) -> dict[str, str]:
    """`OS=FILE` -> {os: text}; a site's lines that a replace must keep (lockout.py)."""
    out = {}
    for spec in specs:
        os_name, sep, file = spec.partition("=")
        if not sep or os_name not in drivers.BY_OS:
            raise build.BuildError(f"--preamble {spec!r}: write OS=FILE, OS one of {', '.join(drivers.BY_OS)}")
        try:
            text = Path(file).read_text()
        except OSError as e:
            raise build.BuildError(f"--preamble {file}: {e}")
        out[os_name] = text if text.endswith("\n") else text + "\n"
    return out


def _inside(child: Path, parent: Path) -> bool:
    c, p = child.resolve(), parent.resolve()
    return c == p or p in c.parents


def main(argv: list[str] | None = None, env: Mapping[str, str] | None = None, connect=None,
         choose=None) -> int:
    """`connect(driver, device, creds)` and `choose(device) -> Driver` replace the real
    ones (tests); by default they come from drivers.py and the environment."""
    env = os.environ if env is None else env
    try:
        a = parse(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    try:
        devices = build.load(a.build_dir)
        pre = preambles(a.preamble)
        devices = [replace(d, config=pre.get(d.os, "") + d.config) for d in devices]
        choose = choose or drivers.chooser(env)
    except (build.BuildError, drivers.DriverChoiceError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    # Every switch of the build, also those --device leaves out: LLDP names them.
    switches = {d.name for d in devices}
    if a.device:
        known = switches
        unknown = sorted(set(a.device) - known)
        if unknown:
            print(f"error: no switch {', '.join(unknown)} in {a.build_dir}; it has {', '.join(sorted(known))}",
                  file=sys.stderr)
            return 2
        devices = [d for d in devices if d.name in a.device]
    report_dir = a.report_dir or a.build_dir.resolve().parent / "push-report"
    if _inside(report_dir, a.build_dir):
        # The build is democ's, checked by its manifest: a report inside would change it.
        print(f"error: the report folder {report_dir} is inside the build; name another with --report-dir",
              file=sys.stderr)
        return 2
    try:
        # Before any switch is touched: a commit whose report cannot be written is not
        # one to make.
        report_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"error: the report folder {report_dir}: {e}", file=sys.stderr)
        return 2
    connect = connect or (lambda drv, dev, cr: drivers.connect(drv, dev, cr, env))
    netrc_path = a.netrc or Path.home() / ".netrc"
    creds = {d.name: credentials.lookup(env, netrc_path, d.name, d.address or "") for d in devices}
    secrets = credentials.secrets(list(creds.values()))
    opts = push.Options(a.build_dir, a.commit, a.revert_in, a.lldp_wait)
    lock = threading.Lock()
    unwritten: list[str] = []

    named = set(a.device or [])

    def one(d: build.Device) -> dict:
        c = creds[d.name]
        if d.unverified and d.name not in named:
            # The address comes from the IR: one that is not the file democ wrote could
            # send the password anywhere, so such a device is not contacted unless the
            # user names it.
            r = push.new_report(d, choose(d), a.commit)
            r["error"] = (f"not contacted: {d.unverified}, so its address ({d.address}) may not be "
                          f"the one democ planned; name it with --device={d.name} to push to it anyway")
        else:
            expected = checks.expected_neighbors(a.build_dir, d.name, switches) if a.commit else {}
            r = push.run(d, choose(d), c, connect, opts, expected)
        r["address"] = d.address
        r["credentials"] = c.source if c else None
        r = report.redact(r, secrets)
        with lock:  # one device's block at a time, as each finishes
            sys.stdout.write(f"{d.name}: address {d.address or 'none'}, credentials from "
                             f"{(c.source if c else None) or 'nowhere'}\n")
            # Written as each device finishes: an interrupted push still leaves the
            # reports of the devices it changed.
            try:
                report.write(report_dir, r)
            except OSError as e:
                unwritten.append(f"{d.name}: {e}")
            sys.stdout.write(report.redact(report.text(r, d.config), secrets))
            sys.stdout.flush()
        return r

    with ThreadPoolExecutor(max_workers=a.parallel) as pool:
        reports = list(pool.map(one, devices))
    sys.stdout.write(report.summary(reports, a.commit))
    print(f"reports: {report_dir}")
    if unwritten:
        print(f"error: reports not written: {'; '.join(unwritten)}", file=sys.stderr)
        return 2
    return 1 if any(report.failed(r) for r in reports) else 0
