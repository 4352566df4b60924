#!/bin/sh
# t-reduce-fail.sh: failures during pvm_reduce reach the root as errors,
# never as a hang: a user function setting *info < 0 (and the group stays
# usable afterwards), a member SIGKILLed before the call, and a member
# SIGKILLed in the middle of a pipelined reduce, and a member that leaves
# (alive) while another member waits for its data; on the shared-memory
# path and on the message tree.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_reduce" "$PVMGS_PATH"

start_pvmd
# On one host every size goes through shared memory (reduce_shm.c),
# whose small calls use a flat tree; userfail names the members that
# fold in the binomial tree, so it runs there with radix 2, and on the
# message tree.  Each scenario runs on both paths.
GPVM_SHM_RADIX=2 PVM_EXPORT=GPVM_SHM_RADIX \
    run_checks 60 "$TASKS/t_reduce" userfail
for max in "" 0; do
	GPVM_SHM_MAX=$max PVM_EXPORT=GPVM_SHM_MAX
	export GPVM_SHM_MAX PVM_EXPORT
	[ -z "$max" ] && unset GPVM_SHM_MAX PVM_EXPORT
	[ "$max" = 0 ] && run_checks 60 "$TASKS/t_reduce" userfail
	run_checks 60 "$TASKS/t_reduce" kill leaf
	run_checks 60 "$TASKS/t_reduce" kill mid
	run_checks 90 "$TASKS/t_reduce" leave
done
unset GPVM_SHM_MAX PVM_EXPORT
check "pvmd alive after the failure tests" pvmd_alive
finish
