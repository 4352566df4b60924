#!/bin/sh
# t-hosts-reduce.sh: groups across four hosts (network namespaces h1..h4,
# lib-hosts.sh; hosts added with pvm_addhosts).  16 members, 4 per host
# (PvmTaskHost): barriers that no member leaves before the last one came,
# and pvm_reduce of PvmSum, PvmProduct, PvmMax and PvmMin on PVM_INT,
# PVM_FLOAT, PVM_DOUBLE and PVM_LONG (1, 1000 and 65536 elements) against
# the reference the root computes, with the root on h1 and on h3.  Then
# h4's pvmd is SIGKILLed while 12 members wait in a reduce that needs the
# 4 on h4: every survivor gets an error, and the other hosts go on.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$TASKS/t_hosts" "$PVMGS_PATH"
TH="$TASKS/t_hosts"
hosts_setup 4

on1() {
	local secs=$1
	shift
	run_checks "$secs" "$NETNS_RSH" h1 "$TH" "$@"
}

check "master pvmd on h1 started" hosts_start_master
on1 60 add h2 h3 h4
on1 30 hosts 10 h1 h2 h3 h4
on1 150 reduce
hosts_kill_when_ready 4
on1 150 reducekill h4
hosts_kill_done
check "the script killed h4's pvmd ($(cat "$T_TMP/killed.4"))" \
    grep -q '^killed ' "$T_TMP/killed.4"
on1 60 hosts 40 h1 h2 h3
on1 60 works
finish
