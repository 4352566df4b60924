#!/bin/sh
# t-group-coll.sh: barrier (count n, -1, mismatch), bcast (n - 1 copies,
# none to the sender), gather and scatter with exact values, freezegroup,
# at several group sizes.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_group" "$PVMGS_PATH"

start_pvmd
for n in 1 2 5 8; do
	run_checks 90 "$TASKS/t_group" coll "$n"
done
check "pvmd alive after the collective tests" pvmd_alive
finish
