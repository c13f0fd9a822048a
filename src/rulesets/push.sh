#!/bin/sh
# Installs democ's OpenFlow rules through an OpenDaylight controller: PUTs each meter
# and flow of openflow/odl/<switch>.json into the opendaylight-inventory config
# datastore, checks that each reached the operational datastore (the switch holds it),
# and deletes flows by cookie.
#
#   sh push.sh put    SWITCH [NODE]                 PUT meters and flows, then verify
#   sh push.sh verify SWITCH [NODE]                 every flow and meter is operational
#   sh push.sh delete SWITCH COOKIE[/MASK] [NODE]   delete the flows whose cookie matches,
#                                                   and the meters only they used
#   sh push.sh list   SWITCH                        cookie and flow id of every flow
#
# NODE is the inventory node (openflow:<datapath id in decimal>); the default is the
# file's, which only switches with a datapath id set at build time have. MASK defaults
# to democ's flow mask (every rule of the cookie's flow); 0xffffffffffffffff selects
# one pair and direction.
#
# The controller and credentials come only from the environment, never from the
# command line or a file, and reach curl on its standard input, not its argv:
#   ODL_URL        e.g. http://controller:8181
#   ODL_USER, ODL_PASSWORD
#   ODL_TRIES      how many seconds to wait for the operational datastore (default 30)
#   ODL_API        rfc8040 (/rests/data, RFC 8040 RESTCONF, OpenDaylight's
#                  restconf-nb-rfc8040 northbound) or bierman02 (/restconf/config and
#                  /restconf/operational, the draft RESTCONF of OpenDaylight releases
#                  before RFC 8040 existed, such as Lithium and Boron); default: the
#                  spec's `openflow.restconf`, rfc8040 in this build
set -eu

FLOW_MASK=ffffffffff000000
here=$(dirname -- "$0")

die() {
	printf 'push.sh: %s\n' "$*" >&2
	exit 2
}

usage() {
	sed -n '7,10s/^#  *//p' "$0" >&2
	exit 2
}

need_env() {
	: "${ODL_URL:?set ODL_URL (e.g. http://controller:8181)}"
	: "${ODL_USER:?set ODL_USER}"
	: "${ODL_PASSWORD:?set ODL_PASSWORD}"
	case $ODL_URL in
	http://* | https://*) ;;
	*) die "ODL_URL must start with http:// or https://" ;;
	esac
	nl='
'
	case $ODL_URL$ODL_USER$ODL_PASSWORD in
	*"$nl"*) die "ODL_URL, ODL_USER and ODL_PASSWORD must be one line each" ;;
	esac
	api=${ODL_API:-rfc8040}
	case $api in
	rfc8040 | bierman02) ;;
	*) die "ODL_API must be rfc8040 or bierman02" ;;
	esac
	tries=${ODL_TRIES:-30}
	case $tries in
	'' | *[!0-9]*) die "ODL_TRIES must be a number" ;;
	esac
}

# Escapes a value for a double-quoted curl config string.
cfg_quote() {
	printf '%s' "$1" | sed 's/[\\"]/\\&/g'
}

# odl METHOD PATH [BODY_FILE]: the request's HTTP status on stdout, its body in $resp.
odl() {
	{
		printf 'url = "%s%s"\n' "$(cfg_quote "${ODL_URL%/}")" "$2"
		printf 'user = "%s:%s"\n' "$(cfg_quote "$ODL_USER")" "$(cfg_quote "$ODL_PASSWORD")"
		if [ $# -ge 3 ]; then
			printf 'data-binary = "@%s"\n' "$(cfg_quote "$3")"
		fi
	} | curl -sS -K - -X "$1" -o "$resp" -w '%{http_code}' \
		-H 'Content-Type: application/json' -H 'Accept: application/json' || :
}

switch_file() {
	case $1 in
	'' | [!A-Za-z0-9]* | *[!A-Za-z0-9._-]*) die "not a switch name: $1" ;;
	esac
	file=$here/$1.json
	[ -f "$file" ] || die "no $file: is $1 an OpenFlow switch of this build?"
}

