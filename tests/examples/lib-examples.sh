# lib-examples.sh: sourced by t-examples-src.sh and t-examples-bin.sh.
# Runs PVM 3.4's own example programs (Debian's pvm-examples package) on
# a private pvmd of ours and checks each one's output against what the
# program computes.  One PASS/FAIL line per program, then the count.
#
# The programs are found by name in $EXB ($PVM_ROOT/bin/$PVM_ARCH, where
# our pvmd's spawn looks too), under PVM's own names (hello, gs, ...).
# The sources are never part of this repository: ex_fetch takes them
# from the installed package, or downloads the package with apt-get.
#
#   . "$PVM_TOP_SRCDIR/tests/examples/lib-examples.sh"
#   ex_fetch                    # $EX_PKG: the package's files (or skip)
#   start_pvmd
#   ex_check_all PROGRAM...     # one check per program
#   finish
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"

EXB="$PVM_ROOT/bin/$PVM_ARCH"
EXO="$T_TMP/out"
mkdir -p "$EXO" || exit 99
HOST=$(uname -n)
# A limit per program: generous, the slowest takes a few seconds.
EX_LIMIT=${EX_LIMIT:-60}
# The group server is ours (lib.sh exports PVMGS_PATH).

# ex_unavailable REASON: no example package.  CI requires it (tools/deps.sh
# installs it); elsewhere the test is skipped with the reason.
ex_unavailable() {
	if [ "${CI:-}" = true ]; then
		echo "ERROR: $1; CI must install Debian's pvm-examples" \
		    "(tools/deps.sh does)" >&2
		exit 1
	fi
	echo "SKIP: $1 (install Debian's pvm-examples to run this test)"
	exit 77
}

# ex_fetch: set EX_PKG to a directory holding the package's files
# (usr/bin/..., usr/share/doc/pvm-examples/...): / when it is installed,
# else a private copy downloaded with apt-get and unpacked.
ex_fetch() {
	local d deb
	EX_PKG=/
	if [ -f /usr/share/doc/pvm-examples/examples.tar.gz ]; then
		return 0
	fi
	command -v apt-get >/dev/null 2>&1 ||
		ex_unavailable "pvm-examples is not installed and there is" \
		    "no apt-get"
	d="$T_TMP/pkg"
	mkdir -p "$d" || exit 99
	if ! (cd "$d" && run 120 apt-get download pvm-examples) \
	    >"$d/apt.log" 2>&1; then
		cat "$d/apt.log"
		ex_unavailable "pvm-examples is not installed and" \
		    "'apt-get download pvm-examples' failed"
	fi
	deb=$(ls "$d"/pvm-examples_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ] || ! dpkg-deb -x "$deb" "$d/root"; then
		ex_unavailable "cannot unpack the downloaded pvm-examples"
	fi
	EX_PKG="$d/root"
}

# ex_out NAME: the output file of a run.
ex_out() {
	echo "$EXO/$1.out"
}

# ex_show: the last lines of each run since the last result, for the log.
EX_RUNS=""
ex_show() {
	local r
	for r in $EX_RUNS; do
		echo "---- output of $r (last 25 lines) ----"
		tail -n 25 "$(ex_out "$r")"
	done
	echo "----"
}

# ex_run NAME INPUT PROG ARGS...: run PROG from the shell, with INPUT as
# standard input, under the time limit; output in $(ex_out NAME).
# Returns the exit status (124/137: time limit).
ex_run() {
	local name=$1 input=$2
	shift 2
	EX_RUNS="$EX_RUNS $name"
	printf '%b' "$input" | run "$EX_LIMIT" "$@" >"$(ex_out "$name")" 2>&1
}

# ex_console NAME COMMAND: run one console command (spawn -N -> prog)
# and wait for its tasks; the console's output in $(ex_out NAME).
ex_console() {
	EX_RUNS="$EX_RUNS $1"
	echo "$2" | run "$EX_LIMIT" "$PVM_CONSOLE" >"$(ex_out "$1")" 2>&1
}

# ex_result NAME REASON: PASS when REASON is empty, else FAIL with it.
ex_result() {
	if [ -z "$2" ]; then
		ok "$1"
	else
		fail "$1: $2"
		ex_show
	fi
	EX_RUNS=""
}

# ex_status RC: text for an abnormal exit status, empty for 0.
ex_status() {
	case $1 in
	0) ;;
	124 | 137) echo "killed after the ${EX_LIMIT} s limit" ;;
	*) if [ "$1" -gt 128 ]; then
		echo "died of signal $(($1 - 128))"
	else
		echo "exit status $1"
	fi ;;
	esac
}

