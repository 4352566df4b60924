#!/bin/sh
# t-notify.sh: PvmTaskExit notifies on SIGKILL (pvm_sendsig and kill(2)),
# pvm_kill, pvm_pstat after exit.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_notify"

start_pvmd
run_checks 90 "$TASKS/t_notify"
check "pvmd alive after the kills" pvmd_alive
finish
