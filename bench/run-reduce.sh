#!/bin/bash
# run-reduce.sh: bench/reduce.c (pvm_reduce(PvmSum, PVM_DOUBLE) from the
# first member's release by the separating barrier until the root has the
# result, and back-to-back pvm_barrier at the root) against our build and, when
# Debian's pvm and pvm-dev are installed, against PVM 3.4.6, plus
# bench/mpi_reduce.c (the same method with Open MPI) when mpicc and mpirun
# are installed -- all in one run, cases interleaved so that load changes
# on a shared machine hit every implementation alike.  Prints a table
# with ratios and the issue's targets.
#
#   bench/run-reduce.sh [-o RESULTS] [-p PNG] [-q] [-F] [-x] [-P]
#       [-n "SIZES"] [-c "COUNTS"] [-b "BSIZES"] [-g "GCOUNTS"]
#       [-k "KINDS"] [BUILDDIR]
#
#   BUILDDIR  a configured and built tree (default: _build); the benchmark
#             uses its include/-matching libpvm3/libgpvm3, daemon/pvmd and
#             libgpvm/pvmgs, with an rpath to them
#   -o FILE   keep the raw results, lines "impl kind n count median p10
#             p90 extra loop" (us; extra: reduce, median release skew of
#             the barrier before it; barrier, median last-in to last-out;
#             loop: the root's wall time per repetition of the timed
#             loop, its separating barrier and the call) or
#             "impl kind n count timeout|fail|bad";
#             bench/plot-reduce.py reads them
#   -p PNG    also draw the plot (needs /usr/bin/python3 with matplotlib:
#             Debian's python3-matplotlib; skipped, saying so, without)
#   -q        quick: fewer repetitions (a smoke test, not for figures)
#   -n, -c    group sizes (default "2 4 8 16") and counts of doubles
#             (default "1 8 1024 65536 1048576") of the reduce cases
#   -b        group sizes of the barrier cases (default 2 .. 16; "" none)
#   -g        counts of the gather, scatter and bcast cases (default
#             "1 1024"; "" none), at the reduce cases' group sizes
#   -k        which of them (default "gather scatter bcast"); with -c "" and
#             -b "" only those, e.g. -F -P -c "" -b "" -k scatter
#   -P        without PVM 3.4.6 even when it is installed
#   -F        no frozen-group cases
#   -x        the selection sweep instead (docs/performance-reduce.md,
#             "Selection"): ours only, at counts around the limits, as
#             configured, in shared memory at every size (the limit
#             lifted) with the flat and with the binomial tree
#             (GPVM_SHM_MAX, GPVM_SHM_RADIX) and on the message tree
#             (GPVM_SHM_MAX=0), against Open MPI; re-measures the
#             crossover points
#
# This script installs nothing.  Missing Open MPI (mpicc/mpirun: Debian
# openmpi-bin, libopenmpi-dev) or PVM 3.4.6 (pvm, pvm-dev) is reported
# and that column is skipped.  Every run has a time limit; a run that
# hits it is reported as "timeout" (PVM 3.4.6 can hang) and that
# implementation's daemon is restarted.  Nothing here is a pass/fail
# test: compare ratios from one run, not times across runs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
results="" png="" quick=0 frozen=1 sweep=0
SIZES="2 4 8 16"
COUNTS="1 8 1024 65536 1048576"
BSIZES=$(seq 2 16)
GCOUNTS="1 1024"
KINDS="gather scatter bcast"
nopvm=0
while getopts "o:p:qn:c:b:g:k:FxP" opt; do
	case $opt in
	o) results=$OPTARG ;;
	p) png=$OPTARG ;;
	q) quick=1 ;;
	n) SIZES=$OPTARG ;;
	c) COUNTS=$OPTARG ;;
	b) BSIZES=$OPTARG ;;
	g) GCOUNTS=$OPTARG ;;
	k) KINDS=$OPTARG ;;
	P) nopvm=1 ;;
	F) frozen=0 ;;
	x) sweep=1 ;;
	*) echo "usage: $0 [-o RESULTS] [-p PNG] [-q] [-F] [-x] [-P]" \
	    "[-n SIZES] [-c COUNTS] [-b BSIZES] [-g GCOUNTS] [-k KINDS]" \
	    "[BUILDDIR]" >&2; exit 1 ;;
	esac
