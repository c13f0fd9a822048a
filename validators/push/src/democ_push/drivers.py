"""Which driver takes each OS's config to the switch, and what it can do.

| os    | driver                      | dry run (diff)                 | commit                      |
|-------|-----------------------------|--------------------------------|-----------------------------|
| eos   | NAPALM `eos`                | device-computed session diff   | timer, check, confirm (*)   |
| os10  | napalm-dellos10             | device-computed diff           | no: manual steps            |
| ftos9 | netmiko `dell_force10`      | unavailable: config shown      | no: manual steps            |
| onyx  | netmiko `mellanox_mlnxos`   | unavailable: config shown      | no: manual steps            |
| picos | none                        | none: manual steps             | no: manual steps            |
| sonic | none                        | none: manual steps             | no: manual steps            |
| cumulus | none                      | none: manual steps             | no: manual steps            |

(*) once the candidate has the site's users and eAPI (`--preamble`, lockout.py).

`DEMOC_PUSH_DRIVER=mock` (with `DEMOC_PUSH_MOCK_DIR`) maps every OS to NAPALM's mock
driver, which replays JSON fixtures: the tests' way in, and a rehearsal without switches.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .build import Device
from .credentials import Credentials
from .manual import NETMIKO_NO_COMMIT
from .netmiko_adapter import NetmikoAdapter


@dataclass(frozen=True)
class Driver:
    # As the report names it: a NAPALM driver name, `netmiko:<device_type>` or `manual`.
    name: str
    kind: str  # "napalm" | "netmiko" | "manual"
    # None when the shim commits through this driver; otherwise why it does not (the
    # report and the printed manual steps say it).
    no_commit: str | None = None


BY_OS: dict[str, Driver] = {
    "eos": Driver("eos", "napalm"),
    # napalm-dellos10 1.0.7: commit_config() raises NotImplementedError after
    # load_replace_candidate() ("Configuration not supported"), takes no revert_in, and
    # has no rollback(); its diff (file on the switch vs running config) works.
    "os10": Driver(
        "dellos10",
        "napalm",
        "napalm-dellos10 cannot commit a replace candidate (NotImplementedError), "
        "has no confirm timer and no rollback",
    ),
    "ftos9": Driver("netmiko:dell_force10", "netmiko", NETMIKO_NO_COMMIT),
    "onyx": Driver("netmiko:mellanox_mlnxos", "netmiko", NETMIKO_NO_COMMIT),
    # PicOS has no NAPALM driver; its OVS-mode script changes the bridge in place (no
    # candidate, no diff, no rollback), so running it unattended is not safe.
    "picos": Driver(
        "manual",
        "manual",
        "no NAPALM or netmiko path with a diff and a rollback exists for PicOS",
    ),
    # No NAPALM driver for SONiC ships with NAPALM or as a maintained plugin democ
    # could pin; `config load`/`config reload` by hand until one exists.
    "sonic": Driver(
        "manual",
        "manual",
        "no NAPALM driver for SONiC: its config_db.json and FRR file are loaded by hand",
    ),
    # Cumulus Linux 5.x is configured through NVUE (`nv config replace`/`apply`, or its
    # REST API); no NAPALM driver for NVUE ships with NAPALM or as a maintained plugin.
    "cumulus": Driver(
        "manual",
        "manual",
        "no NAPALM driver for Cumulus Linux's NVUE: its NVUE file is loaded by hand",
    ),
}

MOCK = Driver("mock", "napalm")


class DriverChoiceError(Exception):
    """A driver selection in the environment that cannot be honoured (exit 2)."""


def chooser(env: Mapping[str, str]):
    """The OS -> driver function the environment asks for."""
    wanted = env.get("DEMOC_PUSH_DRIVER", "")
    if not wanted:
        return lambda device: BY_OS.get(
            device.os, Driver("manual", "manual", f"democ push knows no driver for OS {device.os!r}")
        )
    if wanted != "mock":
        raise DriverChoiceError(f"DEMOC_PUSH_DRIVER={wanted!r}: the only override is `mock`")
    if not env.get("DEMOC_PUSH_MOCK_DIR"):
        raise DriverChoiceError("DEMOC_PUSH_DRIVER=mock needs DEMOC_PUSH_MOCK_DIR (the fixtures)")
    return lambda device: MOCK


def mock_path(env: Mapping[str, str], device: Device) -> str:
    """The device's own fixture folder (`<dir>/<device>`) when there is one, else the
    shared one: one device can be made to fail while the others replay the defaults."""
    root = Path(env["DEMOC_PUSH_MOCK_DIR"])
    own = root / device.name
    return str(own if own.is_dir() else root)


def connect(driver: Driver, device: Device, creds: Credentials, env: Mapping[str, str]):
    """An open session with NAPALM's driver interface."""
    assert device.address is not None
    if driver.kind == "netmiko":
        dev = NetmikoAdapter(driver.name.split(":", 1)[1], device.address, creds.username, creds.password)
    else:
        import napalm  # deferred: importing napalm takes about a second

        optional = {"path": mock_path(env, device)} if driver.name == "mock" else {}
        cls = napalm.get_network_driver(driver.name)
        dev = cls(device.address, creds.username, creds.password, timeout=60, optional_args=optional)
    dev.open()
    return dev


def has_confirm_timer(dev) -> bool:
    """Whether commit_config takes NAPALM's `revert_in` (commit-confirm)."""
    try:
        return "revert_in" in inspect.signature(dev.commit_config).parameters
    except (TypeError, ValueError):
        return False
