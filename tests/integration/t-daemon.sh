#!/bin/sh
# t-daemon.sh: pvmd start-up and shut-down: `pvmd && prog` works, a
# second pvmd refuses, a SIGKILLed pvmd can be replaced, the directory is
# private, halt removes it, and another user is refused.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVMD" "$TASKS/t_enrol" "$TASKS/rawclient" "$TASKS/pty_drive"

# 1. `pvmd && prog`: pvmd returns only when clients can connect.  Three
# rounds, each ended by pvm_halt.
for round in 1 2 3; do
	if run 20 "$PVMD" && run 20 "$TASKS/t_enrol" quick >"$T_TMP/q" 2>&1
	then
		ok "round $round: pvmd && t_enrol quick"
	else
		fail "round $round: pvmd && t_enrol quick"
		cat "$T_TMP/q"
	fi
	pid=$(pvmd_pid)
	run 20 "$TASKS/t_enrol" halt >/dev/null 2>&1
	if [ -n "$pid" ] && wait_gone "$pid" 10; then
		ok "round $round: pvm_halt stopped pvmd $pid"
	else
		fail "round $round: pvmd ${pid:-?} still running after pvm_halt"
		stop_pvmd
	fi
	check "round $round: halt removed $T_DIR" test ! -e "$T_DIR"
done

# 1b. Started from a terminal, the pvmd stays in its starter's session
# (as PVM 3.4.6's: the master task and the tasks it spawns then share
# one session, which the kernel's autogroup scheduling treats as one
# group), in a process group of its own and without the terminal, so
# that the terminal's ^C reaches the shell and not the pvmd.
cat >"$T_TMP/detach.sh" <<EOF
"$PVMD" || exit 1
p=\$(cat "$T_DIR/pid")
echo "pvmd \$p: sid \$(ps -o sid= -p \$p) pgid \$(ps -o pgid= -p \$p)" \\
    "tty \$(ps -o tty= -p \$p) starter \$\$"
trap 'echo interrupted; exit 0' INT
echo ready
sleep 20 &
wait
EOF
printf 'expect 1 ready\nsend \\x03\nexpect 1 interrupted\nexit 0\n' |
    run 40 "$TASKS/pty_drive" "$T_TMP/detach.log" sh "$T_TMP/detach.sh" \
    >"$T_TMP/detach.out" 2>&1
check "a pvmd started on a terminal: the shell got the ^C" \
    grep -q "^PASS: .*interrupted" "$T_TMP/detach.out"
# "pvmd P sid S pgid G tty T starter X" once the colon is gone
set -- $(grep '^pvmd ' "$T_TMP/detach.log" | tr -d '\r:')
echo "# $*"
check "the pvmd's session is its starter's ($4, starter ${10})" \
    test -n "$4" -a "$4" = "${10}"
check "the pvmd leads a process group of its own ($6, pid $2)" \
    test -n "$6" -a "$6" = "$2"
check "the pvmd has no terminal (tty $8)" test "$8" = "?"
check "the pvmd outlived the ^C" pvmd_alive
pid=$(pvmd_pid)
run_checks 20 "$TASKS/t_enrol" quick
run 20 "$TASKS/t_enrol" halt >/dev/null 2>&1
check "halted" wait_gone "$pid" 10

# 2. A private directory.
start_pvmd
mode=$(stat -c %a "$T_DIR")
check "directory mode is 700 (got $mode)" test "$mode" = 700
owner=$(stat -c %u "$T_DIR")
check "directory owned by us (uid $owner)" test "$owner" = "$(id -u)"

# 3. A second pvmd refuses and names the running one.
pid=$(pvmd_pid)
run 20 "$PVMD" >"$T_TMP/second" 2>&1
rc=$?
cat "$T_TMP/second"
check "second pvmd exits non-zero (rc $rc)" test "$rc" -ne 0 -a "$rc" -ne 124
if grep -q "$pid" "$T_TMP/second" || grep -qF "$T_DIR" "$T_TMP/second"
then
	ok "second pvmd names the running one (pid $pid or $T_DIR)"
else
	fail "second pvmd's message names neither pid $pid nor $T_DIR"
fi
check "first pvmd still running as pid $pid" \
    test "$(pvmd_pid)" = "$pid" -a -d "/proc/$pid"
run_checks 20 "$TASKS/t_enrol" quick

# 4. After SIGKILL (stale socket, lock, pid file left behind) a new pvmd
# starts.
kill -KILL "$pid"
check "SIGKILLed pvmd $pid is gone" wait_gone "$pid" 5
if run 20 "$PVMD" >"$T_TMP/third" 2>&1; then
	ok "new pvmd starts after a SIGKILLed one"
else
	fail "new pvmd refused to start after SIGKILL"
	cat "$T_TMP/third"
fi
npid=$(pvmd_pid)
check "new pvmd has a new pid ($npid, old $pid)" \
    test -n "$npid" -a "$npid" != "$pid"
run_checks 20 "$TASKS/t_enrol" quick

# 5. Another user is refused (only testable as root).
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: other-uid check needs root (to act as user nobody)"
elif ! id nobody >/dev/null 2>&1; then
	echo "SKIP: other-uid check: no user 'nobody'"
else
	# Open the way to the socket so that only the pvmd's own check
	# (peer credentials) can refuse.
	chmod 711 "$T_TMP" "$T_DIR"
	chmod 777 "$T_DIR/sock"
	run 20 setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
	    "$TASKS/rawclient" connect "$T_DIR/sock" >"$T_TMP/other" 2>&1
	rc=$?
	chmod 700 "$T_TMP" "$T_DIR"
	cat "$T_TMP/other"
	case $rc in
	1) ok "connection from uid nobody refused by pvmd" ;;
	0) fail "pvmd accepted a task of another uid" ;;
	*) fail "other-uid check could not run (rawclient rc $rc)" ;;
	esac
	run_checks 20 "$TASKS/t_enrol" quick
	check "pvmd alive after the other-uid attempt" pvmd_alive
fi
finish
