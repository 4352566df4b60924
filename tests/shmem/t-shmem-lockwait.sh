#!/bin/sh
# t-shmem-lockwait.sh: shmem_set_lock, shmem_test_lock, shmem_clear_lock
# and the wait routines (t_lockwait.c) with the PEs on two hosts h1 and
# h2 (network namespaces, lib-hosts.sh; oshrun on h1), so that the lock
# on PE 0 is taken through its host's agent by the PEs of the other host,
# and the variables waited on are written by puts through the waiter's
# agent.
#  1. 4 PEs, 0-1 on h1 and 2-3 on h2: the lock lives on h1, oshrun's
#     host; the counter and each waiter's writer on the other host.
#  2. 4 PEs, 0-1 on h2 and 2-3 on h1: the lock on the host without
#     oshrun.
#  3. 4 PEs all on h1: the same program through shared memory only.
# In 1 and 2 t_lockwait also checks (cross) that each waiter's writer is
# on the other host.
# Every run must pass its three groups and end with status 0.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
OSH_OWN_PVMD=yes
OSH_ON="$NETNS_RSH h1"
. "$PVM_TOP_SRCDIR/tests/shmem/lib-shmem.sh"
need "$PVMD" "$SHTESTS/t_lockwait"
hosts_setup 2
printf 'h2\n' >"$T_TMP/hostfile"
check "master pvmd on h1 with h2 started" \
    hosts_start_master "$T_TMP/hostfile"

# lockwait HOSTS [cross]: one run, which must pass its 3 groups.
lockwait() {
	osh_checks 180 4 -H "$@"
	check "-H $1: the 3 groups passed" \
	    test "$(grep -c '^PASS: ' "$T_OUT")" -eq 3
}
lockwait h1:2,h2:2 "$SHTESTS/t_lockwait" cross
lockwait h2:2,h1:2 "$SHTESTS/t_lockwait" cross
lockwait h1 "$SHTESTS/t_lockwait"
finish
