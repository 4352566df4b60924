#!/bin/sh
# t-fshmem-const.sh: include/shmem.fh against include/shmem.h.
#  1. mpp/shmem.fh is shmem.fh, byte for byte.
#  2. Each integer constant #defined in shmem.h under a Fortran-legal
#     name (SHMEM_..., no leading underscore) is a PARAMETER of shmem.fh
#     with the same value, and shmem.fh has no other PARAMETER.
#  3. The file keeps to the common subset of fixed and free form: no
#     tabs, nothing past column 72, comments with ! in column 1,
#     statements from column 7, no continuation lines.
#  4. Compiled: a C program prints every constant through shmem.h and a
#     Fortran program through shmem.fh, once fixed form and once free
#     form (gfortran -Wall -Werror); the three outputs are the same.
#     The Fortran program also calls every function shmem.fh declares,
#     and links with libpvmshmem, so each declaration has its routine.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/shmem/fshmem-lib.sh"
inc="$PVM_TOP_SRCDIR/include"

check "mpp/shmem.fh is shmem.fh" cmp "$inc/shmem.fh" "$inc/mpp/shmem.fh"

# NAME VALUE lines, sorted: C's integer #defines, Fortran's PARAMETERs.
sed -n 's/^#define \(SHMEM_[A-Z0-9_]*\) \(-\{0,1\}[0-9][0-9]*\)L\{0,1\}$/\1 \2/p' \
    "$inc/shmem.h" | sort >"$T_TMP/c.consts"
sed -n 's/^      parameter (\([A-Z0-9_]*\) = \(-\{0,1\}[0-9][0-9]*\))$/\1 \2/p' \
    "$inc/shmem.fh" | sort >"$T_TMP/f.consts"
nparam=$(grep -ic '^ *parameter' "$inc/shmem.fh")
check "every PARAMETER of shmem.fh is one NAME = integer ($nparam)" \
    test "$(wc -l <"$T_TMP/f.consts")" -eq "$nparam"
check "shmem.h has the constants the brief names" \
    grep -q '^SHMEM_REDUCE_MIN_WRKDATA_SIZE ' "$T_TMP/c.consts"
if diff "$T_TMP/c.consts" "$T_TMP/f.consts" >"$T_TMP/consts.diff"; then
	ok "the same $(wc -l <"$T_TMP/c.consts") names and values in both"
else
	fail "names or values differ (< shmem.h, > shmem.fh):"
	grep '^[<>]' "$T_TMP/consts.diff"
fi

awk '
	/\t/ { print "line " FNR ": a tab" }
	length($0) > 72 { print "line " FNR ": past column 72" }
	/^[^! ]/ { print "line " FNR ": column 1 is neither blank nor !" }
	/^ / && !/^ *$/ && !/^      [^ ]/ { print "line " FNR ": not from column 7" }
	/^     [^ ]/ { print "line " FNR ": a continuation line" }
	/^      .*&[ ]*$/ { print "line " FNR ": ends in &" }' \
    "$inc/shmem.fh" >"$T_TMP/form"
if [ -s "$T_TMP/form" ]; then
	fail "shmem.fh leaves the common form:"
	cat "$T_TMP/form"
else
	ok "shmem.fh reads as fixed and as free form"
fi

# ---- compiled ----
{
	echo '#include <stdio.h>'
	echo '#include <shmem.h>'
	echo 'int main(void) {'
	while read -r name v; do
		echo "printf(\"$name %d\\n\", (int)$name);"
	done <"$T_TMP/c.consts"
	echo 'return 0; }'
} >"$T_TMP/cc.c"
if "$PVM_TOP_BUILDDIR/shmem/oshcc" -o "$T_TMP/cc" "$T_TMP/cc.c" &&
    "$T_TMP/cc" >"$T_TMP/c.out"; then
	ok "the C printer builds and runs"
else
	fail "the C printer does not build or run"
fi
# The body: print each constant, then call each declared function once
# (a single PE needs no oshrun).
{
	echo "      integer*4 i4"
	echo "      integer*8 i8"
	echo "      real*4 r4"
	echo "      real*8 r8"
	echo "      integer k"
	echo "      common /fc/ i8, r8, i4, r4"
	while read -r name v; do
		echo "      k = $name"
		echo "      print '(a,1x,i0)', '$name', k"
	done <"$T_TMP/c.consts"
	echo "      call start_pes(0)"
	echo "      i4 = 5"
	echo "      i8 = 6"
	echo "      r4 = 7"
	echo "      r8 = 8"
	echo "      if (my_pe() + shmem_my_pe() .ne. 0) stop 2"
	echo "      if (num_pes() * shmem_n_pes() .ne. 1) stop 3"
	echo "      if (shmem_int4_fadd(i4, 1, 0) .ne. 5) stop 4"
	echo "      if (shmem_int4_finc(i4, 0) .ne. 6) stop 5"
	echo "      if (shmem_int4_swap(i4, 1, 0) .ne. 7) stop 6"
	echo "      if (shmem_int4_cswap(i4, 1, 9, 0) .ne. 1) stop 7"
	echo "      if (shmem_int8_fadd(i8, 1_8, 0) .ne. 6) stop 8"
	echo "      if (shmem_int8_finc(i8, 0) .ne. 7) stop 9"
	echo "      if (shmem_int8_swap(i8, 1_8, 0) .ne. 8) stop 10"
	echo "      if (shmem_int8_cswap(i8, 1_8, 9_8, 0) .ne. 1) stop 11"
	echo "      if (shmem_real4_swap(r4, 1.5, 0) .ne. 7) stop 12"
	echo "      if (shmem_real8_swap(r8, 2.5d0, 0) .ne. 8) stop 13"
	echo "      if (i4 .ne. 9 .or. i8 .ne. 9) stop 14"
	echo "      if (r4 .ne. 1.5 .or. r8 .ne. 2.5d0) stop 15"
	echo "      if (shmem_ptr(i4, 0) .eq. 0) stop 16"
	echo "      print '(a)', 'functions ok'"
	echo "      end"
} >"$T_TMP/body"
{
	echo "      program fconst"
	echo "      implicit none"
	echo "      include 'shmem.fh'"
	cat "$T_TMP/body"
} >"$T_TMP/fixed.f"
{
	echo "      program fconst"
	echo "      implicit none"
	echo "      include 'mpp/shmem.fh'"
	cat "$T_TMP/body"
} >"$T_TMP/free.f90"
echo "functions ok" >>"$T_TMP/c.out"
for form in fixed.f free.f90; do
	if (cd "$T_TMP" && "$OSHFORT" -Wall -Werror -o "$T_TMP/$form.x" \
	    "$T_TMP/$form") >"$T_TMP/$form.cc" 2>&1; then
		ok "$form: compiles with -Wall -Werror and links"
		"$T_TMP/$form.x" >"$T_TMP/$form.out" 2>&1
		if cmp -s "$T_TMP/c.out" "$T_TMP/$form.out"; then
			ok "$form: prints what C prints, and the functions work"
		else
			fail "$form: output differs (< C, > Fortran):"
			diff "$T_TMP/c.out" "$T_TMP/$form.out"
		fi
	else
		fail "$form: does not compile:"
		cat "$T_TMP/$form.cc"
	fi
done
finish