# ex_need FILE PATTERN WHAT: print WHAT unless FILE has a line matching
# the extended regular expression PATTERN.
ex_need() {
	grep -Eq -- "$2" "$1" || echo "$3"
}

# ex_none FILE PATTERN WHAT: print WHAT if FILE has a line matching.
ex_none() {
	! grep -Eq -- "$2" "$1" || echo "$3: $(grep -E -m1 -- "$2" "$1")"
}

# ex_first ...: the first non-empty argument (the first failure found).
ex_first() {
	local a
	for a in "$@"; do
		if [ -n "$a" ]; then
			echo "$a"
			return
		fi
	done
}

# ex_wait_for FILE PATTERN SECS: wait until FILE has a matching line.
ex_wait_for() {
	local n=$(($3 * 10))
	while [ "$n" -gt 0 ]; do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# The checks, one per program (or pair of programs that work together).
# Each reads the program's source to know the right answer: see the
# comment above each.

# hello spawns hello_other, which sends "hello, world from <host>".
ex_hello() {
	local o rc
	ex_run hello "" "$EXB/hello"
	rc=$?
	o=$(ex_out hello)
	ex_result "hello + hello_other" "$(ex_first "$(ex_status $rc)" \
	    "$(ex_need "$o" "^i'm t[0-9a-f]+$" "no 'i'm t<tid>' line")" \
	    "$(ex_need "$o" "^from t[0-9a-f]+: hello, world from $HOST\$" \
	    "no 'from t<tid>: hello, world from $HOST' line")")"
}

# master1 spawns 3 slave1 per host and multicasts 100 ones; slave i gets
# 100*i plus its left neighbour's sum: 100*(2i-1), and slave 0 gets
# 100*(nproc-1).  Each line must show the value it expects.
ex_master1() {
	local o rc bad n
	ex_run master1 "" "$EXB/master1"
	rc=$?
	o=$(ex_out master1)
	n=$(grep -c '^I got .* from [0-9]*; (expecting .*)$' "$o")
	bad=$(sed -n 's/^I got \([0-9.]*\) from [0-9]*; (expecting \([0-9.]*\))$/\1 \2/p' "$o" |
	    awk '$1 != $2 { print "got " $1 " expected " $2; exit }')
	ex_result "master1 + slave1" "$(ex_first "$(ex_status $rc)" \
	    "$(ex_need "$o" 'SUCCESSFUL' "spawn not SUCCESSFUL")" \
	    "$([ "$n" -eq 3 ] || echo "$n result lines, expected 3")" "$bad")"
}

# fmaster1: the same in Fortran (fslave1), REAL*8 results.
ex_fmaster1() {
	local o rc bad n
	ex_run fmaster1 "" "$EXB/fmaster1"
	rc=$?
	o=$(ex_out fmaster1)
	n=$(grep -c 'I got .* from .*(expected' "$o")
	bad=$(sed -n 's/.*I got *\([0-9.]*\) from *[0-9]* (expected *\([0-9.]*\) ).*/\1 \2/p' "$o" |
	    awk '$1 + 0 != $2 + 0 { print "got " $1 " expected " $2; exit }')
	ex_result "fmaster1 + fslave1" "$(ex_first "$(ex_status $rc)" \
	    "$(ex_need "$o" 'SUCCESSFUL' "spawn not SUCCESSFUL")" \
	    "$([ "$n" -eq 3 ] || echo "$n result lines, expected 3")" "$bad")"
}

# spmd / fspmd: 4 siblings pass a token round the ring (pvm_siblings);
# instance 0 prints the ring and "token ring done" when it comes back.
ex_spmd() {
	local name=$1 o rc
	ex_console "$name" "spawn -4 -> $name"
	rc=$?
	o=$(ex_out "$name")
	ex_result "$name (spawn -4 from the console)" "$(ex_first \
	    "$(ex_status $rc)" \
	    "$(ex_need "$o" 'Pass a token through the +4 +tid ring' \
	    "no 'Pass a token through the 4 tid ring'")" \
	    "$(ex_need "$o" 'token ring done' "no 'token ring done'")" \
	    "$(ex_need "$o" '^\[1\] finished' "job not finished")")"
}

# gexample (C): started from the shell it asks for the dimension (100)
# and the number of tasks (4), spawns the others; the reduces give the
# 1-norm, 1+...+100 = 5050, and column 1's product, 100! = 9.33262e+157.
ex_gexample() {
	local o rc
	ex_run gexample '100\n4\n' "$EXB/gexample"
	rc=$?
	o=$(ex_out gexample)
	ex_result "gexample (4 tasks, pvm_reduce PvmSum + user function)" \
	    "$(ex_first "$(ex_status $rc)" \
	    "$(ex_need "$o" 'Using 4 processors' "not 4 processors")" \
	    "$(ex_need "$o" 'The 1-Norm is 5050 ' "1-norm is not 5050")" \
	    "$(ex_need "$o" 'product of column 1 is 9\.33262e\+157' \
	    "product is not 100! (9.33262e+157)")" \
	    "$(ex_none "$o" 'failed|error' "an error was printed")")"
}

# fgexample: the Fortran version, 2 tasks per host, the same results.
ex_fgexample() {
	local o rc
	ex_run fgexample "" "$EXB/fgexample"
	rc=$?
	o=$(ex_out fgexample)
	ex_result "fgexample (pvmfreduce PvmSum + user function)" \
	    "$(ex_first "$(ex_status $rc)" \
	    "$(ex_need "$o" 'using +2 +processors' "not 2 processors")" \
	    "$(ex_need "$o" 'The 1-Norm is +5050$' "1-norm is not 5050")" \
	    "$(ex_need "$o" 'product of column 1 is +9\.332621544394[0-9]*E\+157' \
	    "product is not 100! (9.3326215443944E+157)")" \
	    "$(ex_none "$o" 'Trouble|ERROR|error' "an error was printed")")"
}

# trsg (C) / frsg (Fortran): asked for 4 tasks and 5 values per row, the
# root checks the sum of squares of 1..20 = 2870 computed by gather
# (Sum1) and by reduce (Sum2), and the user-defined MaxWithLoc reduce
# gives (5, 2).  frsg.f adds its rows to a PSum it never sets to 0, so
# its Sum1 is whatever the stack held: PVM 3.4.6's own libraries print
# the ERROR line (5 runs of 5 on 28 November 2026, Sum1 67934 to
# 100872), and ours did, or not, from one machine to the next.  For
# frsg only Sum2 counts; trsg.c sets its sum to 0, and checks both.
ex_trsg() {
	local name=$1 o o_err rc sum='' \
	    ok='Test OK: Sum of Squares of first +20 +integers is +2870'
	ex_run "$name" '4\n5\n' "$EXB/$name"
	rc=$?
	o=$(ex_out "$name")
	o_err=$o
	# Both exit with status 1 (trsg) or 0 (frsg): only the output counts.
	[ "$rc" -eq 1 ] && rc=0
	if [ "$name" = frsg ]; then
		grep -Eq "$ok" "$o" ||
		    sum=$(ex_need "$o" 'by Sum2 as +2870 +for both' \
		    "the reduce's sum of squares of 1..20 is not 2870")
		# The only ERROR allowed is that Sum1 line.
		grep -v 'calculated by Sum1 as .* by Sum2 as  *2870 ' "$o" \
		    >"$o.errors"
		o_err="$o.errors"
	else
		sum=$(ex_need "$o" "$ok" "sum of squares of 1..20 is not 2870")
	fi
	ex_result "$name (scatter, gather, reduce, 4 tasks)" \
	    "$(ex_first "$(ex_status $rc)" "$sum" \
	    "$(ex_need "$o" 'Test Ok: Received \( *5\.0* *, *2\.0* *\)' \
	    "MaxWithLoc did not give (5, 2)")" \
	    "$(ex_none "$o_err" 'ERROR' "an error was printed")")"
}

# bwtest (dbwtest, ibwtest, pbwtest, rbwtest): two instances pair up
# through the group bwtest, echo 100000 doubles and check them (i*i),
# then time 7 message sizes.
ex_bwtest() {
	local name=$1 o rc n
	ex_console "$name" "spawn -2 -> $name"
	rc=$?
	o=$(ex_out "$name")
	n=$(grep -c 'Roundtrip T = .* Data size:' "$o")
	ex_result "$name (spawn -2 from the console)" "$(ex_first \
	    "$(ex_status $rc)" \
	    "$([ "$(grep -c ': 100000 doubles received correctly' "$o")" \
	    -eq 2 ] || echo "not both instances validated the 100000 doubles")" \
	    "$([ "$n" -eq 7 ] || echo "$n round-trip lines, expected 7")" \
	    "$(ex_none "$o" 'error: data|Error' "an error was printed")")"
}

# timing + timing_slave: round trips and 5 bandwidth sizes over a direct
# route, then "done".  timing always exits 1.
ex_timing() {
	local o rc
	ex_run timing "" "$EXB/timing"
	rc=$?
	o=$(ex_out timing)
	[ "$rc" -eq 1 ] && rc=0
	ex_result "timing + timing_slave (direct route)" "$(ex_first \
	    "$(ex_status $rc)" \
	    "$(ex_need "$o" '^slave is task t[0-9a-f]+$' "slave did not start")" \
	    "$(ex_need "$o" '^RTT Avg uSec [0-9]+$' "no round-trip average")" \
	    "$([ "$(grep -c '^Avg Byte/uSec' "$o")" -eq 5 ] ||
	    echo "not 5 bandwidth results")" \
	    "$(ex_need "$o" '^done$' "no 'done'")" \
	    "$(ex_none "$o" "can't|error" "an error was printed")")"
}

# hitc + hitc_slave (Fortran): one slave per host works through 10
# tasks of the pool; the master prints each result and finishes.
ex_hitc() {
	local o rc
	ex_run hitc "" "$EXB/hitc"
	rc=$?
	o=$(ex_out hitc)
	ex_result "hitc + hitc_slave (pool of tasks)" "$(ex_first \
	    "$(ex_status $rc)" \
	    "$([ "$(grep -c 'I got result from tid' "$o")" -eq 10 ] ||
	    echo "not 10 results")" \
	    "$(ex_need "$o" 'Program Finished' "no 'Program Finished'")" \
	    "$(ex_none "$o" 'Error' "an error was printed")")"
}

# inherita inherit1: inherit1 and its child inherit2 run in the context
# inherita created (the "changed context"), and say so.
ex_inherit1() {
	local o rc c bad
	ex_run inherita1 "" "$EXB/inherita" inherit1
	rc=$?
	o=$(ex_out inherita1)
	c=$(sed -n 's/^inherita: .* with changed context \([0-9-]*\)\.$/\1/p' "$o" |
	    head -n 1)
	bad=$(grep -E 'inherit[12] .*with context' "$o" |
	    sed 's/.*with context \([0-9-]*\).*/\1/' | grep -vx -- "${c:-x}" |
	    head -n 1)
	ex_result "inherita inherit1 (+ inherit2: contexts inherited)" \
	    "$(ex_first "$(ex_status $rc)" \
	    "$([ -n "$c" ] || echo "no changed context printed")" \
	    "$(ex_need "$o" 'inherit2 t[0-9a-f]+ on machine' \
	    "no message from inherit2")" \
	    "$(ex_need "$o" 'END - sent from inherit1' "no END message")" \
	    "$([ -z "$bad" ] || echo "a child ran in context $bad, not $c")")"
}

# inherita inherit3: inherit3 starts in inherita's context, makes its own
# and spawns inherit2 in it: inherit2 reports inherit3's new context.
ex_inherit3() {
	local o rc c1 c2 c3
	ex_run inherita3 "" "$EXB/inherita" inherit3
	rc=$?
	o=$(ex_out inherita3)
	c1=$(sed -n 's/^inherita: .* with changed context \([0-9-]*\)\.$/\1/p' "$o" |
	    head -n 1)
	c2=$(sed -n 's/.*I just spawned inherit2 as tid t[0-9a-f]* with context \([0-9-]*\)\..*/\1/p' "$o")
	c3=$(sed -n 's/.*inherit2 t[0-9a-f]* on machine <.*> with context \([0-9-]*\)\..*/\1/p' "$o")
	ex_result "inherita inherit3 (+ inherit2: a child's new context)" \
	    "$(ex_first "$(ex_status $rc)" \
	    "$([ -n "$c1" ] && [ -n "$c2" ] && [ -n "$c3" ] ||
	    echo "a context is missing (inherita ${c1:-?}," \
	    "inherit3 ${c2:-?}, inherit2 ${c3:-?})")" \
	    "$([ "$c2" != "$c1" ] || echo "inherit3's new context is inherita's")" \
	    "$([ "$c3" = "$c2" ] || echo "inherit2 ran in $c3, not $c2")" \
	    "$(ex_need "$o" 'END - sent from inherit3' "no END message")")"
}

# inheritb: two inherit2 children in two new contexts; receives select
# by context, so each message names the context it was received in.
ex_inheritb() {
	local o rc c1 c2 r1 r2
	ex_run inheritb "" "$EXB/inheritb"
	rc=$?
	o=$(ex_out inheritb)
	c1=$(sed -n 's/.*with new #1 context \([0-9-]*\) -->.*/\1/p' "$o")
	c2=$(sed -n 's/.*with new #2 context \([0-9-]*\) -->.*/\1/p' "$o")
	r1=$(sed -n 's/.*with context \([0-9-]*\)\. <-- received from 1st.*/\1/p' "$o")
	r2=$(sed -n 's/.*with context \([0-9-]*\)\. <-- received from 2nd.*/\1/p' "$o")
	ex_result "inheritb (+ 2 x inherit2: receive by context)" \
	    "$(ex_first "$(ex_status $rc)" \
	    "$([ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ] ||
	    echo "no two distinct contexts (${c1:-?}, ${c2:-?})")" \
	    "$([ "$r1" = "$c1" ] || echo "1st message from context ${r1:-?}, not $c1")" \
	    "$([ "$r2" = "$c2" ] || echo "2nd message from context ${r2:-?}, not $c2")")"
}

# task0 offers a service in the mailbox (its tid and a new context);
# two task1 find it and each gets "you are service request number N";
# task_end sends END; task0 counts 3 requests (END included) and exits.
ex_task0() {
	local o rc pid t1 t2 te
	o=$(ex_out task0)
	EX_RUNS="$EX_RUNS task0"
	run "$EX_LIMIT" stdbuf -oL "$EXB/task0" exsvc d </dev/null >"$o" 2>&1 &
	pid=$!
	if ! ex_wait_for "$o" 'waiting for service request' 20; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		ex_result "task0 + task1 + task_end (mailbox service)" \
		    "task0 did not register its service"
		return
	fi
	ex_run task1a "" "$EXB/task1" exsvc
	t1=$?
	ex_run task1b "" "$EXB/task1" exsvc 0 d
	t2=$?
	ex_run task_end "" "$EXB/task_end" exsvc 0
	te=$?
	wait "$pid"
	rc=$?
	ex_result "task0 + task1 + task_end (mailbox service)" "$(ex_first \
	    "$(ex_status $rc)" "$(ex_status $t1)" "$(ex_status $t2)" \
	    "$(ex_status $te)" \
	    "$(ex_need "$(ex_out task1a)" 'you are service request number 1\.' \
	    "first task1 was not request 1")" \
	    "$(ex_need "$(ex_out task1b)" 'you are service request number 2\.' \
	    "second task1 was not request 2")" \
	    "$(ex_need "$o" 'END  Request number 3\.' "task0 did not get END")" \
	    "$(ex_need "$o" 'handled 3 service requests\.' \
	    "task0 did not count 3 requests")")"
}

# lmbi puts 3 persistent, overwritable entries (names t<tid>lmbi<i>) in
# the mailbox and exits; gmbi lists them; rme removes one; gmbi lists 2;
# rme of the same entry again reports that there is no such service.
# (Without "o" the entries of a task that is gone stay locked: PVM 3.4.6's
# pvmd refuses rme then, and so does ours.)  gmbi's pattern is PVM's:
# '*' is the only wildcard, and it matches anywhere in the name.
ex_mailbox() {
	local o rc r1 r2 r3 g1 g2 n1 n2 name
	ex_run lmbi "" "$EXB/lmbi" 3 po e
	rc=$?
	o=$(ex_out lmbi)
	name=$(sed -n 's/^lmbi: just inserted entry <\(.*\)> at index 0\.$/\1/p' "$o" |
	    head -n 1)
	ex_run gmbi1 "" "$EXB/gmbi" '*lmbi*'
	g1=$?
	n1=$(grep -c 'class name: <t[0-9a-f]*lmbi[0-9]>' "$(ex_out gmbi1)")
	ex_run rme1 "" "$EXB/rme" "${name:-none}" 0
	r1=$?
	ex_run gmbi2 "" "$EXB/gmbi" 'lmbi'
	g2=$?
	n2=$(grep -c 'class name: <t[0-9a-f]*lmbi[0-9]>' "$(ex_out gmbi2)")
	ex_run rme2 "" "$EXB/rme" "${name:-none}" 0
	r2=$?
	# Leave the mailbox clean for the next checks.
	for r3 in 1 2; do
		ex_run rme3 "" "$EXB/rme" "${name%0}$r3" 0
	done
	# gmbi's main returns no value: its status is whatever printf left.
	[ "$g1" -lt 124 ] && g1=0
	[ "$g2" -lt 124 ] && g2=0
	ex_result "lmbi + gmbi + rme (persistent mailbox entries)" \
	    "$(ex_first "$(ex_status $rc)" "$(ex_status $g1)" \
	    "$(ex_status $g2)" \
	    "$([ "$(grep -c 'just inserted entry' "$o")" -eq 3 ] ||
	    echo "lmbi did not insert 3 entries")" \
	    "$([ "$n1" -eq 3 ] || echo "gmbi '*lmbi*' listed $n1 entries, not 3")" \
	    "$([ "$r1" -eq 0 ] || echo "rme of $name failed ($r1)")" \
	    "$([ "$n2" -eq 2 ] || echo "gmbi 'lmbi' listed $n2 entries after rme, not 2")" \
	    "$([ "$r2" -ne 0 ] || echo "a second rme of $name succeeded")" \
	    "$(ex_need "$(ex_out rme2)" 'no service running for' \
	    "a second rme did not say 'no service running'")")"
}

# mbox: the mailbox test program.  Its exit status is the number of its
# checks that matched.  Its header lists runs with the status each should
# give; a few of those expectations predate PVM 3.4.6, whose pvmd keeps
# the persistent entries of a task that is gone locked (delete gives 0,
# not 1).  The statuses below are PVM 3.4.6's, observed with Debian's
# pvmd and this same program; the runs that need a second host or
# "pvm reset", or that only pass unknown words (excl, lock), are left out.
ex_mbox_step() {
	local want=$1 rc
	shift
	EX_MBOX_N=$((EX_MBOX_N + 1))
	ex_run "mbox.$EX_MBOX_N" "" "$EXB/mbox" "$@"
	rc=$?
	cat "$(ex_out "mbox.$EX_MBOX_N")" >>"$(ex_out mbox)"
	if [ "$rc" -ne "$want" ] && [ -z "$EX_MBOX_BAD" ]; then
		EX_MBOX_BAD="'mbox $*' gave $rc, expected $want"
	fi
}

ex_mbox() {
	local pid o
	EX_MBOX_N=0
	EX_MBOX_BAD=""
	: >"$(ex_out mbox)"
	ex_mbox_step 1
	ex_mbox_step 0 query
	o=$(ex_out mbox.bg)
	EX_RUNS="$EX_RUNS mbox.bg"
	run "$EX_LIMIT" stdbuf -oL "$EXB/mbox" sleep=3 >"$o" 2>&1 &
	pid=$!
	ex_wait_for "$o" 'Retrieved Message is a Match' 20
	ex_mbox_step 1 query 0
	ex_mbox_step 1 query
	wait "$pid" || [ $? -eq 1 ] || EX_MBOX_BAD=${EX_MBOX_BAD:-"'mbox sleep=3' failed"}
	ex_mbox_step 0 query
	ex_mbox_step 13 default
	ex_mbox_step 2 query
	ex_mbox_step 0 delete
	ex_mbox_step 29 default33 name=db33
	ex_mbox_step 1 pers
	ex_mbox_step 1 query 0
	ex_mbox_step 3 query
	ex_mbox_step 0 delete 0
	ex_mbox_step 3 query
	ex_result "mbox (the mailbox test script, $EX_MBOX_N runs)" \
	    "$(ex_first "$EX_MBOX_BAD" \
	    "$(ex_need "$(ex_out mbox)" 'Retrieved Message is "This Message Left Here By Mbox \(X\)"' \
	    "'default' did not read (X) first-available")" \
	    "$(ex_need "$(ex_out mbox)" 'First Available Lookup at Index=3 -> 123' \
	    "'default33' lookup -1 did not find 123 at 3")")"
}

# mhf_server + mhf_tickle: mhf_tickle (driven through its menus) loads an
# int handler and a string handler into mhf_server for its own messages,
# hits each with a message, and tells the server what it sent; the server
# compares with what the handler caught.  Then it stops the server.
ex_mhf() {
	local o rc pid ctx t
	o=$(ex_out mhf_server)
	EX_RUNS="$EX_RUNS mhf_server"
	run "$EX_LIMIT" stdbuf -oL "$EXB/mhf_server" </dev/null >"$o" 2>&1 &
	pid=$!
	if ! ex_wait_for "$o" 'just inserted server' 20; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		ex_result "mhf_server + mhf_tickle (message handlers)" \
		    "mhf_server did not register"
		return
	fi
	ctx=$(sed -n 's/.*with context \([0-9]*\)\.$/\1/p' "$o" | head -n 1)
	# A handler catches only what arrives after it is installed: give
	# the server time to load each one, as a person at the menu would.
	EX_RUNS="$EX_RUNS mhf_tickle"
	{
		printf '1\n77\n%s\n6\n' "$ctx"
		sleep 1
		printf '4\n77\n%s\n6\n12345\n1\n78\n%s\n1\n' "$ctx" "$ctx"
		sleep 1
		printf '4\n78\n%s\n1\nhello handler\n9\n' "$ctx"
	} | run "$EX_LIMIT" "$EXB/mhf_tickle" >"$(ex_out mhf_tickle)" 2>&1
	t=$?
	wait "$pid"
	rc=$?
	ex_result "mhf_server + mhf_tickle (message handlers)" "$(ex_first \
	    "$(ex_status $rc)" "$(ex_status $t)" \
	    "$(ex_need "$o" 'int_catcher6 received magic number -->> 12345\.' \
	    "the int handler did not catch 12345")" \
	    "$(ex_need "$o" 'HIT:  ping target 6 .*magic_numbers match 12345\.' \
	    "the server's int HIT did not match")" \
	    "$(ex_need "$o" 'string_catcher1 received message -->> <hello handler>' \
	    "the string handler did not catch the string")" \
	    "$(ex_need "$o" 'HIT:  ping target 1 .*strings match <hello handler>\.' \
	    "the server's string HIT did not match")" \
	    "$(ex_none "$o" 'NO HIT|NO match|failed' "a miss was printed")")"
}

# ge N: instance 0 (from the shell) spawns N-1 copies; all barrier,
# broadcast their (instance, tid) and check them with getinst/gettid.
# gexamp is the same program with the group named after itself.  The
# copies' output goes to the pvmd log, so the part of the log written
# during the run is checked too.
#
# Both race, under PVM 3.4.6 as here: a copy that has finished its checks
# leaves the group while another may still be checking, which then prints
# "doesn't match up" for the one that left (and libpvm's PvmAutoErr line
# for the failed pvm_getinst or pvm_gettid).  The window is a few hundred
# microseconds, but a loaded 2-core machine (make -j2 check) can hit it
# twice in a row (seen in CI), and a machine loaded far beyond its cores
# all of 8 times (a CI run beside three other jobs).  With two busy loops
# on the 2 cores, ge 4 printed the mismatch in 11 of 25 runs on PVM
# 3.4.6 and 12 of 25 on ours (25 November 2026): the race is the
# example's, not ours.  Only that symptom earns another run, up to
# EX_GRACE_RUNS in all, and the PASS line says how many it took.
EX_GRACE_RUNS=12

# ex_gcheck_once PROG SYNC_RE END_RE: run PROG 4 once; print why it
# failed (nothing when it passed).
ex_gcheck_once() {
	local prog=$1 sync=$2 end=$3 o rc logpos
	logpos=$(wc -c <"$T_LOG")
	ex_run "$prog" "" "$EXB/$prog" 4
	rc=$?
	o=$(ex_out "$prog")
	tail -c +"$((logpos + 1))" "$T_LOG" >"$o.log"
	ex_first \
	    "$(ex_status $rc)" \
	    "$(ex_need "$o" "$sync" "no sync")" \
	    "$(ex_need "$o" "$end" "no end line")" \
	    "$(ex_none "$o" "doesn't match up|spawn1|barrier|leave|^libpvm \\[" \
	    "a mismatch or error was printed")" \
	    "$(ex_none "$o.log" "doesn't match up" "a copy found a mismatch")"
}

# ex_gcheck PROG SYNC_RE END_RE: ex_gcheck_once, again after the leave
# race (any other failure ends it at once).
ex_gcheck() {
	local prog=$1 why runs=1 name="$1 4 (barrier, bcast, getinst, gettid)"
	EX_RUNS="$EX_RUNS $prog"
	why=$(ex_gcheck_once "$@")
	while [ "$runs" -lt "$EX_GRACE_RUNS" ]; do
		case "$why" in
		*"doesn't match up"* | *"pvm_getinst(): Not in group"* | \
		    *"pvm_gettid(): No such instance"*) ;;
		*) break ;;
		esac
		echo "$prog: run $runs hit the example's own leave race"
		runs=$((runs + 1))
		why=$(ex_gcheck_once "$@")
	done
	[ -z "$why" ] && [ "$runs" -gt 1 ] &&
	    name="$name, on run $runs (leave race before)"
	ex_result "$name" "$why"
}

