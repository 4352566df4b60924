#!/bin/sh
# t-reduce-basic.sh: pvm_reduce's man page example, argument errors on
# every member, PvmSum on PVM_BYTE (an error, not PVM 3.4's hang), user
# functions, user messages on the same tag, back-to-back calls with one
# tag, two groups at once, a root that receives from every member before
# it reduces (no deadlock at any size), and rounding-sensitive double
# sums that give
# the same bits in every call, every run and with another segment size;
# then per-call times, for the log.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_reduce" "$PVMGS_PATH"

start_pvmd
for m in example errors badbyte user interleave backtoback twogroups \
    recvfirst; do
	run_checks 60 "$TASKS/t_reduce" "$m"
done

# The same bits in two runs (new tasks, new tids) and with small
# segments (many more messages, the same combining order).
run_checks 60 "$TASKS/t_reduce" bitident
h1=$(sed -n 's/^INFO: bitident hash //p' "$T_OUT")
run_checks 60 "$TASKS/t_reduce" bitident
h2=$(sed -n 's/^INFO: bitident hash //p' "$T_OUT")
GPVM_REDUCE_SEGBYTES=4000 PVM_EXPORT=GPVM_REDUCE_SEGBYTES \
    run_checks 60 "$TASKS/t_reduce" bitident
h3=$(sed -n 's/^INFO: bitident hash //p' "$T_OUT")
check "double sum identical across runs ($h1 = $h2)" \
    test -n "$h1" -a "$h1" = "$h2"
check "double sum identical with 4000-byte segments ($h1 = $h3)" \
    test -n "$h1" -a "$h1" = "$h3"
# Per-call times at 8 members (INFO lines in the log; not checked: the
# machines running the tests are shared).
run_checks 60 "$TASKS/t_reduce" time 8
check "pvmd alive after the reduce tests" pvmd_alive
finish
