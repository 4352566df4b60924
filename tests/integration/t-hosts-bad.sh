#!/bin/sh
# t-hosts-bad.sh: the master's link port against hostile peers
# (tasks/rawpeer.py, from a host that is not in the machine): garbage, a
# 2^63 length, an oversized or malformed handshake, a wrong secret, a
# flood of silent connections.  Each is closed (and logged as refused);
# the master keeps serving, and real hosts still join, over IPv6 too.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
RAWPEER="$PVM_TOP_SRCDIR/tests/integration/tasks/rawpeer.py"
hosts_setup 4
export PVMD_HANDSHAKE_TIMEOUT=2

# The master is called h1-6, so slaves dial it over IPv6 only.
check "master started as h1-6" hosts_start_master -n h1-6
hosts_console 1 30 "$T_TMP/add" <<'END'
add h2
END
check "h2 joined" grep -q "1 successful" "$T_TMP/add"
check "over IPv6 (the master logged a link from fd70:...)" \
    grep -q "link from fd70:" "$(host_log 1)"
port=$(sed -n 's/.*listening for hosts on [^ ]* port \([0-9]*\).*/\1/p' \
    "$(host_log 1)" | head -n 1)
check "the master logs its link port ($port)" test -n "$port"

# peer CASE EXPECTED [ADDRESS]: rawpeer from h3 gets EXPECTED.
peer() {
	got=$(run 20 "$NETNS_RSH" h3 python3 "$RAWPEER" "${3:-h1-4}" \
	    "$port" "$1" 2>&1)
	check "$1 from h3 over ${3:-h1-4}: $2 (got: $got)" test "$got" = "$2"
}
peer garbage closed
peer huge closed
peer bigauth closed
peer version closed
peer task closed
peer badproof closed
peer garbage closed h1-6
peer silent closed
check "the master logged refusals" grep -q "refused" "$(host_log 1)"
check "the master logged the wrong secret" \
    grep -q "refused: wrong secret\|refused: authentication failed" \
    "$(host_log 1)"

# More silent connections than the master lets wait for a handshake,
# all at once from one process.
got=$(run 40 "$NETNS_RSH" h3 python3 "$RAWPEER" h1-4 "$port" flood 2>&1)
check "70 silent connections were all closed (got: $got)" test "$got" = 70
check "the master refused some while 64 handshakes waited" \
    grep -q "too many handshakes" "$(host_log 1)"
check "the master still runs" host_pvmd_alive 1

hosts_console 1 30 "$T_TMP/add2" <<'END'
add h3 h4
conf
END
check "h3 and h4 join after all that" grep -q "2 successful" "$T_TMP/add2"
check "conf lists 4 hosts" grep -q "^4 hosts" "$T_TMP/add2"
hosts_console 3 30 "$T_TMP/halt" <<'END'
halt
END
check "halt from h3 stops every pvmd" hosts_wait_no_pvmd 10
finish
