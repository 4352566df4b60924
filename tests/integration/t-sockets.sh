#!/bin/sh
# t-sockets.sh: the message tests once more over the socket paths
# (PVM_SHM=0: direct routes on one host are Unix sockets, and only
# PvmRouteDirect opens them), so that both transports stay tested.  Each
# test starts its own pvmd, which passes the setting to the tasks.
export PVM_SHM=0
rc=0
for t in t-msg t-mcast t-big t-flood t-mhf t-many; do
	echo "==== $t.sh with PVM_SHM=0"
	sh "$PVM_TOP_SRCDIR/tests/integration/$t.sh" || rc=1
done
exit $rc
