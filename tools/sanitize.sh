#!/bin/sh
# sanitize.sh: the whole test suite on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer.  Every process of every test (pvmd, pvmgs,
# the task programs, PVM's examples) writes its reports to one folder;
# the run fails if any test fails or any report was written.
#
#   tools/sanitize.sh [BUILDDIR]    (default: _build-sanitize)
#
# CI runs it (.ci/run): the whole suite, about 6 minutes on 2 CPUs
# (docs/hardening.md, "Memory checkers").
#
# Leak checking is off: task programs and PVM's examples exit with
# messages and buffers still held, as PVM programs do.  ASan's quarantine
# is kept small, or t-big would see freed 256 MiB buffers still resident
# in the pvmd.  Debian's prebuilt examples (t-examples-bin) are not
# instrumented but load our instrumented libraries, so ASan's runtime is
# allowed to come after the program in the link order.  PVM's example
# programs built from source (t-examples-src) are not instrumented (they
# have bugs of their own: tjf writes one element past an array); they
# only link the runtimes that our static libraries need.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build-sanitize}
san="-fsanitize=address,undefined -fno-omit-frame-pointer"

mkdir -p "$build" || exit 1
build=$(cd "$build" && pwd)
sh "$top/tools/build.sh" "$build" -q CFLAGS="-O1 -g $san" \
    FCFLAGS="-O1 -g $san" LDFLAGS="$san" || exit 1
cd "$build" || exit 1

logs="$build/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0:quarantine_size_mb=16:log_path=$logs/asan"
UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan"
PVM_EXAMPLE_LIBS="-lasan -lubsan"
export ASAN_OPTIONS UBSAN_OPTIONS PVM_EXAMPLE_LIBS

rc=0
make -j2 check || rc=1
n=$(find "$logs" -type f | wc -l)
if [ "$n" -gt 0 ]; then
	echo "sanitize.sh: $n sanitizer report file(s) in $logs:"
	for f in "$logs"/*; do
		echo "==== $f"
		head -n 40 "$f"
	done
	rc=1
else
	echo "sanitize.sh: no sanitizer reports"
fi
exit $rc
