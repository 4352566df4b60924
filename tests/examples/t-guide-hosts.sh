#!/bin/sh
# t-guide-hosts.sh: the guide's several-host run.  Three hosts h1..h3
# (network namespaces, lib-hosts.sh; netns-rsh is PVM_RSH), one file
# system and one private HOME, the guide's programs in
# $HOME/pvm3/bin/$PVM_ARCH.  examples/hostfile, with its placeholder
# names node2 and node3 replaced by h2 and h3, starts the machine:
# `pvmd hostfile` on h1, in the hostfile's directory.  Then, on h1:
#
#   conf             3 hosts: h1, h2, h3
#   reduce 6         the sums right, and members on each of the 3 hosts
#   master 6         pi right, workers' shares all back
#   hello            the child's greeting from one of the hosts
#   freduce 6        (with Fortran) the sums right
#   echo halt | pvm  every pvmd of the three hosts has exited
#
# Without root or network namespaces: skipped (77), a failure under
# CI=true (lib-hosts.sh).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
. "$PVM_TOP_SRCDIR/tests/examples/lib-guide.sh"
need "$PVMD" "$PVMGS_PATH" "$PVM_CONSOLE"
hosts_setup 3

g_home
g_put "$GUIDE_EX" $GUIDE_C $GUIDE_F

sed 's/^node2$/h2/; s/^node3$/h3/' "$GUIDE_SRC/hostfile" \
    >"$T_TMP/hostfile" || exit 99
check "the hostfile names h2 and h3 (from node2, node3)" \
    test "$(grep -v '^#' "$T_TMP/hostfile" | grep -c .)" -eq 2 -a \
    "$(grep -cx 'h[23]' "$T_TMP/hostfile")" -eq 2
# As the guide says it: the hostfile named relative to the current
# directory (the pvmd reads it once it has changed to $HOME).
cd "$T_TMP" || exit 99
check "pvmd hostfile on h1 returns with the machine up" \
    hosts_start_master hostfile
cd / || exit 99

echo conf | hosts_console 1 30 "$T_TMP/conf.out"
cat "$T_TMP/conf.out"
g_has "$T_TMP/conf.out" "conf: 3 hosts" '^3 hosts, 1 data format$'
for k in 1 2 3; do
	g_has "$T_TMP/conf.out" "conf: h$k is in the machine" \
	    "^ +h$k +[0-9a-f]+ +$PVM_ARCH "
done

on1() {
	local name=$1
	shift
	g_run "$name" 90 "$NETNS_RSH" h1 "$@"
}

on1 reduce6 "$GUIDE_EX/reduce" 6
g_reduce "$G_OUT" 6
for k in 1 2 3; do
	g_has "$G_OUT" "reduce: a member ran on h$k" \
	    "^(\\[t[0-9a-f]+\\] )?member [0-5] of 6 on h$k: "
done

on1 master6 "$GUIDE_EX/master" 6
g_master "$G_OUT" 6

on1 hello "$GUIDE_EX/hello"
g_hello "$G_OUT" 'h[123]'

if [ -n "$GUIDE_F" ]; then
	on1 freduce6 "$GUIDE_EX/freduce" 6
	g_freduce "$G_OUT" 6
fi

echo halt | hosts_console 1 30 "$T_TMP/halt.out"
cat "$T_TMP/halt.out"
check "echo halt | pvm: no pvmd left on any host" hosts_wait_no_pvmd 20
finish
