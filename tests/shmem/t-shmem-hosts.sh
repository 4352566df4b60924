#!/bin/sh
# t-shmem-hosts.sh: SHMEM jobs with their PEs on several hosts (network
# namespaces h1..h4, lib-hosts.sh; docs/shmem.md, "Several hosts").
# oshrun runs on h1; by default its PEs go in blocks over h1..h4 (two
# each at 8 PEs), or as -H says, and reach the PEs of other hosts through
# the agents oshrun starts there.
#  1. t_rma at 8 PEs over 4 hosts, at 3 over h1, h2:2, and at 4 all on
#     h3 (-H h3: oshrun's host has none): every put/get/p/g/iput/iget,
#     exact totals of atomics contended from every host, the lock,
#     wait_until, shmem_ptr NULL exactly for the other hosts' PEs,
#     broadcast, collect, fcollect, barriers, the heap, globals, and 3 MiB
#     puts and gets; and t_rma ctx at 4 PEs over h1 and h2: a program that
#     set a PVM context of its own.
#  2. t_to_all example, matrix (every to_all function x nreduce 1, 3,
#     1000 x five active sets) and big (reduce-scatter, 1 Mi elements)
#     across hosts, against the serial fold and the first member's bits.
#  3. The exit rules: shmem_global_exit(7) on a PE of h2 ends the job
#     with 7; broken rules met on PEs of other hosts end the job with the
#     library's line on oshrun's stderr; -H naming a host the machine
#     lacks, or one host twice, or counts that do not add up: status 2;
#     a program that h2's agent cannot run: 127, naming PE and host.
#  4. h3's pvmd is SIGKILLed while the PEs barrier in a loop: oshrun
#     exits 1 within 30 s naming h3, and no PE is left anywhere.  Then
#     oshrun itself is SIGKILLed under such a job: its agents stop their
#     PEs, and none is left.
#  5. With Fortran: frma.f90 (puts, gets, atomics, collectives) at 5 PEs
#     over the four hosts.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
OSH_OWN_PVMD=yes
OSH_ON="$NETNS_RSH h1"
. "$PVM_TOP_SRCDIR/tests/shmem/lib-shmem.sh"
need "$PVMD" "$SHTESTS/t_rma" "$SHTESTS/t_to_all" "$SHTESTS/t_rules" \
    "$PVM_TOP_BUILDDIR/tests/shmem/fakepe"
hosts_setup 4
printf 'h2\nh3\nh4\n' >"$T_TMP/hostfile"
check "master pvmd on h1 with h2..h4 started" \
    hosts_start_master "$T_TMP/hostfile"

# ---- 1. one-sided calls and the other collectives
osh_checks 120 8 "$SHTESTS/t_rma"
osh_checks 120 3 -H h1,h2:2 "$SHTESTS/t_rma"
osh_checks 120 4 -H h3 "$SHTESTS/t_rma"
# A program that sets a PVM context of its own: the library's messages
# to the agents and to oshrun still go in the base context.
osh_checks 120 4 -H h1:2,h2:2 "$SHTESTS/t_rma" ctx

# ---- 2. to_all
osh_checks 60 8 "$SHTESTS/t_to_all" example
osh_checks 300 8 "$SHTESTS/t_to_all" matrix
osh_checks 300 6 -H h1,h2,h3 "$SHTESTS/t_to_all" big

# ---- 3. exit statuses and rules across hosts
run 60 $OSH_ON "$OSHRUN" -np 4 -H h1:1,h2:3 "$SHTESTS/t_rma" exit \
    >"$T_TMP/exit.out" 2>&1
rc=$?
cat "$T_TMP/exit.out"
check "shmem_global_exit(7) on PE 1 of h2 ends the job with status 7 (got $rc)" \
    test "$rc" -eq 7
check "oshrun names PE 1 on h2" \
    grep -q "^oshrun: PE 1 (pid [0-9]* on h2) ended the job with status 7" \
    "$T_TMP/exit.out"
R="$SHTESTS/t_rules"
SUM="shmem_int_sum_to_all"
osh_fails 60 4 "PE [0-9]: $SUM: .*other arguments" -H h1:2,h2:2 "$R" nreduce
osh_fails 60 4 "PE 3: $SUM: pSync word [0-9]* (byte [0-9]*) holds 7, not SHMEM_SYNC_VALUE" -H h1:1,h4:3 "$R" psync
osh_fails 60 3 "PE [0-9]: shmem_int_p: PE 3 does not exist" -H h1,h2,h3 "$R" nope
run 60 $OSH_ON "$OSHRUN" -np 2 -H h2 "$T_TMP/no/such/prog" \
    >"$T_TMP/noexec.out" 2>&1
rc=$?
cat "$T_TMP/noexec.out"
check "a program h2's agent cannot run: status 127 (got $rc)" \
    test "$rc" -eq 127
check "oshrun names PE and host" \
    grep -q "^oshrun: cannot run .*/no/such/prog for PE [01] on h2: No such file" \
    "$T_TMP/noexec.out"
for bad in "h9" "h2,h2" "h1:1,h2:1"; do
	run 30 $OSH_ON "$OSHRUN" -np 4 -H "$bad" "$SHTESTS/t_rma" \
	    >"$T_TMP/bad.out" 2>&1
	rc=$?
	check "-H $bad: status 2 (got $rc), $(head -n 1 "$T_TMP/bad.out")" \
	    test "$rc" -eq 2