# The node: the argument, or the file's.
pick_node() {
	if [ -n "${1:-}" ]; then
		node=$1
	else
		node=$(sed -n 's/^        "id": "\(openflow:[0-9]*\)",$/\1/p' "$file")
	fi
	case $node in
	openflow:[0-9]*) ;;
	'') die "$sw has no datapath id in its build: give its node (openflow:<datapath id in decimal>, as the controller's inventory shows it)" ;;
	*) die "not an OpenFlow node id: $node" ;;
	esac
	case ${node#openflow:} in
	*[!0-9]*) die "not an OpenFlow node id: $node" ;;
	esac
	# The paths of the node's config (PUT, DELETE) and operational (GET) datastores;
	# each resource below is appended with its id.
	n=${node#openflow:}
	if [ "$api" = bierman02 ]; then
		base=/restconf/config/opendaylight-inventory:nodes/node/openflow:$n
		oper=/restconf/operational/opendaylight-inventory:nodes/node/openflow:$n
		flow_at=flow-node-inventory:table/0/flow/ meter_at=flow-node-inventory:meter/
		table_at=flow-node-inventory:table/0 nonconfig=
	else
		base=/rests/data/opendaylight-inventory:nodes/node=openflow%3A$n
		oper=$base
		flow_at=flow-node-inventory:table=0/flow= meter_at=flow-node-inventory:meter=
		table_at=flow-node-inventory:table=0 nonconfig='?content=nonconfig'
	fi
}

# One flow (or meter) per line, as democ writes them.
flows() { sed -n 's/^ *\({"id":"[0-9a-z-]*",.*}\),\{0,1\}$/\1/p' "$file"; }
meters() { sed -n 's/^ *\({"meter-id":[0-9]*,.*}\),\{0,1\}$/\1/p' "$file"; }
flow_id() { sed 's/^{"id":"\([0-9a-z-]*\)".*/\1/'; }
meter_id() { sed 's/^{"meter-id":\([0-9]*\),.*/\1/'; }

# put_each KIND RESOURCE: PUTs every meter or flow (KIND) of the file, each at
# $base/RESOURCE<its id>.
put_each() {
	"${1}s" >"$list"
	while IFS= read -r line; do
		id=$(printf '%s\n' "$line" | "${1}_id")
		printf '{"flow-node-inventory:%s":[%s]}\n' "$1" "$line" >"$body"
		code=$(odl PUT "$base/$2$id" "$body")
		case $code in
		2??) printf 'put %s %s\n' "$1" "$id" ;;
		*) die "PUT $1 $id of $sw: HTTP $code $(cat "$resp")" ;;
		esac
	done <"$list"
}

put_all() {
	put_each meter "$meter_at"
	put_each flow "$flow_at"
}

# missing WANT: prints the ids of the file's flows (WANT=present) not yet in the
# operational table, or of the selected flows ($selected, WANT=absent) still in it.
missing() {
	code=$(odl GET "$oper/$table_at$nonconfig")
	case $code in
	2??) ;;
	404) : >"$resp" ;;
	*) die "GET the operational table of $node: HTTP $code" ;;
	esac
	if [ "$1" = present ]; then
		ids=$(flows | flow_id)
	else
		ids=$(cat "$selected")
	fi
	for id in $ids; do
		if grep -q "\"id\" *: *\"$id\"" "$resp"; then
			[ "$1" = absent ] && printf '%s\n' "$id"
		else
			[ "$1" = present ] && printf '%s\n' "$id"
		fi
	done
	if [ "$1" = present ]; then
		for id in $(meters | meter_id); do
			code=$(odl GET "$oper/$meter_at$id$nonconfig")
			case $code in
			2??) ;;
			*) printf 'meter-%s\n' "$id" ;;
			esac
		done
	fi
	return 0
}

# wait_for WANT: polls the operational datastore once a second, up to $tries times.
wait_for() {
	n=0
	while :; do
		left=$(missing "$1")
		[ -z "$left" ] && return 0
		n=$((n + 1))
		if [ "$n" -ge "$tries" ]; then
			printf 'push.sh: %s on %s after %s s:\n%s\n' "not $1 in the operational datastore" "$node" "$tries" "$left" >&2
			exit 1
		fi
		sleep 1
	done
}

