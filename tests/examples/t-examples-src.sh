#!/bin/sh
# t-examples-src.sh: PVM 3.4's example programs, built unmodified from
# Debian's pvm-examples sources against our headers and libraries, run on
# our pvmd.  The build is PVM's own: their Makefile.aimk files through our
# aimk, in a PVM_ROOT-style tree like the one `make install` lays out
# (pvmroot/include.am), so the legacy build path is tested too.
. "$PVM_TOP_SRCDIR/tests/examples/lib-examples.sh"

ex_fetch
need "$PVM_CONSOLE" "$PVMGS_PATH"
B=$PVM_TOP_BUILDDIR
R=$PVM_ROOT
for f in "$B/libpvm/.libs/libpvm3.a" "$B/libgpvm/.libs/libgpvm3.a"; do
	if [ ! -f "$f" ]; then
		echo "$f is missing: the old makefiles link the static" \
		    "libraries (configure without --disable-static)" >&2
		exit 99
	fi
done

# The tree: include/ is ours, lib/ holds our aimk and pvmgetarch and the
# static libraries, conf/ the make definitions; bin/$PVM_ARCH exists.
mkdir -p "$R/lib/$PVM_ARCH" "$R/conf" || exit 99
ln -s "$PVM_OUR_INCLUDE" "$R/include" || exit 99
cp "$PVM_TOP_SRCDIR/pvmroot/aimk" "$PVM_TOP_SRCDIR/pvmroot/pvmgetarch" \
    "$R/lib/" || exit 99
chmod +x "$R/lib/aimk" "$R/lib/pvmgetarch"
cp "$PVM_TOP_SRCDIR/pvmroot/arch.def" "$R/conf/$PVM_ARCH.def" || exit 99
ln -s "$B/libpvm/.libs/libpvm3.a" "$B/libgpvm/.libs/libgpvm3.a" \
    "$R/lib/$PVM_ARCH/" || exit 99
FORTRAN=no
if [ "${PVM_HAVE_FORTRAN:-}" = yes ] &&
    [ -f "$B/fortran/.libs/libfpvm3.a" ]; then
	ln -s "$B/fortran/.libs/libfpvm3.a" "$R/lib/$PVM_ARCH/" || exit 99
	FORTRAN=yes
fi
check "lib/pvmgetarch prints $PVM_ARCH" \
    test "$(env -u PVM_ARCH "$R/lib/pvmgetarch")" = "$PVM_ARCH"

# The sources, as the package ships them, minus the objects and programs
# it also ships (examples/LINUX64, gexamples/LINUX64): built here instead.
doc="$EX_PKG/usr/share/doc/pvm-examples"
for t in examples gexamples; do
	if ! tar -xzf "$doc/$t.tar.gz" -C "$R"; then
		ex_unavailable "cannot unpack $doc/$t.tar.gz"
	fi
	rm -rf "${R:?}/$t/$PVM_ARCH"
done

# Old K&R code: -std=gnu89 keeps implicit int and implicit declarations
# legal with any gcc; -w because it warns about everything.  aimk runs
# without PVM_ARCH, so pvmgetarch names the directory.
# PVM_EXAMPLE_LIBS goes last on every link line (through the makefiles'
# ARCHLIB): tools/sanitize.sh names the sanitizer runtimes there, which
# static libraries built with sanitizers need.
CFLOPTS="-g -w -std=gnu89"
FFLOPTS="-g -w -fallow-argument-mismatch"
EXLIBS=${PVM_EXAMPLE_LIBS:-}
aimk() {
	(cd "$R/$1" && shift && env -u PVM_ARCH "$R/lib/aimk" -k \
	    CFLOPTS="$CFLOPTS" FFLOPTS="$FFLOPTS" ${EXLIBS:+ARCHLIB="$EXLIBS"} \
	    "$@") >>"$T_TMP/build.log" 2>&1
}
ctargets="c-all mbox"
[ "$FORTRAN" = yes ] && ctargets="all mbox"
check "aimk builds examples/ ($ctargets)" aimk examples $ctargets
gtargets="joinleave gexamp tst thb tnb ge tjl tjf trsg gs"
[ "$FORTRAN" = yes ] && gtargets="$gtargets frsg"
check "aimk builds gexamples/" aimk gexamples $gtargets
# ptest and starter have no make target: compiled like the others, with
# -fno-builtin because starter calls exit() without an argument, which
# gcc's built-in exit refuses (as it does with PVM 3.4's own header).
for p in ptest starter; do
	check "cc builds $p" sh -c "cc $CFLOPTS -fno-builtin -I'$R/include' \
	    -o '$EXB/$p' '$R/examples/$p.c' -L'$R/lib/$PVM_ARCH' \
	    -lgpvm3 -lpvm3 $EXLIBS >>'$T_TMP/build.log' 2>&1"
done
if [ "$T_FAIL" -ne 0 ]; then
	tail -n 60 "$T_TMP/build.log"
fi
echo "built: $(ls "$EXB" | tr '\n' ' ')"

start_pvmd
PROGS="hello master1 spmd gexample timing dbwtest ibwtest pbwtest rbwtest
inherit1 inherit3 inheritb task0 lmbi mbox mhf_server ptest starter
trsg ge gexamp gs joinleave thb tjl tjf tst"
[ "$FORTRAN" = yes ] && PROGS="$PROGS fmaster1 fspmd fgexample hitc frsg"
# EX_ONLY="prog ..." runs only those checks (for debugging).
ex_check_all ${EX_ONLY:-$PROGS}
finish
