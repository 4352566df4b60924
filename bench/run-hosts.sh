#!/bin/bash
# run-hosts.sh: the cross-host benchmark of issue 9.  Builds four hosts
# h1..h4 as network namespaces of this machine (tests/integration/
# lib-hosts.sh, through bench/lib-hosts-bench.sh), then, in each round,
# runs one virtual machine over them with our pvmd and one with Debian's
# PVM 3.4.6, and measures with the same programs built against each:
#
#   * bench/hostfail.c: pvm_addhosts of h2 h3 h4 from a task on h1; a
#     task on h1 asks pvm_notify(PvmHostDelete) on h4, h4's pvmd is
#     SIGKILLed, time from the kill to the notify (PVM 3.4.6: bounded);
#     ours also with h4's network cut (eth0 down in h4's namespace) and
#     PVMD_HOST_TIMEOUT=5, the silence path
#   * bench/pingpong.c -x: 8-byte round trip and 16 MiB bandwidth
#     (PvmDataRaw) between a task on h1 and its partner on h3 (ours:
#     slave to master), h2 and h3 (ours: slave to slave, through the
#     master) through the daemons, and h1-h3 with PvmRouteDirect
#   * bench/reduce.c -H: pvm_reduce(PvmSum, PVM_DOUBLE) of 1, 1,024 and
#     1,048,576 doubles and back-to-back pvm_barrier, 16 tasks, 4 on each
#     host
#
# and prints the medians over the rounds, the ratios ours/PVM 3.4.6 and
# the issue's targets.
#
#   bench/run-hosts.sh [BUILDDIR [ROUNDS]]   (default: _build, 3 rounds)
#
# Environment: NOTICE_BOUND (s, default 240): how long to wait for PVM
# 3.4.6 to notice the killed host; past it the figure is "> bound", and
# later rounds do not wait again.  R16 (default 5): 16 MiB round trips
# per run (after R16 / 10 + 2 more for warm-up).
#
# Needs root, `ip netns` and Debian's pvm and pvm-dev.  Everything runs in
# the run's namespaces: the master pvmds through `ip netns exec`, the
# slaves through the launchers (ours: tests/integration/netns-rsh; PVM
# 3.4.6: bench/pvm346-rsh).  The EXIT trap kills every process in them
# and deletes them.  Nothing here is a pass/fail test: the machine is
# shared and noisy, so compare the ratios of one run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd) || exit 1
ROUNDS=${2:-3}
BOUND=${NOTICE_BOUND:-240}
R16=${R16:-5}
HOSTS4=h1,h2,h3,h4
CC=${CC:-cc}
CFLAGS="-O2 -std=gnu11 -Wall -Wextra"
TLIM=60      # s for one program (reduce of 1,048,576 doubles: TLIM_BIG)
TLIM_BIG=120

for f in "$build/daemon/pvmd" "$build/libgpvm/pvmgs" \
    "$build/libpvm/.libs/libpvm3.so" "$build/libgpvm/.libs/libgpvm3.so" \
    /usr/bin/pvmd /usr/include/pvm3.h /usr/lib/pvm3/lib/pvmgs \
    /usr/lib/x86_64-linux-gnu/libpvm3.so.3 \
    /usr/lib/x86_64-linux-gnu/libgpvm3.so.3; do
	[ -e "$f" ] || { echo "run-hosts.sh: no $f" >&2; exit 1; }
done

# ---- the hosts (also sets T_TMP, our work directory, and the trap) ----
. "$top/bench/lib-hosts-bench.sh"
work=$T_TMP
RSH346="$top/bench/pvm346-rsh"
export PVMB_RSHLOG="$work/rsh346.log"

# ---- build: one source, each implementation's headers and libraries ----
build_all() {
	local libs="$build/libgpvm/.libs:$build/libpvm/.libs" p
	$CC $CFLAGS -o "$work/rawsock" "$top/bench/rawsock.c" || exit 1
	for p in pingpong hostfail reduce; do
		$CC $CFLAGS -I"$top/include" -o "$work/$p.ours" \
		    "$top/bench/$p.c" -L"$build/libgpvm/.libs" \
		    -L"$build/libpvm/.libs" -Wl,-rpath,"$libs" \
		    $([ $p = reduce ] && echo -lgpvm3) -lpvm3 || exit 1
		# No -I: /usr/include/pvm3.h is PVM 3.4.6's.
		$CC $CFLAGS -o "$work/$p.pvm346" "$top/bench/$p.c" \
		    $([ $p = reduce ] &&
		    echo /usr/lib/x86_64-linux-gnu/libgpvm3.so.3) \
		    /usr/lib/x86_64-linux-gnu/libpvm3.so.3 || exit 1
	done
}

