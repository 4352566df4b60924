#!/bin/sh
# t-tev-masks.sh: tev_prog.c (trace masks made with pvmtev.h's TEV_MASK_*
# macros, set with pvm_settmask and read back with pvm_gettmask) built
# against our headers, as C and as C++, and against PVM 3.4.6's own
# /usr/include/pvm3.h and pvmtev.h, each linked with our libpvm3.so and
# run.  The masks need no pvmd, so none is started.  PVM's headers
# missing: that build is skipped, or fails under CI=true.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"

CC=${CC:-cc}
CXX=${CXX:-c++}
inc=${PVM_OUR_INCLUDE:-$PVM_TOP_SRCDIR/include}
need "$OUR_LIBDIR/libpvm3.so"
libdir=$(cd "$OUR_LIBDIR" && pwd -P)
work="$T_TMP/tev"
mkdir -p "$work" || exit 99
cp "$PVM_TOP_SRCDIR/tests/abi/tev_prog.c" "$work/" || exit 99
cd "$work" || exit 99

# build NAME COMPILER FLAGS...: compile tev_prog.c into NAME with our
# libpvm3.so; the headers read are listed in NAME.deps.
build() {
	local name=$1 cc=$2
	shift 2
	$cc "$@" -M tev_prog.c >"$name.deps" 2>&1 &&
	    $cc "$@" -o "$name" tev_prog.c -x none "$libdir/libpvm3.so" \
	    >"$name.err" 2>&1
	local rc=$?
	[ "$rc" -eq 0 ] || head -20 "$name.err"
	return "$rc"
}

# Against our headers, warnings being errors.
if build tev_ours "$CC" -std=c99 -Wall -Wextra -Werror -I"$inc"; then
	ok "built against our pvm3.h and pvmtev.h"
	check "the pvmtev.h read is ours" grep -q "$inc/pvmtev.h" tev_ours.deps
	run_checks 30 ./tev_ours
else
	fail "build against our headers"
fi

# As C++: pvmtev.h's prototypes must have C linkage.
if command -v "$CXX" >/dev/null 2>&1; then
	if build tev_cxx "$CXX" -x c++ -Wall -Wextra -Werror -I"$inc"; then
		ok "built as C++ against our headers"
		run_checks 30 ./tev_cxx
	else
		fail "build as C++ against our headers"
	fi
fi

# Against PVM 3.4.6's headers (no -I of ours): a binary made with PVM's
# pvmtev.h runs on our library.
if [ -f /usr/include/pvmtev.h ] && [ -f /usr/include/pvm3.h ]; then
	if build tev_pvm "$CC" -std=gnu99 -w; then
		ok "built against PVM's headers"
		check "the pvmtev.h read is PVM's" \
		    grep -q /usr/include/pvmtev.h tev_pvm.deps
		check "nothing of ours is read" \
		    sh -c "! grep -q '$inc' tev_pvm.deps"
		run_checks 30 ./tev_pvm
	else
		fail "build against PVM's headers"
	fi
elif [ "${CI:-}" = true ]; then
	fail "/usr/include/pvmtev.h or pvm3.h missing; CI must install" \
	    "pvm-dev (PVM 3.4.6's headers)"
else
	echo "SKIP (part): PVM's pvmtev.h is not installed"
fi
finish