done
shift $((OPTIND - 1))
build=$(cd "${1:-$top/_build}" && pwd) || exit 1
work=$(mktemp -d /tmp/pvmr.XXXXXX)
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
CC=${CC:-cc}
CFLAGS="-O2 -std=gnu11 -Wall -Wextra"
RES="$work/results.txt"
: >"$RES"

TLIM=60      # seconds per run (1,048,576 doubles: TLIM_BIG)
TLIM_BIG=180

ours_libs="$build/libgpvm/.libs:$build/libpvm/.libs"
for f in "$build/daemon/pvmd" "$build/libgpvm/pvmgs" \
    "$build/libgpvm/.libs/libgpvm3.so" "$build/libpvm/.libs/libpvm3.so"; do
	[ -e "$f" ] || { echo "no $f: build $build first" >&2; exit 1; }
done

have_pvm=1
for f in /usr/include/pvm3.h /usr/bin/pvmd /usr/lib/pvm3/lib/pvmgs \
    /usr/lib/x86_64-linux-gnu/libpvm3.so.3 \
    /usr/lib/x86_64-linux-gnu/libgpvm3.so.3; do
	[ -e "$f" ] || have_pvm=0
done
[ $nopvm = 1 ] && have_pvm=0
[ $have_pvm = 1 ] ||
	echo "== SKIPPING PVM 3.4.6: -P, or not installed (Debian packages pvm," \
	    "pvm-dev)"
have_mpi=1
command -v mpicc >/dev/null && command -v mpirun >/dev/null || have_mpi=0
[ $have_mpi = 1 ] ||
	echo "== SKIPPING Open MPI: mpicc/mpirun not installed" \
	    "(Debian packages openmpi-bin, libopenmpi-dev)"

# ---- build: one source, each implementation's headers and libraries ----
build_all() {
	$CC $CFLAGS -I"$top/include" -o "$work/reduce.ours" \
	    "$top/bench/reduce.c" -L"$build/libgpvm/.libs" \
	    -L"$build/libpvm/.libs" -Wl,-rpath,"$ours_libs" \
	    -lgpvm3 -lpvm3 || exit 1
	if [ $have_pvm = 1 ]; then
		# No -I: /usr/include/pvm3.h is PVM 3.4.6's.
		$CC $CFLAGS -o "$work/reduce.pvm346" "$top/bench/reduce.c" \
		    /usr/lib/x86_64-linux-gnu/libgpvm3.so.3 \
		    /usr/lib/x86_64-linux-gnu/libpvm3.so.3 || exit 1
	fi
	if [ $have_mpi = 1 ]; then
		mpicc $CFLAGS -o "$work/mpi_reduce" "$top/bench/mpi_reduce.c" ||
		    exit 1
	fi
}

# ---- daemons (bench/lib.sh) ----
. "$top/bench/lib.sh"

# ---- one measurement ----
# record IMPL KIND N COUNT LINE RC: append a results line.
record() {
	local impl=$1 kind=$2 n=$3 count=$4 line=$5 rc=$6 v
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		v=timeout
	elif [ "$rc" = 2 ]; then
		v=bad
	elif [ "$rc" != 0 ] || [ -z "$line" ]; then
		v=fail
	elif [ "$kind" = barrier ]; then
		v=$(echo "$line" | awk '{print $3, $5, $6, $7, $8}')
	else
		v=$(echo "$line" | awk '{print $4, $6, $7, $8, $9}')
	fi
	echo "$impl $kind $n $count $v" >>"$RES"
	printf '  %-14s %-8s n=%-3s count=%-8s %s\n' "$impl" "$kind" "$n" \
	    "$count" "$v"
}

