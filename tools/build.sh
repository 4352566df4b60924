#!/bin/sh
# build.sh [BUILDDIR [CONFIGURE-ARGS...]]: what demo.sh, check.sh,
# sanitize.sh and valgrind.sh start with.  Installs what is missing, then
# configures (once) and builds out of tree in BUILDDIR (default _build/,
# relative to the top).  The default configuration serves demo.sh and
# check.sh, whichever runs first: warnings are errors, and `make install`
# goes to ./_inst.  Every configuration is hardened unless it says
# --disable-hardening: configure adds -D_FORTIFY_SOURCE=3 and
# -fstack-protector-strong where they work (configure.ac).
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
# A tree configured before configure chose hardening flags: configure it
# again (same arguments) and rebuild everything, since objects do not
# depend on the flags they were compiled with.
if ! grep -q '^HARDEN_CFLAGS' Makefile; then
	echo "build.sh: $build predates the hardening flags: reconfiguring"
	./config.status --recheck >/dev/null
	./config.status >/dev/null
	make clean >/dev/null
fi
make -j2
