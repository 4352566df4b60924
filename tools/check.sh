#!/bin/sh
# check.sh [BUILDDIR]: the whole test suite, as CI runs it.  Builds
# (tools/build.sh, its default configuration: warnings are errors, and
# -D_FORTIFY_SOURCE=3 -fstack-protector-strong, see configure.ac), then
# runs `make check` and `make distcheck` in BUILDDIR (default _build/).
# tests/t-hardened.sh checks that the binaries are fortified; its lines
# are shown.
set -e
cd "$(dirname "$0")/.."
build=${1:-_build}
sh tools/build.sh "$build"
cd "$build"
# failed_logs DIR: the end of each failed test's log under DIR.
failed_logs() {
	for f in $(find "$1" -name '*.log' -path '*tests*'); do
		grep -q '^FAIL\|^ERROR' "$f" 2>/dev/null && { echo "==== $f"; tail -n 80 "$f"; }
	done
}
if ! make -j2 check; then
	failed_logs .
	exit 1
fi
echo "check.sh: hardening (tests/t-hardened.log):"
sed 's/^/  /' tests/t-hardened.log
if ! make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror; then
	failed_logs "$(ls -d pvm4-*/_build 2>/dev/null | head -1)"
	exit 1
fi