ex_ge() {
	ex_gcheck ge 'group ge size [0-9]+ gid 0: sync' '^done$'
}

ex_gexamp() {
	ex_gcheck gexamp ' 0: sync$' ' 0: sync$'
}

# gs N: waits for N members with pvm_gsize, barrier, leave.
ex_gs() {
	local o rc
	ex_run gs "" "$EXB/gs" 4
	rc=$?
	o=$(ex_out gs)
	ex_result "gs 4 (gsize, barrier)" "$(ex_first "$(ex_status $rc)" \
	    "$(ex_none "$o" 'usage|^libpvm \[' "an error was printed")")"
}

# joinleave N: join and leave one group N+1 times, a line per 100.
ex_joinleave() {
	local o rc
	ex_run joinleave "" "$EXB/joinleave" 500
	rc=$?
	o=$(ex_out joinleave)
	ex_result "joinleave 500" "$(ex_first "$(ex_status $rc)" \
	    "$(ex_need "$o" '^Joined 500 times$' "no 'Joined 500 times'")" \
	    "$(ex_none "$o" 'JoinLeave' "an error was printed")")"
}

# thb N: join 32 groups, check them, spawn N tnb that join group0 and
# barrier with thb, which broadcasts to release them.
ex_thb() {
	local o rc
	ex_run thb "" "$EXB/thb" 3
	rc=$?
	o=$(ex_out thb)
	ex_result "thb 3 + tnb (32 groups, barrier, bcast)" "$(ex_first \
	    "$(ex_status $rc)" \
	    "$(ex_need "$o" 'barrier on group0' "no barrier on group0")" \
	    "$(ex_need "$o" '^done\.$' "no 'done.'")" \
	    "$(ex_none "$o" "I'm not myself|trouble|joining|lvgroup" \
	    "an error was printed")")"
}

