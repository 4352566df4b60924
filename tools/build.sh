#!/bin/sh
# build.sh [BUILDDIR [CONFIGURE-ARGS...]]: what demo.sh, check.sh and
# sanitize.sh start with.  Installs what is missing, then configures (once)
# and builds out of tree in BUILDDIR (default _build/, relative to the
# top).  The default configuration serves demo.sh and check.sh,
# whichever runs first: warnings are errors, and `make install` goes to
# ./_inst.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
build=${1:-_build}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- --enable-werror --prefix="$top/_inst"
sh tools/deps.sh
[ -x configure ] || ./autogen.sh
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$top/configure" "$@"
make -j2
