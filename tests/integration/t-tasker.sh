#!/bin/sh
# t-tasker.sh: a hostile tasker (tasks/t_tasker.c) cannot hurt the pvmd
# or other tasks: bad SM_TASKX bodies, tids not its own, SM_* tags that
# are not a tasker's.  The pvmd logs them and goes on; a proper SM_TASKX
# still works, and once the role is given up, spawns fork/exec again.
# (tests/diff/p_tasker.c compares the protocol itself with PVM 3.4.6.)
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_tasker"

start_pvmd
run_checks 60 "$TASKS/t_tasker"
check "pvmd alive after the hostile tasker" pvmd_alive
check "the pvmd logged the short SM_TASKX" \
    grep -q "malformed SM_TASKX" "$T_LOG"
check "the pvmd logged the SM_TASKX for a task the tasker did not start" \
    grep -q "not a task it started: ignored" "$T_LOG"
check "the pvmd logged the raw-encoded SM message" \
    grep -q "not packed with PvmDataDefault" "$T_LOG"
check "the pvmd ignored SM_STHOSTACK from a task that is no hoster" \
    grep -q "SM_STHOSTACK but not the hoster" "$T_LOG"
finish
