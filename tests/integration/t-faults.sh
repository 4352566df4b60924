#!/bin/sh
# t-faults.sh: faults injected into a running pvmd; after each the next
# task is served, and no process, descriptor or file is left behind.
#   1. SIGHUP reopens the log (an outside tool rotated it).
#   2. Tasks SIGKILLed at random moments: in the middle of a 32 MiB send
#      through the pvmd and over a direct route, while holding mailbox
#      entries, during a reduce (t_fault inject).
#   3. Out of descriptors (ulimit -n 48): of 60 tasks connecting at once
#      some are refused with PvmOutOfRes at once, none waits, and new
#      tasks are served once they are gone (t_fault fdfill).
#   4. A full disk for the log: tasks are still served, the lines that
#      did not fit are counted in the log once there is room again.
#   5. SIGTERM: a clean halt that removes the VM directory.
# (Clients that stop reading: t-flood.sh; a group server killed and
# started again: t-group-fail.sh.)
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVMD" "$TASKS/t_fault" "$TASKS/t_enrol"

fd_count() { fds_of "$(pvmd_pid)"; }
# The group server's tid (it stays once a group was used).
pvmgs_tid() {
	sed -n 's/.* \(t[0-9a-f]*\) connected (pid [0-9]*, spawned .*pvmgs)$/\1/p' \
	    "$T_LOG" | tail -n 1
}
# Files in the VM directory other than the pvmd's own, the group
# server's socket and group segments.
stray_files() {
	ls "$T_DIR" |
	    grep -v "^\(sock\|pid\|lock\|g[0-9a-f]\{8\}\|$(pvmgs_tid)\)\$"
}
# Task programs still running under our PVM_TMP.
stray_tasks() {
	local p n=0
	for p in $(vm_pids); do
		case $(vm_comm "$p") in t_*) n=$((n + 1)) ;; esac
	done
	echo "$n"
}

# 1. SIGHUP
start_pvmd
mv "$T_LOG" "$T_LOG.rotated"
kill -HUP "$(pvmd_pid)"
check "SIGHUP: the log is opened again" \
    wait_for 5 grep -q "log reopened" "$T_LOG"
check "SIGHUP: the pvmd lives" pvmd_alive
run_checks 20 "$TASKS/t_enrol" count 1
check "SIGHUP: the next task's lines go to the new log" \
    grep -q "connected" "$T_LOG"

# 2. Tasks killed at random moments.  The group server is started first
# (it stays), so that the descriptors counted before include its own.
run_checks 30 "$TASKS/t_fault" gs
check "the group server runs ($(pvmgs_tid))" test -n "$(pvmgs_tid)"
fds0=$(fd_count)
seed=${T_FAULT_SEED:-$(date +%s)}
run_checks 600 "$TASKS/t_fault" inject "$seed" 12
check "inject: the pvmd lives" pvmd_alive
fds_back() { [ "$(fd_count)" -le "$fds0" ]; }
check "inject: the pvmd's descriptors are back to $fds0 ($(fd_count))" \
    wait_for 10 fds_back
no_files() { [ -z "$(stray_files)" ]; }
check "inject: no task's file is left in $T_DIR ($(stray_files | tr '\n' ' '))" \
    wait_for 10 no_files
no_tasks() { [ "$(stray_tasks)" -eq 0 ]; }
check "inject: no task process is left" wait_for 10 no_tasks
run_checks 20 "$TASKS/t_enrol" count 2

# 5. SIGTERM
pid=$(pvmd_pid)
kill -TERM "$pid"
check "SIGTERM: the pvmd exits" wait_gone "$pid" 10
check "SIGTERM: the VM directory is removed" test ! -e "$T_DIR"
check "SIGTERM: the log says why" grep -q "halting (signal 15)" "$T_LOG"

# 3. Out of descriptors
(ulimit -n 48 && start_pvmd)
run_checks 120 "$TASKS/t_fault" fdfill 60
check "fdfill: the pvmd lives" pvmd_alive
check "fdfill: the log says why tasks were refused" \
    grep -q "out of file descriptors: a new task is refused" "$T_LOG"
run_checks 20 "$TASKS/t_enrol" count 1
stop_pvmd

# 4. A full disk, in a mount namespace of our own: the pvmd's directory
# on a 512 KiB tmpfs.  Arguments: the mount point, the output directory.
cat >"$T_TMP/full.sh" <<'END'
d=$1 out=$2
mount -t tmpfs -o size=512k tmpfs "$d" || exit 90
export PVM_TMP="$d"
trap 'kill -KILL "$(cat "$d/pvm-$(id -u)/pid" 2>/dev/null)" 2>/dev/null
umount -l "$d"' EXIT
timeout 20 "$PVMD" || exit 91
dd if=/dev/zero of="$d/fill" bs=4k 2>/dev/null
echo "full: $(df -k "$d" | awk 'NR == 2 { print $4 }') KiB free"
# Each task logs a few lines: more than fit in the log's last page.
ok=0
for i in $(seq 40); do
	timeout 20 "$TASKS/t_enrol" count 1 >"$out/enrol1" 2>&1 &&
	    ok=$((ok + 1))
done
echo "enrol while full: $ok of 40"
rm -f "$d/fill"
timeout 20 "$TASKS/t_enrol" count 1 >"$out/enrol2" 2>&1
echo "enrol after: $?"
cp "$d/pvm-$(id -u).log" "$out/full.log"
pid=$(cat "$d/pvm-$(id -u)/pid")
kill -TERM "$pid"
n=50
while kill -0 "$pid" 2>/dev/null && [ "$n" -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
END
if command -v unshare >/dev/null && [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$T_TMP/full" "$T_TMP/fullout"
	PVMD="$PVMD" TASKS="$TASKS" unshare -m --propagation private \
	    sh "$T_TMP/full.sh" "$T_TMP/full" "$T_TMP/fullout" \
	    >"$T_TMP/full.out" 2>&1
	echo "full disk part: exit $?"
	cat "$T_TMP/full.out"
	check "full disk: the disk was full" grep -q "^full: 0 KiB" \
	    "$T_TMP/full.out"
	check "full disk: 40 tasks were served meanwhile" \
	    grep -q "^enrol while full: 40 of 40" "$T_TMP/full.out"
	check "full disk: and after" grep -q "^enrol after: 0" \
	    "$T_TMP/full.out"
	check "full disk: the log counts the lines it lost" \
	    grep -q "log line(s) lost: No space left on device" \
	    "$T_TMP/fullout/full.log"
else
	echo "INFO: not root or no unshare: the full disk part is left out"
fi
finish
