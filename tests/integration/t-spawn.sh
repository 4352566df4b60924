#!/bin/sh
# t-spawn.sh: pvm_spawn of 1, 16 and 64 tasks, what children see
# (pvm_parent, pvm_siblings, exported environment), missing programs, and
# spawn by relative name through $PVM_ROOT/bin/$PVM_ARCH.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_spawn"
install_task t_spawn pvmt_spawn

start_pvmd
# Set after the pvmd started, so only PVM_EXPORT can carry it to children.
PVMT_XVAR='exported value: a b=c'
PVMT_NOTEXP='must not travel'
PVM_EXPORT=PVMT_XVAR
export PVMT_XVAR PVMT_NOTEXP PVM_EXPORT

for n in 1 16 64; do
	run_checks 90 "$TASKS/t_spawn" fan "$n"
done
run_checks 30 "$TASKS/t_spawn" missing
run_checks 30 "$TASKS/t_spawn" relative pvmt_spawn \
    "$PVM_ROOT/bin/$PVM_ARCH/pvmt_spawn"
check "pvmd alive after the spawn tests" pvmd_alive
finish
