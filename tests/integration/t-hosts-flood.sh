#!/bin/sh
# t-hosts-flood.sh: back-pressure across hosts.  A task on h1 floods one
# on h2 that does not read (tasks/t_flood.c).  The flooder must block;
# neither pvmd's memory may grow without bound; the link, silent while
# h2's pvmd waits for its receiver, must not be taken for a dead host
# (PVMD_HOST_TIMEOUT=3, and the flood is held for longer); afterwards
# every message arrives, in order and intact.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE" "$TASKS/t_flood"
NMSG=256              # of 1 MiB each
LIMIT=$((160 * 1024)) # KiB a pvmd may grow by
hosts_setup 2
export PVMD_HOST_TIMEOUT=3
check "master started" hosts_start_master
hosts_console 1 30 "$T_TMP/add" <<'END'
add h2
END
check "h2 joined" grep -q "1 successful" "$T_TMP/add"

# rss K: hK's pvmd's resident memory in KiB (empty if none).
rss() {
	rss_of "$(host_pvmd_pid "$1")"
}
dir="$T_TMP/flood"
mkdir -p "$dir"
base1=$(rss 1)
base2=$(rss 2)
T_FLOOD_HOST=h1 run 300 "$NETNS_RSH" h2 "$TASKS/t_flood" recv "$dir" \
    "$NMSG" >"$T_TMP/flood.out" 2>&1 &
rpid=$!
wait_for 30 test -s "$dir/progress"
peak1=${base1:-0}
peak2=${base2:-0}
sample() {
	local r
	r=$(rss 1)
	[ -n "$r" ] && [ "$r" -gt "$peak1" ] && peak1=$r
	r=$(rss 2)
	[ -n "$r" ] && [ "$r" -gt "$peak2" ] && peak2=$r
}
for i in $(seq 30); do sample; sleep 0.1; done
p1=$(tr -d ' \n' <"$dir/progress" 2>/dev/null)
# Hold the flood for twice the host timeout.
for i in $(seq 60); do sample; sleep 0.1; done
p2=$(tr -d ' \n' <"$dir/progress" 2>/dev/null)
echo "INFO: flooder progress ${p1:-?} then ${p2:-?} of $NMSG;" \
    "VmRSS h1 ${base1:-?} -> $peak1 KiB, h2 ${base2:-?} -> $peak2 KiB"
check "the flooder on h1 blocked: progress stuck at ${p1:-?} < $NMSG" \
    test -n "$p1" -a "${p1:-0}" = "${p2:-x}" -a "${p1:-0}" -lt "$NMSG"
check "h1's pvmd grew by $((peak1 - ${base1:-0})) KiB (< $LIMIT)" \
    test -n "$base1" -a "$((peak1 - ${base1:-0}))" -lt "$LIMIT"
check "h2's pvmd grew by $((peak2 - ${base2:-0})) KiB (< $LIMIT)" \
    test -n "$base2" -a "$((peak2 - ${base2:-0}))" -lt "$LIMIT"
check "the held link was not taken for a dead host" \
    sh -c "! grep -q 'nothing heard' '$(host_log 1)' '$(host_log 2)'"
touch "$dir/go"
wait "$rpid"
rc=$?
add_checks "$T_TMP/flood.out"
check "receiver on h2 exits 0 (rc $rc)" test "$rc" -eq 0
hosts_console 1 30 "$T_TMP/conf" <<'END'
conf
halt
END
check "both hosts are still in the machine" grep -q "^2 hosts" "$T_TMP/conf"
check "halt" hosts_wait_no_pvmd 10
finish
