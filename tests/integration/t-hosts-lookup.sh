#!/bin/sh
# t-hosts-lookup.sh: looking up a new host's name never stalls the master.
# h1's name server is a silent one on the bridge,
# so a name outside the hosts file takes seconds to fail.  While the
# master adds such a host, its console answers and another host joins at
# once; the slow name then fails as PvmNoHost ("No such host"), with the
# resolver's words in the log.  (The pvmd used to look names up in its
# own event loop, and everything waited for the resolver.)
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
hosts_setup 2
# A name server on the bridge that reads queries and never answers (the
# teardown kills it with everything else in the run's namespaces).
ip -n "$HOSTS_BRNS" addr add "$HOSTS_NET4.250/24" dev br0 || exit 99
ip netns exec "$HOSTS_BRNS" timeout 300 python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 53))
while True:
    s.recv(512)
' "$HOSTS_NET4.250" &
dns_up() { ip netns exec "$HOSTS_BRNS" ss -Hlun | grep -q "\.250:53 "; }
check "the silent name server listens" wait_for 10 dns_up
printf 'nameserver %s.250\noptions timeout:5 attempts:1\n' "$HOSTS_NET4" \
    >"/etc/netns/$(host_ns 1)/resolv.conf" || exit 99
check "master started" hosts_start_master

# The control: in h1 the lookup itself is slow (it needs "dns" in
# nsswitch.conf's hosts line, as Debian has it).
t0=$(date +%s%N)
on_host 1 getent ahosts slow.invalid >/dev/null
slow_ms=$((($(date +%s%N) - t0) / 1000000))
if grep -Eq '^hosts:.*dns' /etc/nsswitch.conf; then
	check "in h1 a lookup of slow.invalid takes over 4 s ($slow_ms ms)" \
	    test "$slow_ms" -gt 4000
else
	echo "INFO: no dns in nsswitch.conf: lookups fail fast ($slow_ms ms)"
fi

hosts_console 1 60 "$T_TMP/slow" <<'END' &
add slow.invalid
END
slow_pid=$!
# The add is under way once the launcher's child exists; give it a moment.
sleep 0.5
t0=$(date +%s%N)
hosts_console 1 30 "$T_TMP/fast" <<'END'
add h2
conf
END
fast_ms=$((($(date +%s%N) - t0) / 1000000))
check "meanwhile h2 joins ($(grep successful "$T_TMP/fast"))" \
    grep -q "^1 successful" "$T_TMP/fast"
check "and conf lists 2 hosts" grep -q "^2 host" "$T_TMP/fast"
if [ "$slow_ms" -gt 4000 ]; then
	check "the master answered in ${fast_ms} ms (under 2 s), long before \
the slow lookup ended (${slow_ms} ms)" test "$fast_ms" -lt 2000
fi
wait "$slow_pid"
check "slow.invalid: 0 successful" grep -q "^0 successful" "$T_TMP/slow"
check "slow.invalid: No such host" grep -qi "no such host" "$T_TMP/slow"
check "the log says why" \
    grep -q "cannot start host slow.invalid: no such host (slow.invalid: " \
    "$(host_log 1)"
hosts_console 1 30 "$T_TMP/halt" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10
finish
