#!/bin/bash
# sos-unit.sh: build the unit tests of Sandia OpenSHMEM (the tests-sos
# module) that cover reductions, broadcast, collect, barrier, put/get and
# atomics, unmodified, with our oshcc, and run each with our oshrun at
# -np 2 and -np 4.  Prints one line per test: build ok ("dep": built
# with the tests' own -DENABLE_DEPRECATED_TESTS, which selects the
# active-set calls instead of teams) or the first compiler error, then
# pass/FAIL/timeout at each PE count.
#
#   tools/sos-unit.sh SOSTESTS [BUILDDIR]
#
#   SOSTESTS  a checkout of openshmem-org/tests-sos, of
#             Sandia-OpenSHMEM/SOS with modules/tests-sos filled in, or of
#             SOS up to v1.4.5 (tests in the tree, OpenSHMEM 1.4 calls):
#             the directory that holds test/unit.  This
#             script downloads nothing (their code is never part of ours);
#             docs/compat.md names the commit used.
#   BUILDDIR  a built tree (default: _build)
#
# Environment: SOS_TESTS="a b ..." runs only those; SOS_NP="2 4" the PE
# counts; SOS_TLIM seconds per run (default 60).  Exit status 0 when
# every test built and passed, else 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 SOSTESTS [BUILDDIR]" >&2; exit 1; }
sos=$(cd "$1" && pwd) || exit 1
[ -d "$sos/test/unit" ] || sos="$sos/modules/tests-sos"
[ -d "$sos/test/unit" ] || { echo "no test/unit under $1" >&2; exit 1; }
build=$(cd "${2:-$top/_build}" && pwd) || exit 1
for f in "$build/shmem/oshcc" "$build/shmem/oshrun" "$build/daemon/pvmd"; do
	[ -e "$f" ] || { echo "no $f: build $build first" >&2; exit 1; }
done
work=$(mktemp -d /tmp/sosunit.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The tests of the areas issue 10 names; what they need beyond that
# (teams, contexts, locks, ...) shows up as a build failure.
DEFAULT_TESTS="
hello
barrier repeated_barriers repeated_syncs sync-size nop_collectives
self_collectives
bcast bcast_flood bcast_in_place broadcast_active_set
collect collect_active_set fcollect64
to_all max_reduction big_reduction reduce_active_set reduce_in_place
put1 get1 get_g bigput bigget strided_put circular_shift ping pingpong
pingpong-short sping iput32 iput64 iput128 iput-iget iput_short
iput_double iput_float iput_long iput_longdouble iput_longlong
put_nbi get_nbi rma_coverage shmem_ptr accessible_ping zero_comm
swap1 swapm cswap atomic_inc lfinc set_fetch atomic_bitwise fadd_nbi
waituntil
c11_test_shmem_p c11_test_shmem_g c11_test_shmem_put c11_test_shmem_get
c11_test_shmem_atomic_fetch c11_test_shmem_atomic_set
c11_test_shmem_atomic_add c11_test_shmem_atomic_inc
c11_test_shmem_atomic_and c11_test_shmem_atomic_or
c11_test_shmem_atomic_xor c11_test_shmem_atomic_swap
c11_test_shmem_atomic_cswap
"
tests=${SOS_TESTS:-$DEFAULT_TESTS}
nps=${SOS_NP:-2 4}
tlim=${SOS_TLIM:-60}

export PVMSHMEM_INCDIR="$top/include"
export PVMSHMEM_LIBDIR="$build/shmem/.libs:$build/libpvm/.libs"
mkdir -p "$work/pvm"
export PVM_TMP="$work/pvm" PVM_DPATH="$build/daemon/pvmd"
[ "$(id -u)" = 0 ] && export PVM_ALLOW_ROOT=yes

# osh_build TEST SRC [FLAGS]: compile with our oshcc; errors in TEST.cc.
osh_build() {
	local t=$1 src=$2
	shift 2
	echo "$*" >"$work/$t.how"
	"$build/shmem/oshcc" -std=gnu11 -O1 -I"$sos/test/include" "$@" \
	    -o "$work/$t" "$src" -lm >"$work/$t.cc" 2>&1
}

npass=0 nfail=0 nbuild=0
printf '%-32s %-8s' test build
for np in $nps; do printf ' %-8s' "np $np"; done
echo
for t in $tests; do
	src="$sos/test/unit/$t.c"
	printf '%-32s ' "$t"
	if [ ! -e "$src" ]; then
		echo "no source"
		nbuild=$((nbuild + 1))
		continue
	fi
	# Newer tests use teams unless built with their own switch
	# ENABLE_DEPRECATED_TESTS (the active-set calls): "dep".
	how=ok
	if ! osh_build "$t" "$src" && ! osh_build "$t" "$src" \
	    -DENABLE_DEPRECATED_TESTS; then
		osh_build "$t" "$src"
		printf '%-8s %s\n' "NO" "$(grep -m1 -E 'error|undefined' \
		    "$work/$t.cc" | sed 's|^.*/||' | cut -c1-110)"
		nbuild=$((nbuild + 1))
		continue
	fi
	grep -q DEPRECATED "$work/$t.how" && how=dep
	printf '%-8s' "$how"
	for np in $nps; do
		timeout -k 5 "$tlim" "$build/shmem/oshrun" -np "$np" \
		    "$work/$t" >"$work/$t.$np.out" 2>&1
		rc=$?
		case $rc in
		0) v=pass; npass=$((npass + 1)) ;;
		124|137) v=timeout; nfail=$((nfail + 1)) ;;
		*) v="FAIL($rc)"; nfail=$((nfail + 1)) ;;
		esac
		printf ' %-8s' "$v"
		if [ "$v" != pass ] && [ -n "${SOS_VERBOSE:-}" ]; then
			echo
			tail -3 "$work/$t.$np.out" | sed 's/^/    | /'
		fi
	done
	echo
done
echo "== $npass runs passed, $nfail failed or timed out, $nbuild tests" \
    "did not build"
[ $nfail = 0 ] && [ $nbuild = 0 ]
