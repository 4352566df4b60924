#!/bin/sh
# t-shmem-agent.sh: the agents of a multi-host SHMEM job against requests
# they must not do (docs/shmem.md, "Several hosts"), on two hosts h1 and
# h2 (network namespaces, lib-hosts.sh); oshrun on h1, 4 PEs, 2 per host.
#  1. A rogue task of the same user (rogue.c, on h2), no PE of the job,
#     sends every agent short, garbage, oversized and well-formed
#     requests, oshrun's own tags and a forged notify that oshrun left,
#     and a flood, while the job waits; then the job (t_agent after)
#     checks that nothing changed and that puts, gets, strided gets and
#     atomics across the hosts are exact.  It must end with status 0,
#     and each agent must have said what it dropped, naming the rogue,
#     in a bounded number of lines.
#  2. PE 0 asks the agent of h2 for what it must not do (t_agent short,
#     badget, badput: the requests a damaged library would send): the
#     agent refuses, and PE 0 ends the job with the library's line
#     naming its call and the agent's reason, nonzero, within 30 s; the
#     agent says nothing and stays until oshrun stops it.  And two bad
#     calls that PE 0's library stops before any request (t_agent
#     nonsym, overflow: a strided put whose span wraps round).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
OSH_OWN_PVMD=yes
OSH_ON="$NETNS_RSH h1"
. "$PVM_TOP_SRCDIR/tests/shmem/lib-shmem.sh"
ROGUE="$PVM_TOP_BUILDDIR/tests/shmem/rogue"
need "$PVMD" "$SHTESTS/t_agent" "$ROGUE"
hosts_setup 2
printf 'h2\n' >"$T_TMP/hostfile"
check "master pvmd on h1 with h2 started" \
    hosts_start_master "$T_TMP/hostfile"

# ---- 1. a rogue task during a job
GO="$T_TMP/go"
OUT="$T_TMP/after.out"
run 120 $OSH_ON "$OSHRUN" -np 4 -H h1:2,h2:2 "$SHTESTS/t_agent" after "$GO" \
    >"$OUT" 2>&1 &
osh=$!
n=0
while [ "$n" -lt 300 ] && ! grep -q '^INFO: READY' "$OUT"; do
	sleep 0.1
	n=$((n + 1))
done
run 60 $NETNS_RSH h2 "$ROGUE" >"$T_TMP/rogue.out" 2>&1
cat "$T_TMP/rogue.out"
touch "$GO"
wait "$osh"
rc=$?
add_checks "$OUT"
rogue=$(sed -n 's/^ROGUE: \(t[0-9a-f]*\) sent [0-9]* messages to 2 agents$/\1/p' \
    "$T_TMP/rogue.out")
check "the rogue found the job's 2 agents and sent them its messages" \
    test -n "$rogue"
check "the job ends with status 0 (got $rc)" test "$rc" -eq 0
check "the job's 3 groups of checks passed" \
    test "$(grep -c '^PASS: ' "$OUT")" -eq 3
for what in "not a PE of this job" "not from oshrun" \
    "not the pvmd's notify that oshrun left"; do
	check "an agent dropped a message of the rogue: $what" \
	    grep -q "^oshrun agent t[0-9a-f]*: dropped a message from $rogue (tag 0x[0-9a-f]*, [0-9]* bytes): $what\$" \
	    "$OUT"
done
check "each agent counted the rest ($(grep -c 'dropped [0-9]* messages in all' "$OUT") lines)" \
    test "$(grep -c '^oshrun agent t[0-9a-f]*: dropped 5[0-9][0-9] messages in all$' "$OUT")" -eq 2
lines=$(grep -c '^oshrun agent' "$OUT")
check "the agents' lines stay bounded ($lines for 2 agents)" \
    test "$lines" -le 44
check "no other line on the job's output" \
    test -z "$(grep -v -E '^(PASS: |INFO: READY|\(3 groups|oshrun agent t)' "$OUT")"

# ---- 2. a PE's bad requests
# osh_fails, and the agents stayed until oshrun stopped them.
bad_call() {
	osh_fails "$@"
	check "  ... and no agent left before oshrun stopped it" \
	    test -z "$(grep 'agent left' "$T_TMP/fails.err")"
}
T="$SHTESTS/t_agent"
R="the agent (t[0-9a-f]*) of PE [23]'s host refused a request of this PE"
bad_call 30 4 "^libpvmshmem: PE 0: shmem_long_get: $R .*: a request: shorter than a request\$" \
    -H h1:2,h2:2 "$T" short h2 3
bad_call 30 4 "^libpvmshmem: PE 0: shmem_long_get: $R .*: a get (op 2, count 8, width 0) at heap+0x1000000000000000 of PE 3: bytes outside the region\$" \
    -H h1:2,h2:2 "$T" badget h2 3
bad_call 30 4 "^libpvmshmem: PE 0: shmem_long_wait_until: $R .*: a put (op 1, count 8, width 0) at region?+0x0 of PE 3: an unknown region\$" \
    -H h1:2,h2:2 "$T" badput h2 3
bad_call 30 4 "^libpvmshmem: PE 0: shmem_long_iput: 3 elements of 8 bytes at a stride of 1152921504606846976 overflow the address space\$" \
    -H h1:2,h2:2 "$T" overflow 3
bad_call 30 4 "^libpvmshmem: PE 0: shmem_putmem: .* is not symmetric" \
    -H h1:2,h2:2 "$T" nonsym 3
finish
