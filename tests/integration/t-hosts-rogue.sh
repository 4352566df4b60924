#!/bin/sh
# t-hosts-rogue.sh: a peer that holds the secret and misbehaves after it
# joined (tasks/rawpeer.py rogue, started by the master as its launcher
# would start a slave pvmd, so it gets the secret on stdin).  Spoofed
# sources, endless reassembly, an oversized control message, a 2^62
# length and garbage each close that link (the host is gone); nonsense
# daemon messages are logged and ignored.  Each time the master lives on
# and serves the next host.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
hosts_setup 2
export ROGUE_OUT="$T_TMP/rogue.out"
cat >"$T_TMP/rogue-rsh" <<END
#!/bin/sh
host=\$1
shift
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
hosts_console 1 30 "$T_TMP/halt" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10
finish
