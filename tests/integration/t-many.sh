#!/bin/sh
# t-many.sh: 200 tasks connected at once; all leave cleanly; the pvmd
# stays healthy.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_many" "$TASKS/t_enrol"

start_pvmd
run_checks 240 "$TASKS/t_many" 200
check "pvmd alive after 200 tasks" pvmd_alive
run_checks 20 "$TASKS/t_enrol" count 1
finish
