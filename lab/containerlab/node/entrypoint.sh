#!/bin/sh
# Stays up, nothing more: what a node runs comes from the topology's `exec:` once
# containerlab has wired its links (a stand-in's lab/nodes/<switch>.sh starts its own
# Open vSwitch and FRR, as the twin does; a host runs its script's `tune`).
set -eu
# PID 1 ignores SIGTERM unless it traps it: exit at once on `containerlab destroy`.
trap 'exit 0' TERM INT
while :; do
  sleep 3600 &
  wait $! || true
done
