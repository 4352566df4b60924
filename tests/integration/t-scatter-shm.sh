#!/bin/sh
# t-scatter-shm.sh: pvm_scatter on the shared-memory path (gather_shm.c,
# gdata.c's own places), which a group on one host takes up to 64 KiB a
# member: 1, 1,024 and the limit's count of doubles and of ints with 2,
# 4, 8 and 16 members, then the same on the message path
# (GPVM_SHM_MAX=0: the same slices); 60 scatters back to back while the
# members sleep (the root runs ahead and waits for their places), then
# scatter, reduce and gather rounds with one tag, at 8 and 16 members
# (more than the CPUs); a member killed (or leaving) while the root
# waits for its place (PvmNoTask, PvmMismatch at the root, bounded), and
# a root killed before it scatters (PvmNoTask at every member).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_scatter" "$PVMGS_PATH"

start_pvmd
run_checks 180 "$TASKS/t_scatter" scatter 2 4 8 16
GPVM_SHM_MAX=0 PVM_EXPORT=GPVM_SHM_MAX \
    run_checks 180 "$TASKS/t_scatter" scatter 2 4 8 16
for count in 1 8192; do
	run_checks 120 "$TASKS/t_scatter" scatrun 8 $count
done
run_checks 180 "$TASKS/t_scatter" scatrun 16 1024
GPVM_SHM_MAX=0 PVM_EXPORT=GPVM_SHM_MAX \
    run_checks 120 "$TASKS/t_scatter" scatrun 8 1024
for count in 1 8192; do
	run_checks 60 "$TASKS/t_scatter" scatkill leaf $count
	run_checks 60 "$TASKS/t_scatter" scatkill root $count
done
run_checks 60 "$TASKS/t_scatter" scatkill leave 1
check "pvmd alive after the shared-memory scatter tests" pvmd_alive
finish
