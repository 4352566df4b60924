#!/bin/sh
# t-hardened.sh: the hardening configure chose (PVM_HARDENING, from
# configure.ac: "fortify=3|2|given" and "ssp") is in the binaries.  With
# _FORTIFY_SOURCE, glibc's checked functions (__memcpy_chk,
# __snprintf_chk, ...) replace the plain ones where a size is known; with
# -fstack-protector-strong, functions with arrays on their stack call
# __stack_chk_fail.  So each of the pvmd, libpvm3, libgpvm3, pvmgs, the
# console, libpvmshmem and oshrun must import both kinds.  Skipped when configure chose nothing
# (--disable-hardening, -O0).
set -u
b=${PVM_TOP_BUILDDIR:?run through make check}
h=${PVM_HARDENING:-}
if [ -z "$h" ]; then
	echo "SKIP: configure chose no hardening flags"
	exit 77
fi
if ! command -v nm >/dev/null 2>&1; then
	echo "SKIP: no nm"
	exit 77
fi
echo "configure chose: $h"
fails=0
# syms FILE: the symbols FILE imports (dynamic ones of a shared object or
# program; every one of a static archive).
syms() {
	case "$1" in
	*.a) nm "$1" 2>/dev/null ;;
	*) nm -D "$1" 2>/dev/null ;;
	esac
}
# lib DIR NAME: the shared library libNAME in DIR, else its archive.
lib() {
	if [ -f "$b/$1/.libs/lib$2.so" ]; then
		echo "$b/$1/.libs/lib$2.so"
	else
		echo "$b/$1/.libs/lib$2.a"
	fi
}
# prog DIR NAME: libtool's real program, not its wrapper script.
prog() {
	if [ -f "$b/$1/.libs/$2" ]; then
		echo "$b/$1/.libs/$2"
	else
		echo "$b/$1/$2"
	fi
}
for f in "$b/daemon/pvmd" "$(lib libpvm pvm3)" "$(lib libgpvm gpvm3)" \
    "$(prog libgpvm pvmgs)" "$(prog console pvm)" \
    "$(lib shmem pvmshmem)" "$(prog shmem oshrun)"; do
	if [ ! -f "$f" ]; then
		echo "FAIL: $f is missing"
		fails=$((fails + 1))
		continue
	fi
	s=$(syms "$f")
	case " $h " in
	*" fortify="*)
		c=$(echo "$s" | grep -o ' U __[a-z0-9_]*_chk\b' |
		    sed 's/^ U //' | sort -u)
		n=$(echo $c | wc -w)
		if [ "$n" -gt 0 ]; then
			echo "PASS: $f: $n fortified functions:" $c
		else
			echo "FAIL: $f calls no __*_chk function"
			fails=$((fails + 1))
		fi
		;;
	esac
	case " $h " in
	*" ssp "*)
		if echo "$s" | grep -q ' U __stack_chk_fail\b'; then
			echo "PASS: $f: stack protector (__stack_chk_fail)"
		else
			echo "FAIL: $f has no stack protector"
			fails=$((fails + 1))
		fi
		;;
	esac
done
[ "$fails" -eq 0 ]
