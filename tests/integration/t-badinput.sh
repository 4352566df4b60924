#!/bin/sh
# t-badinput.sh: bad input on the pvmd's socket.  For each kind the pvmd
# must drop that connection, stay alive, and keep serving a normal task:
# garbage bytes, a body cut off by EOF, a header announcing 2^63 bytes, a
# first frame that is not TM_CONNECT, garbage after a good handshake, and
# a client that says nothing (PVMD_HANDSHAKE_TIMEOUT=1), and broken
# rings of a connection on shared memory.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/rawclient" "$TASKS/t_enrol"

PVMD_HANDSHAKE_TIMEOUT=1
export PVMD_HANDSHAKE_TIMEOUT
start_pvmd
sock="$T_DIR/sock"
base=$(pvmd_rss)

for mode in garbage cutbody huge badfirst connect-garbage silent; do
	run 30 "$TASKS/rawclient" "$mode" "$sock" >"$T_TMP/raw" 2>&1
	rc=$?
	cat "$T_TMP/raw"
	check "$mode: pvmd dropped the connection (rawclient rc $rc)" \
	    test "$rc" -eq 0
	check "$mode: pvmd alive" pvmd_alive
	if [ "$mode" = silent ]; then
		t=$(sed -n 's/^RESULT silent closed \([0-9.]*\)$/\1/p' \
		    "$T_TMP/raw")
		check "silent client dropped after ${t:-?} s (0.5 .. 5)" \
		    awk -v t="${t:--1}" 'BEGIN { exit !(t >= 0.5 && t <= 5) }'
	fi
	if [ "$mode" = huge ]; then
		rss=$(pvmd_rss)
		check "2^63 header: VmRSS ${base:-?} -> ${rss:-?} KiB (< +16 MiB)" \
		    test -n "$rss" -a "${rss:-0}" -lt "$((${base:-0} + 16384))"
	fi
	run_checks 20 "$TASKS/t_enrol" quick
done

# A task's connection on rings (TM_RINGS): a broken ring index, garbage
# or a 2^63-byte header in the ring drop that connection; a segment that
# is not sealed, or none, is refused (reply 0) and the connection stays.
for mode in rings-index rings-garbage rings-huge; do
	run 30 "$TASKS/rawclient" "$mode" "$sock" >"$T_TMP/raw" 2>&1
	rc=$?
	cat "$T_TMP/raw"
	check "$mode: pvmd dropped the connection (rawclient rc $rc)" \
	    test "$rc" -eq 0
	check "$mode: pvmd alive" pvmd_alive
	run_checks 20 "$TASKS/t_enrol" quick
done
for mode in rings-unsealed rings-none; do
	run 30 "$TASKS/rawclient" "$mode" "$sock" >"$T_TMP/raw" 2>&1
	rc=$?
	cat "$T_TMP/raw"
	check "$mode: refused with 0, connection kept (rawclient rc $rc)" \
	    test "$rc" -eq 0
	check "$mode: pvmd alive" pvmd_alive
done
check "the unsealed segment is in the log" \
    grep -q 'TM_RINGS: not a sealed ring segment' "$T_LOG"

# A silent client does not hold up others, and ten of them are all
# dropped.
pids=""
for i in 1 2 3 4 5 6 7 8 9 10; do
	run 30 "$TASKS/rawclient" silent "$sock" >"$T_TMP/silent.$i" 2>&1 &
	pids="$pids $!"
done
sleep 0.2
run_checks 20 "$TASKS/t_enrol" quick
nok=0
for p in $pids; do
	wait "$p" && nok=$((nok + 1))
done
check "10 silent clients all dropped ($nok)" test "$nok" -eq 10
run_checks 20 "$TASKS/t_enrol" count 1
check "pvmd alive at the end" pvmd_alive
finish