# hexnorm VALUE: 16 lower-case hex digits, or nothing when VALUE is not a 64-bit hex number.
hexnorm() {
	v=${1#0x}
	v=${v#0X}
	case $v in
	'' | *[!0-9a-fA-F]*) return 0 ;;
	esac
	[ "${#v}" -le 16 ] || return 0
	while [ "${#v}" -lt 16 ]; do v=0$v; done
	printf '%s\n' "$v" | tr 'A-F' 'a-f'
}

# cookie_matches COOKIE WANT MASK (16 hex digits each), digit by digit: sh arithmetic
# has no unsigned 64-bit numbers.
cookie_matches() {
	c=$1 w=$2 m=$3
	while [ -n "$c" ]; do
		x=${c%"${c#?}"} y=${w%"${w#?}"} z=${m%"${m#?}"}
		[ $((0x$x & 0x$z)) -eq $((0x$y & 0x$z)) ] || return 1
		c=${c#?} w=${w#?} m=${m#?}
	done
}

delete_matching() {
	want=$(hexnorm "${1%%/*}")
	case $1 in
	*/*) mask=$(hexnorm "${1#*/}") ;;
	*) mask=$FLOW_MASK ;;
	esac
	[ -n "$want" ] || die "not a cookie: $1 (0x + up to 16 hex digits, /MASK optional)"
	[ -n "$mask" ] || die "not a cookie: $1 (0x + up to 16 hex digits, /MASK optional)"
	: >"$selected"
	for id in $(flows | flow_id); do
		if cookie_matches "${id%%-*}" "$want" "$mask"; then
			printf '%s\n' "$id" >>"$selected"
		fi
	done
	[ -s "$selected" ] || die "no flow of $sw has cookie 0x$want/0x$mask"
	while IFS= read -r id; do
		delete_one flow "$flow_at" "$id"
	done <"$selected"
	delete_meters
}

# delete_one KIND RESOURCE ID: DELETEs one flow or meter (KIND) at $base/RESOURCE<ID>.
delete_one() {
	code=$(odl DELETE "$base/$2$3")
	case $code in
	2??) printf 'deleted %s %s\n' "$1" "$3" ;;
	404) printf '%s %s was not configured\n' "$1" "$3" ;;
	*) die "DELETE $1 $3 of $sw: HTTP $code $(cat "$resp")" ;;
	esac
}

# flow_meter: the meter id a flow line's instructions name, if any.
flow_meter() { sed -n 's/.*"meter":{"meter-id":\([0-9]*\)}.*/\1/p'; }

# delete_meters: the meters only the deleted flows used (a meter belongs to one capped
# flow, whose pairs on this switch share it), so a flow's meter goes with its rules and
# no meter another flow still uses is touched.
delete_meters() {
	: >"$list"
	: >"$tmp/kept"
	flows >"$tmp/all"
	while IFS= read -r line; do
		id=$(printf '%s\n' "$line" | flow_id)
		if grep -qx "$id" "$selected"; then
			printf '%s\n' "$line" | flow_meter >>"$list"
		else
			printf '%s\n' "$line" | flow_meter >>"$tmp/kept"
		fi
	done <"$tmp/all"
	sort -u "$list" >"$tmp/drop"
	while IFS= read -r m; do
		grep -qx "$m" "$tmp/kept" && continue
		delete_one meter "$meter_at" "$m"
	done <"$tmp/drop"
}

[ $# -ge 2 ] || usage
cmd=$1 sw=$2
switch_file "$sw"
if [ "$cmd" = list ]; then
	for id in $(flows | flow_id); do
		printf '0x%s %s\n' "${id%%-*}" "$id"
	done
	exit 0
fi
need_env
command -v curl >/dev/null 2>&1 || die "curl is needed"
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
resp=$tmp/resp body=$tmp/body selected=$tmp/selected list=$tmp/list
case $cmd in
put)
	[ $# -le 3 ] || usage
	pick_node "${3:-}"
	put_all
	wait_for present
	printf '%s: every flow and meter is in the operational datastore of %s\n' "$sw" "$node"
	;;
verify)
	[ $# -le 3 ] || usage
	pick_node "${3:-}"
	wait_for present
	printf '%s: every flow and meter is in the operational datastore of %s\n' "$sw" "$node"
	;;
delete)
	[ $# -ge 3 ] || usage
	[ $# -le 4 ] || usage
	pick_node "${4:-}"
	delete_matching "$3"
	wait_for absent
	printf '%s: the selected flows are gone from the operational datastore of %s\n' "$sw" "$node"
	;;
*) usage ;;
esac
