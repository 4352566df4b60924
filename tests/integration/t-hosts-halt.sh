#!/bin/sh
# t-hosts-halt.sh: `echo halt | pvm; pvmd` works every time: the console
# returns only once the pvmd has exited, so a new pvmd can start at once.
# 20 times on one host, then 3 times on a machine of two hosts (h2 added
# by the console), halted from h2's console.  Hosts are network
# namespaces (lib-hosts.sh).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE"
hosts_setup 2

# round K ADD: `echo halt | pvm` on hK, then at once a new pvmd on h1 (and
# with ADD, the console's `add h2` before).  Prints what went wrong.
round() {
	local out="$T_TMP/round" rc left
	if [ "$2" = add ]; then
		echo "add h2" | hosts_console 1 40 "$out"
		if ! grep -qx '1 successful' "$out"; then
			echo "add h2 failed:"
			cat "$out"
			return 1
		fi
	fi
	echo halt | hosts_console "$1" 30 "$out"
	rc=$?
	left=$(hosts_pvmd_pids)
	if [ "$rc" -ne 0 ]; then
		echo "halt on h$1: console exit status $rc:"
		cat "$out"
		return 1
	fi
	if [ -n "$left" ]; then
		echo "halt on h$1: console returned, pvmd $left still there"
		return 1
	fi
	if ! on_host 1 timeout -k 5 20 "$PVMD" >"$out" 2>&1; then
		echo "pvmd right after halt failed:"
		cat "$out"
		return 1
	fi
	return 0
}

check "master pvmd on h1 started" hosts_start_master
i=1
bad=0
while [ "$i" -le 20 ]; do
	if ! round 1 -; then
		bad=$((bad + 1))
		echo "(round $i)"
		[ "$bad" -ge 3 ] && break
	fi
	i=$((i + 1))
done
check "echo halt | pvm; pvmd: 20 times in a row on one host ($bad failed)" \
    test "$bad" -eq 0 -a "$i" -gt 20
i=1
bad=0
while [ "$i" -le 3 ]; do
	if ! round 2 add; then
		bad=$((bad + 1))
		echo "(round $i with h2)"
		hosts_reset
		on_host 1 timeout -k 5 20 "$PVMD" >/dev/null 2>&1
	fi
	i=$((i + 1))
done
check "add h2; halt on h2's console; pvmd on h1: 3 times ($bad failed)" \
    test "$bad" -eq 0
echo halt | hosts_console 1 30 "$T_TMP/last"
check "the last halt leaves no pvmd" hosts_wait_no_pvmd 10
finish
