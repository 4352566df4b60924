#!/bin/sh
# t-hosts-hoster.sh: pvm_reg_hoster across hosts (network namespaces,
# lib-hosts.sh).  A hoster of ours (tasks/t_hoster.c) registers on h1's
# master and runs each slave's command through netns-rsh itself:
#
#  A. three hosts added through it (their commands carry -K and no
#     secret; one takes its so= from an '&' line of the hostfile), a
#     job across them (spawn on each, a message there and back), and
#     the hoster's answers in reverse order;
#  B. answers that fail: "PvmCantStart", a body that does not decode, an
#     answer for the first host only, no answer at all, and a result
#     line whose key is not the slave's: each host gets its error
#     (PvmCantStart) in bounded time; the slave with the wrong key is
#     refused and exits.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$TASKS/t_hoster"
TH="$TASKS/t_hoster"
ADD_TIMEOUT=8
export PVMD_ADD_TIMEOUT=$ADD_TIMEOUT
hosts_setup 4
HOSTER_PID=""

# hoster_start MODE: our hoster on h1, registered (10 s at most).
hoster_start() {
	local out="$T_TMP/hoster.$1"
	"$NETNS_RSH" h1 "$TH" serve "$1" >"$out" 2>&1 &
	HOSTER_PID=$!
	check "hoster ($1) registered" \
	    wait_for 10 grep -q registered "$out"
}

# hoster_stop: end it (its pid is the program's: netns-rsh execs).
hoster_stop() {
	[ -n "$HOSTER_PID" ] && kill "$HOSTER_PID" 2>/dev/null
	[ -n "$HOSTER_PID" ] && wait "$HOSTER_PID" 2>/dev/null
	HOSTER_PID=""
}

# machine MODE [ARGS]: a fresh master on h1 (ARGS: its own) and a
# hoster in MODE.
machine() {
	local mode=$1
	shift
	hoster_stop
	hosts_reset
	hosts_start_master "$@" || exit 99
	hoster_start "$mode"
}

# ---------------------------------------------------------------- A
# h4's options come from an '&' line of the master's hostfile.
printf '&h4 so=ms\n' >"$T_TMP/hostfile"
machine ok "$T_TMP/hostfile"
run_checks 60 "$NETNS_RSH" h1 "$TH" add 40 h2=ok h3=ok h4=ok
for k in 2 3 4; do
	check "h$k's slave was started by the hoster with -K" \
	    grep -q "^h$k: .*pvmd -S -K " "$PVMT_RSHLOG"
	pid=$(host_pvmd_pid "$k")
	check "h$k runs a pvmd (pid ${pid:-none}) in its namespace" \
	    sh -c "ip netns pids $(host_ns "$k") | grep -qx '${pid:-x}'"
done
check "no 64-hex-digit word (a secret) on any command line" \
    sh -c "! grep -Eq '[0-9a-fA-F]{64}' '$PVMT_RSHLOG'"
check "h4's so= from the hostfile's '&' line reached the hoster" \
    grep -q 'so "ms" login h4 ' "$T_TMP/hoster.ok"
check "the hoster answered in reverse order, with the wait id" \
    grep -q "answered 3 host(s), wait id [1-9]" "$T_TMP/hoster.ok"
check "the wait id of pvm_getmwid is pvm_getminfo's" \
    grep -Eq "wait id ([0-9]+) \(minfo \1\)" "$T_TMP/hoster.ok"
check "the master logged the sealed secret for each slave" \
    test "$(grep -c 'proved its one-time key' "$(host_log 1)")" -eq 3
run_checks 60 "$NETNS_RSH" h1 "$TH" job

# ---------------------------------------------------------------- B
# Refusals are immediate, silence is bounded by PVMD_ADD_TIMEOUT.
fast=$((5 * T_SCALE))
slow=$(((ADD_TIMEOUT + 6) * T_SCALE))
machine cantstart
run_checks 60 "$NETNS_RSH" h1 "$TH" add "$fast" h2=PvmCantStart \
    h3=PvmCantStart
machine garbage
run_checks 60 "$NETNS_RSH" h1 "$TH" add "$fast" h2=PvmCantStart \
    h3=PvmCantStart
check "the master logged the malformed answer" \
    grep -q "malformed SM_STHOSTACK" "$(host_log 1)"
machine partial
run_checks 60 "$NETNS_RSH" h1 "$TH" add 40 h2=ok h3=PvmCantStart
check "h3 failed for want of an answer" \
    grep -q "the hoster gave no answer for it" "$(host_log 1)"
machine nothing
run_checks 60 "$NETNS_RSH" h1 "$TH" add "$slow" h2=PvmCantStart
machine wrongkey
run_checks 60 "$NETNS_RSH" h1 "$TH" add "$slow" h2=PvmCantStart
check "h2's slave refused the master that holds another key" \
    grep -q "does not know our one-time key" "$(host_log 2)"
check "the master never took h2's link" \
    grep -q 'link from "h2" (host 2) refused' "$(host_log 1)"
h2_gone() { ! host_pvmd_alive 2; }
check "no pvmd is left on h2" wait_for 5 h2_gone
hoster_stop
finish