# ---- running things on the hosts ----
# on_ours K SECS CMD...: CMD on hK for our machine (PVM_TMP: hK's own).
on_ours() {
	local k=$1 secs=$2
	shift 2
	on_host "$k" timeout -k 5 "$secs" "$@"
}

# on_pvm346 K SECS CMD...: CMD on hK for PVM 3.4.6's machine, whose
# PVM_TMP on every host is the host's own plus /pvm346 (pvm346-rsh).
on_pvm346() {
	local k=$1 secs=$2
	shift 2
	PVM_ROOT=/usr/lib/pvm3 PVM_ARCH=LINUX64 PVM_ALLOW_ROOT=yes \
	    PVM_RSH="$RSH346" on_host "$k" sh -c \
	    'PVM_TMP=$PVM_TMP/pvm346; export PVM_TMP; exec "$@"' sh \
	    timeout -k 5 "$secs" "$@"
}

# ns_pvmd_pid K: the pvmd running in hK's namespace (either system's).
ns_pvmd_pid() {
	local p
	for p in $(hosts_pids "$(host_ns "$1")"); do
		if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvmd ]; then
			echo "$p"
			return 0
		fi
	done
}

# start_ours [ENV=VALUE...]: our master pvmd on h1 (PVM_RSH netns-rsh).
start_ours() {
	(
		for a in "$@"; do
			export "${a?}"
		done
		PVM_RSH="$NETNS_RSH" on_host 1 timeout -k 5 30 "$PVMD" \
		    >>"$work/ours.err" 2>&1
	)
	[ -S "$(host_vmdir 1)/sock" ] && return 0
	echo "== our pvmd did not start on h1; its log:"
	tail -20 "$(host_log 1)"
	return 1
}

# start_pvm346: PVM 3.4.6's master pvmd on h1; it stays in the
# foreground, so it runs in the background, in the benchmark's session
# as our master pvmd does.
# Hosts get dx= (Debian's pvmd by its path) and ep= (where pvmgs is).
start_pvm346() {
	local n=50
	mkdir -p "$(host_tmp 1)/pvm346"
	printf '* dx=/usr/bin/pvmd ep=/usr/lib/pvm3/lib\n' >"$work/hosts346"
	on_pvm346 1 1800 /usr/bin/pvmd "$work/hosts346" \
	    >>"$work/pvm346.out" 2>&1 &
	while [ $n -gt 0 ]; do
		ls "$(host_tmp 1)"/pvm346/pvmd.* >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	echo "== PVM 3.4.6's pvmd did not start on h1:"
	tail -5 "$work/pvm346.out"
	return 1
}

