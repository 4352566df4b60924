#!/bin/sh
# t-hosts-mesh.sh: direct links between slaves (daemon/mesh.c).  In a
# machine of four hosts every pair of slaves gets its own link, and 64
# MiB each way between two slaves do not pass through the master's pvmd
# (what its host's TCP connections take in, ss -i, stays small; what the
# pvmd reads, /proc/PID/io, is shown too, but it counts files as well,
# and under valgrind it once grew by 11 MB in CI with the traffic on the
# direct link).  Then, with slaves that
# dial only once a file exists (PVMD_MESH_HOLD; the stream's driver makes
# it a quarter of the way), a stream both ways between two slaves runs
# across the switch from the master's path to the direct link: nothing
# lost, reordered or damaged.  With PVMD_MESH=0 the same stream goes
# through the master.  A slave killed with direct links to others is
# deleted and the others go on.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE" "$TASKS/t_hosts"
install_task t_hosts pvmt_hosts
TH="$TASKS/t_hosts"
hosts_setup 4

# on K SECS MODE [ARG...]: t_hosts as a driver on hK; its lines count.
on() {
	local k=$1 secs=$2
	shift 2
	run_checks "$secs" "$NETNS_RSH" "h$k" "$TH" "$@"
}

# machine HOST...: a master on h1, then `add` of the hosts.
machine() {
	check "master started" hosts_start_master
	hosts_console 1 30 "$T_TMP/add" <<END
add $*
END
	check "$# hosts joined" grep -q "$# successful" "$T_TMP/add"
}

# halt_machine: halt, then a fresh start with empty logs.
halt_machine() {
	local k
	echo halt | hosts_console 1 30 "$T_TMP/halt"
	check "halt: every pvmd gone" hosts_wait_no_pvmd 15
	hosts_reset
	for k in 1 2 3 4; do
		cat "$(host_log "$k")" >>"$T_TMP/old-logs" 2>/dev/null
		rm -f "$(host_log "$k")"
	done
}

# in_use K J: hK's log says its frames for host J take the direct link.
in_use() {
	grep -q "direct link to host $2 in use" "$(host_log "$1")"
}

# read_bytes K: what hK's pvmd has read so far (rchar).
read_bytes() {
	awk '/^rchar:/ { print $2 }' "/proc/$(host_pvmd_pid "$1")/io"
}

# tcp_received K: the bytes hK's TCP connections have taken in so far.
tcp_received() {
	ip netns exec "$(host_ns "$1")" ss -Htin |
	    awk '{ for (i = 1; i <= NF; i++)
		if ($i ~ /^bytes_received:/) { sub(/.*:/, "", $i); n += $i } }
		END { print n + 0 }'
}

# switch_ms K J: when hK began to use its direct link to J (epoch ms).
switch_ms() {
	local stamp
	stamp=$(grep "direct link to host $2 in use" "$(host_log "$1")" |
	    head -1 | cut -c1-23)
	[ -n "$stamp" ] && date -d "$stamp" +%s%3N
}

# ---- a full mesh of slaves, and the master out of their way ----
machine h2 h3 h4
for pair in "2 3" "2 4" "3 4" "3 2" "4 2" "4 3"; do
	set -- $pair
	check "h$1 sends to host $2 on a direct link" wait_for 10 in_use "$1" "$2"
done
check "no slave uses a direct link to the master" \
    sh -c "! grep -q 'direct link to host 1 ' $T_TMP/h[234]/pvm-*.log"
before=$(read_bytes 1)
tb=$(tcp_received 1)
on 2 150 pingpong h3
after=$(read_bytes 1)
ta=$(tcp_received 1)
echo "INFO: the master's pvmd read $((after - before)) bytes during h2 <-> h3 traffic"
moved=$((ta - tb))
check "64 MiB each way h2 <-> h3 bypassed the master (its TCP took in $moved bytes)" \
    test "$tb" -gt 0 -a "$moved" -ge 0 -a "$moved" -lt $((4 << 20))
halt_machine

# ---- the switch in the middle of a stream ----
export PVMD_MESH_HOLD="$T_TMP/mesh-go"
rm -f "$PVMD_MESH_HOLD"
machine h2 h3
on 2 60 stream h3 5 "$PVMD_MESH_HOLD"
t0=$(awk '/stream: sent from/ { print $(NF - 3) }' "$T_OUT")
t1=$(awk '/stream: sent from/ { print $(NF - 1) }' "$T_OUT")
for pair in "2 3" "3 2"; do
	set -- $pair
	sw=$(switch_ms "$1" "$2")
	check "h$1 switched to the direct link to h$2 mid-stream" \
	    test -n "$sw" -a -n "$t0" -a "${sw:-0}" -gt "${t0:-0}" \
	    -a "${sw:-0}" -lt "${t1:-0}"
	echo "INFO: stream $t0 .. $t1 ms; h$1 switched at ${sw:-never}"
done
halt_machine
unset PVMD_MESH_HOLD

# ---- no mesh: the same stream through the master ----
export PVMD_MESH=0
machine h2 h3
on 2 60 stream h3 2
check "PVMD_MESH=0: no direct link" \
    sh -c "! grep -q 'direct link' $T_TMP/h[123]/pvm-*.log"
halt_machine
unset PVMD_MESH

# ---- a slave with direct links dies ----
machine h2 h3 h4
check "h4 dialed h3" wait_for 10 in_use 4 3
kill -9 "$(host_pvmd_pid 3)"
check "the master deletes h3" wait_for 10 \
    grep -q "host h3 (index 3) left" "$(host_log 1)"
check "h2 and h4 forget h3" wait_for 10 sh -c \
    "grep -q 'index 3) left' '$(host_log 2)' &&
     grep -q 'index 3) left' '$(host_log 4)'"
on 2 150 stream h4 1
check "the master lives" host_pvmd_alive 1
check "h2 lives" host_pvmd_alive 2
check "h4 lives" host_pvmd_alive 4
halt_machine
finish
