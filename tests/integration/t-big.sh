#!/bin/sh
# t-big.sh: a 256 MiB message arrives intact, through the pvmd and over a
# direct route.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_big"

start_pvmd
run_checks 300 "$TASKS/t_big" daemon 256
rss=$(pvmd_rss)
echo "INFO: pvmd VmRSS after 256 MiB through it: ${rss:-?} KiB"
check "pvmd did not keep the message (VmRSS ${rss:-?} KiB < 128 MiB)" \
    test "${rss:-999999}" -lt 131072
run_checks 300 "$TASKS/t_big" direct 256
check "pvmd alive after the big messages" pvmd_alive
finish
