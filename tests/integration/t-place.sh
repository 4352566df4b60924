#!/bin/sh
# t-place.sh: the pvmd binds its tasks to CPUs of their own while the host
# has from 2 to as many tasks as CPUs (daemon/place.c): the group server
# does not count and is not bound, one task more lets all go, fewer binds
# them again, a task that bound itself keeps its binding, and with
# PVM_BIND=none nobody is bound.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_place" "$PVMGS_PATH"
if [ "$(nproc)" -lt 2 ]; then
	echo "t-place.sh: one CPU: nothing to bind"
	exit 77
fi

start_pvmd
run_checks 60 "$TASKS/t_place" bind
run_checks 60 "$TASKS/t_place" self
check "the log names the bindings" grep -q 'bound to CPU' "$T_LOG"
check "pvmd alive after the binding tests" pvmd_alive
stop_pvmd

export PVM_BIND=none
start_pvmd
unset PVM_BIND
run_checks 30 "$TASKS/t_place" none
check "pvmd alive with PVM_BIND=none" pvmd_alive
finish
