#!/bin/sh
# t-guide-examples.sh: the user guide's example programs (examples/,
# built by make check against this build's libraries) on one host, run
# as docs/guide.md runs them: a private pvmd, the programs in
# $HOME/pvm3/bin/$PVM_ARCH (HOME is private too), where pvm_spawn finds
# hello_child, worker, reduce and freduce by name.
#
#   hello            its child's greeting, with this host's name
#   master 4, 1      every worker's share once, pi within 1e-12
#   reduce 4, 1, 7   the three sums and the PvmMax exactly, every
#                    member's share, the members' output caught
#   freduce 4, 3     (with Fortran) the same checks for pvmfreduce
#   session.pvm      `pvm < examples/session.pvm`: conf, ps -a, and
#                    spawn -> master 3 with every line of the job
#   echo halt | pvm  the pvmd is gone afterwards
#   sum_job 4        the README's demo (tools/demo.sh) still sums right
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/examples/lib-guide.sh"
need "$PVMGS_PATH" "$PVM_CONSOLE"

g_home
g_put "$GUIDE_EX" $GUIDE_C $GUIDE_F
# sum_job is an installed program: in the build it is a libtool wrapper
# around .libs/sum_job, whose run path is the configured $(libdir).  The
# copies it spawns (.libs/sum_job itself, started by the pvmd) find the
# build's libgpvm3 here, not whatever that $(libdir) holds.
export LD_LIBRARY_PATH="$PVM_TOP_BUILDDIR/libgpvm/.libs:$LD_LIBRARY_PATH"
start_pvmd
pid=$(pvmd_pid)

g_run hello 30 "$GUIDE_EX/hello"
g_hello "$G_OUT" "$(hostname)"

for n in 4 1; do
	g_run "master$n" 60 "$GUIDE_EX/master" "$n"
	g_master "$G_OUT" "$n"
done

for n in 4 1 7; do
	g_run "reduce$n" 60 "$GUIDE_EX/reduce" "$n"
	g_reduce "$G_OUT" "$n"
done

for n in $(if [ -n "$GUIDE_F" ]; then echo 4 3; fi); do
	g_run "freduce$n" 60 "$GUIDE_EX/freduce" "$n"
	g_freduce "$G_OUT" "$n"
done
[ -n "$GUIDE_F" ] || echo "(configured without Fortran: freduce not run)"

# The scripted console session, exactly as the guide runs it.
g_run session 60 "$PVM_CONSOLE" <"$GUIDE_SRC/session.pvm"
g_has "$G_OUT" "conf: one host" '^1 host, 1 data format$'
g_has "$G_OUT" "conf: this host's line" \
    "^ +$(hostname) +40000 +$PVM_ARCH +1000 +0x00408c41\$"
g_has "$G_OUT" "ps -a: its header" '^ +HOST +TID +FLAG 0x COMMAND$'
g_has "$G_OUT" "ps -a: the group server of the reduces" \
    "^ +$(hostname) +t?[0-9a-f]+ .* $(echo "$PVMGS_PATH" | sed 's/[.]/\\./g')\$"
g_has "$G_OUT" "spawn: job [1]" '^\[1\]$'
g_has "$G_OUT" "spawn: 1 successful" '^1 successful$'
g_master "$G_OUT" 3 '\[1:t[0-9a-f]+\] '
g_count "$G_OUT" "the console shows the end of the master and its 3 workers" \
    4 '^\[1:t[0-9a-f]+\] EOF$'
g_has "$G_OUT" "the job is finished before the console leaves" \
    '^\[1\] finished$'
check "the pvmd runs on after the session" pvmd_alive

g_run sum_job 60 "$PVM_TOP_BUILDDIR/examples/sum_job" 4
g_has "$G_OUT" "sum_job: the sum of squares is right" \
    '^sum of squares 1\.\.1000000 = 333333833333500000 \(correct\)$'

g_run halt 30 sh -c "echo halt | '$PVM_CONSOLE'"
check "echo halt | pvm: the pvmd ($pid) has exited" wait_gone "$pid" 10
finish
