#!/bin/sh
# build.sh: what demo.sh and check.sh both start with.  Installs what is
# missing, then configures (once) and builds out of tree in _build/.  One
# configuration serves both, whichever runs first: warnings are errors,
# and `make install` goes to ./_inst.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
sh tools/deps.sh
[ -x configure ] || ./autogen.sh
mkdir -p _build
cd _build
[ -f Makefile ] || "$top/configure" --enable-werror --prefix="$top/_inst"
make -j2
