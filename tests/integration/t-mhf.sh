#!/bin/sh
# t-mhf.sh: a message handler runs during another receive.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_mhf"

start_pvmd
run_checks 60 "$TASKS/t_mhf"
finish
