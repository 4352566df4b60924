#!/bin/sh
# t-fortran.sh: the Fortran bindings (libfpvm3).  tf_msg exercises the
# task-level pvmf* routines with two spawned workers; tf_group runs a
# group of 1, 4 and 8 members through barrier, pvmfreduce with the
# EXTERNAL PvmSum/PvmProduct/PvmMax/PvmMin and user subroutines,
# gather, scatter, bcast and freezegroup.  Skipped (77) when configure
# built without Fortran.
if [ "${PVM_HAVE_FORTRAN:-no}" != yes ]; then
	echo "SKIP: configured without Fortran (--disable-fortran or no compiler)"
	exit 77
fi
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/tf_msg" "$TASKS/tf_group" "$PVMGS_PATH"

start_pvmd
run_checks 120 "$TASKS/tf_msg" "$TASKS/tf_msg"
# The same pvmgs serves every run; each run's group is gone at its end.
for n in 4 1 8; do
	run_checks 120 "$TASKS/tf_group" "$TASKS/tf_group" "$n"
done
check "pvmd alive after the Fortran tests" pvmd_alive
finish