# measure IMPL KIND N COUNT [ARGS]: run one case of one implementation.
measure() {
	local impl=$1 kind=$2 n=$3 count=$4 lim=$TLIM line rc args
	shift 4
	args=("$@")
	[ "$count" -ge 1048576 ] && lim=$TLIM_BIG
	[ $quick = 1 ] && args+=(-r 11)
	case $impl in
	ours*)
		# Variants of ours for the selection sweep (-x); each member
		# gets the switch (PVM_EXPORT).
		# The flat and binomial variants lift the size limit, so
		# that large counts go through shared memory in chunks.
		case $impl in
		ours-msg) sel=(GPVM_SHM_MAX=0 GPVM_SHM_RADIX=0) ;;
		ours-flat) sel=(GPVM_SHM_MAX=1099511627776 GPVM_SHM_RADIX=64) ;;
		ours-bin) sel=(GPVM_SHM_MAX=1099511627776 GPVM_SHM_RADIX=2) ;;
		*) sel=(GPVM_SHM_NONE=0 GPVM_SHM_NONE2=0) ;;
		esac
		env "${sel[@]}" \
		    PVM_EXPORT="${sel[0]%%=*}:${sel[1]%%=*}" \
		    PVM_TMP="$OURS_TMP" PVMGS_PATH="$build/libgpvm/pvmgs" \
		    timeout -k 5 $lim "$work/reduce.ours" -n "$n" "${args[@]}" \
		    >"$work/out" 2>>"$work/ours.err"
		rc=$?
		;;
	pvm346*)
		PVM_TMP="$PVM_TMP346" PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1 \
		    timeout -k 5 $lim "$work/reduce.pvm346" -n "$n" \
		    "${args[@]}" >"$work/out" 2>>"$work/pvm346.err"
		rc=$?
		;;
	mpi)
		timeout -k 5 $lim mpirun --oversubscribe --allow-run-as-root \
		    -np "$n" "$work/mpi_reduce" "${args[@]}" >"$work/out" \
		    2>>"$work/mpi.err"
		rc=$?
		;;
	esac
	line=$(tail -1 "$work/out")
	record "$impl" "$kind" "$n" "$count" "$line" "$rc"
	# A failed PVM run may leave tasks blocked in the daemon: start over.
	if [ "$rc" != 0 ]; then
		case $impl in
		ours*) stop_ours; start_ours; warm ours ;;
		pvm346*) stop_pvm346; start_pvm346; warm pvm346 ;;
		esac
	fi
}

# warm IMPL: start the group server before anything is timed (PVM
# 3.4.6's takes long to start).
warm() {
	case $1 in
	ours) PVM_TMP="$OURS_TMP" PVMGS_PATH="$build/libgpvm/pvmgs" \
	    timeout -k 5 $TLIM "$work/reduce.ours" -n 2 -b -r 5 >/dev/null \
	    2>>"$work/ours.err" ;;
	pvm346) PVM_TMP="$PVM_TMP346" PVM_ROOT=/usr/lib/pvm3 \
	    PVM_ALLOW_ROOT=1 timeout -k 5 $TLIM "$work/reduce.pvm346" \
	    -n 2 -b -r 5 >/dev/null 2>>"$work/pvm346.err" ;;
	esac
}

# kind_flag KIND: bench/reduce.c's (and mpi_reduce.c's) option for it.
kind_flag() {
	case $1 in
	bcast) echo -B ;;
	*) echo "-${1:0:1}" ;;
	esac
}

# every KIND N COUNT ARGS: one case, every implementation in turn.
every() {
	local kind=$1 n=$2 count=$3
	shift 3
	measure ours "$kind" "$n" "$count" "$@"
	[ $have_pvm = 1 ] && measure pvm346 "$kind" "$n" "$count" "$@"
	[ $have_mpi = 1 ] && measure mpi "$kind" "$n" "$count" "$@"
	if [ "$kind" = reduce ] && [ $frozen = 1 ]; then
		# Frozen groups: PVM 3.4.6 then caches the membership.
		measure ours-frozen "$kind" "$n" "$count" -f "$@"
		[ $have_pvm = 1 ] &&
		    measure pvm346-frozen "$kind" "$n" "$count" -f "$@"
	fi
	return 0
}

