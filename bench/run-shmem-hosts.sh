#!/bin/bash
# run-shmem-hosts.sh: bench/shmem.c (built with our oshcc) with the PEs on
# one host and spread over four (network namespaces h1..h4 of
# tests/integration/lib-hosts.sh, through bench/lib-hosts-bench.sh; needs
# root), our pvmds only: shmem_double_sum_to_all of 1, 1,024 and
# 1,048,576 doubles and back-to-back shmem_barrier_all at 8 PEs (one
# host: -H h1; four: two PEs per host), 8-byte put + quiet latency and
# 1 MiB put bandwidth between two PEs (-H h1:2; -H h1:1,h2:1).  Every
# host is this machine, so "across hosts" here measures the software
# path (agents, direct TCP routes over veth), not a network.
#
#   bench/run-shmem-hosts.sh [-q] [BUILDDIR]
#
# Output: one line per case, "LAYOUT KIND NPES COUNT MEDIAN P10 P90
# EXTRA" as bench/shmem.c prints it (us; bw in MB/s).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
quick=0
[ "${1:-}" = -q ] && { quick=1; shift; }
build=$(cd "${1:-$top/_build}" && pwd) || exit 1
CC=${CC:-cc}
for f in "$build/daemon/pvmd" "$build/shmem/oshcc" "$build/shmem/oshrun"; do
	[ -x "$f" ] || { echo "run-shmem-hosts.sh: no $f" >&2; exit 1; }
done
. "$top/bench/lib-hosts-bench.sh"
work=$T_TMP

PVMSHMEM_INCDIR="$top/include" \
    PVMSHMEM_LIBDIR="$build/shmem/.libs:$build/libpvm/.libs" \
    "$build/shmem/oshcc" -O2 -std=gnu11 -Wall -Wextra -I"$top/bench" \
    -o "$work/shmem.ours" "$top/bench/shmem.c" || exit 1

hosts_setup 4
printf 'h2\nh3\nh4\n' >"$work/hostfile"
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=yes
if ! PVM_RSH="$NETNS_RSH" on_host 1 timeout -k 5 60 "$PVMD" \
    "$work/hostfile" >"$work/pvmd.err" 2>&1; then
	echo "run-shmem-hosts.sh: the pvmds did not start" >&2
	cat "$work/pvmd.err" >&2
	exit 1
fi

# one LAYOUT NPES -H ARGS...: one run of the benchmark on h1.
one() {
	local layout=$1 n=$2 hl=$3 line
	shift 3
	[ $quick = 1 ] && set -- "$@" -r 21
	line=$(on_host 1 timeout -k 5 300 "$build/shmem/oshrun" -np "$n" \
	    -H "$hl" "$work/shmem.ours" "$@" 2>>"$work/err" | tail -1)
	echo "$layout ${line:-fail}"
}

echo "== host: $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
# SHB_CASES="LAYOUT NPES HOSTS ARGS;..." replaces the cases below.
if [ -n "${SHB_CASES:-}" ]; then
	echo "$SHB_CASES" | tr ';' '\n' | while read -r l n h a; do
		[ -n "$l" ] && one "$l" "$n" "$h" $a
	done
	exit 0
fi
for c in 1 1024 1048576; do
	one 1host 8 h1 -k reduce -c $c
	one 4hosts 8 h1,h2,h3,h4 -k reduce -c $c
done
one 1host 8 h1 -k barrier
one 4hosts 8 h1,h2,h3,h4 -k barrier
for k in lat bw; do
	one 1host 2 h1:2 -k $k
	one 2hosts 2 h1:1,h2:1 -k $k
done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -s "$work/err" ] && { echo "== stderr:"; cat "$work/err"; }
exit 0
