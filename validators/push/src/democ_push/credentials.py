"""Credentials: from the environment or a netrc file, never from the command line (argv
is visible to every user of the machine in ps) and never written anywhere.

Order, first found wins:
1. the environment: DEMOC_PUSH_USER_<DEVICE> else DEMOC_PUSH_USER, and
   DEMOC_PUSH_PASSWORD_<DEVICE> else DEMOC_PUSH_PASSWORD (the device name upper-cased,
   every character other than a letter or digit as `_`: `cit-a-arista` ->
   `DEMOC_PUSH_PASSWORD_CIT_A_ARISTA`), when both a user and a password are set;
2. the netrc file's `machine <management address>` entry (then `machine <device name>`).
"""

from __future__ import annotations

import netrc
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Credentials:
    username: str
    # repr=False: a report or traceback that prints the object must not print this.
    password: str = field(repr=False)
    source: str = ""


def _suffix(device: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "_", device).upper()


def _from_netrc(path: Path | None, hosts: list[str]) -> Credentials | None:
    if path is None or not path.is_file():
        return None
    try:
        n = netrc.netrc(str(path))
    except (netrc.NetrcParseError, OSError):
        return None
    for h in hosts:
        auth = n.authenticators(h)
        if auth and auth[0] and auth[2] is not None:
            return Credentials(auth[0], auth[2], f"netrc {path} machine {h}")
    return None


def lookup(env: Mapping[str, str], netrc_path: Path | None, device: str, address: str) -> Credentials | None:
    s = _suffix(device)
    user = env.get(f"DEMOC_PUSH_USER_{s}") or env.get("DEMOC_PUSH_USER")
    password = env.get(f"DEMOC_PUSH_PASSWORD_{s}", env.get("DEMOC_PUSH_PASSWORD"))
    if user and password is not None:
        return Credentials(user, password, "environment")
    return _from_netrc(netrc_path, [address, device])


def secrets(creds: list[Credentials | None]) -> list[str]:
    """Every password in use, for redaction (report.redact)."""
    return sorted({c.password for c in creds if c and c.password}, key=len, reverse=True)
