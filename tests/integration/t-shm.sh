#!/bin/sh
# t-shm.sh: messages between tasks of one host over shared-memory rings
# (libpvm/shm.c): a task's connection to the pvmd is on rings unless
# PVM_SHM_PVMD=0, and messages through the pvmd of every size keep their
# bytes (also through 4 KiB rings and with the pvmd stopped for a moment);
# PvmRouteDirect uses them and they carry data while the
# pvmd is stopped; PVM_SHM=all gives them to PvmAllowDirect too;
# PVM_SHM=0 and PvmDontRoute keep them out; many
# senders with random sizes, tags and receives keep order and matching,
# also through rings of 4 KiB (always full); senders killed in the middle
# of large messages leave nothing half delivered and no segment; 16
# tasks ping-pong in pairs on this 2-core machine; a ring of neighbours;
# a bulk offer read from a ring is answered before the receive returns;
# a blocking receive takes its first match straight from the ring and
# leaves the rest queued in order, a handler running where PVM runs it,
# and does so round after round on a route either side opened;
# bodies under 4 MiB between tasks on CPUs apart take the ring, not an
# offer;
# a multicast's copy through the pvmd is not overtaken by the next
# message over a route that opened during the multicast (also on
# sockets); a child stopped, continued and interrupted (EINTR) around
# every message loses no wake-up.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_shm"
# Rings are the default for PvmRouteDirect: no PVM_SHM.
unset PVM_SHM

# takes_ok FILE N: in every route trace's count of blocking receives in
# FILE at most one in ten refused the ring spin, and one counted N.
takes_ok() {
	awk -v n="$2" '/route: blocking receives:/ {
		for (i = 2; i <= NF; i++) {
			if ($i == "taken") got = $(i - 1)
			if ($i == "waited") waited = $(i - 1)
			if ($i == "refused") refused = $(i - 1)
		}
		seen++
		if (refused * 10 > got + waited + refused) bad++
		if (got + waited + refused >= n) full++
	} END { exit !(seen > 0 && !bad && full) }' "$1"
}

start_pvmd
run_checks 60 "$TASKS/t_shm" pvmd rings "$(pvmd_pid)"
export PVM_SHM_PVMD=0
run_checks 60 "$TASKS/t_shm" pvmd norings "$(pvmd_pid)"
unset PVM_SHM_PVMD
run_checks 60 "$TASKS/t_shm" direct rings "$(pvmd_pid)"
run_checks 60 "$TASKS/t_shm" direct refuse "$(pvmd_pid)"
run_checks 60 "$TASKS/t_shm" bulkack
# Under 4 MiB a body between two tasks on CPUs of their own goes through
# their ring, from 4 MiB on as a bulk offer (the pvmd binds two tasks
# apart when it has two CPUs; libpvm/tx.c).
if [ "$(nproc)" -ge 2 ] && [ -z "${PVM_BIND:-}" ]; then
	PVM_BULK=trace run_checks 120 "$TASKS/t_shm" ringbig
	check "ringbig: the 4 MiB body was a bulk offer, taken" \
	    grep -q 'bulk offer of 4194304 bytes to t.*: taken' "$T_OUT"
	check "ringbig: 1 MiB, 2 MiB and 4 MiB - 1 went through the ring" \
	    sh -c "! grep -Eq 'bulk offer of (1048576|2097152|4194303) ' '$T_OUT'"
fi
run_checks 60 "$TASKS/t_shm" mcastroute
run_checks 60 "$TASKS/t_shm" handover
for mode in accept open; do
	PVM_ROUTE_TRACE=1 run_checks 60 "$TASKS/t_shm" takes $mode 2000
	check "takes $mode: blocking receives began on the ring spin" \
	    takes_ok "$T_OUT" 2000
done
run_checks 120 "$TASKS/t_shm" stopcont 200
run_checks 300 "$TASKS/t_shm" storm 8 400
run_checks 300 "$TASKS/t_shm" kill 10
run_checks 300 "$TASKS/t_shm" pairs 8 2000
run_checks 600 "$TASKS/t_shm" ring "${T_SHM_RING:-1000}"
check "pvmd alive after the ring tests" pvmd_alive
stop_pvmd

# Rings of 4 KiB: every large message passes in pieces through a full
# ring, and writers wait for room.
export PVM_SHM_SIZE=4096
start_pvmd
run_checks 60 "$TASKS/t_shm" pvmd rings "$(pvmd_pid)"
run_checks 300 "$TASKS/t_shm" storm 6 300
run_checks 300 "$TASKS/t_shm" kill 5
stop_pvmd
unset PVM_SHM_SIZE

# PVM_SHM=all: the default route option (PvmAllowDirect) uses rings.
export PVM_SHM=all T_SHM_ALLOW=1
start_pvmd
run_checks 60 "$TASKS/t_shm" direct rings "$(pvmd_pid)"
run_checks 300 "$TASKS/t_shm" storm 8 200
run_checks 300 "$TASKS/t_shm" kill 4
stop_pvmd
# ... and without it, PvmAllowDirect goes through the pvmd as in PVM.
unset PVM_SHM
start_pvmd
run_checks 60 "$TASKS/t_shm" direct norings "$(pvmd_pid)"
stop_pvmd
unset T_SHM_ALLOW

# The old socket paths (t-sockets.sh runs the other message tests so).
export PVM_SHM=0
start_pvmd
run_checks 60 "$TASKS/t_shm" pvmd norings "$(pvmd_pid)"
run_checks 60 "$TASKS/t_shm" direct norings "$(pvmd_pid)"
run_checks 60 "$TASKS/t_shm" mcastroute
run_checks 60 "$TASKS/t_shm" handover
run_checks 300 "$TASKS/t_shm" storm 8 200
finish
