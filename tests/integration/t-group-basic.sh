#!/bin/sh
# t-group-basic.sh: group membership (join, leave, instance reuse, gsize,
# gettid, getinst and their error codes), programs racing to start the
# group server, the server found again by a second program after the
# first exits, one barrier segment file per group while it exists, and the
# console's ps showing pvmgs.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_group" "$PVMGS_PATH" "$PVM_CONSOLE"

start_pvmd
# Six programs race to start the server.
for i in 1 2 3 4 5 6; do
	run 60 "$TASKS/t_group" race R 6 >"$T_TMP/race.$i" 2>&1 &
done
wait
cat "$T_TMP"/race.*
check "the 6 racers passed all their checks" \
    test "$(cat "$T_TMP"/race.* | grep -c '^PASS: ')" -eq 30 -a \
    "$(cat "$T_TMP"/race.* | grep -c '^FAIL: ')" -eq 0
check "the 6 racers got 6 distinct instances" test "$(cat "$T_TMP"/race.* |
    sed -n 's/^PASS: racing join: instance \([0-9]*\) of 6$/\1/p' |
    sort -u | wc -l)" -eq 6
run_checks 60 "$TASKS/t_group" basic
run_checks 30 "$TASKS/t_group" first G1 "$T_DIR"
server=$(sed -n 's/^SERVER //p' "$T_OUT")
check "first program printed the server tid ($server)" test -n "$server"
check "its group's barrier segment went with the group" segments_gone 10
run_checks 30 "$TASKS/t_group" second G2 "${server:-0}"

out="$T_TMP/console"
{
	echo "ps -a"
	sleep 1
	echo "quit"
} | run 20 "$PVM_CONSOLE" >"$out" 2>&1
cat "$out"
check "console ps lists pvmgs" grep -q 'pvmgs' "$out"
check "pvmd alive after the group tests" pvmd_alive
finish
