#!/bin/sh
# t-oshcc.sh: the compiler wrappers oshcc and oshfort and pvmshmem.pc:
# what --showme prints when linking and when not, the OSHCC_CC/OSHFORT_FC
# and PVMSHMEM_INCDIR/PVMSHMEM_LIBDIR overrides, the configured
# directories by default (the same as pvmshmem.pc's), and a program
# built with the build tree's headers and libraries that runs with our
# libpvm3 through the rpath.  Until libpvmshmem is built, an empty
# archive stands in for it.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
OSHCC="$PVM_TOP_BUILDDIR/shmem/oshcc"
OSHFORT="$PVM_TOP_BUILDDIR/shmem/oshfort"
need "$OSHCC"
unset OSHCC_CC OSHFORT_FC PVMSHMEM_INCDIR PVMSHMEM_LIBDIR

# same WHAT GOT WANT
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1: got '$2', want '$3'"
	fi
}

# ---- --showme, overrides ----
got=$(OSHCC_CC="mycc -O2" PVMSHMEM_INCDIR=/i1:/i2 PVMSHMEM_LIBDIR=/l1:/l2 \
    "$OSHCC" --showme -o p p.c -DX=1)
same "oshcc links: includes first, libraries with rpaths last" "$got" \
    "mycc -O2 -I/i1 -I/i2 -o p p.c -DX=1 -L/l1 -Wl,-rpath,/l1 -L/l2 -Wl,-rpath,/l2 -lpvmshmem -lpvm3"
for opt in -c -S -E -M -MM; do
	got=$(OSHCC_CC=mycc PVMSHMEM_INCDIR=/i PVMSHMEM_LIBDIR=/l \
	    "$OSHCC" "$opt" p.c --showme)
	same "oshcc $opt does not link" "$got" "mycc -I/i $opt p.c"
done

# ---- the configured directories, as pvmshmem.pc says ----
if command -v pkg-config >/dev/null 2>&1; then
	export PKG_CONFIG_PATH="$PVM_TOP_BUILDDIR"
	incdir=$(pkg-config --variable=includedir pvmshmem)
	libdir=$(pkg-config --variable=libdir pvmshmem)
	same "pvmshmem.pc: Libs" "$(pkg-config --libs pvmshmem | sed "s/ *$//")" \
	    "-L$libdir -lpvmshmem -lpvm3"
	same "pvmshmem.pc: Cflags" "$(pkg-config --cflags pvmshmem | sed "s/ *$//")" \
	    "-I$incdir"
	got=$(OSHCC_CC=mycc "$OSHCC" --showme p.c)
	same "oshcc uses the configured directories by default" "$got" \
	    "mycc -I$incdir p.c -L$libdir -Wl,-rpath,$libdir -lpvmshmem -lpvm3"
else
	fail "pkg-config is missing (tools/deps.sh installs it)"
fi

# ---- build and run with the build tree ----
export PVMSHMEM_INCDIR="$PVM_TOP_SRCDIR/include"
libs="$PVM_TOP_BUILDDIR/shmem/.libs:$PVM_TOP_BUILDDIR/libpvm/.libs"
if [ ! -e "$PVM_TOP_BUILDDIR/shmem/.libs/libpvmshmem.so" ]; then
	echo "NOTE: libpvmshmem is not built; an empty archive stands in"
	mkdir "$T_TMP/stub" && ar rc "$T_TMP/stub/libpvmshmem.a" || exit 99
	libs="$libs:$T_TMP/stub"
fi
export PVMSHMEM_LIBDIR="$libs"
cat >"$T_TMP/p.c" <<'EOF'
#include <stdio.h>
#include <shmem.h>
#include <mpp/shmem.h>
#include <pvm3.h>

static long psync[SHMEM_REDUCE_SYNC_SIZE];

int
main(void)
{
	int i;

	for (i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		psync[i] = SHMEM_SYNC_VALUE;
	printf("sync %ld size %d pvm %s\n", psync[0],
	    (int)(sizeof(psync) / sizeof(psync[0])), pvm_version());
	return 0;
}
EOF
check "oshcc compiles and links a program with <shmem.h>" \
    "$OSHCC" -Wall -Werror -o "$T_TMP/p" "$T_TMP/p.c"
# The rpath, not lib.sh's LD_LIBRARY_PATH, must find our libpvm3.
got=$(env -u LD_LIBRARY_PATH ldd "$T_TMP/p" 2>&1 | sed -n 's/.*libpvm3[^ ]* => \([^ ]*\).*/\1/p')
same "the program finds our libpvm3 through the rpath" "$got" \
    "$PVM_TOP_BUILDDIR/libpvm/.libs/libpvm3.so.3"
got=$(env -u LD_LIBRARY_PATH "$T_TMP/p")
same "the program runs" "${got%% pvm *}" "sync 0 size $(sed -n \
    's/^#define SHMEM_REDUCE_SYNC_SIZE \([0-9]*\)$/\1/p' \
    "$PVM_TOP_SRCDIR/include/shmem.h")"

# ---- oshfort ----
if [ "${PVM_HAVE_FORTRAN:-no}" = yes ]; then
	got=$(OSHFORT_FC=myfc PVMSHMEM_INCDIR=/i PVMSHMEM_LIBDIR=/l \
	    "$OSHFORT" --showme -o f f.f90)
	same "oshfort links" "$got" \
	    "myfc -I/i -o f f.f90 -L/l -Wl,-rpath,/l -lpvmshmem -lpvm3"
	got=$(OSHFORT_FC=myfc PVMSHMEM_INCDIR=/i "$OSHFORT" --showme -c f.f90)
	same "oshfort -c does not link" "$got" "myfc -I/i -c f.f90"
	printf 'program hi\n  print "(a)", "fortran ok"\nend program hi\n' \
	    >"$T_TMP/f.f90"
	check "oshfort compiles and links a program" \
	    "$OSHFORT" -o "$T_TMP/f" "$T_TMP/f.f90"
	same "the Fortran program runs" \
	    "$(env -u LD_LIBRARY_PATH "$T_TMP/f")" "fortran ok"
else
	echo "NOTE: configured without Fortran: oshfort is not made"
fi
finish