# tjl: join 32 groups, check instance numbers both ways, leave them.
# tjf: the same with a 33rd group, meant to fail; PVM 3.4 has no limit on
# groups, so the join succeeds, and tjf stores its result one past the end
# of its 32-entry array: what that overwrites (often the name printed
# next) depends on the compiler.  The 32 groups must be joined and right.
ex_tj() {
	local name=$1 n=$2 o rc
	ex_run "$name" "" "$EXB/$name"
	rc=$?
	o=$(ex_out "$name")
	ex_result "$name ($n groups)" "$(ex_first "$(ex_status $rc)" \
	    "$([ "$(grep -c '^joined group' "$o")" -ge 32 ] ||
	    echo "not 32 groups joined")" \
	    "$(ex_none "$o" "I'm not myself|joining|lvgroup|getinst|gettid" \
	    "an error was printed")")"
}

# tst: join two groups (instance 0 in each) and leave them (0).
ex_tst() {
	local o rc
	ex_run tst "" "$EXB/tst"
	rc=$?
	o=$(ex_out tst)
	ex_result "tst" "$(ex_first "$(ex_status $rc)" \
	    "$(ex_need "$o" '^joined prognosis 0, negative 0$' "wrong join")" \
	    "$(ex_need "$o" '^left prognosis 0, negative 0$' "wrong leave")")"
}

