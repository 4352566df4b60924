#!/bin/bash
# run-pack.sh: packing and unpacking speed (bench/pack.c) of our libpvm3
# against PVM 3.4.6's, in one run: every encoding (Default = XDR, Raw,
# InPlace) x double, int, float, short, long, 1 MiB of doubles' worth of
# values by default, with a memcpy of 1 MiB as the machine's reference.
# Prints MB/s (native bytes) medians over ROUNDS rounds and the ratios
# ours / PVM 3.4.6 and ours / memcpy.
#
#   bench/run-pack.sh [BUILDDIR [ROUNDS [COUNT]]]   (default _build, 3, 131072)
#
# PVM 3.4.6 packs only when enrolled, so each side runs with its own
# private pvmd (bench/lib.sh).  Nothing here is a pass/fail test.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd) || exit 1
ROUNDS=${2:-3}
COUNT=${3:-131072}
work=$(mktemp -d /tmp/pvmpk.XXXXXX)
trap 'stop_all; rm -rf "$work"' EXIT
CC=${CC:-cc}
CFLAGS="-O2 -std=gnu11 -Wall -Wextra"
. "$top/bench/lib.sh"

ours_lib="$build/libpvm/.libs"
have_pvm=0
[ -f /usr/include/pvm3.h ] && [ -x /usr/bin/pvmd ] && have_pvm=1

$CC $CFLAGS -I"$top/include" -I"$top/bench" -o "$work/pack.ours" \
    "$top/bench/pack.c" -L"$ours_lib" -Wl,-rpath,"$ours_lib" -lpvm3 || exit 1
if [ $have_pvm = 1 ]; then
	$CC $CFLAGS -I"$top/bench" -o "$work/pack.pvm346" "$top/bench/pack.c" \
	    /usr/lib/x86_64-linux-gnu/libpvm3.so.3 || exit 1
fi

echo "== host: $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
start_ours
[ $have_pvm = 1 ] && start_pvm346
for r in $(seq "$ROUNDS"); do
	PVM_TMP="$OURS_TMP" timeout 300 "$work/pack.ours" -n "$COUNT" |
		sed "s/^/ours $r /" >>"$work/res"
	if [ $have_pvm = 1 ]; then
		PVM_TMP="$PVM_TMP346" PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1 \
		    timeout 300 "$work/pack.pvm346" -n "$COUNT" |
			sed "s/^/pvm346 $r /" >>"$work/res"
	fi
done
echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
if grep -q FAILED "$work/res"; then
	echo "== FAILED cases:"
	grep FAILED "$work/res"
fi

# Median over rounds of each (impl, enc, type, op).
awk '$NF ~ /^[0-9.]+$/ { k = $1 " " $3 " " $4 " " $5; v[k] = v[k] " " $NF }
END { for (k in v) print k, v[k] }' "$work/res" |
	while read -r impl enc type op vals; do
		m=$(printf '%s\n' $vals | sort -n | awk '{a[NR] = $1}
		    END { print a[int((NR + 1) / 2)] }')
		echo "$impl $enc $type $op $m"
	done >"$work/med"

val() { awk -v k="$1 $2 $3 $4" '$1" "$2" "$3" "$4 == k { print $5 }' \
    "$work/med"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" ||
    b == 0) print "-"; else printf "%.2f", a / b }'; }

ref=$(val ours memcpy double copy)
printf "MB/s, median of %s rounds of %s values; memcpy: %s MB/s\n" \
    "$ROUNDS" "$COUNT" "$ref"
printf "%-8s %-7s %-7s %10s %10s %10s %12s\n" enc type op ours pvm346 \
    ours/pvm ours/memcpy
for enc in default raw inplace; do
	for type in double int float short long; do
		for op in pack unpack; do
			o=$(val ours "$enc" "$type" "$op")
			[ -n "$o" ] || continue
			p=$(val pvm346 "$enc" "$type" "$op")
			printf "%-8s %-7s %-7s %10s %10s %10s %12s\n" "$enc" \
			    "$type" "$op" "$o" "${p:--}" "$(ratio "$o" "$p")" \
			    "$(ratio "$o" "$ref")"
		done
	done
done
