#!/bin/sh
# t-catchout.sh: pvm_catchout(stdout) shows each child's output as
# "[t<tid>] line" between "[t<tid>] BEGIN" and "[t<tid>] EOF", and
# pvm_exit waits for the children.
#
# The last line is "EOF": that is what PVM 3.4.6 prints (observed with
# Debian's build), although its pvm_catchout(3PVM) page shows "END".
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_catch"

start_pvmd
out="$T_TMP/catch"
run 60 "$TASKS/t_catch" 3 >"$out" 2>&1
rc=$?
cat "$out"
check "t_catch exits 0 (rc $rc)" test "$rc" -eq 0
check "pvm_catchout(stdout) returned 0" grep -qx "CATCHOUT 0" "$out"

# lineno TEXT: number of the first line that is exactly TEXT (or 0).
lineno() {
	local n
	n=$(grep -nFx -- "$1" "$out" | head -n 1 | cut -d: -f1)
	echo "${n:-0}"
}

done_at=$(grep -n '^PARENT EXITED' "$out" | head -n 1 | cut -d: -f1)
done_at=${done_at:-0}
check "parent's pvm_exit returned" test "$done_at" -gt 0
spawned=$(sed -n 's/^SPAWNED //p' "$out")
nkids=0
for pair in $spawned; do
	case $pair in
	t*=*) ;;
	*) fail "spawn failed: $pair"; continue ;;
	esac
	tid=${pair%%=*}
	i=${pair#*=}
	nkids=$((nkids + 1))
	b=$(lineno "[$tid] BEGIN")
	l1=$(lineno "[$tid] first line of child $i")
	l2=$(lineno "[$tid] second line of child $i")
	le=$(lineno "[$tid] stderr line of child $i")
	e=$(lineno "[$tid] EOF")
	check "[$tid] BEGIN present" test "$b" -gt 0
	check "[$tid] first line of child $i, after BEGIN" \
	    test "$l1" -gt "$b" -a "$b" -gt 0
	check "[$tid] second line of child $i, after the first" \
	    test "$l2" -gt "$l1" -a "$l1" -gt 0
	check "[$tid] stderr line of child $i caught too" \
	    test "$le" -gt "$b" -a "$b" -gt 0
	check "[$tid] EOF after the last line" test "$e" -gt "$l2" -a "$l2" -gt 0
	check "[$tid] EOF before pvm_exit returned" \
	    test "$e" -gt 0 -a "$e" -lt "$done_at"
	n=$(grep -c "^\[$tid\] " "$out")
	check "[$tid]: exactly 5 lines (got $n)" test "$n" -eq 5
done
check "3 children spawned (got $nkids)" test "$nkids" -eq 3
secs=$(sed -n 's/^PARENT EXITED after \([0-9.]*\) s$/\1/p' "$out")
check "pvm_exit waited for the children (${secs:-?} s >= 0.9)" \
    awk -v s="${secs:-0}" 'BEGIN { exit !(s >= 0.9) }'
finish
