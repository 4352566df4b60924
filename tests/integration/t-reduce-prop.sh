#!/bin/sh
# t-reduce-prop.sh: pvm_reduce against a serial fold, for every supported
# (operation, datatype) pair x counts 0, 1, 2, 7, 1001 (65537 at 3, 8 and
# 16 members; 1048576 for four pairs at 2, 8 and 16) x group sizes x
# roots spread over the members.  Inputs make every result exact.  A
# second, smaller run forces the message tree (on one host calls of up
# to 64 KiB a member go through shared memory, reduce_shm.c) with the
# XDR encoding that messages between hosts use; a third the message tree
# with native data.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_reduce" "$PVMGS_PATH"

start_pvmd
run_checks 150 "$TASKS/t_reduce" prop 1 2 3 5 8 16
# Every datatype through the cross-host (XDR) encoding, on one host.
GPVM_SHM_MAX=0 GPVM_REDUCE_XDR=1 PVM_EXPORT=GPVM_SHM_MAX:GPVM_REDUCE_XDR \
    run_checks 90 "$TASKS/t_reduce" prop 3 4
GPVM_SHM_MAX=0 PVM_EXPORT=GPVM_SHM_MAX \
    run_checks 150 "$TASKS/t_reduce" prop 3 8
check "pvmd alive after the property test" pvmd_alive
finish
