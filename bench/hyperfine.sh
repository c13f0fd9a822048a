#!/usr/bin/env bash
# Wall-clock times of the democ binary, the way a user runs it:
#   - `democ check` and `democ build` on synthetic booths shows of 11, 110, 1,100 and
#     11,000 devices (S switches, 10 DTNs per switch, 10 flows per DTN; S = 1000 is the
#     issue's target show: 1,000 switches, 10,000 DTNs, 100,000 flows);
#   - `democ build examples/sc16/show.yaml`;
#   - peak RSS (/usr/bin/time -v) of each build and the per-stage times (DEMOC_TIMINGS=1)
#     of the largest show.
# Writes target/bench/hyperfine.md (markdown tables) and hyperfine-*.json beside it
# (DEMOC_BENCH_OUT=DIR elsewhere).
#
# usage: bench/hyperfine.sh [MAX_SWITCHES]   (default 1000; 100 for a quick run)
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-1000}
results=${DEMOC_BENCH_OUT:-target/bench}
mkdir -p "$results"

if ! command -v hyperfine >/dev/null; then
    echo "installing hyperfine" >&2
    apt-get install -y hyperfine >/dev/null
fi

# shellcheck source=bench/lib.sh
. bench/lib.sh

sizes=()
for s in 1 10 100 1000; do
    [ "$s" -le "$max" ] || continue
    sizes+=("$s")
    "$democ" synth --shape booths --switches "$s" --hosts-per-switch 10 \
        --flows $((100 * s)) --seed 1 >"$work/synth-$s.yaml"
done

md=$results/hyperfine.md
{
    echo "# hyperfine: democ check and build"
    echo
    echo "$(date -u +%Y-%m-%d), $(revision), $(nproc) cores, \`$(rustc --version)\`."
    echo "Synthetic shows: \`democ synth --shape booths --switches S --hosts-per-switch 10 --flows 100*S --seed 1\`;"
    echo "each build starts from an empty output folder (\`--prepare 'rm -rf OUT'\`)."
    echo
} >"$md"

# One hyperfine run per size so the large ones can take fewer runs.
table_started=
run() { # name, runs, hyperfine command arguments...
    local name=$1 runs=$2
    shift 2
    hyperfine -N --style basic --warmup 1 --runs "$runs" \
        --export-markdown "$work/$name.md" --export-json "$results/hyperfine-$name.json" "$@" >&2
    if [ -z "$table_started" ]; then
        cat "$work/$name.md" >>"$md"
        table_started=1
    else
        tail -n +3 "$work/$name.md" >>"$md"
    fi
}

sc16_out=$work/out-sc16
run sc16 30 --prepare "rm -rf $sc16_out" \
    --command-name "build examples/sc16" "$democ build examples/sc16/show.yaml -o $sc16_out"

for s in "${sizes[@]}"; do
    devices=$((11 * s))
    runs=10
    [ "$s" -ge 100 ] && runs=5
    out=$work/out-$s
    spec=$work/synth-$s.yaml
    run "synth-$s" "$runs" \
        --command-name "check $devices devices ($s sw)" "$democ check $spec" \
        --prepare "rm -rf $out" \
        --command-name "build $devices devices ($s sw)" "$democ build $spec -o $out"
done

# Peak RSS and wall time of one more build per size.
{
    echo
    echo "## Peak RSS (/usr/bin/time -v, one run)"
    echo
    echo "| command | wall (s) | peak RSS (MiB) |"
    echo "|:---|---:|---:|"
} >>"$md"
rss() { # label, command...
    local label=$1
    shift
    /usr/bin/time -v "$@" 2>"$work/time.txt" >/dev/null
    local kib wall
    kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
    # m:ss.ss -> seconds
    wall=$(echo "$wall" | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    printf '| %s | %.2f | %.0f |\n' "$label" "$wall" "$(echo "$kib / 1024" | bc -l)" >>"$md"
}
rm -rf "$sc16_out"
rss "build examples/sc16" "$democ" build examples/sc16/show.yaml -o "$sc16_out"
for s in "${sizes[@]}"; do
    rm -rf "$work/out-$s"
    rss "check $((11 * s)) devices" "$democ" check "$work/synth-$s.yaml"
    rss "build $((11 * s)) devices" "$democ" build "$work/synth-$s.yaml" -o "$work/out-$s"
done

# Where the time goes in the largest show.
last=${sizes[-1]}
rm -rf "$work/out-$last"
{
    echo
    echo "## Stage times of \`democ build\` at $((11 * last)) devices (DEMOC_TIMINGS=1, one run)"
    echo
    echo '```'
    DEMOC_TIMINGS=1 "$democ" build "$work/synth-$last.yaml" -o "$work/out-$last" 2>&1 >/dev/null |
        grep '^timing' || true
    echo '```'
} >>"$md"

cat "$md"
