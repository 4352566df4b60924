#!/bin/sh
# t-shmem-rma.sh: puts, gets, atomics, locks, waits, shmem_ptr, the
# collectives other than to_all, the symmetric heap and global variables
# (tests/shmem/t_rma.c) at 8 PEs and at 3; then shmem_global_exit(7)
# from one PE must end the whole job with status 7.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/shmem/lib-shmem.sh"
need "$SHTESTS/t_rma"

osh_checks 60 8 "$SHTESTS/t_rma"
osh_checks 60 3 "$SHTESTS/t_rma"

run 30 "$OSHRUN" -np 4 "$SHTESTS/t_rma" exit >"$T_TMP/exit.out" 2>&1
rc=$?
cat "$T_TMP/exit.out"
check "shmem_global_exit(7) on PE 1 ends the job with status 7 (got $rc)" \
    test "$rc" -eq 7
check "no PE left the barrier after shmem_global_exit" \
    test -z "$(grep '^REACHED' "$T_TMP/exit.out")"
finish
