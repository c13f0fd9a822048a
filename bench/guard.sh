#!/usr/bin/env bash
# The simplification's guard (issue 37), paired on one machine: an older democ against
# a newer one, in turns, for
#   - `check` of sc16 (at most 2x the older),
#   - `check` and `build` of the largest synthetic show, 1,000 switches, 10,000 DTNs and
#     100,000 flows (at most 1.5x the older), built into /dev/shm when it exists.
# Prints each pair's medians and ratio against its limit; exit 1 when a ratio is over.
# Then, for information, the YAML reader's floor (bench/yaml-floor: serde-saphyr alone
# reading the largest show and keeping nothing) against the older `check` of it: what
# serde-saphyr alone costs of the largest check's allowance.
# usage: bench/guard.sh OLD_DEMOC NEW_DEMOC [RUNS]
# GUARD_PAIRS="large-check large-build" leaves the sc16 pair out (an older democ may not
# read today's sc16).
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(readlink -f "$1") new=$(readlink -f "$2") runs=${3:-10}
work=$(mktemp -d "${TMPDIR:-/tmp}/democ-guard.XXXXXX")
out=/dev/shm; [ -d "$out" ] && [ -w "$out" ] || out=$work
trap 'rm -rf "$work" "$out/democ-guard-old" "$out/democ-guard-new"' EXIT
"$new" synth --shape booths --switches 1000 --hosts-per-switch 10 --flows 100000 --seed 1 >"$work/large.yaml"
status=0
# pair NAME LIMIT RUNS SIDE_COMMAND: SIDE_COMMAND is a shell function called with the
# binary and `old` or `new`; it prints the command to time.
pair() {
  local name=$1 limit=$2 n=$3 cmd=$4
  python3 bench/paired.py --runs "$n" --warmup 2 --json "$work/$name.json" \
    --prepare-a "$(prepare old)" --prepare-b "$(prepare new)" \
    "$($cmd "$old" old)" "$($cmd "$new" new)" >/dev/null
  python3 - "$work/$name.json" "$name" "$limit" <<'PY' || status=1
import json, sys
r = json.load(open(sys.argv[1])); name, limit = sys.argv[2], float(sys.argv[3])
a, b = r["A"]["median_s"], r["B"]["median_s"]
ratio = b / a
print(f"{name:<12} old {a*1000:9.1f} ms  new {b*1000:9.1f} ms  ratio {ratio:4.2f} (limit {limit})")
sys.exit(0 if ratio <= limit else 1)
PY
}
prepare() { echo "rm -rf $out/democ-guard-$1"; }
sc16_check() { echo "$1 check examples/sc16/show.yaml --no-lock"; }
large_check() { echo "$1 check $work/large.yaml --no-lock"; }
large_build() { echo "$1 build $work/large.yaml --no-lock -o $out/democ-guard-$2"; }
pairs=${GUARD_PAIRS:-sc16-check large-check large-build}
case " $pairs " in *" sc16-check "*) pair sc16-check 2.0 $((runs * 5)) sc16_check ;; esac
case " $pairs " in *" large-check "*) pair large-check 1.5 "$runs" large_check ;; esac
case " $pairs " in *" large-build "*) pair large-build 1.5 "$runs" large_build ;; esac
(cd bench/yaml-floor && cargo build --release --quiet)
floor=$PWD/bench/yaml-floor/target/release/democ-yaml-floor
python3 bench/paired.py --runs "$runs" --warmup 2 --json "$work/floor.json" \
  "$old check $work/large.yaml --no-lock" "$floor $work/large.yaml" >/dev/null
python3 - "$work/floor.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a, b = r["A"]["median_s"], r["B"]["median_s"]
print(f"{'yaml-floor':<12} old check {a*1000:9.1f} ms  serde-saphyr alone {b*1000:9.1f} ms  ratio {b/a:4.2f} (of the 1.5 allowed)")
PY
exit $status
