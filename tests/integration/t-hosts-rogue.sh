#!/bin/sh
# t-hosts-rogue.sh: a peer that holds the secret and misbehaves after it
# joined (tasks/rawpeer.py rogue, started by the master as its launcher
# would start a slave pvmd, so it gets the secret on stdin).  Spoofed
# sources, endless reassembly, an oversized control message, a 2^62
# length and garbage each close that link (the host is gone); nonsense
# daemon messages are logged and ignored.  Each time the master lives on
# and serves the next host.  Then the rogue (h3) dials a real slave (h2)
# as a slave of higher index would: a spoofed source on that direct link
# closes it (and the master deletes the rogue), and what only the master
# may say (exit, host deleted) is ignored there.  As the spawner's pvmd
# of programs started on the master (spawnout), the rogue sends the -1
# start record a second late: the master holds the output back until
# then, or 10 s when it never comes.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE" "$TASKS/t_catch"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
hosts_setup 3
export ROGUE_OUT="$T_TMP/rogue.out"
# The tid of the watcher that spawnout's output goes to (t_catch watch).
export ROGUE_WATCH="$T_TMP/watch.tid"
cat >"$T_TMP/rogue-rsh" <<END
#!/bin/sh
host=\$1
shift
[ "\$(cat "$T_TMP/case")" = real ] && exec "$NETNS_RSH" "\$host" "\$@"
exec "$NETNS_RSH" "\$host" python3 \\
    "$PVM_TOP_SRCDIR/tests/integration/tasks/rawpeer.py" rogue \\
    "\$(cat "$T_TMP/case")" "\$@"
END
chmod +x "$T_TMP/rogue-rsh"
rogue_master() {
	PVM_RSH="$T_TMP/rogue-rsh" on_host 1 "$PVMD"
}
check "master started with the rogue launcher" rogue_master

# rogue CASE WANT: h2 joins as a rogue that does CASE; the master does WANT.
rogue() {
	echo "$1" >"$T_TMP/case"
	hosts_console 1 30 "$T_TMP/add.$1" <<'END'
add h2
END
	check "$1: the rogue joined" grep -q "1 successful" "$T_TMP/add.$1"
	wait_for 10 grep -qs "^$1 " "$ROGUE_OUT"
	check "$1: the master $2 the link ($(grep "^$1 " "$ROGUE_OUT"))" \
	    grep -q "^$1 $2\$" "$ROGUE_OUT"
	check "$1: the master lives" host_pvmd_alive 1
	hosts_console 1 30 "$T_TMP/conf.$1" <<'END'
delete h2
conf
END
	check "$1: the master still answers, with 1 host" \
	    grep -q "^1 host" "$T_TMP/conf.$1"
}
rogue spoof closed
rogue reasm closed
rogue bigctl closed
rogue huge closed
rogue garbage closed
rogue baddm open
check "the master logged the spoofed source" \
    grep -q "frame with source" "$(host_log 1)"
check "the master logged the nonsense" \
    grep -q "malformed or unexpected" "$(host_log 1)"
check "the master logged the reassembly and size limits" \
    test "$(grep -c "bad or oversized control message" "$(host_log 1)")" \
    -ge 2
check "the master logged the bad frames" \
    test "$(grep -c "closed: bad frame" "$(host_log 1)")" -ge 2
check "the master logged the malformed start-record messages" \
    sh -c 'grep -q "malformed spawned" "$1" && grep -q "malformed outgo" "$1"' \
    sh "$(host_log 1)"

# spawnout: the watcher on h1 gets the output of two programs the rogue
# (h2) has the master start for a task of its own.  Each record: REC
# tid count host-of-the-sender seconds (tasks/t_catch.c).
on_host 1 "$TASKS/t_catch" watch "$ROGUE_WATCH" $((25 * T_SCALE)) 77 \
    >"$T_TMP/watch.out" 2>&1 &
watcher=$!
check "the watcher is ready" wait_for 10 test -s "$ROGUE_WATCH"
rogue spawnout open
wait "$watcher"
cat "$T_TMP/watch.out"
# nth N: the tid of the Nth task that sent records.
nth() {
	awk '$1 == "REC" && !seen[$2]++ { print $2 }' "$T_TMP/watch.out" |
	    sed -n "$1p"
}
# recs N: the counts and senders of the Nth task's records (the master:
# 0; another host, the rogue: r).
recs() {
	awk -v t="$(nth "$1")" \
	    '$2 == t { printf "%s/%s ", $3, $4 == 0 ? 0 : "r" }' \
	    "$T_TMP/watch.out"
}
# at N COUNT: when the Nth task's record of that count came (s).
at() {
	awk -v t="$(nth "$1")" -v c="$2" '$2 == t && $3 == c { print $5 }' \
	    "$T_TMP/watch.out"
}
check "held: -2 from the master, -1 from the rogue, then the output" \
    test "$(recs 1)" = "-2/0 -1/r 5/0 0/0 "
check "held: the output waited for the late -1 ($(at 1 -2) s, $(at 1 5) s)" \
    awk -v a="$(at 1 -2)" -v b="$(at 1 5)" 'BEGIN { exit !(b - a >= 0.8) }'
check "never released: -2, then the output all the same" \
    test "$(recs 2)" = "-2/0 5/0 0/0 "
check "never released: the output came after the 10 s wait" \
    awk -v a="$(at 2 -2)" -v b="$(at 2 5)" 'BEGIN { exit !(b - a >= 9) }'
check "the master logged that it gave up waiting" \
    grep -q "no DM_OUTGO in time, output released" "$(host_log 1)"

h2_gone() { ! host_pvmd_alive 2; }

# mesh_rogue CASE WANT: a real h2, then the rogue h3 doing CASE on a
# direct link to h2; h2 does WANT.
mesh_rogue() {
	echo real >"$T_TMP/case"
	hosts_console 1 30 "$T_TMP/add2.$1" <<'END'
add h2
END
	check "$1: h2 joined" grep -q "1 successful" "$T_TMP/add2.$1"
	echo "$1" >"$T_TMP/case"
	hosts_console 1 30 "$T_TMP/add.$1" <<'END'
add h3
END
	check "$1: the rogue joined" grep -q "1 successful" "$T_TMP/add.$1"
	wait_for 15 grep -qs "^$1 " "$ROGUE_OUT"
	check "$1: h2 $2 the direct link ($(grep "^$1 " "$ROGUE_OUT"))" \
	    grep -q "^$1 $2\$" "$ROGUE_OUT"
	check "$1: h2 lives" host_pvmd_alive 2
	check "$1: the master lives" host_pvmd_alive 1
	hosts_console 1 30 "$T_TMP/conf.$1" <<'END'
delete h3
delete h2
conf
END
	check "$1: the master answers, with 1 host" \
	    grep -q "^1 host" "$T_TMP/conf.$1"
	check "$1: h2's pvmd exits" wait_for 10 h2_gone
}
mesh_rogue meshspoof closed
check "h2 logged the spoofed source" \
    grep -q "frame with source" "$(host_log 2)"
check "the master deleted the rogue: h2 lost its link to it" \
    grep -q "h2 lost its link to it" "$(host_log 1)"
mesh_rogue meshdm open
check "h2 ignored what only the master may say" \
    test "$(grep -c "from there ignored" "$(host_log 2)")" -ge 2
hosts_console 1 30 "$T_TMP/halt" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10
finish
