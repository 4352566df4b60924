#!/bin/sh
# t-reduce-fail.sh: failures during pvm_reduce reach the root as errors,
# never as a hang: a user function setting *info < 0 (and the group stays
# usable afterwards), a member SIGKILLed before the call, and a member
# SIGKILLed in the middle of a pipelined reduce, and a member that leaves
# (alive) while another member waits for its data.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_reduce" "$PVMGS_PATH"

start_pvmd
# On one host calls of up to 64 KiB a member go through shared memory
# (reduce_shm.c) on a flat tree; userfail names the members that fold
# in the binomial tree, so it runs with radix 2 there, and once with
# the message tree alone.  The other scenarios' 200,000 ints take the
# message tree (t-reduce-shm.sh has them in shared memory).
GPVM_SHM_RADIX=2 PVM_EXPORT=GPVM_SHM_RADIX \
    run_checks 60 "$TASKS/t_reduce" userfail
GPVM_SHM_MAX=0 PVM_EXPORT=GPVM_SHM_MAX \
    run_checks 60 "$TASKS/t_reduce" userfail
run_checks 60 "$TASKS/t_reduce" kill leaf
run_checks 60 "$TASKS/t_reduce" kill mid
run_checks 90 "$TASKS/t_reduce" leave
check "pvmd alive after the failure tests" pvmd_alive
finish
