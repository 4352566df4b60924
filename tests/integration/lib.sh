# lib.sh: sourced by every integration test.  Gives each test its own
# virtual machine: a private PVM_TMP, our own pvmd (never one found on
# $PATH), a time limit, and a trap that stops the daemon and everything it
# started, also when the test fails.
#
#   . "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
#   start_pvmd                 # private pvmd, returns once it is ready
#   run 30 "$TASKS/pingpong"   # a program under a 30 s limit
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

# A short private directory: Unix socket paths must fit in 108 bytes.
T_TMP=$(mktemp -d /tmp/pvmt.XXXXXX) || exit 99
export PVM_TMP="$T_TMP"
export PVM_DPATH="$PVMD"
export PVM_ROOT="$T_TMP/root"
export PVM_ARCH="${PVM_ARCH_NAME:-LINUX64}"
export LD_LIBRARY_PATH="$OUR_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset PVM_VMID PVMSOCK PVMEPID PVMHOSTFILE PVM_EXPORT
mkdir -p "$PVM_ROOT/bin/$PVM_ARCH"

T_PASS=0
T_FAIL=0
T_PVMD_SID=""

T_DIR="$PVM_TMP/pvm-$(id -u)"
T_LOG="$PVM_TMP/pvm-$(id -u).log"

ok() {
	T_PASS=$((T_PASS + 1))
	echo "PASS: $*"
}

fail() {
	T_FAIL=$((T_FAIL + 1))
	echo "FAIL: $*"
}

# check DESCRIPTION COMMAND...: PASS if the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# run SECONDS COMMAND...: run under a time limit (SIGKILL 5 s later).
run() {
	local secs=$1
	shift
	timeout -k 5 "$secs" "$@"
}

# start_pvmd [ARGS...]: start our pvmd and wait until it is ready.
start_pvmd() {
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
	T_PVMD_SID=$(cat "$T_DIR/pid")
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

# stop_pvmd: SIGTERM the daemon (it halts its tasks), then make sure
# nothing of its session survives.
stop_pvmd() {
	local pid i
	pid=$(pvmd_pid)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null
		for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	fi
	if [ -n "$T_PVMD_SID" ]; then
		pkill -KILL -s "$T_PVMD_SID" 2>/dev/null || true
	fi
}

t_cleanup() {
	local rc=$?
	stop_pvmd
	if [ "$rc" -ne 0 ] || [ "$T_FAIL" -ne 0 ]; then
		dump_log
	fi
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
