"""EOS running-config text -> a set of (section, line) pairs.

A top-level line is its own section: `("hostname x", "")`, `("interface Ethernet1", "")`.
An indented line belongs to the top-level line above it; deeper levels are joined with
" > " (`("interface Ethernet1", "uc-tx-queue 3 > random-detect ecn ...")`). Ordering,
indentation width, repeated blanks and `!` comment/separator lines do not matter.

Normalisations (each one an equivalence EOS itself makes):
* runs of spaces collapse to one;
* `switchport trunk allowed vlan` lists are expanded and re-sorted, so `10-12,20` and
  `10,11,12,20` compare equal.
"""

from __future__ import annotations

import re

Pair = tuple[str, str]

_ALLOWED_VLAN = re.compile(r"^(switchport trunk allowed vlan )(?:add )?([0-9,\-]+)$")


def _expand_vlans(spec: str) -> str:
    ids: set[int] = set()
    for part in spec.split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            ids.update(range(int(a), int(b) + 1))
        else:
            ids.add(int(part))
    return ",".join(str(v) for v in sorted(ids))


def normalize(line: str) -> str:
    line = " ".join(line.split())
    m = _ALLOWED_VLAN.match(line)
    if m:
        line = m.group(1) + _expand_vlans(m.group(2))
    return line


def parse(text: str) -> set[Pair]:
    pairs: set[Pair] = set()
    stack: list[tuple[int, str]] = []  # (indent, normalised text) of open parents
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("!"):
            continue
        expanded = raw.expandtabs(8)
        indent = len(expanded) - len(expanded.lstrip(" "))
        content = normalize(stripped)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if not stack:
            pairs.add((content, ""))
        else:
            path = [c for _, c in stack[1:]] + [content]
            pairs.add((stack[0][1], " > ".join(path)))
        stack.append((indent, content))
    return pairs


def render(pairs: set[Pair]) -> list[str]:
    """Pairs as `section | line` strings, sorted, for reports."""
    return [f"{s} | {l}" if l else s for s, l in sorted(pairs)]