# stop_machine: SIGTERM every pvmd of the run (3 s to leave), then SIGKILL
# whatever is left in the hosts, and empty every host's PVM_TMP.
stop_machine() {
	local pids k
	pids=$(hosts_pvmd_pids)
	[ -n "$pids" ] && kill -TERM $pids 2>/dev/null
	hosts_wait_no_pvmd 3 || echo "== a pvmd was still running 3 s after" \
	    "SIGTERM (killed): $(hosts_pvmd_pids)"
	hosts_kill_all || echo "== processes left in the hosts after 5 s"
	for k in 1 2 3 4; do
		rm -rf "$(host_tmp "$k")"/* "$(host_tmp "$k")"/.[!.]* 2>/dev/null
	done
}

bench_cleanup() {
	hosts_kill_all >/dev/null 2>&1
}

# link_up K: bring hK's eth0 back, with its addresses (a link set down
# may drop them).
link_up() {
	local ns
	ns=$(host_ns "$1")
	ip -n "$ns" link set eth0 up
	ip -n "$ns" addr replace "$(host_addr4 "$1")/24" dev eth0
	ip -n "$ns" addr replace "$(host_addr6 "$1")/64" dev eth0 nodad
}

# ---- results ----
declare -A R
# note KEY VALUE: one round's value of a figure (a bounded wait that ran
# out, "> N", stays).
note() {
	case ${R[$1]:-} in
	">"*) ;;
	*) R[$1]+="$2 " ;;
	esac
}

# median KEY: the median of KEY's values (lower middle), or nothing.
median() {
	local v=${R[$1]:-}
	[ -n "$v" ] || return 0
	echo "$v" | tr ' ' '\n' | grep -v '^$' | sort -g |
	    awk '{x[NR] = $1} END {print x[int((NR + 1) / 2)]}'
}

# figure IMPL NAME OUTFILE WORD [FIELD]: note field FIELD (default 2) of
# OUTFILE's line that starts with WORD as IMPL_NAME; say so when there is
# none (or it is not a number: reduce's "bad").
figure() {
	local v
	v=$(awk -v w="$4" -v f="${5:-2}" \
	    '$1 == w && $f ~ /^[0-9.]+$/ {print $f; exit}' "$3")
	if [ -n "$v" ]; then
		note "$1_$2" "$v"
	else
		echo "   ($1 $2: no figure)"
		R[$1_$2_fail]=1
	fi
}

# prog IMPL K SECS OUT PROG ARGS...: one of our programs on hK, output in
# OUT (shown), stderr appended to IMPL.err; its exit status.
prog() {
	local impl=$1 k=$2 secs=$3 out=$4 p=$5 rc
	shift 5
	"on_$impl" "$k" "$secs" "$work/$p.$impl" "$@" >"$out" \
	    2>>"$work/$impl.err"
	rc=$?
	sed 's/^/   /' "$out"
	if [ $rc != 0 ]; then
		echo "   ($impl: $p $* on h$k: exit status $rc" \
		    "$([ $rc = 124 ] || [ $rc = 137 ] && echo "(time limit)"))"
	fi
	return $rc
}

# tcp_limits: bench/rawsock over TCP between h1 and h3 (tcp_rtt,
# tcp_bw): what a raw socket between two of these hosts does.
tcp_limits() {
	echo "-- raw TCP h1 <-> h3 (rawsock -tcp)"
	on_host 3 timeout -k 5 90 "$work/rawsock" -tcp-echo 7391 \
	    >/dev/null 2>>"$work/raw.err" &
	on_host 1 timeout -k 5 60 "$work/rawsock" -tcp h3 7391 \
	    >"$work/o" 2>>"$work/raw.err"
	wait $!
	grep -E '^tcp_(rtt_8|bw_16m) ' "$work/o" | sed 's/^/   /'
	figure raw tcp_rtt "$work/o" tcp_rtt_8
	figure raw tcp_bw "$work/o" tcp_bw_16m
}

# ---- one system's part of a round ----
# add_hosts IMPL: pvm_addhosts h2 h3 h4 from h1, timed (IMPL_addhosts).
add_hosts() {
	prog "$1" 1 60 "$work/o" hostfail -a h2,h3,h4
	figure "$1" addhosts "$work/o" addhosts
	grep -q '^addhosts [0-9]' "$work/o"
}

# pingpongs IMPL: h1-h3, h2-h3 through the daemons, h1-h3 direct.
pingpongs() {
	local impl=$1
	echo "-- $impl: 8 B and 16 MiB, h1 <-> h3, through the daemons"
	prog "$impl" 1 $TLIM "$work/o" pingpong -raw -h h3 -x "$R16"
	figure "$impl" h13_rtt "$work/o" rtt_8
	figure "$impl" h13_bw "$work/o" bw_16m
	echo "-- $impl: 8 B and 16 MiB, h2 <-> h3, through the daemons"
	prog "$impl" 2 $TLIM "$work/o" pingpong -raw -h h3 -x "$R16"
	figure "$impl" h23_rtt "$work/o" rtt_8
	figure "$impl" h23_bw "$work/o" bw_16m
	echo "-- $impl: 8 B and 16 MiB, h1 <-> h3, PvmRouteDirect"
	prog "$impl" 1 $TLIM "$work/o" pingpong -raw -d -h h3 -x "$R16"
	figure "$impl" h13d_rtt "$work/o" rtt_8
	figure "$impl" h13d_bw "$work/o" bw_16m
}

# restart IMPL: a fresh machine of h1..h4 (after a failed run, which may
# leave tasks blocked in a group).
restart() {
	echo "   ($1: restarting the machine)"
	stop_machine
	"start_$1" && prog "$1" 1 60 "$work/o" hostfail -a h2,h3,h4
}

# reduces IMPL: reduce and barrier, 16 tasks over the 4 hosts.  If the
# warm-up fails, the rest is not tried (its figures are missing).
reduces() {
	local impl=$1 count lim args
	echo "-- $impl: group server warm-up (16 tasks, barriers)"
	if ! prog "$impl" 1 $TLIM "$work/o" reduce -n 16 -b -r 5 -H $HOSTS4
	then
		echo "   ($impl: no reduce or barrier figures this round)"
		restart "$impl"
		return 1
	fi
	for count in 1 1024 1048576; do
		echo "-- $impl: pvm_reduce of $count doubles, 4 hosts x 4 tasks"
		lim=$TLIM args=()
		[ $count = 1048576 ] && lim=$TLIM_BIG args=(-r 5 -W 1)
		prog "$impl" 1 $lim "$work/o" reduce -n 16 -c $count \
		    "${args[@]}" -H $HOSTS4 || restart "$impl"
		# "reduce N COUNT MEDIAN_US ...", "barrier N MEDIAN_US ..."
		figure "$impl" "reduce_$count" "$work/o" reduce 4
	done
	echo "-- $impl: pvm_barrier back to back, 4 hosts x 4 tasks"
	prog "$impl" 1 $TLIM "$work/o" reduce -n 16 -b -H $HOSTS4 ||
	    restart "$impl"
	figure "$impl" barrier "$work/o" barrier 3
}

# notice IMPL NAME ORDER [SECS]: hostfail -n h4 on h1; once it is READY
# the ORDER ("kill" SIGKILLs h4's pvmd; "cut" sets h4's eth0 down) is
# given; the time to the PvmHostDelete notify is IMPL_NAME.  Returns 2
# if the notify did not come within SECS (default 60).
notice() {
	local impl=$1 name=$2 order=$3 secs=${4:-60} n=300 pid rc=0
	rm -f "$work/go" "$work/o"
	prog "$impl" 1 $((secs + 90)) "$work/o" hostfail -n h4 \
	    -g "$work/go" -t "$secs" &
	while [ $n -gt 0 ] && ! grep -q '^READY' "$work/o" 2>/dev/null; do
		sleep 0.1
		n=$((n - 1))
	done
	if [ "$order" = kill ]; then
		pid=$(ns_pvmd_pid 4)
		if [ -n "$pid" ]; then
			echo "kill $pid" >"$work/go.t"
		else
			echo "   (no pvmd found on h4)"
			echo "run false" >"$work/go.t"
		fi
	else
		echo "run ip -n $(host_ns 4) link set eth0 down" >"$work/go.t"
	fi
	mv "$work/go.t" "$work/go"
	wait $!
	if grep -q '^notice timeout' "$work/o"; then
		R[${impl}_$name]="> $((secs * 1000))"
		rc=2
	else
		figure "$impl" "$name" "$work/o" notice
	fi
	[ "$order" = cut ] && link_up 4
	return $rc
}

pvm346_notice_done=0

round() {
	local r=$1
	echo "== round $r: the limits (load $(cut -d' ' -f1-3 /proc/loadavg))"
	tcp_limits
	echo "== round $r: ours (load $(cut -d' ' -f1-3 /proc/loadavg))"
	if start_ours; then
		add_hosts ours &&
		    { pingpongs ours; reduces ours; notice ours kill kill; }
	fi
	stop_machine
	echo "-- ours: h4's network cut, PVMD_HOST_TIMEOUT=5"
	if start_ours PVMD_HOST_TIMEOUT=5; then
		prog ours 1 60 "$work/o" hostfail -a h2,h3,h4 &&
		    notice ours cut cut 60
	fi
	stop_machine

	echo "== round $r: PVM 3.4.6 (load $(cut -d' ' -f1-3 /proc/loadavg))"
	if start_pvm346; then
		if add_hosts pvm346; then
			pingpongs pvm346
			reduces pvm346
			if [ $pvm346_notice_done = 0 ]; then
				echo "-- pvm346: waiting up to $BOUND s for the" \
				    "killed host to be noticed"
				notice pvm346 kill kill "$BOUND"
				[ $? = 2 ] && pvm346_notice_done=1
			fi
		fi
	fi
	stop_machine
}

# ---- main ----
build_all
hosts_setup 4
echo "== $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg); hosts" \
    "$(host_ns 1)..$(host_ns 4), $HOSTS_NET4.0/24"
for r in $(seq "$ROUNDS"); do
	round "$r"
done
echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- summary ----
# val KEY: the median, "> N" for a bounded wait that ran out, or n/a.
val() {
	case ${R[$1]:-} in
	">"*) echo "${R[$1]}" | tr -d ' ' ;;
	"") echo n/a ;;
	*) median "$1" ;;
	esac
}

# ratio A B: val(A) / val(B) (2 decimals, 3 below 1), "<x" when B ran
# out (then A / B's bound), or n/a.
ratio() {
	local a b
	a=$(val "$1") b=$(val "$2")
	case "$a$b" in
	*n/a* | *">"*">"*) echo n/a ;;
	">"*) echo n/a ;;
	*">"*) awk -v a="$a" -v b="${b#>}" 'BEGIN { printf "<%.2g", a / b }' ;;
	*) awk -v a="$a" -v b="$b" \
	    'BEGIN { printf (a >= b ? "%.2f" : "%.3f"), a / b }' ;;
	esac
}

# verdict RATIO OP LIMIT: met, NOT met, or "-".
verdict() {
	local r=$1 op=$2 lim=$3
	[ -n "$op" ] || { echo "-"; return; }
	case "$r" in
	n/a) echo "cannot tell" ;;
	"<"*) awk -v r="${r#<}" -v l="$lim" -v op="$op" 'BEGIN {
	    print (op == "<=" && r <= l) ? "met" : "cannot tell" }' ;;
	*) awk -v r="$r" -v l="$lim" -v op="$op" 'BEGIN {
	    ok = (op == "<=") ? (r <= l) : (r >= l)
	    print ok ? "met" : "NOT met" }' ;;
	esac
}

echo
echo "== summary: medians over $ROUNDS round(s); 4 hosts (network" \
    "namespaces) on one machine"
fmt='%-42s %10s %10s %8s  %-15s %-11s %s\n'
printf "$fmt" figure ours pvm346 ours/pvm "target" verdict \
    "raw TCP h1-h3 (ours/it)"
# row WHAT OURS PVM [OP LIMIT [WHY [TCP]]]: one figure.
row() {
	local what=$1 o=$2 p=$3 op=${4:-} lim=${5:-} why=${6:-} t=${7:-} r
	r=$(ratio "$o" "$p")
	printf "$fmt" "$what" "$(val "$o")" "$(val "$p")" "$r" \
	    "${op:+$op $lim $why}" "$(verdict "$r" "$op" "$lim")" \
	    "${t:+$(val "$t") ($(ratio "$o" "$t"))}"
}
row "rtt 8 B h1-h3 via daemons (us)" ours_h13_rtt pvm346_h13_rtt "<=" 0.333 \
    "" raw_tcp_rtt
row "rtt 8 B h2-h3 via daemons (us)" ours_h23_rtt pvm346_h23_rtt "<=" 0.333 \
    "" raw_tcp_rtt
row "rtt 8 B h1-h3 direct (us)" ours_h13d_rtt pvm346_h13d_rtt "" "" "" \
    raw_tcp_rtt
row "bw 16 MiB h1-h3 via daemons (MB/s)" ours_h13_bw pvm346_h13_bw ">=" 10 \
    "" raw_tcp_bw
row "bw 16 MiB h2-h3 via daemons (MB/s)" ours_h23_bw pvm346_h23_bw ">=" 10 \
    "" raw_tcp_bw
row "bw 16 MiB h1-h3 direct (MB/s)" ours_h13d_bw pvm346_h13d_bw "" "" "" \
    raw_tcp_bw
row "reduce 1 double, 4x4 (us)" ours_reduce_1 pvm346_reduce_1 "<=" 0.333
row "reduce 1,024 doubles, 4x4 (us)" ours_reduce_1024 pvm346_reduce_1024
row "reduce 1,048,576 doubles, 4x4 (us)" ours_reduce_1048576 \
    pvm346_reduce_1048576 "<=" 0.2 "(5x)"
row "barrier, 4x4 (us)" ours_barrier pvm346_barrier
row "add 3 hosts (ms)" ours_addhosts pvm346_addhosts
row "killed host noticed (ms)" ours_kill pvm346_kill "<=" 0.1 "(10x)"
row "network cut noticed, HOST_TIMEOUT=5 (ms)" ours_cut none
echo "(ratios: ours/PVM 3.4.6 of the medians; a bandwidth ratio >= target," \
    "a time ratio <= target;"
echo " 16 MiB with PvmDataRaw; PVM 3.4.6's wait for the killed host is" \
    "bounded by $BOUND s)"
for f in raw.err ours.err pvm346.err; do
	if [ -s "$work/$f" ]; then
		echo "== stderr of the $f runs (last lines):"
		tail -8 "$work/$f"
	fi
done
exit 0
