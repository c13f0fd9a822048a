"""Credentials: from the environment or a netrc file, never from the command line (argv
is visible to every user of the machine in ps) and never written anywhere.

Order, first found wins:
1. the environment: DEMOC_PUSH_USER_<DEVICE> else DEMOC_PUSH_USER, and
   DEMOC_PUSH_PASSWORD_<DEVICE> else DEMOC_PUSH_PASSWORD (the device name upper-cased,
   every character other than a letter or digit as `_`: `cit-a-arista` ->
   `DEMOC_PUSH_PASSWORD_CIT_A_ARISTA`), when both a user and a password are set;
2. the netrc file's `machine <management address>` entry: the host actually contacted,
   never an entry filed under another name (a crafted IR could otherwise have the
   password of `machine <device name>` sent to an address of its choosing).
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
    return _from_netrc(netrc_path, [address] if address else [])


def _encodings(username: str, password: str) -> set[str]:
    """The password as it may appear in a URL, a form, a hex or base64 dump, or an HTTP
    Basic header (`user:password` in base64): each is masked too."""
    import base64
    from urllib.parse import quote, quote_plus

    raw = password.encode()
    basic = f"{username}:{password}".encode()
    return {
        base64.b64encode(basic).decode(),
        base64.b64encode(raw).decode(),
        password,
        quote(password, safe=""),
        quote_plus(password),
        raw.hex(),
        raw.hex().upper(),
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    }


def secrets(creds: list[Credentials | None]) -> list[str]:
    """Every password in use and its encoded forms, longest first, for redaction
    (report.redact)."""
    out: set[str] = set()
    for c in creds:
        if c and c.password:
            out |= _encodings(c.username, c.password)
    return sorted(out, key=len, reverse=True)
