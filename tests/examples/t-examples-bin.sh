#!/bin/sh
# t-examples-bin.sh: Debian's prebuilt PVM 3.4 example programs (package
# pvm-examples, compiled against PVM 3.4.6's headers and linked with its
# libpvm3.so.3, libgpvm3.so.3, libfpvm3.so.3) run unchanged on our
# libraries and our pvmd: binary drop-in compatibility.  LD_LIBRARY_PATH
# names our build's libraries; the pvmd passes it on to what it spawns.
. "$PVM_TOP_SRCDIR/tests/examples/lib-examples.sh"

ex_fetch
need "$PVM_CONSOLE" "$PVMGS_PATH"
B=$PVM_TOP_BUILDDIR
LIBDIRS="$B/libpvm/.libs $B/libgpvm/.libs"
FORTRAN=no
if [ "${PVM_HAVE_FORTRAN:-}" = yes ] &&
    [ -f "$B/fortran/.libs/libfpvm3.so.3" ]; then
	LIBDIRS="$LIBDIRS $B/fortran/.libs"
	FORTRAN=yes
fi
ours=""
for d in $LIBDIRS; do
	d=$(cd "$d" && pwd -P) || exit 99
	ours="$ours${ours:+:}$d"
done
export LD_LIBRARY_PATH="$ours"

# The binaries under PVM's names (Debian renamed hello and gs, which
# clash with other packages); spawn finds them in $PVM_ROOT/bin/$ARCH.
src="$EX_PKG/usr/bin"
for p in hello.pvm gs.pvm hello_other master1 slave1 spmd gexample \
    timing timing_slave dbwtest ibwtest pbwtest rbwtest inherita inheritb \
    inherit1 inherit2 inherit3 task0 task1 task_end rme lmbi gmbi \
    mhf_server mhf_tickle trsg ge gexamp joinleave thb tnb tjl tjf tst \
    fmaster1 fslave1 fspmd fgexample hitc hitc_slave frsg; do
	if [ -f "$src/$p" ]; then
		cp "$src/$p" "$EXB/${p%.pvm}" || exit 99
	fi
done

# Each binary that uses PVM loads our libraries, not Debian's.
lddbad=""
for f in "$EXB"/*; do
	for l in $(ldd "$f" 2>/dev/null |
	    sed -n 's/^[[:space:]]*\(lib[fg]*pvm3\.so\.3\) => \([^ ]*\).*/\1=\2/p'); do
		p=$(readlink -f "${l#*=}")
		case ":$ours:" in
		*":${p%/*}:"*) ;;
		*) lddbad="$lddbad $(basename "$f"):${l%%=*}=>$p" ;;
		esac
	done
done
check "ldd: every example resolves lib*pvm3.so.3 to our build" \
    test -z "$lddbad"
[ -n "$lddbad" ] && echo "not ours:$lddbad"

start_pvmd

# One running example seen from the inside: task0 waits for requests;
# its memory map shows which libpvm3 the dynamic linker loaded.
o="$T_TMP/task0.maps.out"
timeout -k 5 30 stdbuf -oL "$EXB/task0" mapsvc d </dev/null >"$o" 2>&1 &
pid=$!
ex_wait_for "$o" 'waiting for service request' 20
# $pid is timeout's; task0 is its child.
child=$(pgrep -P "$pid" | head -n 1)
map=$(grep -o '/[^ ]*libpvm3\.so[.0-9]*' "/proc/${child:-0}/maps" \
    2>/dev/null | head -n 1)
check "a running Debian binary maps our libpvm3 (${map:-none})" \
    test "${map%/*}" = "${ours%%:*}"
run 20 "$EXB/task_end" mapsvc 0 >/dev/null 2>&1
wait "$pid"

PROGS="hello master1 spmd gexample timing dbwtest ibwtest pbwtest rbwtest
inherit1 inherit3 inheritb task0 lmbi mhf_server
trsg ge gexamp gs joinleave thb tjl tjf tst"
[ "$FORTRAN" = yes ] && PROGS="$PROGS fmaster1 fspmd fgexample hitc frsg"
# EX_ONLY="prog ..." runs only those checks (for debugging).
ex_check_all ${EX_ONLY:-$PROGS}
finish
