#!/bin/sh
# t-oshrun.sh: the SHMEM launcher with fakepe (a libpvm3 task speaking
# launch.h's protocol): -np/-n/--, PE numbering and the table, output and
# stdin, every way a PE can end and the exit status and stderr line each
# gives, signals to oshrun, starting and halting a pvmd when none runs,
# bad usage and a program that cannot run.  After every run no PE may be
# left (pgrep on a marker in their argv).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
OSHRUN="$PVM_TOP_BUILDDIR/shmem/oshrun"
FAKE="$PVM_TOP_BUILDDIR/tests/shmem/fakepe"
need "$OSHRUN" "$FAKE"
MARK="oshmark$$"

# osh NAME ARGS...: oshrun ARGS under a limit, stdin from $OSH_IN; its
# stdout and stderr in $T_TMP/NAME.out and .err, its status in RC.
OSH_IN=/dev/null
osh() {
	local name=$1
	shift
	run 60 "$OSHRUN" "$@" <"$OSH_IN" >"$T_TMP/$name.out" \
	    2>"$T_TMP/$name.err"
	RC=$?
	sed "s/^/[$name out] /" "$T_TMP/$name.out"
	sed "s/^/[$name err] /" "$T_TMP/$name.err"
}

# expect_rc NAME WANT: RC is WANT.
expect_rc() {
	check "$1: exit status $2 (got $RC)" test "$RC" -eq "$2"
}

# expect_err NAME REGEX: a stderr line of run NAME matches.
expect_err() {
	check "$1: stderr says /$2/" grep -q -- "$2" "$T_TMP/$1.err"
}

# none_left NAME: no process of any PE (or oshrun) is left.
none_left() {
	local left
	left=$(pgrep -f "$MARK")
	check "$1: no PE left${left:+ (found $left)}" test -z "$left"
	[ -z "$left" ] || kill -KILL $left 2>/dev/null
}

# pes_ok NAME N: N PEs numbered 0..N-1 each saw npes N and a good table.
pes_ok() {
	local want got
	want=$(seq 0 $(($2 - 1)) | tr '\n' ' ')
	got=$(sed -n "s/^PE \([0-9]*\) npes $2 tid t[0-9a-f]*\$/\1/p" \
	    "$T_TMP/$1.out" | sort -n | tr '\n' ' ')
	check "$1: PEs 0..$(($2 - 1)) each saw npes $2 (got '$got')" \
	    test "$got" = "$want"
	check "$1: $2 PEs found the table right" \
	    test "$(grep -c '^PE [0-9]* table ok$' "$T_TMP/$1.out")" -eq "$2"
}