# ptest 4 (source only): 4 instances spawned together join a group; 1-3
# send 10000 doubles to 0 with psend, 8 rounds, 0 checks every value.
ex_ptest() {
	local o rc
	ex_console ptest "spawn -4 -> ptest 4"
	rc=$?
	o=$(ex_out ptest)
	ex_result "ptest 4 (psend/precv and recv in a group)" "$(ex_first \
	    "$(ex_status $rc)" \
	    "$([ "$(grep -c 'Data validated from all tasks!' "$o")" -eq 8 ] ||
	    echo "not 8 rounds validated")" \
	    "$(ex_none "$o" 'failed|instead of' "an error was printed")")"
}

# starter -n 3 spmd (source only): spawns 3 spmd with their output caught
# (pvm_catchout) and polls pvm_tasks until they are gone.
ex_starter() {
	local o rc
	ex_run starter "" "$EXB/starter" -n 3 spmd
	rc=$?
	o=$(ex_out starter)
	[ "$rc" -le 1 ] && rc=0 # main returns nothing: any small status
	ex_result "starter -n 3 spmd (catchout, pvm_tasks)" "$(ex_first \
	    "$(ex_status $rc)" \
	    "$(ex_need "$o" 'Pass a token through the +3 +tid ring' \
	    "spmd's output was not caught")" \
	    "$(ex_need "$o" 'token ring done' "no 'token ring done'")" \
	    "$(ex_none "$o" 'Trouble' "an error was printed")")"
}

