# lib-hosts.sh: several hosts on this one machine, for the multi-host
# tests.  Sourced after lib.sh:
#
#   . "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
#   . "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
#   hosts_setup 4              # hosts h1..h4 (network namespaces)
#   hosts_start_master         # our pvmd on h1, PVM_RSH=netns-rsh
#   on_host 2 "$PVM_CONSOLE" <cmds
#   finish
#
# Each host is a network namespace with a name unique to this run, joined
# by a veth pair to a bridge that lives in one more namespace of the run:
# nothing in the root namespace changes.  Each host has lo, an IPv4
# address 10.X.Y.K/24 and an IPv6 address fd70:XXYY::K/64 (X, Y drawn
# per run), its own PVM_TMP ($T_TMP/hK), its own /etc/hosts
# (/etc/netns/NS/hosts, which `ip netns exec` mounts over /etc/hosts)
# naming every host, and its own hostname (a UTS namespace per command).
# Names: hK resolves to both addresses, hK-4 and hK-6 to one each.
#
#   on_host K CMD [ARG...]     run CMD on hK (PVM_TMP, hostname, netns)
#   $NETNS_RSH hK CMD [ARG...] the same as a program (what PVM_RSH names;
#                              also usable with lib.sh's run/run_checks)
#   host_ns K / host_tmp K / host_vmdir K / host_log K / host_addr4 K /
#   host_addr6 K / host_pvmd_pid K / host_pvmd_alive K
#   hosts_pvmd_pids            pids of every pvmd in the run's namespaces
#   hosts_wait_no_pvmd SECS    wait until no pvmd is left in any of them
#   hosts_start_master [ARGS]  our pvmd on h1; false (log shown) on failure
#   hosts_console K SECS OUT   the console on hK (commands on stdin)
#   hosts_kill_when_ready K    SIGKILL hK's pvmd when the next run_checks
#                              prints "INFO: READY"; then hosts_kill_done
#   hosts_when_ready CMD...    run CMD then (e.g. cut a host's network)
#   hosts_dump_logs            every host's pvmd log, last lines
#   hosts_reset                kill everything in the hosts, remove their
#                              VM directories: the next machine starts clean
#
# Slow runs: lib.sh's T_SCALE multiplies the waits here too.
# Environment: PVMT_HOSTMAP (the launcher's map: NAME NS PVM_TMP HOSTNAME
# per line), PVM_RSH (exported: the launcher), PVMT_RSHLOG (the launcher
# appends each command line it runs there), HOSTS_N.
#
# Without root, `ip netns`, unshare or veth/bridge support the test is
# skipped (exit 77) with the reason; under CI=true that is a failure.
# The EXIT trap kills every process in every namespace of the run,
# deletes the namespaces and their /etc/netns directories, then runs
# lib.sh's own clean-up (t_cleanup), which removes $T_TMP.

NETNS_RSH="$PVM_TOP_SRCDIR/tests/integration/netns-rsh"
export PVMT_HOSTMAP="$T_TMP/hostmap"
export PVMT_RSHLOG="$T_TMP/rsh.log"
HOSTS_N=0
# Run id: the name of lib.sh's $T_TMP (/tmp/pvmt.XXXXXX: "tXXXXXX"),
# unique among the runs that exist at the same time.  Namespace names stay
# <= 15 characters.
HOSTS_RUN=$(basename "$T_TMP" | sed 's/^pvm//; s/[^A-Za-z0-9]//g' |
    cut -c1-8)
HOSTS_PREFIX="pv$HOSTS_RUN"
HOSTS_BRNS="${HOSTS_PREFIX}br"
HOSTS_NSLIST=""
HOSTS_RND=$(od -An -N2 -tu2 /dev/urandom | tr -d ' \n')
HOSTS_X=$((HOSTS_RND / 256 % 200 + 20))
HOSTS_Y=$((HOSTS_RND % 256))
HOSTS_NET4="10.$HOSTS_X.$HOSTS_Y"
HOSTS_NET6=$(printf 'fd70:%02x%02x:' "$HOSTS_X" "$HOSTS_Y")

# A missing capability: skip, or fail under CI=true.
hosts_unsupported() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: lib-hosts.sh: $* (a failure under CI=true)"
		exit 1
	fi
	echo "SKIP: lib-hosts.sh: $*"
	exit 77
}

