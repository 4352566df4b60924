#!/bin/sh
# t-link-all.sh: every function declared in our pvm3.h is defined in our
# libraries.  The list comes from the compiler (-aux-info), so a function
# added to the header without code fails here, at link time, as it would
# for a user.
set -u
: "${PVM_TOP_BUILDDIR:?run through make check}"
: "${PVM_TOP_SRCDIR:?run through make check}"
inc="$PVM_TOP_SRCDIR/include"
b="$PVM_TOP_BUILDDIR"
work=$(mktemp -d /tmp/pvml.XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
CC=${CC:-cc}

printf '#include <stdio.h>\n#include "%s/pvm3.h"\n' "$inc" >"$work/h.c"
if ! $CC -c -o "$work/h.o" -aux-info "$work/aux" "$work/h.c" 2>"$work/err"; then
	cat "$work/err"
	echo "0 passed, 1 failed"
	exit 1
fi
grep "$inc/pvm3.h" "$work/aux" |
	sed -n 's/^\/\* [^*]* \*\/ extern [^p]*\([pP]vm[A-Za-z0-9_]*\) *(.*/\1/p' |
	sort -u >"$work/names"
n=$(wc -l <"$work/names")
if [ "$n" -lt 100 ]; then
	echo "FAIL: only $n functions found in pvm3.h"
	echo "0 passed, 1 failed"
	exit 1
fi

libs="-L$b/libpvm/.libs -lpvm3"
[ -f "$b/libgpvm/.libs/libgpvm3.so" ] && libs="-L$b/libgpvm/.libs -lgpvm3 $libs"
{
	printf '#include <stdio.h>\n#include "%s/pvm3.h"\n' "$inc"
	echo 'static void (*const fns[])(void) = {'
	sed 's/.*/	(void (*)(void))&,/' "$work/names"
	echo '};'
	echo 'int main(void) { return fns[0] == 0; }'
} >"$work/all.c"
pass=0
fail=0
if $CC -o "$work/all" "$work/all.c" $libs 2>"$work/lerr"; then
	echo "PASS: all $n functions of pvm3.h link ($libs)"
	pass=1
else
	grep -o "undefined reference to \`[^']*'" "$work/lerr" | sort -u |
		sed 's/^/FAIL: /'
	fail=$(grep -c "undefined reference" "$work/lerr")
	[ "$fail" -gt 0 ] || fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
