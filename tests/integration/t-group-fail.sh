#!/bin/sh
# t-group-fail.sh: failures become errors, never hangs: the group server
# SIGKILLed while a member waits in a barrier (PvmSysErr; the next call
# starts a new server), and a member SIGKILLed while others wait in a
# barrier, a gather or a scatter (PvmNoTask).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_group" "$PVMGS_PATH"

start_pvmd
run_checks 90 "$TASKS/t_group" killserver
# The killed server could not remove its groups' barrier segments; the
# next one sweeps them when it starts.
check "no barrier segment left behind by the killed server" \
    segments_gone 10
run_checks 90 "$TASKS/t_group" killmember
check "pvmd alive after the failure tests" pvmd_alive
finish
