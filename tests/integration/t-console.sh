#!/bin/sh
# t-console.sh: the pvm console driven by a script: spawn with output to
# the console, ps, halt; `echo halt | pvm`; where the output of a task
# spawned without -> goes, and spawn -@'s jobs.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVM_CONSOLE" "$TASKS/t_hello"
install_task t_hello pvmt_hello
LINE="hello from pvm test task enrolled"

start_pvmd
pid=$(pvmd_pid)
out="$T_TMP/console"
# Each step waits for the console to show the last one's result (not a
# fixed time: tasks start slowly under valgrind and on a busy machine).
{
	echo "spawn -4 -> pvmt_hello"
	wait_for 20 grep -q '\[1\] finished$' "$out"
	echo "spawn -1 pvmt_hello 60"
	wait_for 20 grep -q '^1 successful$' "$out"
	echo "spawn -262144 pvmt_hello"
	echo "ps"
	wait_for 20 grep -q 'pvmt_hello' "$out"
	wait_for 10 grep -q 'TID' "$out"
	echo "halt"
} | run 90 "$PVM_CONSOLE" >"$out" 2>&1
rc=$?
# Prompts may precede output on the same line: strip them.
sed 's/^\(pvm> *\)*//' "$out" >"$out.clean"
cat "$out"
check "console exits 0 after halt (rc $rc)" test "$rc" -eq 0
check "job number '[1]' printed" grep -qx '\[1\]' "$out.clean"
check "'4 successful' printed" grep -qx '4 successful' "$out.clean"
tids=$(sed -n '/^4 successful$/,/^[^t]/p' "$out.clean" |
    grep -x 't[0-9a-f]*' | head -n 4)
n=$(echo $tids | wc -w)
check "4 tids listed after '4 successful' (got: $(echo $tids))" \
    test "$n" -eq 4
for t in $tids; do
	check "[1:$t] $LINE" grep -qxF "[1:$t] $LINE" "$out.clean"
	check "[1:$t] EOF" grep -qxF "[1:$t] EOF" "$out.clean"
done
check "'[1] finished' printed" grep -qx '\[1\] finished' "$out.clean"
# More than a pvmd starts at once (TID_LOCAL_MAX) is refused before
# anything is allocated for it (found by fuzz_console).
check "spawn -262144 refused as a bad count" \
    grep -qx 'spawn: bad count "262144"' "$out.clean"
check "'1 successful' for the second spawn" \
    grep -qx '1 successful' "$out.clean"
t5=$(sed -n '/^1 successful$/,$p' "$out.clean" | grep -x 't[0-9a-f]*' |
    head -n 1)
# ps shows tids in hex without the 't', as PVM's console does.
check "ps lists the sleeping task ${t5:-?} as pvmt_hello" \
    grep -Eq "[[:space:]]${t5#t}[[:space:]].*pvmt_hello" "$out.clean"
check "ps prints a header with TID" grep -q 'TID' "$out.clean"
check "halt stopped pvmd $pid" wait_gone "$pid" 10
check "halt removed $T_DIR" test ! -e "$T_DIR"
left=$(pgrep -f "$PVM_ROOT/bin/$PVM_ARCH/pvmt_hello" | tr '\n' ' ')
check "halt ended the sleeping task (left: ${left:-none})" test -z "$left"

# `echo halt | pvm` stops a running pvmd.
start_pvmd
pid=$(pvmd_pid)
echo halt | run 20 "$PVM_CONSOLE" >"$out" 2>&1
rc=$?
cat "$out"
check "echo halt | pvm exits 0 (rc $rc)" test "$rc" -eq 0
check "echo halt | pvm stopped pvmd $pid" wait_gone "$pid" 10
check "and removed $T_DIR" test ! -e "$T_DIR"

# The console's output tid is -1, as PVM 3.4.6's: a task it spawns
# without -> writes to the pvmd's log (for -1 as for 0).  A spawn -@ job
# (no tracer: only the trace's start) ends when its tasks exit; a trace
# file gets the start; each traced job takes two numbers.
start_pvmd
{
	echo "spawn /bin/echo console-child-output"
	echo "spawn -@ /bin/true"
	wait_for 20 grep -q '\[1\] finished$' "$out"
	echo "spawn -@$T_TMP/trace.out /bin/true"
	wait_for 20 grep -q '\[3\] finished$' "$out"
	echo "halt"
} | run 60 "$PVM_CONSOLE" >"$out" 2>&1
cat "$out"
check "spawn's output reached the pvmd log" \
    grep -q '\] console-child-output$' "$T_LOG"
check "spawn -@ printed the trace's start" \
    grep -q '^\[T1:t[0-9a-f]*\] "host_add(0)" {' "$out"
check "the spawn -@ job [1] finished" grep -qx '\[1\] finished' "$out"
check "the next traced job is [3]" grep -qx '\[3\]' "$out"
check "spawn -@FILE wrote the trace's start there" \
    grep -q '^"host_add(0)" {' "$T_TMP/trace.out"
check "the spawn -@FILE job [3] finished" grep -qx '\[3\] finished' "$out"
finish
