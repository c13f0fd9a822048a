#!/bin/sh
# Starts Open vSwitch with its userspace datapath (no kernel module needed, so the
# container needs no host module and no extra privilege for it), then stays up. Hosts
# leave it idle; on a stand-in, the `exec:` commands of the topology build the bridge
# once containerlab has wired the links.
set -eu
export OVS_RUNDIR=/var/run/openvswitch OVS_DBDIR=/etc/openvswitch OVS_LOGDIR=/var/log/openvswitch
mkdir -p "$OVS_RUNDIR" "$OVS_DBDIR" "$OVS_LOGDIR"
if [ ! -f "$OVS_DBDIR/conf.db" ]; then
  ovsdb-tool create "$OVS_DBDIR/conf.db" /usr/share/openvswitch/vswitch.ovsschema
fi
ovsdb-server "$OVS_DBDIR/conf.db" --remote="punix:$OVS_RUNDIR/db.sock" \
  --pidfile --detach --log-file
ovs-vsctl --no-wait init
ovs-vswitchd "unix:$OVS_RUNDIR/db.sock" --pidfile --detach --log-file
# PID 1 ignores SIGTERM unless it traps it: exit at once on `containerlab destroy`.
trap 'exit 0' TERM INT
while :; do
  sleep 3600 &
  wait $! || true
done
