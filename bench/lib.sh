# lib.sh: sourced by bench/run.sh, run-reduce.sh and run-netpipe.sh.
# Starts and stops the two daemons a benchmark compares, each in a private PVM_TMP
# under $work: ours ($build/daemon/pvmd) and Debian's PVM 3.4.6
# (/usr/bin/pvmd, which stays in the foreground, so it runs in the
# background).  Both stay in the benchmark's session, as each does when
# started from a shell (docs/performance-reduce.md, "Sessions and the
# scheduler"), so each is stopped with whatever runs under its PVM_TMP.
#
# Needs $work and $build.  Sets OURS_TMP and PVM_TMP346 (a caller may
# point them elsewhere before a start), ours_pid and pvm346_pid.

OURS_TMP="$work/ours"
PVM_TMP346="$work/pvm346"
ours_pid=""
pvm346_pid=""

# start_ours: our pvmd; it detaches once ready and writes its pid.
start_ours() {
	mkdir -p "$OURS_TMP"
	PVM_TMP="$OURS_TMP" "$build/daemon/pvmd" || exit 1
	ours_pid=$(cat "$OURS_TMP"/pvm-*/pid 2>/dev/null)
	[ -n "$ours_pid" ] || { echo "our pvmd did not start" >&2; exit 1; }
}

# tmp_pids DIR: the processes but this shell whose environment holds
# PVM_TMP=DIR (a daemon, its tasks and theirs), as the tests' vm_pids:
# take the list whole before acting on it; grep runs without PVM_TMP.
tmp_pids() {
	local f p
	for f in $(env -u PVM_TMP grep -lzxF "PVM_TMP=$1" \
	    /proc/[0-9]*/environ 2>/dev/null); do
		p=${f#/proc/}
		p=${p%/environ}
		[ "$p" = "$$" ] || echo "$p"
	done
}

# stop_daemon PID DIR: TERM PID (nothing if empty), then KILL whatever
# still runs under PVM_TMP=DIR; empty DIR.
stop_daemon() {
	local pids
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null
	sleep 0.3
	pids=$(tmp_pids "$2")
	[ -z "$pids" ] || kill -KILL $pids 2>/dev/null
	rm -rf "${2:?}"/*
}

stop_ours() {
	stop_daemon "$ours_pid" "$OURS_TMP"
	ours_pid=""
}

# start_pvm346: PVM 3.4.6's pvmd.  Its default spawn path has no pvmgs;
# Debian keeps that in /usr/lib/pvm3/lib, so the host file adds it.
start_pvm346() {
	mkdir -p "$PVM_TMP346"
	printf '* ep=/usr/lib/pvm3/lib\n' >"$work/hosts346"
	PVM_TMP="$PVM_TMP346" PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1 \
	    /usr/bin/pvmd "$work/hosts346" >>"$work/pvm346.out" 2>&1 &
	pvm346_pid=$!
	for _ in $(seq 50); do
		ls "$PVM_TMP346"/pvmd.* >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "PVM 3.4.6 pvmd did not start" >&2
	exit 1
}

stop_pvm346() {
	stop_daemon "$pvm346_pid" "$PVM_TMP346"
	pvm346_pid=""
}

stop_all() {
	stop_ours
	stop_pvm346
}

# target TEXT RATIO OP LIMIT: one line of a benchmark's targets, with the
# verdict (met, NOT met, or cannot tell when RATIO is "-").  Columns:
# TARGET_W for TEXT (default 58), TARGET_RW for RATIO (default 8).
target() {
	local text=$1 r=$2 op=$3 lim=$4 verdict
	case "$r" in
	-) verdict="cannot tell (missing figure)" ;;
	*) verdict=$(awk -v r="$r" -v l="$lim" -v op="$op" 'BEGIN {
		ok = (op == "<=") ? (r <= l) : (r >= l)
		print (ok ? "met" : "NOT met") }') ;;
	esac
	printf "  %-${TARGET_W:-58}s %${TARGET_RW:-8}s (%s %s)  %s\n" \
	    "$text" "$r" "$op" "$lim" "$verdict"
}
