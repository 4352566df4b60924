#!/bin/sh
# t-soak-rings.sh: the soak of t-soak.sh with every route between tasks
# of the host on shared-memory rings (PVM_SHM=all: PvmAllowDirect tasks
# open routes too, so incarnations switch paths often), shorter
# (SOAK_SECONDS, 20 by default) and without the self-check t-soak.sh
# already makes.  Rings are opt-in because a soak under heavy load once
# delivered one pair's messages out of order with them (docs/compat.md);
# this keeps them under the same scrutiny as sockets, and a failure
# names the pair (t_soak prints it into the pvmd log, dumped below).
# While the soak runs, the workers must be seen mapping route segments,
# so a soak that silently ran on sockets fails.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
SOAK_SECONDS=${SOAK_SECONDS:-20}
. "$PVM_TOP_SRCDIR/tests/integration/lib-soak.sh"
need "$TASKS/t_soak" "$PVMGS_PATH"

# rings_seen: how many of our soak's workers (their PVM_TMP is ours)
# map a route segment now.
rings_seen() {
	local p n=0
	for p in $(pgrep -f "t_soak worker" 2>/dev/null); do
		(tr '\0' '\n' <"/proc/$p/environ") 2>/dev/null |
		    grep -qx "PVM_TMP=$T_TMP" &&
		    grep -q 'memfd:pvm-route' "/proc/$p/maps" 2>/dev/null &&
		    n=$((n + 1))
	done
	echo "$n"
}

# rings_watch FILE: sample rings_seen every second, the largest to FILE.
rings_watch() {
	local best=0 n
	while sleep 1; do
		n=$(rings_seen)
		[ "$n" -gt "$best" ] && best=$n && echo "$best" >"$1"
	done
}

export PVM_SHM=all
start_pvmd
pid=$(pvmd_pid)
soak_warmup
soak_baseline "h1:$pid"
echo 0 >"$T_TMP/rings"
rings_watch "$T_TMP/rings" &
watcher=$!
soak_main
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
n=$(cat "$T_TMP/rings")
check "workers used rings during the soak (at most $n mapped route segments at once)" \
    [ "$n" -ge 2 ]
check "pvmd alive after the soak" pvmd_alive
soak_compare
finish
