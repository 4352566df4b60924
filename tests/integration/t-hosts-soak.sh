#!/bin/sh
# t-hosts-soak.sh: the soak (t-soak.sh, docs/soak.md) on four hosts
# (network namespaces h1..h4, lib-hosts.sh).  64 workers, 16 per host:
# messages between hosts go through the pvmds' links or over direct TCP
# routes, on one host as there.  Every pvmd's descriptors must come back
# exactly, its resident memory within SOAK_RSS_TOL_KB.  The self-checks
# of the soak itself run in t-soak.sh.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-soak.sh"
need "$PVMD" "$TASKS/t_soak" "$TASKS/t_hosts" "$PVMGS_PATH"
hosts_setup 4

check "master pvmd on h1 started" hosts_start_master
run_checks 60 "$NETNS_RSH" h1 "$TASKS/t_hosts" add h2 h3 h4
SOAK_RUN="$NETNS_RSH h1"
soak_warmup
soak_baseline h1:"$(host_pvmd_pid 1)" h2:"$(host_pvmd_pid 2)" \
    h3:"$(host_pvmd_pid 3)" h4:"$(host_pvmd_pid 4)"
soak_main
for k in 1 2 3 4; do
	check "h$k's pvmd alive after the soak" host_pvmd_alive "$k"
done
soak_compare
finish
