# lib.sh: sourced by every integration test.  Gives each test its own
# virtual machine: a private PVM_TMP, our own pvmd (never one found on
# $PATH), a time limit, and a trap that stops the daemon and everything it
# started, also when the test fails.
#
#   . "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
#   start_pvmd                 # private pvmd, returns once it is ready
#   run 30 "$TASKS/pingpong"   # a program under a 30 s limit
#   run_checks 30 "$TASKS/t_msg" pingpong
#                              # a task program that prints PASS:/FAIL:
#                              # lines; they count as this test's checks
#   ok "what was checked"  /  fail "why"
#   finish                     # prints "N passed, M failed", exits
#
# Exit codes follow automake: 0 pass, 77 skip, 99 hard error, else fail.

set -u

if [ -z "${PVM_TOP_BUILDDIR:-}" ]; then
	echo "lib.sh: PVM_TOP_BUILDDIR is not set (run through make check)" >&2
	exit 99
fi

PVMD="$PVM_TOP_BUILDDIR/daemon/pvmd"
PVM_CONSOLE="$PVM_TOP_BUILDDIR/console/pvm"
TASKS="$PVM_TOP_BUILDDIR/tests/integration/tasks"
OUR_LIBDIR="$PVM_TOP_BUILDDIR/libpvm/.libs"
# libgpvm3 starts the group server from here (never a pvmgs on a path).
export PVMGS_PATH="$PVM_TOP_BUILDDIR/libgpvm/pvmgs"

# A short private directory: Unix socket paths must fit in 108 bytes.
T_TMP=$(mktemp -d /tmp/pvmt.XXXXXX) || exit 99
export PVM_TMP="$T_TMP"
export PVM_DPATH="$PVMD"
export PVM_ROOT="$T_TMP/root"
export PVM_ARCH="${PVM_ARCH_NAME:-LINUX64}"
export LD_LIBRARY_PATH="$OUR_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset PVM_VMID PVMSOCK PVMEPID PVMHOSTFILE PVM_EXPORT
mkdir -p "$PVM_ROOT/bin/$PVM_ARCH"
# PVM 3.4.6 refuses to run as root without this; containers run tests as
# root.
if [ "$(id -u)" -eq 0 ]; then
	export PVM_ALLOW_ROOT=yes
fi

# Slow runs (tools/valgrind.sh): PVM_TEST_TIMESCALE=N multiplies every
# time limit and wait of this file (and of lib-hosts.sh) by N.  Unset, it
# is 1: the normal run is unchanged.
T_SCALE=${PVM_TEST_TIMESCALE:-1}
case "$T_SCALE" in
''|*[!0-9]*|0) echo "lib.sh: bad PVM_TEST_TIMESCALE '$T_SCALE'" >&2; exit 99 ;;
esac

# Memory checking (tools/valgrind.sh): PVM_TEST_VALGRIND=DIR runs our
# pvmd (master and slaves: $PVMD and $PVM_DPATH become a wrapper) under
# valgrind memcheck, and through it every process the pvmd starts from a
# program of ours: pvmgs (PVMGS_PATH names the real program, not
# libtool's wrapper script) and the spawned tasks.  The console
# ($PVM_CONSOLE) and the task programs a test runs itself with
# run_checks run under memcheck too.  System programs (/bin, /usr: the
# shells, ip, timeout, Debian's PVM examples) and netns-rsh are not
# traced; a pvmd they start goes through the wrapper again.  Each process
# writes DIR/<test>.<pid>.log; tools/valgrind.sh reads them.
# PVM_TEST_VALGRIND_OPTS adds options (e.g. --suppressions=FILE).
T_VG=""
if [ -n "${PVM_TEST_VALGRIND:-}" ]; then
	mkdir -p "$PVM_TEST_VALGRIND" "$T_TMP/vg" || exit 99
	T_VGOPTS="--tool=memcheck --trace-children=yes \
--trace-children-skip=/bin/*,/sbin/*,/usr/*,*/netns-rsh,$T_TMP/vg/* \
--leak-check=full --show-leak-kinds=definite \
--errors-for-leak-kinds=definite --num-callers=30 \
--error-markers=VGERR-BEGIN,VGERR-END \
--log-file=$PVM_TEST_VALGRIND/$(basename "$0" .sh).%p.log \
${PVM_TEST_VALGRIND_OPTS:-}"
	# t_vgwrap NAME PROGRAM: $T_TMP/vg/NAME runs PROGRAM under memcheck.
	t_vgwrap() {
		printf '#!/bin/sh\nexec valgrind %s %s "$@"\n' \
		    "$T_VGOPTS" "$2" >"$T_TMP/vg/$1" &&
		    chmod +x "$T_TMP/vg/$1" || exit 99
	}
	t_vgwrap pvmd "$PVMD"
	t_vgwrap pvm "$PVM_TOP_BUILDDIR/console/.libs/pvm"
	t_vgwrap run "" # valgrind PROGRAM ARGS
	PVMD="$T_TMP/vg/pvmd"
	PVM_CONSOLE="$T_TMP/vg/pvm"
	[ -x "$PVM_TOP_BUILDDIR/libgpvm/.libs/pvmgs" ] &&
	    export PVMGS_PATH="$PVM_TOP_BUILDDIR/libgpvm/.libs/pvmgs"
	export PVM_DPATH="$PVMD"
	T_VG="$T_TMP/vg/run"