# ex_check PROGRAM: run the check for one program (by its main name).
ex_check() {
	if [ ! -x "$EXB/$1" ]; then
		fail "$1: not built (no $EXB/$1)"
		return
	fi
	case $1 in
	hello) ex_hello ;;
	master1) ex_master1 ;;
	fmaster1) ex_fmaster1 ;;
	spmd | fspmd) ex_spmd "$1" ;;
	gexample) ex_gexample ;;
	fgexample) ex_fgexample ;;
	trsg | frsg) ex_trsg "$1" ;;
	dbwtest | ibwtest | pbwtest | rbwtest) ex_bwtest "$1" ;;
	timing) ex_timing ;;
	hitc) ex_hitc ;;
	inherit1) ex_inherit1 ;;
	inherit3) ex_inherit3 ;;
	inheritb) ex_inheritb ;;
	task0) ex_task0 ;;
	lmbi) ex_mailbox ;;
	mbox) ex_mbox ;;
	mhf_server) ex_mhf ;;
	ge) ex_ge ;;
	gexamp) ex_gexamp ;;
	gs) ex_gs ;;
	joinleave) ex_joinleave ;;
	thb) ex_thb ;;
	tjl) ex_tj tjl 32 ;;
	tjf) ex_tj tjf 33 ;;
	tst) ex_tst ;;
	ptest) ex_ptest ;;
	starter) ex_starter ;;
	*) fail "$1: no check written for it" ;;
	esac
}

# ex_check_all PROGRAM...: every check, then a halt-free sanity check.
ex_check_all() {
	local p
	for p in "$@"; do
		ex_check "$p"
	done
	check "our pvmd is still alive after the examples" pvmd_alive
}