done

# ---- 4. a host dies under a job
MARK="oshhosts$$"
t0=$(date +%s)
hosts_kill_when_ready 3
# (as run_checks would, so that the killer sees READY in out.N)
T_RUNS=$((T_RUNS + 1))
T_OUT="$T_TMP/out.$T_RUNS"
run 60 $OSH_ON "$OSHRUN" -np 8 "$SHTESTS/t_rma" hang "$MARK" >"$T_OUT" 2>&1
rc=$?
cat "$T_OUT"
hosts_kill_done
t1=$(date +%s)
check "the script killed h3's pvmd ($(cat "$T_TMP/killed.3"))" \
    grep -q '^killed ' "$T_TMP/killed.3"
check "oshrun exits 1 (got $rc) within 30 s (took $((t1 - t0)) s)" \
    test "$rc" -eq 1 -a $((t1 - t0)) -le 30
check "oshrun says it lost h3" \
    grep -q "^oshrun: the virtual machine lost host h3 (PEs 4..5)\|^oshrun: the agent left, on host h3 (PEs 4..5)" "$T_OUT"
sleep 1
check "no PE is left (pgrep $MARK: $(pgrep -f "$MARK" | tr '\n' ' '))" \
    test -z "$(pgrep -f "$MARK")"

# oshrun SIGKILLed: on h1 (h3 is gone) its agents on h2 and h4 notice
$OSH_ON "$OSHRUN" -np 6 -H h1,h2,h4 "$SHTESTS/t_rma" hang "$MARK" \
    >"$T_TMP/killosh.out" 2>&1 &
n=0
while [ "$n" -lt 300 ] && ! grep -q '^INFO: READY' "$T_TMP/killosh.out"; do
	sleep 0.1
	n=$((n + 1))
done
osh=$(pgrep -f "oshrun -np 6 -H h1,h2,h4")
check "oshrun started PEs on h1, h2, h4 (oshrun pid $osh)" \
    test -n "$osh" -a "$(pgrep -f "$MARK" | wc -l)" -ge 6
kill -KILL $osh 2>/dev/null
wait
n=0
while [ "$n" -lt 100 ] && [ -n "$(pgrep -f "$MARK")" ]; do
	sleep 0.1
	n=$((n + 1))
done
check "after oshrun's SIGKILL no PE is left within 10 s (left: $(pgrep -f "$MARK" | tr '\n' ' '))" \
    test -z "$(pgrep -f "$MARK")"

# oshrun SIGKILLed before the table: PE 1 of h2 (fakepe late) has not
# said hello; the agents of h2 and h1 must notice oshrun's end all the
# same and stop their PEs
FAKE="$PVM_TOP_BUILDDIR/tests/shmem/fakepe"
MARK2="oshlate$$"
$OSH_ON "$OSHRUN" -np 3 -H h1:1,h2:2 "$FAKE" "$MARK2" late 2 \
    >"$T_TMP/late.out" 2>&1 &
n=0
while [ "$n" -lt 300 ] && [ "$(pgrep -f "^$FAKE $MARK2" | wc -l)" -lt 3 ]; do
	sleep 0.1
	n=$((n + 1))
done
osh=$(pgrep -f "oshrun -np 3 -H h1:1,h2:2")
check "oshrun started 3 fakepes on h1 and h2 (oshrun pid $osh)" \
    test -n "$osh" -a "$(pgrep -f "^$FAKE $MARK2" | wc -l)" -eq 3
sleep 1
kill -KILL $osh 2>/dev/null
wait
n=0
while [ "$n" -lt 100 ] && [ -n "$(pgrep -f "^$FAKE $MARK2")" ]; do
	sleep 0.1
	n=$((n + 1))
done
check "oshrun SIGKILLed before the table: no PE left within 10 s (left: $(pgrep -f "^$FAKE $MARK2" | tr '\n' ' '))" \
    test -z "$(pgrep -f "^$FAKE $MARK2")"

# ---- 5. Fortran
if [ "${PVM_HAVE_FORTRAN:-no}" = yes ]; then
	export PVMSHMEM_INCDIR="$PVM_TOP_SRCDIR/include"
	export PVMSHMEM_LIBDIR="$PVM_TOP_BUILDDIR/shmem/.libs:$PVM_TOP_BUILDDIR/libpvm/.libs"
	if (cd "$T_TMP" && "$PVM_TOP_BUILDDIR/shmem/oshfort" -fcray-pointer \
	    -ffree-line-length-none -fallow-argument-mismatch \
	    "$PVM_TOP_SRCDIR/tests/shmem/frma.f90" -o "$T_TMP/frma") \
	    >"$T_TMP/frma.cc" 2>&1; then
		osh_checks 240 5 "$T_TMP/frma"
		check "frma at 5 PEs over 4 hosts: every PE got to the end" \
		    test "$(grep -c '^PE [0-9]*: done$' "$T_OUT")" -eq 5
	else
		cat "$T_TMP/frma.cc"
		fail "frma.f90 does not compile"
	fi
else
	echo "INFO: configured without Fortran: frma.f90 not run"
fi
finish
