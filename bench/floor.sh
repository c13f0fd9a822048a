#!/usr/bin/env bash
# democ against its I/O floor: `democ build` of the largest synthetic show (1,000
# switches, 10,000 DTNs, 100,000 flows) and bench/floor (a program that writes the same
# files, sizes and folders and renames the folder into place, doing nothing else),
# timed in turns (bench/paired.py), each into a fresh folder. Prints the ratio against
# the single-threaded floor and against a floor writing on every core (democ writes on
# every core from 256 files up, so the latter is its floor). Writes target/bench/floor.md
# (or DEMOC_BENCH_OUT/).
#
# On tmpfs by default (/dev/shm: the floor is then memory, not the disk's journal);
# DEMOC_FLOOR_DIR=/some/disk/folder measures on disk. Run it on a quiet machine.
# usage: bench/floor.sh [SWITCHES] [RUNS]   (default 1000 switches, 10 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
switches=${1:-1000}
runs=${2:-10}
results=${DEMOC_BENCH_OUT:-target/bench}
mkdir -p "$results"
# shellcheck source=bench/lib.sh
. bench/lib.sh
(cd bench/floor && cargo build --release --quiet)
floor=$PWD/bench/floor/target/release/democ-floor
place=$(mktemp -d "${DEMOC_FLOOR_DIR:-/dev/shm}/democ-floor.XXXXXX")
trap 'rm -rf "$work" "$place"' EXIT

spec=$work/synth.yaml
"$democ" synth --shape booths --switches "$switches" --hosts-per-switch 10 \
    --flows $((100 * switches)) --seed 1 >"$spec"
"$democ" build "$spec" -o "$place/probe" >/dev/null 2>&1
python3 - "$place/probe/manifest.json" "$place/list" <<'PY'
import json, os, sys
m = json.load(open(sys.argv[1]))
rows = [(f["bytes"], f["path"]) for f in m["files"]]
# The manifest does not list itself: the floor writes it too, at its size.
rows.append((os.path.getsize(sys.argv[1]), "manifest.json"))
with open(sys.argv[2], "w") as out:
    for n, p in rows:
        out.write(f"{n} {p}\n")
PY
files=$(wc -l <"$place/list")
bytes=$(awk '{s += $1} END {print s}' "$place/list")
cores=$(nproc)
rm -rf "$place/probe"

paired() { # name-b floor-threads json
    python3 bench/paired.py --runs "$runs" --warmup 1 --name-a democ --name-b "$1" \
        --prepare-a "rm -rf '$place/a'" --prepare-b "rm -rf '$place/b'" --json "$3" \
        "'$democ' build '$spec' -o '$place/a'" "'$floor' '$place/list' '$place/b' $2"
}
echo "== democ build against the floor on 1 thread"
paired floor-1 1 "$work/one.json"
echo "== democ build against the floor on $cores threads"
paired "floor-$cores" "$cores" "$work/all.json"

ratio() { python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["median_of_turn_ratios"])' "$1"; }
ms() { python3 -c 'import json,sys; print("%.0f" % (json.load(open(sys.argv[1]))[sys.argv[2]]["median_s"] * 1e3))' "$1" "$2"; }
{
    echo "democ build against its I/O floor, $(revision), $(date -u +%F), load $(cut -d' ' -f1 /proc/loadavg)"
    echo
    echo "Show: \`democ synth --shape booths --switches $switches --hosts-per-switch 10 --flows $((100 * switches)) --seed 1\`;"
    echo "$files files, $bytes bytes, written under $(df --output=fstype "$place" | tail -1) ($place); $runs paired turns after a warm-up."
    echo
    echo "| | median | democ / floor |"
    echo "|---|---:|---:|"
    echo "| \`democ build\` | $(ms "$work/one.json" democ) ms | |"
    echo "| floor, 1 writer thread | $(ms "$work/one.json" floor-1) ms | **$(ratio "$work/one.json")x** |"
    echo "| floor, $cores writer threads | $(ms "$work/all.json" "floor-$cores") ms | **$(ratio "$work/all.json")x** |"
} | tee "$results/floor.md"
