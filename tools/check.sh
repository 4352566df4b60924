#!/bin/sh
# check.sh: the whole test suite, as CI runs it.  Builds (tools/build.sh),
# then runs `make check` and `make distcheck` in _build/.
set -e
cd "$(dirname "$0")/.."
sh tools/build.sh
cd _build
if ! make -j2 check; then
	for f in $(find . -name '*.log' -path '*tests*'); do
		grep -q '^FAIL\|^ERROR' "$f" 2>/dev/null && { echo "==== $f"; tail -n 80 "$f"; }
	done
	exit 1
fi
make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror
