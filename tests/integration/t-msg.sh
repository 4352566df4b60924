#!/bin/sh
# t-msg.sh: point-to-point messages: exact echo, FIFO order over 100,000
# messages, wildcard matching, trecv time-outs, nrecv/probe, and every
# encoding across processes.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_msg"

start_pvmd
run_checks 60 "$TASKS/t_msg" pingpong
run_checks 180 "$TASKS/t_msg" fifo 100000
run_checks 30 "$TASKS/t_msg" wild
run_checks 30 "$TASKS/t_msg" trecv
run_checks 30 "$TASKS/t_msg" probe
run_checks 30 "$TASKS/t_msg" enc
check "pvmd alive after the message tests" pvmd_alive
finish
