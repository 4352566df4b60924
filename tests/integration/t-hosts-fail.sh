#!/bin/sh
# t-hosts-fail.sh: failures the links must notice by themselves.
#  1. h3's network cut (its veth down) with PVMD_HOST_TIMEOUT=3: the
#     master notices within the timeout (HostDelete, TaskExit, new spawns
#     elsewhere), and h3's pvmd, cut off from its master, ends its tasks
#     and exits.
#  2. The master SIGKILLed: every slave ends its tasks and exits.
#  3. A host that cannot be started: the launcher's own words reach the
#     master's log and the caller.
#  4. A host failed on request (the console's "tickle 8 DTID", PVM's
#     debugging request): the master removes it, never itself.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE" "$TASKS/t_hosts"
install_task t_hosts pvmt_hosts
TH="$TASKS/t_hosts"
hosts_setup 3
export PVMD_HOST_TIMEOUT=3

# cut_net K: take hK's link down (when the driver is ready).
cut_net() {
	ip -n "$(host_ns "$1")" link set eth0 down && echo cut >"$T_TMP/cut.$1"
}

# ns_empty K: no process is left in hK's namespace.
ns_empty() {
	[ -z "$(hosts_pids "$(host_ns "$1")")" ]
}

# ---- 1. a cut network
check "master started" hosts_start_master
hosts_console 1 30 "$T_TMP/add" <<'END'
add h2 h3
END
check "h2 and h3 joined" grep -q "2 successful" "$T_TMP/add"
hosts_when_ready cut_net 3
run_checks 40 "$NETNS_RSH" h1 "$TH" watchkill h3 15
hosts_kill_done
check "h3's network was cut" test -s "$T_TMP/cut.3"
# watchkill's line says how long HostDelete took: within 3 s + a ping.
t=$(sed -n 's/.*PvmHostDelete for the killed h3.*after \([0-9.]*\) s).*/\1/p' \
    "$T_TMP/out.$T_RUNS")
check "HostDelete came ${t:-never} s after the cut, within 3 s + 2 s" \
    awk -v t="${t:-99}" 'BEGIN { exit !(t <= 5.0) }'
# The master's own silence check or h2's on its direct link to h3,
# whichever ran first (h2 then reports it: "h2 lost its link to it").
check "the master logged the silent link (its own, or h2's report)" \
    grep -q "nothing heard for 3 s\|h3 .* lost its link to it" \
    "$(host_log 1)"
check "h3's pvmd, cut off, ended its tasks and exited" wait_for 15 ns_empty 3
check "h3's log says it lost the master" \
    grep -q "lost the link to the master\|nothing heard" "$(host_log 3)"
hosts_console 1 30 "$T_TMP/halt1" <<'END'
halt
END
check "halt ends what is left" hosts_wait_no_pvmd 10
ip -n "$(host_ns 3)" link set eth0 up

# ---- 2. the master dies
hosts_reset
check "a new master started" hosts_start_master
hosts_console 1 30 "$T_TMP/add2" <<'END'
add h2 h3
spawn -h2 pvmt_hosts sleep 300
spawn -h3 pvmt_hosts sleep 300
ps -a
END
check "h2 and h3 joined again" grep -q "2 successful" "$T_TMP/add2"
check "tasks sleep on h2 and h3" test "$(grep -c 'pvmt_hosts' \
    "$T_TMP/add2")" -ge 2
kill -KILL "$(host_pvmd_pid 1)"
check "after the master's death h2 is empty" wait_for 15 ns_empty 2
check "and h3 is empty" wait_for 15 ns_empty 3
check "h2's log says it lost the master" \
    grep -q "lost the link to the master" "$(host_log 2)"

# ---- 3. a host that cannot be started says why
hosts_reset
cat >"$T_TMP/badrsh" <<'END'
#!/bin/sh
echo "badrsh: no route to $1 (simulated)" >&2
exit 3
END
chmod +x "$T_TMP/badrsh"
master_badrsh() {
	PVM_RSH="$T_TMP/badrsh" on_host 1 "$PVMD"
}
check "a third master started, with a launcher that fails" master_badrsh
hosts_console 1 30 "$T_TMP/add3" <<'END'
add h2
END
cat "$T_TMP/add3"
check "the launcher's failure is PvmCantStart in the console" \
    grep -qi "can't start\|cantstart" "$T_TMP/add3"
check "the launcher's words reach the console" \
    grep -q "no route to h2 (simulated)" "$T_TMP/add3"
check "and the master's log, with its exit status" grep -q \
    "cannot start host h2: the launcher exited with status 3: badrsh: no route" \
    "$(host_log 1)"
hosts_console 1 30 "$T_TMP/halt3" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10

# ---- 4. tickle 8: a host fails on request
hosts_reset
check "a fourth master started" hosts_start_master
hosts_console 1 30 "$T_TMP/add4" <<'END'
add h2
END
d2=$(awk '$1 == "h2" { print $2 }' "$T_TMP/add4")
check "h2 joined (pvmd t${d2:-?})" test -n "$d2"
hosts_console 1 30 "$T_TMP/tickle4" <<END
tickle 8 0x40000
tickle 8 0x$d2
tickle 8 0x$d2
conf
END
cat "$T_TMP/tickle4"
check "tickle 8 answers ( 0 ), for the master, h2 and a host gone" \
    test "$(grep -c '^( 0 )$' "$T_TMP/tickle4")" -eq 3
check "h2 is out of the machine" grep -q '^1 host,' "$T_TMP/tickle4"
check "the master logged why" \
    grep -q "h2 (index 2) left the virtual machine: failed at the request" \
    "$(host_log 1)"
check "h2's pvmd exited" wait_for 15 ns_empty 2
hosts_console 1 30 "$T_TMP/halt4" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10
finish
