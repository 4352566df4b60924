#!/bin/sh
# t-binary-compat.sh: a program compiled against PVM 3.4.6's own
# /usr/include/pvm3.h (no -I of ours) and linked with our libpvm3.so runs
# against our pvmd, with our library loaded, and gets the right values.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"

SYS_H=/usr/include/pvm3.h
if [ ! -f "$SYS_H" ]; then
	if [ "${CI:-}" = true ]; then
		echo "ERROR: $SYS_H is missing; CI must install PVM 3.4.6's" \
		    "headers (Debian package pvm-dev) for the ABI test" >&2
		exit 1
	fi
	echo "SKIP: $SYS_H is missing (install pvm-dev to run this test)"
	exit 77
fi
CC=${CC:-cc}
need "$OUR_LIBDIR/libpvm3.so"
libdir=$(cd "$OUR_LIBDIR" && pwd -P)
work="$T_TMP/abi"
mkdir -p "$work"
cp "$PVM_TOP_SRCDIR/tests/abi/abi_prog.c" "$work/" || exit 99
cd "$work" || exit 99

# The header the compiler really reads is PVM's.
$CC -M abi_prog.c >deps 2>&1
check "abi_prog.c compiles against $SYS_H" grep -q "$SYS_H" deps
check "and against nothing of ours" \
    sh -c "! grep -q '${PVM_OUR_INCLUDE:-$PVM_TOP_SRCDIR/include}' deps"

if $CC -c abi_prog.c -o abi_prog.o &&
    $CC -o abi_prog abi_prog.o "$libdir/libpvm3.so"; then
	ok "compiled with PVM's header, linked with our libpvm3.so"
else
	fail "build of abi_prog"
	finish
fi
needed=$(readelf -d abi_prog | sed -n 's/.*(NEEDED).*\[\(libpvm3[^]]*\)\].*/\1/p')
check "abi_prog needs libpvm3.so.3, the soname of PVM 3.4 (got $needed)" \
    test "$needed" = libpvm3.so.3
resolved=$(ldd ./abi_prog | sed -n 's/.*libpvm3\.so\.3 => \([^ ]*\).*/\1/p')
resolved=$(readlink -f "$resolved")
check "ldd resolves libpvm3.so.3 into $libdir (got $resolved)" \
    test "${resolved%/*}" = "$libdir"

start_pvmd
run_checks 90 ./abi_prog "$libdir"
check "pvmd alive after the ABI program" pvmd_alive
finish
