#!/bin/sh
# t-hosts.sh: one virtual machine over four hosts (network namespaces
# h1..h4, lib-hosts.sh), slaves started by the master through netns-rsh
# (PVM_RSH).  Three machines in turn:
#
#  A. from a hostfile: conf and ps -a over every host, spawn with every
#     placement, remote output to the console and to pvm_catchout,
#     ping-pong, order and 64 MiB through the pvmds and direct (proved
#     task-to-task: it works while the peer's pvmd is stopped), a route
#     refused by PvmDontRoute (the pvmds then), the
#     mailbox and TaskExit across hosts, addhosts of a host already in and
#     of an unknown one, a slave with the wrong secret refused, a slave
#     pvmd SIGKILLed (HostDelete, TaskExit, conf, new spawns), pvm_delhosts
#     of a host with a task, halt from h1's console.
#  B. from pvm_addhosts (HostAdd notifies), then halt from h2's console
#     with tasks on every host: the console returns only once every pvmd
#     of the machine has exited.
#  C. from the console's add, then its delete, halt from h3's console.
#
# t-hosts-reduce.sh has the collectives, t-hosts-halt.sh halt-and-restart.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE" "$TASKS/t_hosts"
install_task t_hosts pvmt_hosts
TH="$TASKS/t_hosts"
hosts_setup 4

# on1 SECS MODE [ARG...]: t_hosts as a driver on h1; its lines count.
on1() {
	local secs=$1
	shift
	run_checks "$secs" "$NETNS_RSH" h1 "$TH" "$@"
}

# slaves_up K...: each hK runs a pvmd in its own namespace, started by
# the master through netns-rsh with our pvmd's absolute path.
slaves_up() {
	local k pid
	for k in "$@"; do
		pid=$(host_pvmd_pid "$k")
		check "h$k runs a pvmd (pid ${pid:-none}) in its namespace" \
		    sh -c "ip netns pids $(host_ns "$k") | grep -qx '${pid:-x}'"
		check "h$k's pvmd was started as 'netns-rsh h$k $PVMD -S ...'" \
		    grep -q "^h$k: $PVMD -S" "$PVMT_RSHLOG"
	done
}

# halt_from K WHAT HOSTS...: `halt` on hK's console; it returns only
# after every pvmd of the machine has exited; pid files of HOSTS gone.
halt_from() {
	local k=$1 what=$2 out="$T_TMP/halt.$1" rc left j files
	shift 2
	echo halt | hosts_console "$k" 40 "$out"
	rc=$?
	left=$(hosts_pvmd_pids)
	cat "$out"
	check "$what: halt on h$k's console exits 0 (rc $rc)" test "$rc" -eq 0
	check "$what: when the console returns, no pvmd is left in any host \
(left: ${left:-none})" test -z "$left"
	files=""
	for j in "$@"; do
		[ -e "$(host_vmdir "$j")/pid" ] && files="$files h$j"
	done
	check "$what: pid files of the halted hosts gone (left:${files:- none})" \
	    test -z "$files"
	check "$what: no pvmd in any host within 10 s" hosts_wait_no_pvmd 10
	left=""
	for j in "$@"; do
		for p in $(hosts_pids "$(host_ns "$j")"); do
			grep -q pvmt_hosts "/proc/$p/cmdline" 2>/dev/null &&
			    left="$left $p(h$j)"
		done
	done
	check "$what: no task left on the halted hosts (${left:-none})" \
	    test -z "$left"
}

# ---------------------------------------------------------------- A
hf="$T_TMP/hostfile"
cat >"$hf" <<EOF
# t-hosts.sh: PVM 3.4 hostfile; the master (h1) is implicit.
* sp=1000

h2
h3
h4
EOF
check "A: master pvmd on h1 started with a hostfile of h2 h3 h4" \
    hosts_start_master "$hf"
on1 60 hosts 30 h1 h2 h3 h4
slaves_up 2 3 4

# conf, ps -a over every host, and a remote task's output on h1's
# console.
out="$T_TMP/consA"
{
	echo conf
	for k in 1 2 3 4; do
		echo "spawn -h$k pvmt_hosts sleep 20"
	done
	sleep 2
	echo "ps -a"
	echo "spawn -h3 -> pvmt_hosts hello"
	sleep 4
} | hosts_console 1 40 "$out"
cat "$out"
check "A: conf says '4 hosts'" grep -q '^4 hosts, ' "$out"
for k in 1 2 3 4; do
	check "A: conf lists h$k (LINUX64)" \
	    grep -Eq "^ *h$k +[0-9a-f]+ +LINUX64 " "$out"
	check "A: ps -a shows the task on h$k" \
	    grep -Eq "^ *h$k +[0-9a-f]+ .*pvmt_hosts" "$out"
done
check "A: a task on h3 prints to h1's console ('[N:tTID] hello from h3')" \
    grep -Eq '^\[[0-9]+:t[0-9a-f]+\] hello from h3$' "$out"
check "A: and its EOF" grep -Eq '^\[[0-9]+:t[0-9a-f]+\] EOF$' "$out"

on1 60 spawn
on1 60 catchout h3
check "A: pvm_catchout on h1 gets the output of a task on h3" \
    grep -Eq '^\[t[0-9a-f]+\] hello from h3$' "$T_OUT"
