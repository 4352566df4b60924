#!/bin/sh
# t-limits.sh: limits are explicit and exceeded only with an error.
#   1. The mailbox: $PVMD_MBOX_MAX bytes in all, an entry at most one
#      control message (64 MiB): beyond either, PvmOutOfRes, and the
#      task stays connected.
#   2. Tasks per host: 4,096 sleeping tasks (T_LIMITS_TASKS) spawned,
#      listed by the console's `ps -a`, watched by TaskExit notifies, then
#      halted; the pvmd's memory per task is reported.  The pvmd raises
#      its soft descriptor limit to the hard one for this.
# (The message length limit, INT_MAX bytes, is in check_pack.)
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVMD" "$PVM_CONSOLE" "$TASKS/t_limits"
n=${T_LIMITS_TASKS:-4096}

# 1. The mailbox
export PVMD_MBOX_MAX=1048576
start_pvmd
unset PVMD_MBOX_MAX
run_checks 60 "$TASKS/t_limits" mbox 1048576
check "mbox: the log says why" \
    grep -q 'refused: the mailbox holds .* of $PVMD_MBOX_MAX 1048576' "$T_LOG"
stop_pvmd

# 2. Many tasks
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt $((2 * n + 100)) ]; then
	echo "SKIP: the hard descriptor limit ($hard) is below $((2 * n + 100))"
	exit 77
fi
# Started with a soft limit of 1024, as on most machines.
(ulimit -S -n 1024 && start_pvmd)
rss0=$(pvmd_rss)
pid=$(pvmd_pid)
soft_of() { awk '/^Max open files/ { print $4 }' "/proc/$1/limits"; }
check "the pvmd raised its soft descriptor limit to the hard one \
($(soft_of "$pid") of $hard)" test "$(soft_of "$pid")" = "$hard"
# When the tasks are up: the pvmd's memory and `ps -a`, then go.
{
	wait_for 1200 grep -qs "^INFO: READY" "$T_TMP/out.$((T_RUNS + 1))"
	pvmd_rss >"$T_TMP/rss1"
	ls "/proc/$pid/fd" | wc -l >"$T_TMP/fds1"
	soft_of "$(pgrep -f "$TASKS/t_limits sleep" | head -n 1)" \
	    >"$T_TMP/tasksoft"
	echo "ps -a" | run 120 "$PVM_CONSOLE" >"$T_TMP/ps" 2>&1
	touch "$T_TMP/go"
} &
run_checks 1800 "$TASKS/t_limits" many "$n" "$T_TMP/go"
wait
rss1=$(cat "$T_TMP/rss1")
echo "INFO: pvmd: $rss0 KiB before, $rss1 KiB with $((n - 16)) tasks," \
    "$(cat "$T_TMP/fds1") descriptors"
check "the pvmd's memory per task: $(((rss1 - rss0) * 1024 / n)) bytes" \
    test $(((rss1 - rss0) * 1024 / n)) -lt 65536
check "a spawned task has the soft limit of 1024 back \
($(cat "$T_TMP/tasksoft"))" test "$(cat "$T_TMP/tasksoft")" = 1024
lines=$(grep -c 't_limits' "$T_TMP/ps")
check "ps -a lists the $((n - 16)) sleepers (got $lines)" \
    test "$lines" -eq $((n - 16))
check "the pvmd exited after the halt" wait_gone "$pid" 30
check "no task is left" test -z "$(pgrep -f "$TASKS/t_limits")"
finish
