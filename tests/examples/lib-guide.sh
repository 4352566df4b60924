# lib-guide.sh: sourced (after lib.sh) by the tests of the user guide's
# example programs (examples/, docs/guide.md): t-guide-examples.sh (one
# host), t-guide-install.sh (the installed sources and their Makefile)
# and t-guide-hosts.sh (three hosts from examples/hostfile).
#
#   g_home                    HOME=$T_TMP/home, its pvm3/bin/$PVM_ARCH
#                             empty: where pvm_spawn finds programs by
#                             name (call before the pvmd starts)
#   g_put DIR PROG...         copy DIR/PROG... there
#   g_run NAME SECS CMD...    run CMD under a limit, output (stdout and
#                             stderr) in $T_TMP/NAME.out, one check: it
#                             exits 0; the output is shown
#   g_hello OUT HOSTRE        checks of hello's output; HOSTRE: an ERE
#                             the child's host name must match
#   g_master OUT N [PFX]      checks of master's output with N workers;
#                             PFX: an ERE for a prefix of every line
#                             (the console's "[1:tX] ")
#   g_reduce OUT N            checks of reduce's output with N members
#   g_freduce OUT N           the same for freduce (Fortran)
#
# Every check compares with values worked out here, not with the
# program's own verdict alone.

GUIDE_SRC="$PVM_TOP_SRCDIR/examples"
GUIDE_EX="$PVM_TOP_BUILDDIR/examples"
GUIDE_C="hello hello_child master worker reduce"
GUIDE_F=""
if [ "${PVM_HAVE_FORTRAN:-no}" = yes ]; then
	GUIDE_F="freduce"
fi

g_home() {
	export HOME="$T_TMP/home"
	GUIDE_BIN="$HOME/pvm3/bin/$PVM_ARCH"
	rm -rf "$GUIDE_BIN"
	mkdir -p "$GUIDE_BIN" || exit 99
}

g_put() {
	local dir=$1 p
	shift
	for p in "$@"; do
		need "$dir/$p"
		cp "$dir/$p" "$GUIDE_BIN/$p" || exit 99
	done
}

g_run() {
	local name=$1 secs=$2 rc
	shift 2
	G_OUT="$T_TMP/$name.out"
	run "$secs" "$@" >"$G_OUT" 2>&1
	rc=$?
	echo "---- $name: $* (exit $rc)"
	cat "$G_OUT"
	echo "----"
	check "$name exits 0 (exit $rc)" test "$rc" -eq 0
}

# g_has OUT WHAT ERE: one check, a line of OUT matches ERE.
g_has() {
	check "$2" grep -Eq "$3" "$1"
}

# g_count OUT WHAT N ERE: one check, exactly N lines of OUT match ERE.
g_count() {
	local n
	n=$(grep -Ec "$4" "$1")
	check "$2 ($n of $3)" test "$n" -eq "$3"
}

g_hello() {
	local out=$1 host=$2 me
	g_has "$out" "hello prints its tid" '^hello: I am t[0-9a-f]+$'
	me=$(sed -n 's/^hello: I am \(t[0-9a-f]*\)$/\1/p' "$out")
	g_has "$out" "the child's greeting names its host ($host)" \
	    "^hello: t[0-9a-f]+ says \"hello, world from $host\"\$"
	check "the child's tid is not hello's own ($me)" \
	    sh -c "! grep -q '^hello: $me says' '$out'"
}

# The midpoint rule's sum as master computes it, from the same formula,
# to 12 digits: 3.14159265358979 (error about 8e-14 on 10^6 steps).
g_master() {
	local out=$1 n=$2 pfx=${3:-} i pi
	g_count "$out" "one 'started' line for $n workers" 1 \
	    "^${pfx}master: t[0-9a-f]+ started $n workers\$"
	i=0
	while [ "$i" -lt "$n" ]; do
		g_count "$out" "worker $i reported once" 1 \
		    "^${pfx}master: worker $i \\(t[0-9a-f]+\\) sent [0-9]\\.[0-9]{15}\$"
		i=$((i + 1))
	done
	pi=$(grep -E "^${pfx}master: pi is about " "$out" |
	    sed 's/.*master: pi is about \([0-9.]*\), error .*/\1/')
	check "master's pi ($pi) is within 1e-12 of pi" awk -v p="$pi" \
	    'BEGIN { d = p - 3.14159265358979324; if (d < 0) d = -d;
		exit !(p != "" && d < 1e-12) }'
}

# g_member_lines OUT N CALL WHERE: members 1..N-1 of a 1..1000 split
# each printed their share once, framed by CALL's [tTID] prefix; WHERE
# is what the program prints between "of N" and the colon.
g_member_lines() {
	local out=$1 n=$2 call=$3 where=$4 i=1 lo hi
	while [ "$i" -lt "$n" ]; do
		lo=$((1 + i * (1000 / n)))
		hi=$(((i + 1) * (1000 / n)))
		[ "$i" -eq $((n - 1)) ] && hi=1000
		g_count "$out" "member $i ($lo..$hi) caught by $call" 1 \
		    "^\\[t[0-9a-f]+\\] member $i of $n$where: k = $lo\\.\\.$hi\$"
		i=$((i + 1))
	done
}

# reduce N: member i sums k over its share of 1..1000; the root's line
# says "member 0 ...", the others come through pvm_catchout as "[tX] ...".
g_reduce() {
	local out=$1 n=$2
	g_has "$out" "sum of k = 500500" \
	    '^sum of k     = 500500 \(expected 500500\)$'
	g_has "$out" "sum of k^2 = 333833500" \
	    '^sum of k\^2   = 333833500 \(expected 333833500\)$'
	g_has "$out" "sum of k^3 = 250500250000" \
	    '^sum of k\^3   = 250500250000 \(expected 250500250000\)$'
	g_has "$out" "PvmMax: highest instance $((n - 1))" \
	    "^highest instance = $((n - 1)) \\(expected $((n - 1))\\)\$"
	g_has "$out" "reduce says all correct" '^reduce: all correct$'
	g_count "$out" "member 0 prints without a tid prefix" 1 \
	    "^member 0 of $n on [^ ]+: k = 1\\.\\.$((1000 / n))\$"
	g_member_lines "$out" "$n" pvm_catchout " on [^ ]+"
	g_count "$out" "pvm_catchout frames each member: BEGIN" $((n - 1)) \
	    '^\[t[0-9a-f]+\] BEGIN$'
	g_count "$out" "pvm_catchout frames each member: EOF" $((n - 1)) \
	    '^\[t[0-9a-f]+\] EOF$'
}

g_freduce() {
	local out=$1 n=$2
	g_has "$out" "count = 1000" '^count    = 1000 \(expected 1000\)$'
	g_has "$out" "sum = 500500" '^sum      = 500500 \(expected 500500\)$'
	g_has "$out" "PvmMax: largest root sqrt(1000) = 31.6227766017" \
	    '^max root = 31\.6227766017 \(expected 31\.6227766017\)$'
	g_has "$out" "freduce says all correct" '^freduce: all correct$'
	g_count "$out" "member 0 prints without a tid prefix" 1 \
	    "^member 0 of $n: k = 1\\.\\.$((1000 / n))\$"
	g_member_lines "$out" "$n" pvmfcatchout ""
}
