#!/bin/sh
# t-flood.sh: a task floods one that does not read.  The sender must
# block and the pvmd's memory stay bounded; afterwards the receiver gets
# every message, in order and intact, and the pvmd gives the memory it
# queued back to the system (daemon/trim.c).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_flood"

NMSG=1024  # of 1 MiB each: 1 GiB in all
LIMIT=$((160 * 1024))  # KiB the pvmd may grow by
BACK=2048  # KiB above its start the pvmd may keep after the flood

start_pvmd
# The flood goes through the pvmd's sockets: 1 MiB messages would
# otherwise be bulk offers (libpvm/bulk.c), which block the flooder at the
# first one without any buffering (t-big.sh checks that path).
PVM_BULK=0
PVM_EXPORT=PVM_BULK
export PVM_BULK PVM_EXPORT
dir="$T_TMP/flood"
mkdir -p "$dir"
base=$(pvmd_rss)
run 300 "$TASKS/t_flood" recv "$dir" "$NMSG" >"$T_TMP/flood.out" 2>&1 &
rpid=$!

# Wait for the flood to start, then watch it for a while.
wait_for 30 test -s "$dir/progress"
peak=${base:-0}
sample() {
	local r
	r=$(pvmd_rss)
	if [ -n "$r" ] && [ "$r" -gt "$peak" ]; then
		peak=$r
	fi
}
for i in $(seq 30); do sample; sleep 0.1; done
p1=$(tr -d ' \n' <"$dir/progress" 2>/dev/null)
for i in $(seq 20); do sample; sleep 0.1; done
p2=$(tr -d ' \n' <"$dir/progress" 2>/dev/null)
echo "INFO: flooder progress ${p1:-?} then ${p2:-?} of $NMSG;" \
    "pvmd VmRSS ${base:-?} KiB at start, peak $peak KiB"
check "flooder blocked: progress stuck at ${p1:-?} < $NMSG" \
    test -n "$p1" -a "${p1:-0}" = "${p2:-x}" -a "${p1:-0}" -lt "$NMSG"
check "pvmd VmRSS grew by $((peak - ${base:-0})) KiB (< $LIMIT)" \
    test -n "$base" -a "$((peak - ${base:-0}))" -lt "$LIMIT"
check "pvmd alive during the flood" pvmd_alive

# A task that connects while the flood is queued and stays past it (the
# console, reading a fifo): its memory lies above the queued frames, so
# the heap cannot shrink from its top, and glibc trims only there.
mkfifo "$T_TMP/hold"
more_fds() { [ "$(fds_of "$(pvmd_pid)")" -gt "$fd0" ]; }
fd0=$(fds_of "$(pvmd_pid)")
"$PVM_CONSOLE" <"$T_TMP/hold" >"$T_TMP/hold.out" 2>&1 &
exec 3>"$T_TMP/hold"
check "a console connected during the flood" wait_for 10 more_fds

# Let the receiver read.
touch "$dir/go"
wait "$rpid"
rc=$?
add_checks "$T_TMP/flood.out"
check "receiver exits 0 (rc $rc)" test "$rc" -eq 0
check "pvmd alive after the flood" pvmd_alive
# Without the trim (daemon/trim.c) the pvmd kept 19,560-20,556 KiB here,
# more than its peak while the flood was held.
if pvmd_glibc_heap; then
	wait_for 5 rss_at_most "$(pvmd_pid)" $((${base:-0} + BACK))
	check "pvmd VmRSS back within $BACK KiB of ${base:-?} KiB (now $(pvmd_rss) KiB, peak $peak KiB)" \
	    rss_at_most "$(pvmd_pid)" $((${base:-0} + BACK))
else
	echo "INFO: pvmd VmRSS now $(pvmd_rss) KiB, not checked: the pvmd" \
	    "was built with a sanitizer's allocator"
fi
exec 3>&- # the console reads its end and quits
finish
