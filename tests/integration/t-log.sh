#!/bin/sh
# t-log.sh: the pvmd's log.  A task output line longer than a log line
# is logged in pieces, none of it lost; past $PVMDLOGMAX bytes the log
# becomes <log>.1 and a new one begins, and no output line is lost at the
# switch.  The task is seq(1), spawned from the console: a program that
# is not a PVM task still has its output logged.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVM_CONSOLE"
seq=$(command -v seq) || { echo "t-log.sh: no seq(1)" >&2; exit 77; }
cp "$seq" "$PVM_ROOT/bin/$PVM_ARCH/pvmt_seq" || exit 99

# spawn_and_halt ARGS...: spawn pvmt_seq ARGS, wait for it, halt.
spawn_and_halt() {
	local pid
	pid=$(pvmd_pid)
	{
		echo "spawn -1 pvmt_seq $*"
		sleep 2
		echo "halt"
	} | run 30 "$PVM_CONSOLE" >"$T_TMP/console" 2>&1
	wait_gone "$pid" 10
}

# One line of 6,891 bytes ("1,2,...,1500").
start_pvmd
spawn_and_halt -s , 1 1500
want=$(seq -s , 1 1500)
tid=$(sed -n 's/.*\] \[\(t[0-9a-f]*\)\] 1,2,3,.*/\1/p' "$T_LOG" | head -n 1)
got=$(sed -n "s/^.* \[info\] \[$tid\] //p" "$T_LOG" | tr -d '\n')
pieces=$(grep -c "\[info\] \[$tid\] " "$T_LOG")
check "a 6891-byte output line is logged whole, in $pieces pieces" \
    test -n "$tid" -a "$got" = "$want" -a "$pieces" -gt 1

# 6,000 lines of output with a 20,000-byte limit: about 13 switches.
PVMDLOGMAX=20000
export PVMDLOGMAX
start_pvmd
unset PVMDLOGMAX
spawn_and_halt 1 6000
size=$(wc -c <"$T_LOG")
old=$(wc -c <"$T_LOG.1" 2>/dev/null || echo 0)
echo "INFO: log $size bytes, log.1 $old bytes"
check "the log stayed near the limit ($size bytes)" test "$size" -le 22000
check "the previous part is in .1 ($old bytes)" \
    test "$old" -gt 15000 -a "$old" -le 22000
check "the log begins with where it continues from" \
    sh -c "head -n 1 '$T_LOG' | grep -q 'log continued from $T_LOG.1'"
nums() {
	sed -n 's/^.* \[info\] \[t[0-9a-f]*\] \([0-9][0-9]*\)$/\1/p' "$1"
}
last=$(nums "$T_LOG" | tail -n 1)
check "the newest output is kept (last line ${last:-none})" \
    test "${last:-0}" -eq 6000
n_old=$(nums "$T_LOG.1" | wc -l)
n_new=$(nums "$T_LOG" | wc -l)
first=$(nums "$T_LOG.1" | head -n 1)
check "no line lost across the last switch (.1 from $first, $n_old + $n_new lines)" \
    test $((first + n_old + n_new - 1)) -eq 6000
finish
