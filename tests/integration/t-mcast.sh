#!/bin/sh
# t-mcast.sh: pvm_mcast to 32 tasks: one copy each, none to the sender.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_mcast"

start_pvmd
run_checks 60 "$TASKS/t_mcast" 32
check "pvmd alive after mcast" pvmd_alive
finish
