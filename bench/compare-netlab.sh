#!/usr/bin/env bash
# democ against netlab on the same machine, in the same run.
#
# For N = 4, 64 and 256: a ring of N Arista EOS switches with 2 Linux hosts each (3N
# nodes), written once as a netlab topology (provider clab, defaults.device eos, hosts
# device linux; netlab's node-id limit and address pools widened so 768 nodes fit) and
# once as a democ spec (`democ synth --shape ring --switches N --hosts-per-switch 2
# --flows 0 --eos-only`). Times `netlab create -p clab` in a scratch folder against
# `democ build SPEC -o OUT`, both from a clean output folder, with hyperfine, and prints
# the ratio. Writes target/bench/compare-netlab.md (or DEMOC_BENCH_OUT/).
#
# netlab (PyPI `networklab`) is installed in a venv under target/ (no Docker needed for
# `create`). Run it on a quiet machine: both sides are single-threaded and a parallel
# build moves the ratio by 2x. Both tools write under one scratch folder, made in
# $TMPDIR (default /tmp): `TMPDIR=/dev/shm` measures both on tmpfs, where creating a
# file costs microseconds, not the disk's journal (on this machine's disk, 0.5-1 ms a
# file on some days, which is most of democ's 700-file build and none of netlab's).
# usage: bench/compare-netlab.sh [N ...]   (default: 4 64 256)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(4 64 256)
results=${DEMOC_BENCH_OUT:-target/bench}
mkdir -p "$results"

if ! command -v hyperfine >/dev/null; then
    echo "installing hyperfine" >&2
    apt-get install -y hyperfine >/dev/null
fi
venv=target/netlab-venv
if [ ! -x "$venv/bin/netlab" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check networklab
fi
netlab=$PWD/$venv/bin/netlab
# shellcheck source=bench/lib.sh
. bench/lib.sh

netlab_topology() { # N: ring of N eos switches s1..sN, hosts hIxJ on sI
    local n=$1 i j
    echo "provider: clab"
    echo "defaults.device: eos"
    # netlab's defaults stop at 150 nodes and /24 pools: widen them for 768 nodes.
    echo "defaults.const.MAX_NODE_ID: 1000"
    echo "addressing.mgmt.ipv4: 192.168.0.0/16"
    echo "addressing.loopback.ipv4: 10.0.0.0/16"
    echo "addressing.router_id.ipv4: 10.0.0.0/16"
    echo "addressing.lan.ipv4: 172.16.0.0/12"
    echo "nodes:"
    for ((i = 1; i <= n; i++)); do echo "  s$i:"; done
    for ((i = 1; i <= n; i++)); do
        for j in 1 2; do echo "  h${i}x$j: { device: linux }"; done
    done
    echo "links:"
    for ((i = 1; i <= n; i++)); do
        if [ "$n" -gt 2 ] || [ "$i" -lt "$n" ]; then echo "- s$i-s$((i % n + 1))"; fi
        for j in 1 2; do echo "- s$i-h${i}x$j"; done
    done
}

mean() { # hyperfine JSON -> mean seconds of its first command
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' "$1"
}
stddev() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["stddev"] or 0)' "$1"
}
peak_rss_mib() { # command... -> MiB
    /usr/bin/time -v "$@" 2>"$work/time.txt" >/dev/null
    awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time.txt"
}

clean_netlab="rm -rf clab.yml node_files host_vars group_vars hosts.yml ansible.cfg netlab.snapshot.pickle"
rows=()
for n in "${sizes[@]}"; do
    dir=$work/netlab-$n
    mkdir -p "$dir"
    netlab_topology "$n" >"$dir/topology.yml"
    spec=$work/democ-$n.yaml
    "$democ" synth --shape ring --switches "$n" --hosts-per-switch 2 --flows 0 --eos-only >"$spec"
    out=$work/out-$n
    "$democ" check "$spec" # the spec must be clean

    netlab_runs=3
    [ "$n" -ge 256 ] && netlab_runs=1
    echo "== N=$n: netlab create -p clab ($((3 * n)) nodes), $netlab_runs run(s)" >&2
    (cd "$dir" && hyperfine -N --style basic --runs "$netlab_runs" --prepare "$clean_netlab" \
        --export-json "$work/netlab-$n.json" "$netlab create -p clab topology.yml" >&2)
    [ -f "$dir/clab.yml" ] || { echo "netlab wrote no clab.yml for N=$n" >&2; exit 1; }
    nl_rss=$(cd "$dir" && $clean_netlab && peak_rss_mib "$netlab" create -p clab topology.yml)

    echo "== N=$n: democ build" >&2
    hyperfine -N --style basic --warmup 2 --runs 20 --prepare "rm -rf $out" \
        --export-json "$work/democ-$n.json" "$democ build $spec -o $out" >&2
    rm -rf "$out"
    d_rss=$(peak_rss_mib "$democ" build "$spec" -o "$out")

    # Paired: the two tools in turns (netlab, democ, netlab, democ, ...), so a slow
    # stretch of the machine lands on both. 3 turns at every size.
    echo "== N=$n: paired turns" >&2
    python3 bench/paired.py --runs 3 --warmup 0 --name-a netlab --name-b democ \
        --prepare-a "cd '$dir' && $clean_netlab" --prepare-b "rm -rf '$out'" \
        --json "$work/paired-$n.json" \
        "cd '$dir' && '$netlab' create -p clab topology.yml" "'$democ' build '$spec' -o '$out'" >&2
    paired=$(python3 -c 'import json,sys; print("%.0f" % json.load(open(sys.argv[1]))["median_of_turn_ratios"])' "$work/paired-$n.json")

    nl=$(mean "$work/netlab-$n.json")
    nls=$(stddev "$work/netlab-$n.json")
    d=$(mean "$work/democ-$n.json")
    ds=$(stddev "$work/democ-$n.json")
    rows+=("$(python3 -c '
import sys
n, nl, nls, d, ds, nr, dr, paired = sys.argv[1:]
n, nl, nls, d, ds = int(n), float(nl), float(nls), float(d), float(ds)
print(f"| {n} | {3*n} | {nl:.2f} ± {nls:.2f} | {d*1000:.1f} ± {ds*1000:.1f} | **{paired}x** | {nl/d:.0f}x | {nr} | {dr} |")
' "$n" "$nl" "$nls" "$d" "$ds" "$nl_rss" "$d_rss" "$paired")")
done

md=$results/compare-netlab.md
{
    echo "# democ build vs netlab create"
    echo
    echo "$(date -u +%Y-%m-%d), $(revision), $(nproc) cores; $("$netlab" version 2>/dev/null | head -1)."
    echo "Both tools' folders on $(stat -f -c %T "$work") ($(dirname "$work"))."
    echo "Ring of N Arista EOS switches with 2 Linux hosts each; means of hyperfine runs"
    echo "(netlab: 3 runs, 1 at N=256; democ: 20 runs), each from a clean output folder."
    echo "Paired ratio: the median of 3 turns netlab, democ, netlab, democ, ... (bench/paired.py),"
    echo "so both tools see the same machine. Back-to-back ratio: the means of the two hyperfine"
    echo "series, democ's runs one after another (warm caches, a quiet stretch): the larger figure."
    echo
    echo "| N switches | nodes | netlab create -p clab (s) | democ build (ms) | paired ratio | back-to-back ratio | netlab peak RSS (MiB) | democ peak RSS (MiB) |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
} >"$md"
cat "$md"
