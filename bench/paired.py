#!/usr/bin/env python3
"""Times two commands in turns (A, B, A, B, ...) so that both see the same machine:
a neighbour's burst slows one run of each, not all runs of one. Prints each command's
median and min, the ratio of medians and the median of the per-turn ratios, and writes
them as JSON with --json.

usage: bench/paired.py [--runs N] [--warmup K] [--prepare-a CMD] [--prepare-b CMD]
                       [--json FILE] [--name-a A] [--name-b B] CMD_A CMD_B
Commands run through /bin/sh; a prepare command runs before each run of its command,
untimed (e.g. removing the output folder). A command that fails stops the script.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def run(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"paired: `{cmd}` exited {r.returncode}: {r.stderr.decode()[-400:]}")
    return took


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--prepare-a", default="")
    p.add_argument("--prepare-b", default="")
    p.add_argument("--name-a", default="A")
    p.add_argument("--name-b", default="B")
    p.add_argument("--json")
    p.add_argument("a")
    p.add_argument("b")
    o = p.parse_args()
    times = {"a": [], "b": []}
    for i in range(o.warmup + o.runs):
        for side in ("a", "b"):
            prep = getattr(o, f"prepare_{side}")
            if prep:
                subprocess.run(prep, shell=True, check=True)
            t = run(getattr(o, side))
            if i >= o.warmup:
                times[side].append(t)
    a, b = times["a"], times["b"]
    turns = [x / y for x, y in zip(a, b)]
    out = {
        "runs": o.runs,
        o.name_a: {"median_s": statistics.median(a), "min_s": min(a), "runs_s": a},
        o.name_b: {"median_s": statistics.median(b), "min_s": min(b), "runs_s": b},
        "ratio_of_medians": statistics.median(a) / statistics.median(b),
        "median_of_turn_ratios": statistics.median(turns),
    }
    print(
        f"{o.name_a}: median {out[o.name_a]['median_s'] * 1e3:.1f} ms (min {min(a) * 1e3:.1f})\n"
        f"{o.name_b}: median {out[o.name_b]['median_s'] * 1e3:.1f} ms (min {min(b) * 1e3:.1f})\n"
        f"{o.name_a} / {o.name_b}: {out['ratio_of_medians']:.2f} (ratio of medians), "
        f"{out['median_of_turn_ratios']:.2f} (median of {o.runs} paired turns)"
    )
    if o.json:
        with open(o.json, "w") as f:
            json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
