#!/bin/sh
# t-shmem-rules.sh: programs that break one documented rule each
# (tests/shmem/t_rules.c).  Each job must end with a nonzero status
# within the time limit, with the library's line naming the call on
# stderr, and the offending call must not return.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/shmem/lib-shmem.sh"
need "$SHTESTS/t_rules"

R="$SHTESTS/t_rules"
SUM="shmem_int_sum_to_all"
osh_fails 30 4 "PE [0-9]: $SUM: .*other arguments" "$R" nreduce
osh_fails 30 3 "PE [0-9]: $SUM: " "$R" triplet
osh_fails 30 4 "PE 3: $SUM: PE 3 is not in the active set" "$R" outside
osh_fails 30 4 "PE 3: $SUM: pSync word [0-9]* (byte [0-9]*) holds 7, not SHMEM_SYNC_VALUE" "$R" psync
osh_fails 30 2 "$SUM: source and target overlap" "$R" overlap
osh_fails 30 2 "$SUM: target .* is not symmetric" "$R" stack
osh_fails 30 2 "$SUM: target .* is not symmetric" "$R" malloc
osh_fails 30 3 "shmem_int_p: PE 3 does not exist" "$R" nope
finish