# sweep: the selection sweep (-x), then exit.
sweep() {
	local count n impl
	echo "== selection sweep: median us, load $(cut -d' ' -f1-3 /proc/loadavg)"
	for count in $COUNTS; do
		for n in $SIZES; do
			for impl in ours ours-flat ours-bin ours-msg; do
				measure $impl reduce "$n" "$count" -c "$count"
			done
			[ $have_mpi = 1 ] &&
			    measure mpi reduce "$n" "$count" -c "$count"
		done
	done
	echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	printf '%8s %3s | %9s %9s %9s %9s %9s\n' count n ours flat binomial \
	    messages openmpi
	while read -r impl kind n count v _; do
		echo "$count $n $impl $v"
	done <"$RES" | awk '{ k = $1 " " $2; v[k, $3] = $4; if (!(k in seen)) {
		seen[k] = 1; order[++m] = k } }
	    END { for (i = 1; i <= m; i++) { split(order[i], a, " ");
		printf "%8s %3s | %9s %9s %9s %9s %9s\n", a[1], a[2],
		v[order[i], "ours"], v[order[i], "ours-flat"],
		v[order[i], "ours-bin"], v[order[i], "ours-msg"],
		(v[order[i], "mpi"] == "" ? "-" : v[order[i], "mpi"]) } }'
	[ -n "$results" ] && cp "$RES" "$results"
	exit 0
}

build_all
start_ours
warm ours
if [ $sweep = 1 ]; then
	[ "$COUNTS" = "1 8 1024 65536 1048576" ] &&
	    COUNTS="1 1024 8192 16384 32768 65536 1048576"
	sweep
fi
if [ $have_pvm = 1 ]; then
	start_pvm346
	warm pvm346
fi
echo "== host: $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
for count in $COUNTS; do
	echo "== pvm_reduce(PvmSum, PVM_DOUBLE), $count doubles"
	for n in $SIZES; do
		every reduce "$n" "$count" -c "$count"
	done
done
for kind in $KINDS; do
	for count in $GCOUNTS; do
		echo "== pvm_$kind, $count doubles a member"
		for n in $SIZES; do
			every $kind "$n" "$count" "$(kind_flag $kind)" \
			    -c "$count"
		done
	done
done
echo "== pvm_barrier, back to back"
for n in $BSIZES; do
	every barrier "$n" 0 -b
done
stop_all
echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- summary ----
declare -A R
while read -r impl kind n count v _ _ extra loop; do
	R["$impl/$kind/$n/$count"]=$v
	[ -n "$extra" ] && R["$impl/$kind-x/$n/$count"]=$extra
	[ -n "$loop" ] && R["$impl/$kind-l/$n/$count"]=$loop
done <"$RES"

# ratio A B: A / B to 2 decimals, or the reason there is none.
ratio() {
	local a=${R[$1]:-n/a} b=${R[$2]:-n/a}
	case "$a$b" in
	*[!0-9.]*) echo "-" ;;
	*) awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }' ;;
	esac
}

