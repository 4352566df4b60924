#!/bin/sh
# t-misuse.sh: API misuse returns the documented codes; messages to a
# nonexistent tid are dropped; the pvmd stays healthy.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_misuse" "$TASKS/t_enrol"

start_pvmd
run_checks 60 "$TASKS/t_misuse"
check "pvmd alive after the misuse" pvmd_alive
run_checks 20 "$TASKS/t_enrol" count 1
finish
