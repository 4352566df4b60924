#!/bin/sh
# t-man-cover.sh: every name a user may look up has a page in docs/man/
# (of its own or an alias) in the right section:
#  - section 3: each pvm_* function declared in include/pvm3.h; each
#    Fortran routine our libfpvm3 exports (pvmfXXX_, looked up as
#    pvmfXXX); when include/shmem.h exists and libpvmshmem is built, each
#    function it exports, C or Fortran (shmem_int4_add_ as
#    shmem_int4_add);
#  - section 1: oshrun, oshcc and oshfort, when they are built.
# Prints the names without a page and fails if there are any.
set -u
top=${PVM_TOP_SRCDIR:?run through make check}
b=${PVM_TOP_BUILDDIR:?run through make check}
dir="$top/docs/man"
work=$(mktemp -d /tmp/pvmcov.XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
: >"$work/want"

# exports LIB: the functions a shared library defines.
exports() {
	nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" { print $3 }'
}

# Declarations start in column 0 with their type; comments and macros
# do not.  pvm_recvf's declaration has its name after "(*".
grep '^[a-z]' "$top/include/pvm3.h" |
	grep -o 'pvm_[a-z0-9_]*(' | tr -d '(' | sort -u |
	sed 's/$/ 3/' >>"$work/want"
n=$(wc -l <"$work/want")
if [ "$n" -lt 100 ]; then
	echo "FAIL: only $n functions found in pvm3.h"
	exit 1
fi
echo "pvm3.h: $n functions"

fpvm="$b/fortran/.libs/libfpvm3.so"
if [ -f "$fpvm" ]; then
	exports "$fpvm" | sed -n 's/^\(pvmf[a-z0-9_]*\)_$/\1 3/p' |
		sort -u >"$work/fortran"
	echo "libfpvm3: $(wc -l <"$work/fortran") routines"
	cat "$work/fortran" >>"$work/want"
else
	echo "note: $fpvm is not built (no Fortran compiler): not checked"
fi

shm="$b/shmem/.libs/libpvmshmem.so"
if [ -f "$top/include/shmem.h" ] && [ -f "$shm" ]; then
	# Every name it exports, the Fortran ones (a trailing underscore)
	# looked up without the underscore.
	exports "$shm" | sed 's/_$//' | sed -n 's/^\([a-z_][a-z0-9_]*\)$/\1 3/p' |
		sort -u >"$work/shmem"
	echo "libpvmshmem: $(wc -l <"$work/shmem") functions (C and Fortran)"
	cat "$work/shmem" >>"$work/want"
	for p in oshrun oshcc oshfort; do
		if [ -f "$b/shmem/$p" ]; then
			echo "$p 1" >>"$work/want"
		fi
	done
else
	echo "note: no include/shmem.h or no libpvmshmem built: not checked"
fi

missing=0
total=0
while read -r name sect; do
	total=$((total + 1))
	if [ ! -f "$dir/$name.$sect" ]; then
		echo "missing: $name($sect)"
		missing=$((missing + 1))
	fi
done <"$work/want"
echo "$total names, $missing without a page"
[ "$missing" -eq 0 ]
