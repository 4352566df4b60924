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
# may say (exit, host deleted) is ignored there.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
hosts_setup 3
export ROGUE_OUT="$T_TMP/rogue.out"
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
