# lib-shmem.sh: sourced by the SHMEM tests after lib.sh.  Names our
# oshrun and the PE programs, and starts the private pvmd that every
# oshrun of the test enrols with (unless OSH_OWN_PVMD is set: the test
# starts its own machine, as t-shmem-hosts.sh does through lib-hosts.sh,
# and sets OSH_ON to the command that runs oshrun on its host).
#
#   osh_checks SECS NPES PROG ARGS...   run_checks on oshrun -np NPES PROG
#   osh_fails SECS NPES PATTERN PROG ARGS...
#                                       the job must end nonzero within
#                                       SECS, stderr must match PATTERN,
#                                       and each stderr line must be whole
#                                       (from the library or oshrun)

OSHRUN="$PVM_TOP_BUILDDIR/shmem/oshrun"
SHTESTS="$PVM_TOP_BUILDDIR/tests/shmem"
OSH_ON=${OSH_ON:-}

osh_checks() {
	local secs=$1 np=$2
	shift 2
	run_checks "$secs" $OSH_ON "$OSHRUN" -np "$np" "$@"
}

osh_fails() {
	local secs=$1 np=$2 pat=$3 rc what
	shift 3
	what="$(echo "$*" | sed "s|$SHTESTS/||g") (-np $np)"
	run "$secs" $OSH_ON "$OSHRUN" -np "$np" "$@" >"$T_TMP/fails.out" \
	    2>"$T_TMP/fails.err"
	rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		fail "$what: still running after ${secs} s"
	elif [ "$rc" -eq 0 ]; then
		fail "$what: exit status 0, want nonzero"
	elif grep -q "^REACHED" "$T_TMP/fails.out"; then
		fail "$what: $(grep -m1 "^REACHED" "$T_TMP/fails.out")"
	elif grep -v -E '^(libpvmshmem: PE [0-9]+: shmem_[a-z0-9_]+: |oshrun: )' \
	    "$T_TMP/fails.err" >"$T_TMP/fails.odd"; then
		fail "$what: stderr lines not from the library or oshrun"
		sed 's/^/  stderr: /' "$T_TMP/fails.err"
	elif ! grep -q -- "$pat" "$T_TMP/fails.err"; then
		fail "$what: exit status $rc, but stderr lacks '$pat'"
		sed 's/^/  stderr: /' "$T_TMP/fails.err"
	else
		ok "$what: exit status $rc, stderr: $(grep -m1 -- "$pat" \
		    "$T_TMP/fails.err")"
	fi
}

need "$OSHRUN"
[ -n "${OSH_OWN_PVMD:-}" ] || start_pvmd