echo
echo "== summary: median us per call (reduce: first member released by the"
echo "   barrier to result at the root; barrier: back to back at the root;"
echo "   ratios: lower is better)"
# The columns of the three tables: header prints their names, row a case.
FMT='%-8s %3s %8s | %10s %10s %10s | %8s %8s | %10s %10s %8s\n'
header() {
	printf "$FMT" what n count ours pvm346 openmpi o/pvm o/mpi ours-frz \
	    pvm-frz o/p-frz
}
header
row() {
	local kind=$1 n=$2 count=$3 k="$1/$2/$3"
	printf "$FMT" \
	    "$kind" "$n" "$count" "${R[ours/$k]:-n/a}" \
	    "${R[pvm346/$k]:-n/a}" "${R[mpi/$k]:-n/a}" \
	    "$(ratio "ours/$k" "pvm346/$k")" "$(ratio "ours/$k" "mpi/$k")" \
	    "${R[ours-frozen/$k]:--}" "${R[pvm346-frozen/$k]:--}" \
	    "$(ratio "ours-frozen/$k" "pvm346-frozen/$k")"
}
# rows SUFFIX: a row per case, of R's figures KIND, KIND-x or KIND-l
# (SUFFIX "", -x or -l; the kinds without such a figure print n/a).
rows() {
	local x=$1 count n kind
	for count in $COUNTS; do
		for n in $SIZES; do
			row "reduce$x" "$n" "$count"
		done
	done
	for kind in $KINDS; do
		for count in $GCOUNTS; do
			for n in $SIZES; do
				row "$kind$x" "$n" "$count"
			done
		done
	done
	for n in $BSIZES; do
		row "barrier$x" "$n" 0
	done
}
rows ""

echo
echo "== supplementary, median us: *-x, the separating barrier's release"
echo "   skew (last - first member released; part of the call's figure);"
echo "   barrier-x, last member's entry to last member's exit"
header
rows -x

echo
echo "== supplementary, us: *-l, the root's wall time per repetition of"
echo "   the timed loop (its separating barrier and the call; barrier-l:"
echo "   one barrier), a rate that the barrier's release skew cannot shift"
header
rows -l

echo
echo "== targets"
target "reduce 1 double, 8 tasks: ours / PVM 3.4.6" \
    "$(ratio ours/reduce/8/1 pvm346/reduce/8/1)" "<=" 0.333
target "  the same, frozen groups: ours / PVM 3.4.6" \
    "$(ratio ours-frozen/reduce/8/1 pvm346-frozen/reduce/8/1)" "<=" 0.333
target "reduce 1,048,576 doubles, 8 tasks: PVM 3.4.6 / ours" \
    "$(ratio pvm346/reduce/8/1048576 ours/reduce/8/1048576)" ">=" 5
target "reduce 1,048,576 doubles, 8 tasks: ours / Open MPI" \
    "$(ratio ours/reduce/8/1048576 mpi/reduce/8/1048576)" "<=" 1.5
target "barrier, 16 tasks: ours / PVM 3.4.6" \
    "$(ratio ours/barrier/16/0 pvm346/barrier/16/0)" "<=" 0.333
echo "== targets of issue 12: ours at or below Open MPI at every point"
for count in $COUNTS; do
	for n in $SIZES; do
		target "reduce $count doubles, $n tasks: ours / Open MPI" \
		    "$(ratio "ours/reduce/$n/$count" "mpi/reduce/$n/$count")" \
		    "<=" 1
	done
done
for kind in $KINDS; do
	for count in $GCOUNTS; do
		for n in $SIZES; do
			target "$kind $count doubles, $n tasks: ours / Open MPI" \
			    "$(ratio "ours/$kind/$n/$count" \
			    "mpi/$kind/$n/$count")" "<=" 1
		done
	done
done
for n in $BSIZES; do
	case " $SIZES " in *" $n "*) ;; *) continue ;; esac
	target "barrier, $n tasks: ours / Open MPI" \
	    "$(ratio "ours/barrier/$n/0" "mpi/barrier/$n/0")" "<=" 1
done

[ -n "$results" ] && cp "$RES" "$results"
if [ -n "$png" ]; then
	if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
		/usr/bin/python3 "$top/bench/plot-reduce.py" "$RES" "$png"
	else
		echo "== SKIPPING the plot: /usr/bin/python3 has no matplotlib" \
		    "(Debian package python3-matplotlib)"
	fi
fi
for f in ours.err pvm346.err mpi.err; do
	if [ -s "$work/$f" ]; then
		echo "== stderr of the $f runs (last lines):"
		tail -5 "$work/$f"
	fi
done
exit 0
