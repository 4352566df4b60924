#!/bin/sh
# t-diff.sh: the differential suite.  Each one-host probe
# (tests/diff/p_*.c, f_*.f; the probes of several hosts, h_*.c, are
# t-diff-hosts.sh's) is built against PVM 3.4.6's pvm3.h and
# libpvm3.so.3 (Debian's pvm-dev) and against ours, run on a private
# pvmd of the same system, and the two records are compared line by
# line.  A difference fails the test unless
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
# The Fortran probes (tests/diff/f_*.f) are built with gfortran against
# each side's fpvm3.h and libfpvm3 (PVM 3.4.6's is static: it goes first
# on the line).  Without gfortran or without our libfpvm3 they are
# skipped (INFO), except under CI=true, where tools/deps.sh installs
# gfortran: then that fails.
#
# PVM 3.4.6's programs run with LD_LIBRARY_PATH unset, so that they load
# its libpvm3.so.3, never ours (the same soname).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVMD" "$PVM_CONSOLE"
. "$PVM_TOP_SRCDIR/tests/diff/lib-diff.sh"
OUR_GLIBDIR="$PVM_TOP_BUILDDIR/libgpvm/.libs"
CC=${CC:-cc}
FC=${FC:-gfortran}
OUR_FLIBDIR="$PVM_TOP_BUILDDIR/fortran/.libs"
FLIB346=/usr/lib/x86_64-linux-gnu/libfpvm3.a
# PVM's Fortran API passes data of every type to one routine (pvmfpack,
# pvmfreduce): gfortran >= 10 needs -fallow-argument-mismatch for that.
FFLAGS_DIFF="-O1 -w -fallow-argument-mismatch"
skipped=0

# build_ours SRC OUT: the probe against our header and libraries.
build_ours() {
	case $1 in
	*.f)
		$FC $FFLAGS_DIFF -I"$PVM_TOP_SRCDIR/include" -o "$2" "$1" \
		    -L"$OUR_FLIBDIR" -Wl,-rpath,"$OUR_FLIBDIR" -lfpvm3 \
		    -L"$OUR_GLIBDIR" -Wl,-rpath,"$OUR_GLIBDIR" \
		    -L"$OUR_LIBDIR" -Wl,-rpath,"$OUR_LIBDIR" -lgpvm3 -lpvm3
		;;
	*)
		$CC -O1 -Wall -I"$PVM_TOP_SRCDIR/include" -I"$D" -o "$2" \
		    "$1" -L"$OUR_GLIBDIR" -Wl,-rpath,"$OUR_GLIBDIR" \
		    -L"$OUR_LIBDIR" -Wl,-rpath,"$OUR_LIBDIR" -lgpvm3 -lpvm3
		;;
	esac
}

# build_346 SRC OUT: the probe against PVM 3.4.6's header and libraries.
build_346() {
	case $1 in
	*.f)
		$FC $FFLAGS_DIFF -I/usr/include -o "$2" "$1" "$FLIB346" \
		    "$GLIB346" "$LIB346"
		;;
	*)
		# No -I of ours: the quoted include finds /usr/include/pvm3.h.
		$CC -O1 -Wall -I"$D" -o "$2" "$1" "$GLIB346" "$LIB346"
		;;
	esac
}

# buildable SRC: whether this probe can be built here (a Fortran probe
# needs gfortran and our libfpvm3); if not, INFO, or under CI a failure.
buildable() {
	case $1 in *.f) ;; *) return 0 ;; esac
	command -v "$FC" >/dev/null 2>&1 && [ -f "$OUR_FLIBDIR/libfpvm3.so" ] &&
	    return 0
	if [ "${CI:-}" = true ]; then
		fail "$p: no $FC or no fortran/libfpvm3 (both needed under CI)"
	else
		echo "INFO: $p: skipped: no $FC or fortran/libfpvm3 not built"
		skipped=$((skipped + 1))
	fi
	return 1
}

# untid SRC FILE: a Fortran probe's pvmfperror text is among its records
# (stderr cannot be kept apart there) and carries the task's tid: a name
# replaces it.
untid() {
	case $1 in
	*.f) sed -i 's/^libpvm \[t[0-9a-f]*\]:/libpvm [me]:/' "$2" ;;
	esac
}

for src in "$D"/p_*.c "$D"/f_*.f; do
	[ -f "$src" ] || continue
	p=$(basename "$src")
	p=${p%.*}
	case " ${DIFF_PROBES:-$p} " in *" $p "*) ;; *) continue ;; esac
	buildable "$src" || continue
	# PVM 3.4.6's Fortran side needs its fpvm3.h and libfpvm3 as well.
	h=$have346
	case $src in
	*.f) [ -f "$FLIB346" ] && [ -f /usr/include/fpvm3.h ] || h=no ;;
	esac
	build_ours "$src" "$T_TMP/$p.ours" ||
	    { fail "$p: build against ours"; continue; }
	start_pvmd
	run 120 "$T_TMP/$p.ours" >"$T_TMP/$p.ours.out" 2>&1
	stop_pvmd
	untid "$src" "$T_TMP/$p.ours.out"
	ref="$D/ref/$p.txt"
	if [ "$h" = yes ]; then
		build_346 "$src" "$T_TMP/$p.346" ||
		    { fail "$p: build against PVM 3.4.6"; continue; }
		got=$(run346 ldd "$T_TMP/$p.346" |
		    sed -n 's/.*libpvm3\.so\.3 => \([^ ]*\).*/\1/p')
		check "$p: the PVM 3.4.6 build loads PVM 3.4.6's libpvm3 ($got)" \
		    test "$(readlink -f "$got")" = "$(readlink -f "$LIB346")"
		start346 || { fail "$p: PVM 3.4.6's pvmd did not start"; continue; }
		run346 timeout -k 5 120 "$T_TMP/$p.346" >"$T_TMP/$p.346.out" 2>&1
		stop346
		untid "$src" "$T_TMP/$p.346.out"
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
	compare "$p" "$want" "$T_TMP/$p.ours.out"
done
# Only skipped Fortran probes were asked for: a skip, not a failure.
if [ "$T_PASS" -eq 0 ] && [ "$T_FAIL" -eq 0 ] && [ "$skipped" -gt 0 ]; then
	echo "SKIP: no probe could be built here"
	exit 77
fi
finish
