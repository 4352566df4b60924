# fshmem-lib.sh: sourced by the Fortran SHMEM tests after lib.sh.
# Skips (77) without Fortran; fbuild compiles a test program with our
# oshfort against the build tree's headers and libraries only.
if [ "${PVM_HAVE_FORTRAN:-no}" != yes ]; then
	echo "SKIP: configured without Fortran (--disable-fortran or no compiler)"
	exit 77
fi
OSHRUN="$PVM_TOP_BUILDDIR/shmem/oshrun"
OSHFORT="$PVM_TOP_BUILDDIR/shmem/oshfort"
need "$OSHRUN" "$OSHFORT"
FSRC="$PVM_TOP_SRCDIR/tests/shmem"
export PVMSHMEM_INCDIR="$PVM_TOP_SRCDIR/include"
export PVMSHMEM_LIBDIR="$PVM_TOP_BUILDDIR/shmem/.libs:$PVM_TOP_BUILDDIR/libpvm/.libs"
unset OSHFORT_FC

# fbuild PROG ARGS...: oshfort ARGS -o $T_TMP/PROG; a failure is a hard
# error (99), with the compiler's messages.
fbuild() {
	local prog=$1
	shift
	if ! (cd "$T_TMP" && "$OSHFORT" -Wall "$@" -o "$T_TMP/$prog") \
	    >"$T_TMP/$prog.cc" 2>&1; then
		cat "$T_TMP/$prog.cc"
		echo "fshmem-lib.sh: $prog does not compile" >&2
		exit 99
	fi
}
