#!/bin/bash
# run-oversub.sh: ping-pong pairs with more tasks than CPUs (issue 16):
# bench/oversub.c on our libpvm3 over sockets (PVM_SHM=0) and over
# shared-memory rings (PVM_SHM=1), both with PvmRouteDirect, and on PVM
# 3.4.6 (direct routes), against bench/mpi_oversub.c on Open MPI with its
# default progress (busy polling) and with mpi_yield_when_idle 1.  Each
# round runs every implementation once, one after the other; the summary
# gives the median over rounds of each figure and the ratios ours /
# Open MPI.
#
#   bench/run-oversub.sh [BUILDDIR [ROUNDS [PAIRS [ITERS]]]]
#                        (default: _build, 3, 8 pairs = 16 tasks, 2000)
#
# Figures (us, ms): the median over tasks of each task's median 8-byte
# round trip, the slowest task's median, and the wall time of the whole
# run.  Nothing here is a pass/fail test.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd) || exit 1
ROUNDS=${2:-3}
PAIRS=${3:-8}
ITERS=${4:-2000}
work=$(mktemp -d /tmp/pvmov.XXXXXX)
trap 'stop_all; rm -rf "$work"' EXIT
CC=${CC:-cc}
CFLAGS="-O2 -std=gnu11 -Wall -Wextra"
. "$top/bench/lib.sh"

ours_lib="$build/libpvm/.libs"
have_pvm=0 have_mpi=1
[ -f /usr/include/pvm3.h ] && [ -x /usr/bin/pvmd ] && have_pvm=1
command -v mpicc >/dev/null && command -v mpirun >/dev/null || have_mpi=0
$CC $CFLAGS -I"$top/include" -I"$top/bench" -o "$work/oversub.ours" \
    "$top/bench/oversub.c" -L"$ours_lib" -Wl,-rpath,"$ours_lib" -lpvm3 ||
	exit 1
if [ $have_pvm = 1 ]; then
	$CC $CFLAGS -I"$top/bench" -o "$work/oversub.pvm346" \
	    "$top/bench/oversub.c" /usr/lib/x86_64-linux-gnu/libpvm3.so.3 ||
		exit 1
fi
if [ $have_mpi = 1 ]; then
	mpicc $CFLAGS -I"$top/bench" -o "$work/mpi_oversub" \
	    "$top/bench/mpi_oversub.c" || have_mpi=0
fi
[ $have_mpi = 1 ] || echo "== SKIPPING Open MPI: no mpicc/mpirun" \
    "(Debian: openmpi-bin libopenmpi-dev)"

mpi_run() {
	timeout -k 5 600 mpirun --oversubscribe --allow-run-as-root \
	    --mca btl self,vader "$@" -np $((2 * PAIRS)) "$work/mpi_oversub" \
	    -i "$ITERS" 2>/dev/null | grep '^oversub'
}

echo "== host: $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg);" \
    "$PAIRS pairs ($((2 * PAIRS)) tasks), $ITERS round trips each"
start_ours
[ $have_pvm = 1 ] && start_pvm346
for r in $(seq "$ROUNDS"); do
	for shm in 0 1; do
		PVM_TMP="$OURS_TMP" PVM_SHM=$shm timeout 600 \
		    "$work/oversub.ours" -d -p "$PAIRS" -i "$ITERS" |
			sed "s/^oversub/ours-shm$shm $r/" >>"$work/res"
	done
	if [ $have_pvm = 1 ]; then
		PVM_TMP="$PVM_TMP346" PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1 \
		    timeout 600 "$work/oversub.pvm346" -d -p "$PAIRS" \
		    -i "$ITERS" | sed "s/^oversub/pvm346 $r/" >>"$work/res"
	fi
	if [ $have_mpi = 1 ]; then
		mpi_run | sed "s/^oversub/ompi-default $r/" >>"$work/res"
		mpi_run --mca mpi_yield_when_idle 1 |
			sed "s/^oversub/ompi-yield $r/" >>"$work/res"
	fi
done
echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
sed 's/^/  /' "$work/res"

# median over rounds of field F ($5 median rtt, $6 slowest, $7 wall)
med() {
	awk -v i="$1" -v f="$2" '$1 == i { print $f }' "$work/res" | sort -n |
		awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'
}
printf "%-14s %14s %14s %10s\n" impl "median rtt us" "slowest us" "wall ms"
for i in ours-shm0 ours-shm1 pvm346 ompi-default ompi-yield; do
	m=$(med $i 5)
	[ -n "$m" ] || continue
	printf "%-14s %14s %14s %10s\n" "$i" "$m" "$(med $i 6)" "$(med $i 7)"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" ||
    b == 0) print "-"; else printf "%.2f", a / b }'; }
echo "== ratios (median rtt; lower is better for ours)"
for o in ours-shm0 ours-shm1; do
	for m in ompi-default ompi-yield pvm346; do
		echo "  $o / $m: $(ratio "$(med $o 5)" "$(med $m 5)")"
	done
done
