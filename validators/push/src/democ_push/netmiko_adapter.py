"""FTOS 9 and Onyx through netmiko, behind the part of NAPALM's interface netmiko can
honestly offer.

NAPALM has no driver for either that works with napalm 5 (napalm-ftos fails to import).
netmiko gives an SSH CLI session and nothing more: no candidate configuration on the
switch, so no device-computed diff, no confirm timer, no rollback. What this adapter
does:

- open(): logs in (proves the switch answers at its management address with these
  credentials);
- load_replace_candidate(): keeps the config here (nothing is sent);
- compare_config(): returns None, "unavailable" (push.py then shows the config that
  would be sent instead of a diff);
- discard_config(): forgets it;
- commit_config(): refuses, with the reason, without touching the switch.
"""

from __future__ import annotations

from pathlib import Path

from .manual import NETMIKO_NO_COMMIT


class NetmikoAdapter:
    def __init__(self, device_type: str, hostname: str, username: str, password: str, connect=None):
        self.device_type = device_type
        self.hostname = hostname
        self._username = username
        self._password = password
        # netmiko.ConnectHandler unless a test hands in its own.
        self._connect = connect
        self._conn = None
        self._candidate: str | None = None

    def open(self) -> None:
        connect = self._connect
        if connect is None:
            from netmiko import ConnectHandler  # deferred: only FTOS 9 and Onyx need it

            connect = ConnectHandler
        self._conn = connect(
            device_type=self.device_type,
            host=self.hostname,
            username=self._username,
            password=self._password,
        )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.disconnect()
            self._conn = None

    def load_replace_candidate(self, filename: str | None = None, config: str | None = None) -> None:
        self._candidate = config if config is not None else Path(filename or "").read_text()

    def compare_config(self) -> None:
        # No candidate on the switch to compare with: the diff is unavailable, not empty.
        return None

    def discard_config(self) -> None:
        self._candidate = None

    def commit_config(self, message: str = "", revert_in: int | None = None) -> None:
        raise NotImplementedError(NETMIKO_NO_COMMIT)
