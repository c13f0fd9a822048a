"""Would this replace lock the push (and the operator) out of the switch?

A replace commit makes the candidate the whole running config. democ's configs carry no
local users and, for EOS, no eAPI: replaced as they are, the switch would drop the
session NAPALM talks through and every login with it, and the commit could then be
neither checked nor confirmed (the confirm timer would revert it minutes later). So the
shim refuses such a commit and says what to add; `--preamble OS=FILE` puts the site's
own lines (users, API) in front of every config of that OS.
"""

from __future__ import annotations

import re

# Per NAPALM driver: (line the candidate must have, why).
NEEDS: dict[str, list[tuple[str, str]]] = {
    "eos": [
        (
            r"^management api http-commands\n(?:[ \t]+.*\n)*?[ \t]+no shutdown\b",
            "no `management api http-commands` with `no shutdown`: NAPALM's eos driver talks eAPI",
        ),
        (r"^username \S+", "no `username` line: the replace would remove every local user"),
    ],
}


def risks(driver: str, config: str) -> list[str]:
    return [why for pattern, why in NEEDS.get(driver, []) if not re.search(pattern, config, re.MULTILINE)]
