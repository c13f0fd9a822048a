"""One device's push: the dry run (load, diff, discard) or the commit (load, diff, commit
with a confirm timer, check, confirm; roll back on any failure), as a report dict.

Nothing here raises: every failure ends in the report's `error`, so one device's trouble
never stops the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import checks, lockout, manual
from .build import Device
from .credentials import Credentials
from .drivers import Driver, has_confirm_timer


@dataclass(frozen=True)
class Options:
    build_dir: Path
    commit: bool
    revert_in: int
    lldp_wait: float


class CheckFailed(Exception):
    pass


def new_report(device: Device, driver: Driver, commit: bool) -> dict:
    # The stable keys first; every report has all of them.
    return {
        "device": device.name,
        "os": device.os,
        "driver": driver.name,
        "action": "commit" if commit else "dry-run",
        "diff": None,
        "changed": None,
        "committed": False,
        "rolled_back": False,
        "error": None,
        "checks": None,
        "address": device.address,
        "config_file": device.config_file,
        "diff_unavailable": None,
        "skipped": None,
        "manual_steps": [],
        "confirm_timer_s": None,
        "lockout": [],
    }


def _fail(r: dict, stage: str, e: BaseException) -> None:
    r["error"] = f"{stage}: {type(e).__name__}: {e}"


def _rollback(dev, r: dict) -> None:
    try:
        dev.rollback()
        r["rolled_back"] = True
    except Exception as e:  # noqa: BLE001 - the report says what went wrong
        timer = r["confirm_timer_s"]
        after = f"; the confirm timer reverts the device within {timer} s" if timer else ""
        r["error"] += f"; rollback failed: {type(e).__name__}: {e}{after}"


def _commit(dev, device: Device, opts: Options, expected: dict[str, str], r: dict) -> None:
    timer = opts.revert_in if has_confirm_timer(dev) else None
    r["confirm_timer_s"] = timer
    stage = "commit"
    try:
        if timer:
            dev.commit_config(revert_in=timer)
        else:
            dev.commit_config()
        stage = "post-commit check"
        r["checks"] = checks.run(dev, device, expected, opts.lldp_wait)
        if not r["checks"]["ok"]:
            why = r["checks"]["facts"].get("problem") or "; ".join(r["checks"]["lldp"]["problems"])
            raise CheckFailed(why)
        if timer:
            stage = "confirm"
            dev.confirm_commit()
        r["committed"] = True
    except Exception as e:  # noqa: BLE001 - any failure rolls back, whatever raised it
        _fail(r, stage, e)
        _rollback(dev, r)


def run(device: Device, driver: Driver, creds: Credentials | None, connect, opts: Options,
        expected: dict[str, str]) -> dict:
    """`connect(driver, device, creds)` returns an open NAPALM-style session."""
    r = new_report(device, driver, opts.commit)
    if device.address is None:
        r["skipped"] = "the IR has no management address"
        return r
    if driver.kind == "manual":
        r["skipped"] = driver.no_commit
        r["manual_steps"] = manual.steps(device, str(opts.build_dir))
        return r
    if creds is None:
        r["error"] = ("no credentials: set DEMOC_PUSH_USER and DEMOC_PUSH_PASSWORD (or the "
                      f"per-device ones) or a netrc entry for {device.address}")
        return r
    stage, dev = "connect", None
    try:
        dev = connect(driver, device, creds)
        stage = "load candidate"
        dev.load_replace_candidate(config=device.config)
        stage = "compare"
        diff = dev.compare_config()
        if diff is None:
            r["diff_unavailable"] = "the driver has no candidate on the switch to compare with"
        else:
            r["diff"] = diff
            r["changed"] = bool(diff.strip())
        r["lockout"] = lockout.risks(driver.name, device.config)
        if opts.commit and not driver.no_commit and r["lockout"] and r["changed"] is not False:
            r["error"] = ("refused before commit, the replace would lock the switch out: "
                          + "; ".join(r["lockout"]) + f"; add the site's lines with --preamble {device.os}=FILE")
        if opts.commit and driver.no_commit:
            r["skipped"] = f"not committed: {driver.no_commit}"
            r["manual_steps"] = manual.steps(device, str(opts.build_dir))
        if not opts.commit or driver.no_commit or r["changed"] is False or r["error"]:
            # Nothing to commit (dry run, a driver that cannot, no change, or a replace
            # that would lock the switch out): leave the switch exactly as it was.
            stage = "discard"
            dev.discard_config()
            return r
        _commit(dev, device, opts, expected, r)
    except Exception as e:  # noqa: BLE001 - reported per device
        _fail(r, stage, e)
        if stage == "discard" or dev is None:
            return r
        try:
            dev.discard_config()
        except Exception:  # noqa: BLE001 - the first error is the one reported
            pass
    finally:
        if dev is not None:
            try:
                dev.close()
            except Exception:  # noqa: BLE001 - closing a broken session may fail too
                pass
    return r
