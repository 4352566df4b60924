#!/bin/sh
# t-hosts-net.sh: lib-hosts.sh's own test.  Four hosts reach each other by
# name over IPv4 and IPv6; each has its hostname and its PVM_TMP; the
# launcher netns-rsh runs a command on a host with our stdin; an unknown
# host gets ssh's 255; and after the trap nothing of a run is left, also
# when the run is stopped by a signal.  No pvmd is involved.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"

root_before=$(ip -o link show | awk '{ print $2 }'; ip -o addr show |
    awk '{ print $2, $3, $4 }')

hosts_setup 4
check "namespace names fit in 15 characters ($(host_ns 4), $HOSTS_BRNS)" \
    test "${#HOSTS_BRNS}" -le 15 -a "$(host_ns 4 | wc -c)" -le 16

# ping HOST-K FAMILY NAME: one echo, up to 3 tries of 1 s.
ping_from() {
	local i
	for i in 1 2 3; do
		on_host "$1" ping "-$2" -c1 -W1 "$3" >/dev/null 2>&1 && return 0
	done
	return 1
}
if command -v ping >/dev/null 2>&1; then
	for k in 1 2 3 4; do
		for j in 1 2 3 4; do
			[ "$j" -eq "$k" ] && continue
			check "h$k pings h$j over IPv4" ping_from "$k" 4 "h$j"
			check "h$k pings h$j over IPv6" ping_from "$k" 6 "h$j"
		done
	done
else
	fail "no ping command (tools/deps.sh installs iputils-ping)"
fi
got=$(on_host 2 getent ahostsv4 h4 | awk 'NR == 1 { print $1 }')
check "h2 resolves h4 to $(host_addr4 4) (got $got)" \
    test "$got" = "$(host_addr4 4)"
got=$(on_host 2 getent ahostsv6 h4-6 | awk 'NR == 1 { print $1 }')
check "h2 resolves h4-6 to $(host_addr6 4) (got $got)" \
    test "$got" = "$(host_addr6 4)"

got=$(on_host 3 hostname)
check "on_host 3 hostname prints h3 (got $got)" test "$got" = h3
got=$(on_host 3 cat /proc/sys/kernel/hostname)
check "gethostname() is h3 on h3 (got $got)" test "$got" = h3
check "the root namespace's hostname is unchanged" \
    test "$(hostname)" != h3

seen=""
for k in 1 2 3 4; do
	got=$(on_host "$k" sh -c 'echo "$PVM_TMP"')
	check "PVM_TMP on h$k is $(host_tmp "$k") (got $got)" \
	    test "$got" = "$(host_tmp "$k")"
	case " $seen " in
	*" $got "*) fail "PVM_TMP $got used by two hosts" ;;
	esac
	seen="$seen $got"
done

# The launcher, as the master pvmd would run it (from h1): stdin goes
# through to the command.
out=$(echo "the secret line" | on_host 1 timeout -k 2 10 "$NETNS_RSH" h2 \
    sh -c 'read -r l; echo "$(hostname)|$l|$PVM_TMP"')
rc=$?
check "netns-rsh h2 from h1 exits 0 (rc $rc)" test "$rc" -eq 0
check "netns-rsh h2: hostname h2, stdin line, h2's PVM_TMP (got $out)" \
    test "$out" = "h2|the secret line|$(host_tmp 2)"
got=$(timeout -k 2 10 "$NETNS_RSH" h3-6 ip -o addr show dev eth0 |
    grep -c -F -e " $(host_addr4 3)/" -e " $(host_addr6 3)/")
check "netns-rsh h3-6 runs in h3's network namespace (got $got of 2)" \
    test "$got" -eq 2
timeout -k 2 10 "$NETNS_RSH" nosuchhost true 2>"$T_TMP/err" </dev/null
rc=$?
check "netns-rsh nosuchhost exits 255 (rc $rc)" test "$rc" -eq 255
check "and says 'netns-rsh: nosuchhost: no such host'" \
    grep -qx 'netns-rsh: nosuchhost: no such host' "$T_TMP/err"
got=$(timeout -k 2 10 "$NETNS_RSH" h4 'echo "$(hostname) one line"' \
    </dev/null)
check "netns-rsh h4 'a command line' runs it as sh -c does (got $got)" \
    test "$got" = "h4 one line"
timeout -k 2 10 "$NETNS_RSH" h4 sh -c 'exit 3' </dev/null
rc=$?
check "netns-rsh passes on the command's exit status (rc $rc)" \
    test "$rc" -eq 3

# A run's clean-up: a nested run leaves a process in each of its hosts
# and ends normally, or is stopped by SIGTERM; then nothing of it is left.
for how in exit signal; do
	info="$T_TMP/nested.$how"
	HOW=$how INFO=$info timeout -k 5 60 sh -c '
	    . "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
	    . "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
	    hosts_setup 2
	    on_host 1 sh -c "sleep 300 </dev/null >/dev/null 2>&1 &"
	    on_host 2 sh -c "sleep 300 </dev/null >/dev/null 2>&1 &"
	    echo "$HOSTS_NSLIST" >"$INFO"
	    echo "$T_TMP" >>"$INFO"
	    ip netns pids "$(host_ns 2)" | head -n 1 >>"$INFO"
	    if [ "$HOW" = signal ]; then
	        kill -TERM $$
	        sleep 30
	    fi
	    exit 0' >"$T_TMP/nested.out" 2>&1
	rc=$?
	if [ "$how" = exit ]; then
		check "nested run ($how) exits 0 (rc $rc)" test "$rc" -eq 0
	else
		check "nested run ($how) exits 99 (rc $rc)" test "$rc" -eq 99
	fi
	nslist=$(sed -n 1p "$info")
	ntmp=$(sed -n 2p "$info")
	npid=$(sed -n 3p "$info")
	check "nested run ($how) had 3 namespaces and a process in h2" \
	    test "$(echo $nslist | wc -w)" -eq 3 -a -n "$npid"
	left=""
	for ns in $nslist; do
		[ -e "/run/netns/$ns" ] && left="$left $ns"
		ip netns list | grep -q "^$ns\\b" && left="$left $ns"
		[ -e "/etc/netns/$ns" ] && left="$left /etc/netns/$ns"
	done
	check "nested run ($how) left no namespace or /etc/netns dir" \
	    test -z "$left"
	[ -n "$left" ] && echo "left: $left"
	check "nested run ($how) removed its $ntmp" test ! -e "$ntmp"
	check "nested run ($how) killed its process ${npid:-?}" \
	    wait_gone "${npid:-1}" 5
done

root_after=$(ip -o link show | awk '{ print $2 }'; ip -o addr show |
    awk '{ print $2, $3, $4 }')
check "the root namespace's links and addresses are unchanged" \
    test "$root_before" = "$root_after"
finish
