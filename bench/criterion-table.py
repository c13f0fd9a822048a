#!/usr/bin/env python3
"""Markdown tables of the benches' medians (from target/criterion): the pipeline stages
(benches/pipeline.rs) and each output kind (benches/outputs.rs), each with the
growth exponent: the slope of log(time) against log(devices) between consecutive sizes,
and a least-squares fit over all sizes (1.0 = linear, 2.0 = quadratic; fixed costs such
as loading the catalog and templates pull the small-size steps below 1).

usage: bench/criterion-table.py [TARGET_DIR]   (default: target)
"""
import json
import math
import sys
from pathlib import Path

STAGES = ["parse", "check", "plan", "lower_render", "build"]
OUTPUTS = ["configs", "rulesets", "host_scripts", "report", "cabling"]
root = Path(sys.argv[1] if len(sys.argv) > 1 else "target") / "criterion"


def median(group, ident):
    p = root / group / str(ident) / "new" / "estimates.json"
    if not p.exists():
        return None
    return json.loads(p.read_text())["median"]["point_estimate"] / 1e9  # seconds


def fmt(t):
    if t is None:
        return "—"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.1f} ms"
    return f"{t * 1e6:.0f} µs"


def slope(points):
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def table(title, groups):
    sizes = sorted(
        {int(d.name) for g in groups if (root / g).is_dir() for d in (root / g).iterdir() if d.name.isdigit()}
    )
    if not sizes:
        return
    print(f"| {title} | " + " | ".join(f"{n:,} devices" for n in sizes) + " | exponent per step | exponent, all sizes |")
    print("|:---|" + "---:|" * len(sizes) + ":---|---:|")
    for s in groups:
        ts = [median(s, n) for n in sizes]
        pts = [(n, t) for n, t in zip(sizes, ts) if t]
        steps = [
            f"{math.log(b[1] / a[1]) / math.log(b[0] / a[0]):.2f}" for a, b in zip(pts, pts[1:])
        ]
        fit = f"{slope(pts):.2f}" if len(pts) >= 2 else "—"
        print(f"| {s} | " + " | ".join(fmt(t) for t in ts) + f" | {' → '.join(steps)} | {fit} |")
    print()


table("stage", STAGES)
# Each output kind of a build (benches/outputs.rs).
table("output", OUTPUTS)
sc16 = median("build", "sc16")
if sc16:
    print(f"`build/sc16` (examples/sc16 from disk, in memory): median {fmt(sc16)}.")
