#!/bin/sh
# t-console-edit.sh: the console on a terminal with libedit (console/
# edit.c), typed at through a pseudo-terminal (tasks/pty_drive): a
# command runs; Up recalls it; Tab completes a command name, lists the
# names that share a prefix, and completes a host name after mstat; job
# output during editing leaves the unfinished line intact; the history is
# kept in $HOME/.pvm_history (mode 0600) after quit, EOF, halt and the
# loss of the pvmd, and the next session recalls it; without HOME there
# is no history and no error; ^C drops the unfinished line and the
# console goes on; ~/.editrc is read.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
if [ "${PVM_HAVE_LIBEDIT:-}" != yes ]; then
	if [ "${CI:-}" = true ]; then
		echo "FAIL: console built without libedit (tools/deps.sh" \
		    "installs libedit-dev); a failure under CI=true"
		exit 1
	fi
	echo "SKIP: console built without libedit: no line editing to test"
	exit 77
fi
DRIVE="$TASKS/pty_drive"
need "$PVM_CONSOLE" "$DRIVE" "$TASKS/t_hello"
install_task t_hello pvmt_hello
export HOME="$T_TMP/home" TERM=xterm
mkdir -p "$HOME" || exit 99
HIST="$HOME/.pvm_history"
PROMPT='pvm> '

start_pvmd
host=$(echo conf | run 20 "$PVM_CONSOLE" 2>&1 |
    awk '$2 ~ /^[0-9a-f]+$/ && $3 == ENV { print $1; exit }' \
    ENV="$PVM_ARCH")
check "the host's name from conf (${host:-none})" test -n "$host"
part=${host%?} # all but its last letter

# Session 1: type, recall, complete; quit.
run_checks 120 "$DRIVE" "$T_TMP/screen1" "$PVM_CONSOLE" <<EOS
expect 1 $PROMPT
quiet 300
send conf\r
expect 1 DTID
expect 2 $PROMPT
quiet 300
send \e[A\r
expect 2 DTID
quiet 300
send con\t\r
expect 3 DTID
quiet 300
send se\t\t
expect 1 setenv\r\nsetopt\r\n
quiet 300
send \x15mstat $part\t\r
expect 1 $host  ok
quiet 300
send spawn -> pvmt_hello 4\r
expect 1 1 successful
quiet 300
send ec
expect 1 [1] finished\r\n${PROMPT}ec
quiet 300
send ho ab""cd\r
expect 1 \nabcd\r\n
quiet 300
send conf\r
expect 4 DTID
quiet 300
send quit\r
expect 1 pvmd still running
exit 0
EOS
check "quit wrote $HIST" test -f "$HIST"
mode=$(stat -c %a "$HIST" 2>/dev/null)
check "$HIST has mode 600 (got ${mode:-none})" test "$mode" = 600
check "$HIST holds conf" grep -qx conf "$HIST"

# Session 2: Up twice (quit, then conf) recalls session 1's conf; EOF
# (^D) saves the history too, mode 600 even when the file had another.
chmod 644 "$HIST"
run_checks 60 "$DRIVE" "$T_TMP/screen2" "$PVM_CONSOLE" <<EOS
expect 1 $PROMPT
quiet 300
send \e[A\e[A\r
expect 1 DTID
quiet 300
send echo second-session\r
expect 1 \r\nsecond-session\r\n
quiet 300
send \x04
expect 1 pvmd still running
exit 0
EOS
mode=$(stat -c %a "$HIST" 2>/dev/null)
check "$HIST has mode 600 again (got ${mode:-none})" test "$mode" = 600
check "EOF saved the second session's line" grep -q second-session "$HIST"
check "and kept the first's" grep -qx conf "$HIST"

# No HOME: editing works, no history file, no error.
run_checks 60 env -u HOME "$DRIVE" "$T_TMP/screen3" "$PVM_CONSOLE" <<EOS
expect 1 $PROMPT
quiet 300
send conf\r
expect 1 DTID
quiet 300
send quit\r
expect 1 pvmd still running
exit 0
EOS
check "no error without HOME" sh -c "! grep -qi error '$T_TMP/screen3'"

# ^C drops the line typed so far and shows a new prompt; the console
# goes on (PVM 3.4.6's console drops the line too).  ~/.editrc is read:
# it binds ^X to type "conf".
printf 'bind -s ^X conf\n' >"$HOME/.editrc"
run_checks 60 "$DRIVE" "$T_TMP/screen6" "$PVM_CONSOLE" <<EOS
expect 1 $PROMPT
quiet 300
send ps -a
quiet 300
send \x03
expect 1 ps -a^C\r\n$PROMPT
quiet 300
send echo after-intr\r
expect 1 \r\nafter-intr\r\n
quiet 300
send \x18\r
expect 1 DTID
quiet 300
send quit\r
expect 1 pvmd still running
exit 0
EOS
rm -f "$HOME/.editrc"
check "^C kept the console and dropped the line" \
    sh -c "! grep -q 'ps -aecho' '$T_TMP/screen6'"

# halt, and the pvmd going away, save the history too.
run_checks 60 "$DRIVE" "$T_TMP/screen4" "$PVM_CONSOLE" <<EOS
expect 1 $PROMPT
quiet 300
send halt\r
exit 0
EOS
check "halt saved the history" grep -qx halt "$HIST"
start_pvmd
run_checks 60 "$DRIVE" "$T_TMP/screen5" "$PVM_CONSOLE" <<EOS
expect 1 $PROMPT
quiet 300
send echo before-lost\r
expect 1 \r\nbefore-lost\r\n
quiet 300
shell kill -KILL $(pvmd_pid)
exit 1
EOS
check "losing the pvmd saved the history" grep -q before-lost "$HIST"
finish