# our_pvmds: pids of pvmd processes of this test's PVM_TMP.
our_pvmds() {
	local p
	for p in $(pgrep -x pvmd); do
		if { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null |
		    grep -qx "PVM_TMP=$T_TMP"; then
			echo "$p"
		fi
	done
}

# ---- no pvmd runs: oshrun starts one and halts it ----
osh auto -np 2 "$FAKE" "$MARK" ok
expect_rc auto 0
pes_ok auto 2
left=$(our_pvmds)
check "auto: the pvmd oshrun started is gone${left:+ (found $left)}" \
    test -z "$left"
check "auto: its pid file is gone" test ! -e "$T_DIR/pid"
none_left auto
# A pvmd oshrun failed to halt must not stop the rest of the test.
pvmd_alive && stop_pvmd

start_pvmd
pvmd0=$(pvmd_pid)

# ---- normal runs ----
osh np4 -np 4 "$FAKE" "$MARK" ok
expect_rc np4 0
pes_ok np4 4
check "np4: nothing on stderr" test ! -s "$T_TMP/np4.err"
none_left np4

osh n3 -n 3 -- "$FAKE" "$MARK" ok
expect_rc n3 0
pes_ok n3 3
none_left n3

echo "line-for-pe0" >"$T_TMP/in"
OSH_IN="$T_TMP/in"
osh stdin -np 3 "$FAKE" "$MARK" stdin
OSH_IN=/dev/null
expect_rc stdin 0
pes_ok stdin 3
check "stdin: PE 0 read oshrun's stdin" \
    grep -qx 'PE 0 stdin: line-for-pe0' "$T_TMP/stdin.out"
check "stdin: PEs 1 and 2 read /dev/null" \
    test "$(grep -c '^PE [12] stdin: EOF$' "$T_TMP/stdin.out")" -eq 2
none_left stdin

# ---- CPUs: a CPU each when they fit, none pinned when not ----
ncpu=$(nproc)
osh cpus -np "$ncpu" "$FAKE" "$MARK" cpus
expect_rc cpus 0
check "cpus: each of $ncpu PEs on one CPU, marked bound" \
    test "$(grep -c '^PE [0-9]* cpus [0-9]* bound 1$' "$T_TMP/cpus.out")" \
    -eq "$ncpu"
check "cpus: no two PEs on the same CPU" test "$(grep '^PE [0-9]* cpus' \
    "$T_TMP/cpus.out" | awk '{ print $4 }' | sort -u | wc -l)" -eq "$ncpu"
osh cpus_over -np $((ncpu + 1)) "$FAKE" "$MARK" cpus
expect_rc cpus_over 0
check "cpus_over: $((ncpu + 1)) PEs on $ncpu CPUs are not pinned" \
    test "$(grep -c ' bound -$' "$T_TMP/cpus_over.out")" -eq $((ncpu + 1))
export PVMSHMEM_BOUND=1 OSHRUN_BIND=none
osh cpus_none -np 1 "$FAKE" "$MARK" cpus
unset PVMSHMEM_BOUND OSHRUN_BIND
expect_rc cpus_none 0
check "cpus_none: OSHRUN_BIND=none pins nothing, a stray PVMSHMEM_BOUND is dropped" \
    grep -q '^PE 0 cpus .* bound -$' "$T_TMP/cpus_none.out"
none_left cpus

# ---- PEs that end badly ----
osh fail -np 3 "$FAKE" "$MARK" fail 1 3
expect_rc fail 3
pes_ok fail 3
expect_err fail '^oshrun: PE 1 (pid [0-9]*) exited with status 3$'
none_left fail

osh kill -np 3 "$FAKE" "$MARK" kill 2
expect_rc kill 137
expect_err kill '^oshrun: PE 2 (pid [0-9]*) was killed by signal 9 (Killed)$'
none_left kill

osh abort -np 3 "$FAKE" "$MARK" abort 1 5
expect_rc abort 5
expect_err abort '^oshrun: PE 1 (pid [0-9]*) ended the job with status 5'
none_left abort

osh nodone -np 3 "$FAKE" "$MARK" nodone 2
expect_rc nodone 1
expect_err nodone \
    '^oshrun: PE 2 (pid [0-9]*) exited with status 0 before shmem_finalize$'
none_left nodone

osh nodone4 -np 2 "$FAKE" "$MARK" nodone 0 4
expect_rc nodone4 4
expect_err nodone4 \
    '^oshrun: PE 0 (pid [0-9]*) exited with status 4 before shmem_finalize$'
none_left nodone4

osh early -np 3 "$FAKE" "$MARK" early 1
expect_rc early 137
expect_err early '^oshrun: PE 1 (pid [0-9]*) was killed by signal 9 (Killed)$'
none_left early

osh badhello -np 2 "$FAKE" "$MARK" badhello 1
expect_rc badhello 1
expect_err badhello \
    "^oshrun: bad hello from task t[0-9a-f]*: its tid is not the sender's$"
none_left badhello

# ---- signals to oshrun; PE 1 ignores SIGTERM, so SIGKILL must follow ----
for sig in TERM INT; do
	name="sig$sig"
	"$OSHRUN" -np 3 "$FAKE" "$MARK" hang 1 </dev/null \
	    >"$T_TMP/$name.out" 2>"$T_TMP/$name.err" &
	pid=$!
	check "$name: the 3 PEs are up" wait_for 20 sh -c \
	    "test \$(grep -c ' npes 3 ' '$T_TMP/$name.out') -eq 3"
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	if ! wait_gone "$pid" 20; then
		fail "$name: oshrun still runs 20 s after SIG$sig"
		kill -KILL "$pid"
	fi
	wait "$pid"
	RC=$?
	t1=$(date +%s%N)
	cat "$T_TMP/$name.err"
	[ "$sig" = TERM ] && want=143 || want=130
	expect_rc "$name" "$want"
	check "$name: waited ~2 s before SIGKILL ($(((t1 - t0) / 1000000)) ms)" \
	    test $(((t1 - t0) / 1000000)) -ge 1900
	expect_err "$name" 'stopping the PEs'
	none_left "$name"
done

# ---- oshrun killed outright: its PEs end too (PR_SET_PDEATHSIG) ----
"$OSHRUN" -np 3 "$FAKE" "$MARK" wait </dev/null >"$T_TMP/k9.out" 2>&1 &
pid=$!
check "k9: the 3 PEs are up" wait_for 20 sh -c \
    "test \$(grep -c ' npes 3 ' '$T_TMP/k9.out') -eq 3"
kill -KILL "$pid"
wait "$pid"
no_pe() { ! pgrep -f "$MARK" >/dev/null; }
check "k9: the PEs end with oshrun" wait_for 10 no_pe
none_left k9

# ---- bad usage, a program that cannot run ----
for args in "" "-np" "-np 0 x" "-np abc x" "-np 2" "-q 2 x" "-np 5000 x" \
    "-n 2 -np"; do
	# shellcheck disable=SC2086 # the words of $args are the arguments
	osh usage $args
	expect_rc "usage '$args'" 2
	expect_err usage '^usage: oshrun -np N'
done
osh help --help
expect_rc help 0
check "help: usage on stdout" grep -q '^usage: oshrun -np N' "$T_TMP/help.out"

osh noent -np 2 "$T_TMP/no-such-program-$MARK"
expect_rc noent 127
expect_err noent "^oshrun: cannot run .*no-such-program-$MARK for PE 0: No such file or directory$"
none_left noent

printf '#!/bin/sh\nexit 0\n' >"$T_TMP/noexec-$MARK"
osh noexec -np 2 "$T_TMP/noexec-$MARK"
expect_rc noexec 127
expect_err noexec "^oshrun: cannot run .*noexec-$MARK for PE 0: Permission denied$"
none_left noexec

check "the pvmd that was running is left running" pvmd_alive
check "and it is the same pvmd" test "$(pvmd_pid)" = "$pvmd0"
finish
