#!/bin/sh
# t-mbox.sh: the mailbox with every flag, across two tasks.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_mbox"

start_pvmd
run_checks 90 "$TASKS/t_mbox"
check "pvmd alive after the mailbox tests" pvmd_alive
finish