on1 150 pingpong h3
on1 150 pingpong h2 direct
on1 60 pingpong h4 refused
on1 60 early h3
on1 60 mbox h2 h4
on1 60 taskexit h3
on1 40 addfail h2

# A slave with the wrong secret is refused; the machine goes on.
line=$(grep -h 'listening for hosts on' "$(host_log 1)" | tail -n 1)
addr=$(echo "$line" |
    sed -n 's/.*listening for hosts on \([^ ]*\) port \([0-9]*\).*/\1/p')
port=$(echo "$line" |
    sed -n 's/.*listening for hosts on \([^ ]*\) port \([0-9]*\).*/\2/p')
check "A: the master logs 'listening for hosts on ADDR port PORT' \
(got '$addr' '$port')" test -n "$addr" -a -n "$port"
case $addr in
0.0.0.0 | '*' | '') addr=$(host_addr4 1) ;;
:: | '[::]') addr=$(host_addr6 1) ;;
esac
addr=${addr#[}
addr=${addr%]}
case $addr in
*:*) maddr="[$addr]:$port" ;;
*) maddr="$addr:$port" ;;
esac
mkdir -p "$T_TMP/h4bad"
nlog=$(wc -l <"$(host_log 1)")
printf '%s\n' \
    "0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de0badc0de" |
    run 20 "$NETNS_RSH" h4 env PVM_TMP="$T_TMP/h4bad" \
    "$PVMD" -S -m "$maddr" -i 9 -H h4 >"$T_TMP/bad.out" 2>"$T_TMP/bad.err"
rc=$?
echo "---- pvmd -S -m $maddr -i 9 -H h4 with a wrong secret: rc $rc"
cat "$T_TMP/bad.out" "$T_TMP/bad.err"
check "A: a slave with the wrong secret exits non-zero in time (rc $rc)" \
    test "$rc" -ne 0 -a "$rc" -ne 124 -a "$rc" -ne 137
check "A: and says 'authentication' on stderr" \
    grep -qi authentication "$T_TMP/bad.err"
# refused_since N: a line past line N of the master's log says refused.
refused_since() {
	tail -n "+$(($1 + 1))" "$(host_log 1)" | grep -qi refused
}
check "A: the master's log says 'refused' for that link" \
    wait_for 5 refused_since "$nlog"
check "A: the master pvmd still runs" host_pvmd_alive 1
on1 60 works

# h3's pvmd SIGKILLed: HostDelete and TaskExit, 3 hosts, new spawns.
hosts_kill_when_ready 3
on1 90 watchkill h3 40
hosts_kill_done
check "A: the script killed h3's pvmd ($(cat "$T_TMP/killed.3"))" \
    grep -q '^killed ' "$T_TMP/killed.3"
out="$T_TMP/consA2"
echo conf | hosts_console 2 20 "$out"
cat "$out"
check "A: after the kill, conf on h2's console says '3 hosts'" \
    grep -q '^3 hosts, ' "$out"
check "A: and does not list h3" sh -c "! grep -Eq '^ *h3 ' '$out'"
on1 60 hosts 10 h1 h2 h4
on1 60 works

# pvm_delhosts of h4, which has a task.
pid=$(host_pvmd_pid 4)
on1 60 delhost h4
check "A: h4's pvmd (${pid:-none}) exited within 10 s of its delete" \
    wait_gone "${pid:-1}" 10
on1 60 hosts 10 h1 h2
halt_from 1 A 1 2

# ---------------------------------------------------------------- B
# (A console on a host outside the machine starts a pvmd of its own, as
# PVM's does: whatever A left, the next machine starts clean.)
hosts_reset
check "B: master pvmd on h1 started alone" hosts_start_master
on1 60 add h2 h3 h4
on1 60 hosts 10 h1 h2 h3 h4
slaves_up 2 3 4
# Tasks on every host, then halt from a slave's console.
out="$T_TMP/consB"
{
	for k in 1 2 3 4; do
		echo "spawn -h$k pvmt_hosts sleep 60"
	done
	sleep 2
	echo "ps -a"
} | hosts_console 2 30 "$out"
cat "$out"
n=$(grep -Ec '^ *h[1-4] +[0-9a-f]+ .*pvmt_hosts' "$out")
check "B: ps -a on h2's console lists a task on each of 4 hosts ($n)" \
    test "$n" -ge 4
halt_from 2 B 1 2 3 4

# ---------------------------------------------------------------- C
hosts_reset
check "C: master pvmd on h1 started alone" hosts_start_master
out="$T_TMP/consC"
{
	echo "add h2 h3 h4"
	echo conf
} | hosts_console 1 60 "$out"
cat "$out"
check "C: the console's 'add h2 h3 h4' says '3 successful'" \
    grep -qx '3 successful' "$out"
check "C: then conf says '4 hosts'" grep -q '^4 hosts, ' "$out"
slaves_up 2 3 4
out="$T_TMP/consC2"
pid=$(host_pvmd_pid 4)
{
	echo "delete h4"
	echo conf
} | hosts_console 1 30 "$out"
cat "$out"
check "C: the console's 'delete h4' says '1 successful'" \
    grep -qx '1 successful' "$out"
check "C: then conf says '3 hosts'" grep -q '^3 hosts, ' "$out"
check "C: h4's pvmd (${pid:-none}) exited within 10 s of its delete" \
    wait_gone "${pid:-1}" 10
on1 60 hosts 10 h1 h2 h3
halt_from 3 C 1 2 3
finish
