#!/bin/sh
# t-reduce-shm.sh: pvm_reduce on the shared-memory path (reduce_shm.c,
# gdata.c), which a group on one host takes up to 64 KiB a member in one
# deposit and up to 512 KiB in the long place: every operation x
# datatype against a serial fold at 1, 3 and 1000 elements, at both
# limits and just past them (the long place, the message tree) with 2,
# 5, 8 and 16 members, and again with the limit raised (chunked calls,
# flat, then binomial); 300 calls in a row with one tag, the root moving and both
# paths taking turns; pvm_gather (and pvm_scatter) from 1 element to
# past the limit; a leaf killed before a 1-element reduce and an
# interior member killed in the middle of one (every survivor returns,
# in bounded time, the root with an error), both also in the long place;
# a member that leaves while the root waits for its 1 element (and its
# 100,000); a user function failing at the root, and on an interior
# member at chunk 1 of a long call; one member's count (and
# tree) differing, also with one member in the long place and the others
# not: errors, no hang; 16
# members on this host's CPUs in bounded time; the same bits in
# repeated runs, and radix 2 in shared memory (and the long place) = the
# message tree.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_reduce" "$PVMGS_PATH"

start_pvmd
run_checks 240 "$TASKS/t_reduce" shmprop 2 5 8 16
GPVM_SHM_MAX=4000000 PVM_EXPORT=GPVM_SHM_MAX \
    run_checks 240 "$TASKS/t_reduce" shmprop 3 8
run_checks 90 "$TASKS/t_reduce" rootcycle
# pvm_gather and pvm_scatter (gather_shm.c), and the same on the message
# paths for comparison.
run_checks 120 "$TASKS/t_reduce" gather 2 5 8 16
GPVM_SHM_MAX=0 PVM_EXPORT=GPVM_SHM_MAX \
    run_checks 120 "$TASKS/t_reduce" gather 3 8
run_checks 60 "$TASKS/t_reduce" kill leaf 1
run_checks 60 "$TASKS/t_reduce" kill late 1
# Radix 2: instance 2 folds (and dies in the user function).
GPVM_SHM_RADIX=2 PVM_EXPORT=GPVM_SHM_RADIX \
    run_checks 60 "$TASKS/t_reduce" kill mid 1000
# The long place (100,000 ints): a leaf killed before, an interior
# member dying in the user function during the call (radix 2 there).
run_checks 60 "$TASKS/t_reduce" kill leaf 100000
run_checks 60 "$TASKS/t_reduce" kill mid 100000
run_checks 90 "$TASKS/t_reduce" leave 1
run_checks 90 "$TASKS/t_reduce" leave 100000
run_checks 60 "$TASKS/t_reduce" userfail root
run_checks 60 "$TASKS/t_reduce" userfail late
run_checks 60 "$TASKS/t_reduce" mismatch 5000
run_checks 60 "$TASKS/t_reduce" mismatch 65536
GPVM_SHM_MAX=4000000 PVM_EXPORT=GPVM_SHM_MAX \
    run_checks 60 "$TASKS/t_reduce" mismatch 200000
run_checks 180 "$TASKS/t_reduce" crowd 16
# bits SETTING COUNT: a bitident run of COUNT doubles with SETTING
# (VAR=VALUE, exported to every task; "-" for none); its hash in $T_BITS.
bits() {
	if [ "$1" != - ]; then
		export "$1" PVM_EXPORT="${1%%=*}"
	fi
	run_checks 60 "$TASKS/t_reduce" bitident "$2"
	if [ "$1" != - ]; then
		unset "${1%%=*}" PVM_EXPORT
	fi
	T_BITS=$(sed -n 's/^INFO: bitident hash //p' "$T_OUT")
}
# same_bits WHAT COUNT SETTING SETTING: the same bits under both.
same_bits() {
	bits "$3" "$2"
	h1=$T_BITS
	bits "$4" "$2"
	check "$1 ($h1 = $T_BITS)" test -n "$h1" -a "$h1" = "$T_BITS"
}
# The same bits in two runs, in shared memory (1000 doubles), in the long
# place (60000) and on the message tree (100000 doubles).
for n in 1000 60000 100000; do
	same_bits "$n doubles: identical bits across runs" $n - -
done
# Radix 2 on shared memory brackets as the binomial message tree does:
# the same bits as the message path (8000 doubles: within the limit).
# The long place (60,000 doubles) is binomial already.
same_bits "radix 2 in shared memory = message tree" 8000 \
    GPVM_SHM_RADIX=2 GPVM_SHM_MAX=0
same_bits "the long place = message tree" 60000 - GPVM_SHM_MAX=0
# pvmgs removes a group's segments once its last member is gone.
no_segments() {
	for _ in $(seq 50); do
		ls "$T_DIR"/g*.d >/dev/null 2>&1 || return 0
		sleep 0.1
	done
	return 1
}
check "no data segment left once the groups are gone" no_segments
check "pvmd alive after the shared-memory reduce tests" pvmd_alive
finish
