#!/bin/sh
# check.sh: the whole test suite, as CI runs it.  Installs what is missing,
# builds out of tree in _build/, runs `make check` and `make distcheck`.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
sh tools/deps.sh
[ -x configure ] || ./autogen.sh
mkdir -p _build
cd _build
[ -f Makefile ] || "$top/configure" --enable-werror
make -j2
if ! make -j2 check; then
	for f in $(find . -name '*.log' -path '*tests*'); do
		grep -q '^FAIL\|^ERROR' "$f" 2>/dev/null && { echo "==== $f"; tail -n 80 "$f"; }
	done
	exit 1
fi
make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror
