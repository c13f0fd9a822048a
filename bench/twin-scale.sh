#!/usr/bin/env bash
# The twin at show scale (BENCHMARKS.md, "The twin at scale"): for each switch count N,
# a synthetic booths show with 2 DTNs per switch and 100 flows is built, brought up as a
# twin, left idle while the twin's own processes' CPU time is read from /proc over 30 s
# (so other work on the machine does not count), tested, and taken down. Prints one
# line per N: up and test times, idle CPU, the test's summary, and the machine's load.
# Needs root (the twin). usage: bench/twin-scale.sh DEMOC [N...]   (default 20 50 100)
# TWIN_SCALE_TEST=0 skips `twin test` (up, idle CPU and down only).
set -euo pipefail
cd "$(dirname "$0")/.."
democ=$(readlink -f "$1")
shift
counts=${*:-20 50 100}
work=$(mktemp -d "${TMPDIR:-/tmp}/democ-twin-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
hz=$(getconf CLK_TCK)

# CPU ticks (user + system) of every process whose command line names the twin's state
# folder: its Open vSwitch, FRR daemons and test controller.
twin_ticks() {
  local total=0 p t
  for p in /proc/[0-9]*; do
    if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF -- "$1"; then
      t=$(awk '{ s = $0; sub(/.*\) /, "", s); split(s, f, " "); print f[12] + f[13] }' "$p/stat" 2>/dev/null || echo 0)
      total=$((total + t))
    fi
  done
  echo "$total"
}

twin_procs() {
  local n=0 p
  for p in /proc/[0-9]*; do
    { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF -- "$1" && n=$((n + 1))
  done
  echo "$n"
}

for n in $counts; do
  dir=$work/booths$n
  mkdir -p "$dir"
  "$democ" synth --shape booths --switches "$n" --hosts-per-switch 2 --flows 100 --seed 3 >"$dir/show.yaml"
  "$democ" build --hosts "$dir/show.yaml" -o "$dir/out" >/dev/null
  t0=$(date +%s.%N)
  up=$("$democ" twin up "$dir/out")
  t1=$(date +%s.%N)
  state=$(sed -n 's/.*(state \(.*\))$/\1/p' <<<"$up")
  # Idle means settled: the links' first IPv6 chatter and its datapath flows age out.
  sleep 30
  a=$(twin_ticks "$state")
  sleep 30
  b=$(twin_ticks "$state")
  idle=$(awk -v d=$((b - a)) -v hz="$hz" 'BEGIN { printf "%.1f", 100 * d / hz / 30 }')
  procs=$(twin_procs "$state")
  namespaces=$(ip netns | grep -c -- "$(sed -n 's/^twin `\([^`]*\)`.*/\1/p' <<<"$up")-" || true)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  t2=$(date +%s.%N)
  code=skipped
  : >"$dir/table.txt" >"$dir/progress.txt"
  if [ "${TWIN_SCALE_TEST:-1}" != 0 ]; then
    set +e
    "$democ" twin test "$dir/out" >"$dir/table.txt" 2>"$dir/progress.txt"
    code=$?
    set -e
    cp "$dir/table.txt" "${TMPDIR:-/tmp}/twin-scale-$n.table.txt"
  fi
  t3=$(date +%s.%N)
  "$democ" twin down "$dir/out" >/dev/null
  awk -v n="$n" -v up="$(echo "$t1 - $t0" | bc)" -v test="$(echo "$t3 - $t2" | bc)" \
    -v idle="$idle" -v procs="$procs" -v ns="$namespaces" -v load="$load" -v code="$code" \
    'BEGIN { printf "N=%s: up %.1f s, %s namespaces, %s twin processes, idle CPU %s %% of one core; test %.1f s, exit %s; load before test %s\n", n, up, ns, procs, idle, test, code, load }'
  tail -1 "$dir/table.txt"
  echo "  flow rows passed: $(grep -c '^flow .* pass$' "$dir/table.txt" || true)"
  head -1 "$dir/progress.txt" | sed "s/^/  /" || true
done