host_ns() { echo "${HOSTS_PREFIX}h$1"; }
host_tmp() { echo "$T_TMP/h$1"; }
host_vmdir() { echo "$T_TMP/h$1/pvm-$(id -u)"; }
host_log() { echo "$T_TMP/h$1/pvm-$(id -u).log"; }
host_addr4() { echo "$HOSTS_NET4.$1"; }
host_addr6() { echo "$HOSTS_NET6:$1"; }
host_pvmd_pid() { cat "$(host_vmdir "$1")/pid" 2>/dev/null; }
host_pvmd_alive() {
	local pid
	pid=$(host_pvmd_pid "$1")
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# on_host K CMD [ARG...]: CMD on host hK, with its PVM_TMP and hostname.
on_host() {
	local k=$1
	shift
	PVM_TMP="$T_TMP/h$k" ip netns exec "$(host_ns "$k")" \
	    unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' \
	    sh "h$k" "$@"
}

# hosts_pids NS: processes in network namespace NS.
hosts_pids() {
	ip netns pids "$1" 2>/dev/null | tr '\n' ' '
}

# hosts_vg_pvmd PID: true if PID is our pvmd under valgrind (lib.sh's
# PVM_TEST_VALGRIND): its name is valgrind's, its command line ends in
# ours.
hosts_vg_pvmd() {
	[ -n "${PVM_TEST_VALGRIND:-}" ] &&
	    tr '\0' '\n' <"/proc/$1/cmdline" 2>/dev/null |
	    grep -qx "$PVM_TOP_BUILDDIR/daemon/pvmd"
}

# hosts_pvmd_pids: pids of every pvmd running in a namespace of the run.
hosts_pvmd_pids() {
	local ns p out=""
	for ns in $HOSTS_NSLIST; do
		for p in $(hosts_pids "$ns"); do
			# (A zombie has ended: PID 1 may be slow to reap.)
			if { [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvmd ] ||
			    hosts_vg_pvmd "$p"; } &&
			    ! grep -q '^State:[[:space:]]*Z' \
			    "/proc/$p/status" 2>/dev/null; then
				out="$out $p"
			fi
		done
	done
	echo $out
}

# hosts_wait_no_pvmd SECS: until no pvmd is left; false on time-out.
hosts_wait_no_pvmd() {
	local n=$(($1 * 10 * ${T_SCALE:-1}))
	while [ "$n" -gt 0 ]; do
		[ -z "$(hosts_pvmd_pids)" ] && return 0
		sleep 0.1
		n=$((n - 1))
	done
	[ -z "$(hosts_pvmd_pids)" ]
}

# hosts_check_tools: root, ip netns, unshare, hostname.
hosts_check_tools() {
	local c
	[ "$(id -u)" -eq 0 ] || hosts_unsupported "not root"
	for c in ip unshare hostname sysctl; do
		command -v "$c" >/dev/null 2>&1 ||
		    hosts_unsupported "no '$c' command"
	done
	ip netns list >/dev/null 2>&1 ||
	    hosts_unsupported "'ip netns' does not work"
	unshare --uts true 2>/dev/null ||
	    hosts_unsupported "'unshare --uts' does not work"
}

# hosts_setup N: hosts h1..hN.
hosts_setup() {
	local n=$1 k j ns etc i
	hosts_check_tools
	HOSTS_N=$n
	: >"$PVMT_HOSTMAP"
	: >"$PVMT_RSHLOG"
	ip netns add "$HOSTS_BRNS" ||
	    hosts_unsupported "cannot create a network namespace"
	HOSTS_NSLIST="$HOSTS_BRNS"
	ip -n "$HOSTS_BRNS" link add br0 type bridge ||
	    hosts_unsupported "cannot create a bridge (no bridge support?)"
	# No STP and no multicast snooping: ports forward at once and IPv6
	# neighbour discovery is never filtered.
	ip -n "$HOSTS_BRNS" link set br0 type bridge stp_state 0 \
	    forward_delay 0 mcast_snooping 0 2>/dev/null
	ip -n "$HOSTS_BRNS" link set lo up
	ip -n "$HOSTS_BRNS" link set br0 up || exit 99
	k=1
	while [ "$k" -le "$n" ]; do
		ns=$(host_ns "$k")
		ip netns add "$ns" ||
		    hosts_unsupported "cannot create network namespace $ns"
		HOSTS_NSLIST="$HOSTS_NSLIST $ns"
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		    net.ipv6.conf.default.accept_dad=0 >/dev/null 2>&1 ||
		    hosts_unsupported "no IPv6 in network namespaces"
		# Both ends are created inside the run's namespaces.
		ip -n "$HOSTS_BRNS" link add "v$k" type veth \
		    peer name eth0 netns "$ns" ||
		    hosts_unsupported "cannot create a veth pair"
		ip -n "$HOSTS_BRNS" link set "v$k" master br0 up || exit 99
		ip -n "$ns" link set lo up || exit 99
		ip -n "$ns" link set eth0 up || exit 99
		ip -n "$ns" addr add "$(host_addr4 "$k")/24" dev eth0 || exit 99
		ip -n "$ns" addr add "$(host_addr6 "$k")/64" dev eth0 nodad ||
		    exit 99
		mkdir -p "$(host_tmp "$k")" || exit 99
		for i in "" -4 -6; do
			echo "h$k$i $ns $(host_tmp "$k") h$k"
		done >>"$PVMT_HOSTMAP"
		k=$((k + 1))
	done
	# Name resolution: the same hosts file in every host.
	{
		echo "127.0.0.1 localhost"
		echo "::1 localhost ip6-localhost ip6-loopback"
		j=1
		while [ "$j" -le "$n" ]; do
			echo "$(host_addr4 "$j") h$j h$j-4"
			echo "$(host_addr6 "$j") h$j h$j-6"
			j=$((j + 1))
		done
	} >"$T_TMP/hosts"
	k=1
	while [ "$k" -le "$n" ]; do
		etc=/etc/netns/$(host_ns "$k")
		# A parallel run may remove an empty /etc/netns: try again.
		for i in 1 2 3; do
			mkdir -p "$etc" 2>/dev/null && break
		done
		cp "$T_TMP/hosts" "$etc/hosts" || exit 99
		k=$((k + 1))
	done
	export PVM_RSH="$NETNS_RSH"
}

# hosts_start_master [ARGS...]: our pvmd on h1, PVM_RSH in its
# environment; returns once it is ready.  False (after showing its log)
# if it did not start.
hosts_start_master() {
	need "$PVMD"
	if ! PVM_RSH="$NETNS_RSH" on_host 1 \
	    timeout -k 5 $((30 * ${T_SCALE:-1})) "$PVMD" "$@"; then
		echo "hosts_start_master: pvmd $* failed to start" >&2
		hosts_dump_log 1
		return 1
	fi
	if [ ! -S "$(host_vmdir 1)/sock" ] || ! host_pvmd_alive 1; then
		echo "hosts_start_master: no socket or no pvmd after start" >&2
		hosts_dump_log 1
		return 1
	fi
	return 0
}

# hosts_console K SECS OUT: the console on hK under a time limit, its
# commands on stdin; the output, prompts stripped, in OUT (raw in
# OUT.raw).  Returns the console's exit status.
hosts_console() {
	local rc
	run "$2" "$NETNS_RSH" "h$1" "$PVM_CONSOLE" >"$3.raw" 2>&1
	rc=$?
	sed 's/^\(pvm> *\)*//' "$3.raw" >"$3"
	return "$rc"
}

# hosts_kill_when_ready K: in the background, SIGKILL hK's pvmd as soon
# as the output of the next run_checks (lib.sh's $T_TMP/out.N) has a line
# "INFO: READY" (60 s at most).  $T_TMP/killed.K then says "killed PID".
# Call hosts_kill_done after that run_checks: a killer that saw no READY
# must not strike later.
HOSTS_KILLER=""
hosts_kill_done() {
	if [ -n "$HOSTS_KILLER" ]; then
		kill "$HOSTS_KILLER" 2>/dev/null
		wait "$HOSTS_KILLER" 2>/dev/null
	fi
	HOSTS_KILLER=""
}
hosts_kill_when_ready() {
	local k=$1
	: >"$T_TMP/killed.$k"
	hosts_when_ready hosts_kill_pvmd "$k"
}

# hosts_kill_pvmd K: SIGKILL hK's pvmd; $T_TMP/killed.K says "killed PID".
hosts_kill_pvmd() {
	local pid
	pid=$(host_pvmd_pid "$1")
	if [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; then
		echo "killed $pid" >"$T_TMP/killed.$1"
	fi
}

# hosts_when_ready CMD [ARG...]: in the background, run CMD as soon as the
# output of the next run_checks has a line "INFO: READY" (60 s at most);
# hosts_kill_done waits for it.
hosts_when_ready() {
	local f="$T_TMP/out.$((T_RUNS + 1))"
	(
		n=$((600 * ${T_SCALE:-1}))
		while [ "$n" -gt 0 ]; do
			grep -q '^INFO: READY' "$f" 2>/dev/null && break
			sleep 0.1
			n=$((n - 1))
		done
		[ "$n" -gt 0 ] && "$@"
	) &
	HOSTS_KILLER=$!
}

hosts_dump_log() {
	local f
	f=$(host_log "$1")
	if [ -f "$f" ]; then
		echo "---- h$1 pvmd log ($f), last 40 lines ----" >&2
		tail -n 40 "$f" >&2
		echo "---- end of h$1 log ----" >&2
	fi
}

hosts_dump_logs() {
	local k=1
	while [ "$k" -le "$HOSTS_N" ]; do
		hosts_dump_log "$k"
		k=$((k + 1))
	done
	if [ -s "$PVMT_RSHLOG" ]; then
		echo "---- netns-rsh commands ----" >&2
		cat "$PVMT_RSHLOG" >&2
	fi
}

# hosts_kill_all: SIGKILL every process in the run's namespaces (5 s at
# most).
hosts_kill_all() {
	local ns pids left n
	n=50
	while [ "$n" -gt 0 ]; do
		left=""
		for ns in $HOSTS_NSLIST; do
			pids=$(hosts_pids "$ns")
			if [ -n "$pids" ]; then
				kill -KILL $pids 2>/dev/null
				left=yes
			fi
		done
		[ -z "$left" ] && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# hosts_reset: a fresh start for the next machine of a test: nothing runs
# in any host (also no pvmd a console started by itself), no host has a
# VM directory, and the launcher's log starts again (the old one goes to
# $PVMT_RSHLOG.old).  The hosts' pvmd logs are kept.
hosts_reset() {
	local k=1
	hosts_kill_all
	while [ "$k" -le "$HOSTS_N" ]; do
		rm -rf "$(host_vmdir "$k")"
		k=$((k + 1))
	done
	cat "$PVMT_RSHLOG" >>"$PVMT_RSHLOG.old" 2>/dev/null
	: >"$PVMT_RSHLOG"
}

# hosts_teardown: kill everything in the run's namespaces, delete them.
hosts_teardown() {
	local ns
	hosts_kill_all
	for ns in $HOSTS_NSLIST; do
		ip netns del "$ns" 2>/dev/null
		rm -rf "/etc/netns/$ns"
	done
	rmdir /etc/netns 2>/dev/null
	HOSTS_NSLIST=""
}

# hosts_vg_stop: under valgrind (lib.sh's PVM_TEST_VALGRIND), SIGTERM
# the pvmds still running and give them time to end (and halt their
# tasks), so that memcheck writes its leak summaries before the SIGKILLs
# of hosts_teardown.
hosts_vg_stop() {
	local p
	[ -n "${PVM_TEST_VALGRIND:-}" ] || return 0
	p=$(hosts_pvmd_pids)
	[ -n "$p" ] || return 0
	kill -TERM $p 2>/dev/null
	hosts_wait_no_pvmd 4
}

hosts_exit() {
	local rc=$?
	if [ "$rc" -ne 0 ] || [ "$T_FAIL" -ne 0 ]; then
		hosts_dump_logs
	fi
	hosts_vg_stop
	hosts_teardown
	if command -v t_cleanup >/dev/null 2>&1; then
		(exit "$rc")
		t_cleanup
	fi
	rm -rf "$T_TMP"
	exit "$rc"
}
trap hosts_exit EXIT