fi

T_PASS=0
T_FAIL=0
T_FAILED=""

T_DIR="$PVM_TMP/pvm-$(id -u)"
T_LOG="$PVM_TMP/pvm-$(id -u).log"

ok() {
	T_PASS=$((T_PASS + 1))
	echo "PASS: $*"
}

fail() {
	T_FAIL=$((T_FAIL + 1))
	echo "FAIL: $*"
	T_FAILED="$T_FAILED
FAIL: $*"
}

# fail_attach FILE: the first 30 lines of FILE go with the last failure
# into the summary printed at exit (CI shows only a log's tail).
fail_attach() {
	T_FAILED="$T_FAILED
$(head -n 30 "$1" | sed 's/^/  | /')"
}

# fail_summary: the failed checks again, after the daemons' logs, so
# that the tail of a failed test's log names what failed.
fail_summary() {
	[ -n "$T_FAILED" ] || return 0
	echo "==== $T_FAIL failed check(s) of $(basename "$0"):$T_FAILED" >&2
}

# check DESCRIPTION COMMAND...: PASS if the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# run SECONDS COMMAND...: run under a time limit (SIGKILL 5 s later).
run() {
	local secs=$(($1 * T_SCALE))
	shift
	timeout -k 5 "$secs" "$@"
}

# run_checks SECS PROG ARGS...: run a task program (see tasks/tcheck.h)
# under a time limit.  Its output is shown and kept in $T_OUT; each of its
# "PASS: " / "FAIL: " lines counts as one check of this test.  A time-out,
# a crash, or an exit status that its lines do not explain counts as one
# more failure.  Returns the program's exit status.
T_OUT="$T_TMP/out"
T_RUNS=0
run_checks() {
	local secs=$1 rc
	shift
	T_RUNS=$((T_RUNS + 1))
	T_OUT="$T_TMP/out.$T_RUNS"
	case "$1" in
	"$TASKS"/*) run "$secs" $T_VG "$@" >"$T_OUT" 2>&1 ;;
	*) run "$secs" "$@" >"$T_OUT" 2>&1 ;;
	esac
	rc=$?
	add_checks "$T_OUT"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		fail "$(basename "$1") ${2:-}: killed after the ${secs} s limit"
	elif [ "$rc" -gt 128 ]; then
		fail "$(basename "$1") ${2:-}: died of signal $((rc - 128))"
	elif [ "$rc" -ne 0 ] && [ "$T_NF" -eq 0 ]; then
		fail "$(basename "$1") ${2:-}: exit status $rc, no FAIL line"
	elif [ "$T_NP" -eq 0 ] && [ "$T_NF" -eq 0 ]; then
		fail "$(basename "$1") ${2:-}: reported no checks"
	fi
	return "$rc"
}

# add_checks FILE: show a program's output and count its PASS and FAIL
# lines as this test's checks (also in T_NP and T_NF).
add_checks() {
	cat "$1"
	T_NP=$(grep -c '^PASS: ' "$1")
	T_NF=$(grep -c '^FAIL: ' "$1")
	T_PASS=$((T_PASS + T_NP))
	T_FAIL=$((T_FAIL + T_NF))
	[ "$T_NF" -eq 0 ] || T_FAILED="$T_FAILED
$(grep '^FAIL: ' "$1")"
}

# need FILE...: a hard error (99) if a program of the build is missing.
need() {
	local f
	for f in "$@"; do
		if [ ! -x "$f" ]; then
			echo "lib.sh: $f is missing (not built?)" >&2
			exit 99
		fi
	done
}

# install_task NAME AS: copy task program NAME into $PVM_ROOT/bin/$PVM_ARCH
# under the name AS, where spawn looks for relative names.
install_task() {
	need "$TASKS/$1"
	cp "$TASKS/$1" "$PVM_ROOT/bin/$PVM_ARCH/$2" || exit 99
}

# wait_for SECS COMMAND...: run COMMAND every 0.1 s until it succeeds;
# false if it still fails after SECS.
wait_for() {
	local n=$(($1 * 10 * T_SCALE))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	"$@"
}

# wait_gone PID SECS: wait until process PID has ended; false on time-out.
wait_gone() {
	local pid=$1 n=$(($2 * 10 * T_SCALE))
	while [ "$n" -gt 0 ]; do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
		n=$((n - 1))
	done
	! kill -0 "$pid" 2>/dev/null
}

# segments_gone SECS: wait until the VM directory holds no group barrier
# segment (g + 8 hex digits; pvmgs removes a group's when the group is
# deleted, after the last member's exit notify); false on time-out.
segments_gone() {
	local n=$(($1 * 10 * T_SCALE))
	while [ "$n" -gt 0 ]; do
		ls "$T_DIR" | grep -q '^g[0-9a-f]\{8\}$' || return 0
		sleep 0.1
		n=$((n - 1))
	done
	! ls "$T_DIR" | grep -q '^g[0-9a-f]\{8\}$'
}

# pvmd_glibc_heap: true if our pvmd allocates with glibc's malloc, not
# with a sanitizer's or valgrind's allocator (they keep freed memory in
# a quarantine): checks that the pvmd gives freed memory back need it.
pvmd_glibc_heap() {
	[ -z "${PVM_TEST_VALGRIND:-}" ] &&
	    ! grep -q __asan_init "$PVM_TOP_BUILDDIR/daemon/pvmd" 2>/dev/null
}

# rss_of PID: resident memory of process PID in KiB (empty if none).
rss_of() {
	[ -n "$1" ] && awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" \
	    2>/dev/null
}

# rss_at_most PID KIB: true if PID's resident memory is known and at most
# KIB KiB.
rss_at_most() {
	local r
	r=$(rss_of "$1")
	[ -n "$r" ] && [ "$r" -le "$2" ]
}

# fds_of PID: the number of open descriptors of process PID.
fds_of() {
	ls "/proc/$1/fd" 2>/dev/null | wc -l
}

# pvmd_rss: resident memory of our pvmd in KiB (empty if none).
pvmd_rss() {
	rss_of "$(pvmd_pid)"
}

# start_pvmd [ARGS...]: start our pvmd and wait until it is ready.
start_pvmd() {
	need "$PVMD"
	if ! run 20 "$PVMD" "$@"; then
		echo "start_pvmd: pvmd failed to start" >&2
		dump_log
		exit 99
	fi
	if [ ! -S "$T_DIR/sock" ] || [ ! -f "$T_DIR/pid" ]; then
		echo "start_pvmd: no socket or pid file after start" >&2
		dump_log
		exit 99
	fi
}

# pvmd_pid: the running pvmd's pid (empty if none).
pvmd_pid() {
	cat "$T_DIR/pid" 2>/dev/null
}

# pvmd_alive: true while our pvmd runs.
pvmd_alive() {
	local pid
	pid=$(pvmd_pid)
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

dump_log() {
	if [ -f "$T_LOG" ]; then
		echo "---- pvmd log ($T_LOG), last 60 lines ----" >&2
		tail -n 60 "$T_LOG" >&2
		echo "---- end of log ----" >&2
	fi
}

# vm_pids [DIR]: every process but this shell whose environment holds
# PVM_TMP=DIR (default: ours, $T_TMP): a pvmd, its tasks and their
# children, however they were started.  (The pvmd stays in its starter's
# session, as PVM 3.4.6's, so a session no longer names them.)  Take
# the list whole, $(vm_pids), before acting on it: a command piped from
# it would run beside the look with our PVM_TMP and be listed (and
# killed) too.  Only grep runs meanwhile, without PVM_TMP.
vm_pids() {
	local f p
	for f in $(env -u PVM_TMP grep -lzxF "PVM_TMP=${1:-$T_TMP}" \
	    /proc/[0-9]*/environ 2>/dev/null); do
		p=${f#/proc/}
		p=${p%/environ}
		[ "$p" = "$$" ] || echo "$p"
	done
}

# vm_comm PID: process PID's command name (empty once it is gone).
vm_comm() {
	local c=""
	read -r c 2>/dev/null <"/proc/$1/comm"
	echo "$c"
}

# stop_pvmd: SIGTERM the daemon (it halts its tasks), then make sure
# nothing started under our PVM_TMP survives.
stop_pvmd() {
	local pid i pids
	pid=$(pvmd_pid)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null
		i=$((20 * T_SCALE))
		while [ "$i" -gt 0 ]; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
			i=$((i - 1))
		done
	fi
	pids=$(vm_pids)
	[ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
}

t_cleanup() {
	local rc=$? j
	for j in $(jobs -p); do
		kill -KILL "$j" 2>/dev/null
	done
	stop_pvmd
	if [ "$rc" -ne 0 ] || [ "$T_FAIL" -ne 0 ]; then
		dump_log
	fi
	fail_summary
	rm -rf "$T_TMP"
	exit "$rc"
}
trap t_cleanup EXIT
trap 'exit 99' INT TERM HUP

# finish: print the count line and exit with the right status.
finish() {
	echo "$T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ] && [ "$T_PASS" -gt 0 ]
	exit $?
}
