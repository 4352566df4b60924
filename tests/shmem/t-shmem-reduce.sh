#!/bin/sh
# t-shmem-reduce.sh: the to_all reductions (tests/shmem/t_to_all.c): the
# documentation's example 2; every function of shmem.h x nreduce 1, 3,
# 1000 x five active sets at 8 PEs and two at 7 (odd sizes); 1 Mi and
# 10007 elements for four functions through the large-array algorithm.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/shmem/lib-shmem.sh"
need "$SHTESTS/t_to_all"

osh_checks 60 8 "$SHTESTS/t_to_all" example
osh_checks 120 8 "$SHTESTS/t_to_all" matrix
osh_checks 120 7 "$SHTESTS/t_to_all" matrix
osh_checks 120 6 "$SHTESTS/t_to_all" big
finish
