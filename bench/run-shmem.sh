#!/bin/bash
# run-shmem.sh: bench/shmem.c built with our oshcc (include/shmem.h,
# libpvmshmem) and with Open MPI's OpenSHMEM (/usr/bin/oshcc), run with
# each one's oshrun, case by case in one run so that load changes on a
# shared machine hit both alike: shmem_double_sum_to_all of 1, 1,024 and
# 1,048,576 doubles at 2, 4 and 8 PEs; back-to-back shmem_barrier_all at
# 2, 4 and 8 PEs; 8-byte shmem_putmem + shmem_quiet latency and 1 MiB put
# bandwidth between 2 PEs.  Prints a table with ratios ours / Open MPI
# and the issue's targets.
#
#   bench/run-shmem.sh [-o RESULTS] [-p PNG] [-q] [-R ROUNDS] [BUILDDIR]
#
#   BUILDDIR  a configured and built tree (default: _build): its
#             shmem/oshcc, shmem/oshrun, libpvmshmem, libpvm3, daemon/pvmd
#   -o FILE   keep the raw results, lines "impl kind npes count median
#             p10 p90 extra" (us, bw in MB/s) or "impl kind npes count
#             timeout|fail|bad"; bench/plot-shmem.py reads them
#   -p PNG    also draw the plot (needs /usr/bin/python3 with matplotlib)
#   -q        quick: fewer repetitions (a smoke test, not for figures)
#   -R N      N rounds (default 3); the summary takes each figure's
#             median over the rounds
#
# Open MPI's OpenSHMEM comes with Debian's libopenmpi-dev (oshcc) and
# openmpi-bin (oshrun); this script installs them through tools/deps.sh
# when missing (a benchmark need, not a build or test one), and skips
# that column if that fails.  Debian's oshrun needs
# `--mca opal_common_ucx_opal_mem_hooks 0` on this machine, and as root
# --allow-run-as-root.  Nothing here is a pass/fail test: compare ratios
# from one run, not times across runs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
results="" png="" quick=0 rounds=3
while getopts "o:p:qR:" opt; do
	case $opt in
	o) results=$OPTARG ;;
	p) png=$OPTARG ;;
	q) quick=1 ;;
	R) rounds=$OPTARG ;;
	*) echo "usage: $0 [-o RESULTS] [-p PNG] [-q] [-R ROUNDS] [BUILDDIR]" >&2
	   exit 1 ;;
	esac
done
shift $((OPTIND - 1))
build=$(cd "${1:-$top/_build}" && pwd) || exit 1
work=$(mktemp -d /tmp/pvmshb.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
CFLAGS="-O2 -std=gnu11 -Wall -Wextra"
RES="$work/results.txt"
: >"$RES"

SIZES="2 4 8"
COUNTS="1 1024 1048576"
TLIM=120

for f in "$build/daemon/pvmd" "$build/shmem/oshcc" "$build/shmem/oshrun" \
    "$build/shmem/.libs/libpvmshmem.so"; do
	[ -e "$f" ] || { echo "no $f: build $build first" >&2; exit 1; }
done

have_ompi=1
if ! [ -x /usr/bin/oshcc ] || ! [ -x /usr/bin/oshrun ]; then
	sh "$top/tools/deps.sh" openmpi-bin libopenmpi-dev || have_ompi=0
fi
[ -x /usr/bin/oshcc ] && [ -x /usr/bin/oshrun ] || have_ompi=0
[ $have_ompi = 1 ] ||
	echo "== SKIPPING Open MPI: no /usr/bin/oshcc, /usr/bin/oshrun" \
	    "(Debian packages libopenmpi-dev, openmpi-bin)"

# ---- build: one source, each implementation's wrapper ----
PVMSHMEM_INCDIR="$top/include" \
    PVMSHMEM_LIBDIR="$build/shmem/.libs:$build/libpvm/.libs" \
    "$build/shmem/oshcc" $CFLAGS -I"$top/bench" -o "$work/shmem.ours" \
    "$top/bench/shmem.c" || exit 1
if [ $have_ompi = 1 ]; then
	/usr/bin/oshcc $CFLAGS -I"$top/bench" -o "$work/shmem.ompi" \
	    "$top/bench/shmem.c" || have_ompi=0
fi

# Our oshrun starts (and stops) a private pvmd for each run.
mkdir -p "$work/pvm"
export PVM_TMP="$work/pvm" PVM_DPATH="$build/daemon/pvmd"
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=yes
ompi_run=(/usr/bin/oshrun --oversubscribe
    --mca opal_common_ucx_opal_mem_hooks 0)
[ "$(id -u)" = 0 ] && ompi_run+=(--allow-run-as-root)

# measure IMPL ROUND KIND NPES COUNT ARGS...: one run, one results line.
measure() {
	local impl=$1 round=$2 kind=$3 n=$4 count=$5 rc line v
	shift 5
	local args=("$@")
	[ $quick = 1 ] && args+=(-r 21)
	case $impl in
	ours) timeout -k 5 $TLIM "$build/shmem/oshrun" -np "$n" \
	    "$work/shmem.ours" "${args[@]}" >"$work/out" 2>>"$work/ours.err" ;;
	ompi) timeout -k 5 $TLIM "${ompi_run[@]}" -np "$n" \
	    "$work/shmem.ompi" "${args[@]}" >"$work/out" 2>>"$work/ompi.err" ;;
	esac
	rc=$?
	line=$(grep "^$kind " "$work/out" | tail -1)
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		v=timeout
	elif [ $rc = 2 ] || [ "$(echo "$line" | awk '{print $4}')" = bad ]; then
		v=bad
	elif [ $rc != 0 ] || [ -z "$line" ]; then
		v=fail
	else
		v=$(echo "$line" | cut -d' ' -f4-)
	fi
	echo "$impl.$round $kind $n $count $v" >>"$RES"
	printf '  %-6s r%s %-8s n=%-2s count=%-8s %s\n' "$impl" "$round" \
	    "$kind" "$n" "$count" "$v"
}

