#!/usr/bin/env bash
# Compares what two democ binaries make of the shipped shows: every build tree (sc15,
# sc16, sc25-400g, the calibration specs, each with --hosts), `check` and `plan` (text
# and JSON) of each, and `check` of every bad spec under tests/bad. Text files must be
# byte-identical; JSON files equal as values (formatting may differ).
# Usage: bench/same-outputs.sh OLD_DEMOC NEW_DEMOC [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
old=$(readlink -f "$1") new=$(readlink -f "$2")
work=${3:-$(mktemp -d)}
mkdir -p "$work"
run() { # bin tag
  local bin=$1 out=$work/$2
  rm -rf "$out"; mkdir -p "$out"
  for spec in examples/sc15/show.yaml examples/sc16/show.yaml examples/sc25-400g/show.yaml examples/calibration/*.yaml; do
    local name; name=$(echo "$spec" | tr '/' '_')
    "$bin" build "$spec" -o "$out/build_$name" --hosts --no-lock >/dev/null 2>"$out/build_$name.stderr"
    echo "exit $?" >>"$out/build_$name.stderr"
    "$bin" check "$spec" --no-lock >"$out/check_$name.txt" 2>&1; echo "exit $?" >>"$out/check_$name.txt"
    "$bin" check "$spec" --no-lock --format json >"$out/checkjson_$name.json" 2>/dev/null
    "$bin" plan "$spec" --no-lock >"$out/plan_$name.txt" 2>&1; echo "exit $?" >>"$out/plan_$name.txt"
    "$bin" plan "$spec" --no-lock --detail >"$out/plandetail_$name.txt" 2>&1
    "$bin" plan "$spec" --no-lock --format json >"$out/planjson_$name.json" 2>/dev/null
    "$bin" ir "$spec" --no-lock >"$out/ir_$name.json" 2>/dev/null
  done
  for spec in tests/bad/*.yaml; do
    "$bin" check "$spec" >"$out/bad_$(basename "$spec").txt" 2>&1; echo "exit $?" >>"$out/bad_$(basename "$spec").txt"
  done
}
run "$old" old
run "$new" new
python3 - "$work/old" "$work/new" <<'PY'
import json, os, sys
old, new = sys.argv[1], sys.argv[2]
def files(root):
    out = set()
    for d, _, fs in os.walk(root):
        for f in fs:
            out.add(os.path.relpath(os.path.join(d, f), root))
    return out
a, b = files(old), files(new)
bad = 0
for f in sorted(a ^ b):
    print("only in", "old" if f in a else "new", f); bad += 1
for f in sorted(a & b):
    x = open(os.path.join(old, f), "rb").read(); y = open(os.path.join(new, f), "rb").read()
    if x == y:
        continue
    if f.endswith(".json"):
        try:
            if json.loads(x) == json.loads(y):
                continue
        except ValueError:
            pass
    print("differs", f); bad += 1
print(f"{len(a & b)} files compared, {bad} differences")
sys.exit(1 if bad else 0)
PY
