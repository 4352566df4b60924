#!/bin/sh
# t-diff.sh: the differential suite.  Each probe (tests/diff/p_*.c) is
# built against PVM 3.4.6's pvm3.h and libpvm3.so.3 (Debian's pvm-dev)
# and against ours, run on a private pvmd of the same system, and the two
# records are compared line by line.  A difference fails the test unless
# tests/diff/deliberate.txt lists its case (docs/compat.md says why).
#
# Where PVM 3.4.6 is not installed, the records of it kept in
# tests/diff/ref/ stand in; under CI=true a missing reference fails.
# Regenerate them with PVM 3.4.6 installed:
#
#   DIFF_UPDATE=1 make check TESTS=tests/diff/t-diff.sh
#
# DIFF_PROBES="p_msg p_mbox" runs only those probes.
#
# PVM 3.4.6's programs run with LD_LIBRARY_PATH unset, so that they load
# its libpvm3.so.3, never ours (the same soname).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVMD" "$PVM_CONSOLE"
D="$PVM_TOP_SRCDIR/tests/diff"
LIB346=/usr/lib/x86_64-linux-gnu/libpvm3.so.3
GLIB346=/usr/lib/x86_64-linux-gnu/libgpvm3.so.3
OUR_GLIBDIR="$PVM_TOP_BUILDDIR/libgpvm/.libs"
CC=${CC:-cc}
have346=no
[ -x /usr/bin/pvmd ] && [ -f /usr/include/pvm3.h ] && [ -f "$LIB346" ] &&
    [ -f "$GLIB346" ] && have346=yes

# The case names of deliberate differences.
deliberate() {
	sed -n 's/^\([a-z_]*\) \([^ ]*\) .*/\1 \2/p' "$D/deliberate.txt"
}

# filter PROBE FILE: the records without the deliberate cases.
filter() {
	local p=$1 f=$2 c pat=""
	for c in $(deliberate | awk -v p="$1" '$1 == p { print $2 }'); do
		pat="$pat${pat:+\\|}^$c: "
	done
	if [ -n "$pat" ]; then grep -v "$pat" "$f"; else cat "$f"; fi
}

# run346 CMD...: CMD in PVM 3.4.6's world: its PVM_ROOT, a PVM_TMP of its
# own, our libraries out of the way.
run346() {
	env -u LD_LIBRARY_PATH PVM_ROOT=/usr/lib/pvm3 PVM_ARCH=LINUX64 \
	    PVM_ALLOW_ROOT=yes PVM_TMP="$T_TMP/pvm346" "$@"
}

start346() {
	local n=50
	mkdir -p "$T_TMP/pvm346"
	run346 setsid /usr/bin/pvmd </dev/null >"$T_TMP/pvmd346.out" 2>&1 &
	while [ $n -gt 0 ]; do
		ls "$T_TMP/pvm346"/pvmd.* >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# pid346: the PVM 3.4.6 pvmd of this test (its PVM_TMP), if it runs.
pid346() {
	local p
	for p in $(pgrep -x pvmd); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
		    grep -qx "PVM_TMP=$T_TMP/pvm346" && echo "$p"
	done
}

stop346() {
	local p
	echo halt | run346 timeout -k 2 10 /usr/bin/pvm >/dev/null 2>&1
	for p in $(pid346); do
		kill -KILL "$p"
	done
}

for src in "$D"/p_*.c; do
	p=$(basename "$src" .c)
	case " ${DIFF_PROBES:-$p} " in *" $p "*) ;; *) continue ;; esac
	$CC -O1 -Wall -I"$PVM_TOP_SRCDIR/include" -I"$D" -o "$T_TMP/$p.ours" \
	    "$src" -L"$OUR_GLIBDIR" -Wl,-rpath,"$OUR_GLIBDIR" \
	    -L"$OUR_LIBDIR" -Wl,-rpath,"$OUR_LIBDIR" -lgpvm3 -lpvm3 ||
	    { fail "$p: build against ours"; continue; }
	start_pvmd
	run 120 "$T_TMP/$p.ours" >"$T_TMP/$p.ours.out" 2>&1
	stop_pvmd
	ref="$D/ref/$p.txt"
	if [ "$have346" = yes ]; then
		# No -I of ours: the quoted include finds /usr/include/pvm3.h.
		$CC -O1 -Wall -I"$D" -o "$T_TMP/$p.346" "$src" "$GLIB346" "$LIB346" ||
		    { fail "$p: build against PVM 3.4.6"; continue; }
		got=$(run346 ldd "$T_TMP/$p.346" |
		    sed -n 's/.*libpvm3\.so\.3 => \([^ ]*\).*/\1/p')
		check "$p: the PVM 3.4.6 build loads PVM 3.4.6's libpvm3 ($got)" \
		    test "$(readlink -f "$got")" = "$(readlink -f "$LIB346")"
		start346 || { fail "$p: PVM 3.4.6's pvmd did not start"; continue; }
		run346 timeout -k 5 120 "$T_TMP/$p.346" >"$T_TMP/$p.346.out" 2>&1
		stop346
		if [ -n "${DIFF_UPDATE:-}" ]; then
			cp "$T_TMP/$p.346.out" "$ref"
			echo "INFO: $ref written"
		fi
		want="$T_TMP/$p.346.out"
		echo "INFO: $p: compared with PVM 3.4.6 itself"
	elif [ -f "$ref" ]; then
		want="$ref"
		echo "INFO: $p: compared with the kept records $ref"
	else
		fail "$p: no PVM 3.4.6 and no $ref"
		continue
	fi
	n=$(wc -l <"$want")
	check "$p: PVM 3.4.6's records are whole ($n lines)" test "$n" -gt 10
	filter "$p" "$want" >"$T_TMP/$p.want"
	filter "$p" "$T_TMP/$p.ours.out" >"$T_TMP/$p.got"
	same=$(diff "$T_TMP/$p.want" "$T_TMP/$p.got" >"$T_TMP/$p.diff"; echo $?)
	cases=$(cut -d: -f1 "$want" | sort -u | wc -l)
	kept=$(cut -d: -f1 "$T_TMP/$p.want" | sort -u | wc -l)
	echo "INFO: $p: $cases cases, $((cases - kept)) deliberately different"
	if [ "$same" -ne 0 ]; then
		cat "$T_TMP/$p.diff"
	fi
	check "$p: every other record is the same as PVM 3.4.6's" \
	    test "$same" -eq 0
done
finish