# every ROUND KIND NPES COUNT ARGS...: one case, each implementation.
every() {
	measure ours "$@"
	[ $have_ompi = 1 ] && measure ompi "$@"
	return 0
}

echo "== host: $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
	echo "== round $round"
	for count in $COUNTS; do
		for n in $SIZES; do
			every "$round" reduce "$n" "$count" -k reduce -c "$count"
		done
	done
	for n in $SIZES; do
		every "$round" barrier "$n" 0 -k barrier
	done
	every "$round" lat 2 8 -k lat
	every "$round" bw 2 1048576 -k bw
done
echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- summary: each figure's median over the rounds ----
declare -A R
summarize() {
	local impl=$1 kind=$2 n=$3 count=$4 vals
	vals=$(awk -v i="$impl" -v k="$kind" -v n="$n" -v c="$count" '
	    { split($1, a, ".") }
	    a[1] == i && $2 == k && $3 == n && $4 == c { print $5 }' "$RES" |
	    grep -E '^[0-9.]+$' | sort -g)
	if [ -z "$vals" ]; then
		R["$impl/$kind/$n/$count"]=$(awk -v i="$impl" -v k="$kind" \
		    -v n="$n" -v c="$count" '{ split($1, a, ".") }
		    a[1] == i && $2 == k && $3 == n && $4 == c { w = $5 }
		    END { print (w == "" ? "n/a" : w) }' "$RES")
		return
	fi
	R["$impl/$kind/$n/$count"]=$(echo "$vals" |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
}
cases() {
	local count n
	for count in $COUNTS; do
		for n in $SIZES; do echo "reduce $n $count"; done
	done
	for n in $SIZES; do echo "barrier $n 0"; done
	echo "lat 2 8"
	echo "bw 2 1048576"
}
while read -r kind n count; do
	summarize ours "$kind" "$n" "$count"
	summarize ompi "$kind" "$n" "$count"
done < <(cases)

# ratio A B: A / B to 2 decimals, or "-".
ratio() {
	local a=${R[$1]:-n/a} b=${R[$2]:-n/a}
	case "$a$b" in
	*[!0-9.]*) echo "-" ;;
	*) awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }' ;;
	esac
}

echo
echo "== summary: medians over $rounds rounds of each run's median (us per"
echo "   call; bw: MB/s); ratio ours / Open MPI (for times lower is better,"
echo "   for bw higher)"
printf '%-8s %4s %8s | %10s %10s | %6s\n' what npes count ours openmpi ratio
while read -r kind n count; do
	k="$kind/$n/$count"
	printf '%-8s %4s %8s | %10s %10s | %6s\n' "$kind" "$n" "$count" \
	    "${R[ours/$k]}" "${R[ompi/$k]}" "$(ratio "ours/$k" "ompi/$k")"
done < <(cases)

. "$top/bench/lib.sh"
echo
echo "== targets (issue 10)"
for n in $SIZES; do
	target "sum_to_all 1 double, $n PEs: ours / Open MPI" \
	    "$(ratio ours/reduce/$n/1 ompi/reduce/$n/1)" "<=" 1.5
	target "sum_to_all 1,024 doubles, $n PEs: ours / Open MPI" \
	    "$(ratio ours/reduce/$n/1024 ompi/reduce/$n/1024)" "<=" 1.5
	target "sum_to_all 1,048,576 doubles, $n PEs: ours / Open MPI" \
	    "$(ratio ours/reduce/$n/1048576 ompi/reduce/$n/1048576)" "<=" 1
done

[ -n "$results" ] && cp "$RES" "$results"
if [ -n "$png" ]; then
	if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
		/usr/bin/python3 "$top/bench/plot-shmem.py" "$RES" "$png"
	else
		echo "== SKIPPING the plot: /usr/bin/python3 has no matplotlib" \
		    "(Debian package python3-matplotlib)"
	fi
fi
for f in ours.err ompi.err; do
	if [ -s "$work/$f" ]; then
		echo "== stderr of the $f runs (last lines):"
		tail -5 "$work/$f"
	fi
done
exit 0
