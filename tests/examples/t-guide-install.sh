#!/bin/sh
# t-guide-install.sh: the installed examples build with their own
# Makefile.  `make install DESTDIR=$T_TMP/dest` of this build, then, as a
# user would: copy $(docdir)/examples out, point PKG_CONFIG_PATH at the
# installed pvm3.pc and gpvm3.pc (PKG_CONFIG_SYSROOT_DIR names the
# DESTDIR, since the .pc files name the configured prefix), `make`
# there, `make install` (to $HOME/pvm3/bin/$PVM_ARCH, the architecture
# from the installed pvmgetarch), and run hello, master and reduce (and
# freduce with Fortran) on a private pvmd.  Checks: every installed file
# is there, the compile lines use the installed headers and libraries
# and give no warning, the programs load the installed libpvm3.so.3
# (never Debian's), and their output is right (lib-guide.sh).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/examples/lib-guide.sh"
if [ -z "${PVM_MAKE:-}" ] || [ -z "${PVM_INST_LIBDIR:-}" ] ||
    [ -z "${PVM_INST_DOCDIR:-}" ]; then
	echo "t-guide-install.sh: PVM_MAKE, PVM_INST_LIBDIR or" \
	    "PVM_INST_DOCDIR not set (run through make check)" >&2
	exit 99
fi
command -v pkg-config >/dev/null 2>&1 || {
	echo "t-guide-install.sh: no pkg-config" >&2
	exit 99
}
need "$PVMGS_PATH"
# lib.sh points LD_LIBRARY_PATH at the build's libpvm3, which would take
# precedence over the installed programs' run path.  Our pvmd needs no
# libpvm3, and pvmgs and the console are libtool wrappers that find the
# build's own.
unset LD_LIBRARY_PATH

D="$T_TMP/dest"
# The sub-make must not take this make's job server or variables.
run 300 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
    $PVM_MAKE -C "$PVM_TOP_BUILDDIR" install DESTDIR="$D" \
    >"$T_TMP/install.log" 2>&1
rc=$?
check "make install DESTDIR=... (exit $rc)" test "$rc" -eq 0
if [ "$rc" -ne 0 ]; then
	tail -n 40 "$T_TMP/install.log"
	finish
fi

LIBDIR="$D$PVM_INST_LIBDIR"
DOCEX="$D$PVM_INST_DOCDIR/examples"
for f in Makefile hello.c hello_child.c master.c worker.c reduce.c \
    freduce.f session.pvm hostfile; do
	check "installed: \$(docdir)/examples/$f" test -s "$DOCEX/$f"
done
check "installed: \$(docdir)/guide.md" test -s "$D$PVM_INST_DOCDIR/guide.md"
# Every relative link of the installed guide names an installed file
# (in the source tree they point into ../examples and ../README.md).
links=$(grep -o '](\([^)#:]*\)[)#]' "$D$PVM_INST_DOCDIR/guide.md" |
    sed 's/^](//; s/[)#]$//' | sort -u)
check "the installed guide has relative links" test -n "$links"
for l in $links; do
	check "guide link resolves: $l" test -e "$D$PVM_INST_DOCDIR/$l"
done
for f in pvm3.pc gpvm3.pc; do
	check "installed: \$(libdir)/pkgconfig/$f" test -s "$LIBDIR/pkgconfig/$f"
done

W="$T_TMP/work"
cp -R "$DOCEX" "$W" || exit 99
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$D"
target=all
[ -n "$GUIDE_F" ] || target=c
g_run make 180 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
    $PVM_MAKE -C "$W" "$target"
check "the compile lines name the installed headers (-I$D...)" \
    grep -qF -- "-I$D" "$G_OUT"
check "the link lines name the installed libraries (-L$LIBDIR)" \
    grep -qF -- "-L$LIBDIR " "$G_OUT"
check "the link lines give the run path of the installed libraries" \
    grep -qF -- "-Wl,-rpath,$LIBDIR" "$G_OUT"
# The sanitizer build's libraries pull in libasan, whose own use of
# tmpnam makes the linker warn: that line is not about the examples.
check "no compiler warning" \
    sh -c "! grep -i 'warning' '$G_OUT' | grep -v 'libasan\\.so'"
for p in $GUIDE_C $GUIDE_F; do
	check "built: $p" test -x "$W/$p"
done
for p in hello reduce; do
	lib=$(ldd "$W/$p" 2>/dev/null | awk '$1 == "libpvm3.so.3" { print $3 }')
	check "$p loads the installed libpvm3.so.3 ($lib)" \
	    test "$lib" = "$LIBDIR/libpvm3.so.3"
done

# make install: to $HOME/pvm3/bin/<arch>; the architecture comes from
# the installed pvmgetarch when PVM_ARCH is not set.
g_home
g_run make-install 60 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    -u MAKEOVERRIDES -u PVM_ARCH $PVM_MAKE -C "$W" install
for p in $GUIDE_C $GUIDE_F; do
	check "make install: $p in \$HOME/pvm3/bin/$PVM_ARCH" \
	    test -x "$GUIDE_BIN/$p"
done

# The installed libraries find each other through their own run path,
# the configured $(libdir), which holds nothing under DESTDIR: there
# libfpvm3 would find Debian's libgpvm3 and libpvm3 (the programs
# themselves find theirs through the run path checked above).  So the
# pvmd, the tasks it starts, and these programs look in the DESTDIR
# $(libdir) first, as an installed pvm4 does without help.
export LD_LIBRARY_PATH="$LIBDIR"
start_pvmd
cd "$W" || exit 99
g_run hello 30 ./hello
g_hello "$G_OUT" "$(hostname)"
g_run master 60 ./master 5
g_master "$G_OUT" 5
g_run reduce 60 ./reduce 3
g_reduce "$G_OUT" 3
if [ -n "$GUIDE_F" ]; then
	g_run freduce 60 ./freduce 2
	g_freduce "$G_OUT" 2
fi
cd / || exit 99
finish
