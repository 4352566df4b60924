#!/bin/sh
# t-big.sh: a 256 MiB message arrives intact, through the pvmd and over a
# direct route, by each way libpvm moves a large body between tasks of one
# host: a bulk offer the receiver copies out of the sender (the default),
# the sockets (PVM_BULK=0), and an offer the receiver refuses, after which
# the sender falls back to the sockets.  A bulk sender whose receiver dies
# without reading returns; an offer that reaches a task with its enrolment
# is answered under its tid; bad offers made by hand hurt no receiver; later
# offers to a busy receiver are lent, and still arrive after the sender
# freed its buffers and left.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_big"

start_pvmd
# $PVM_BULK reaches the receiver through PVM_EXPORT (spawn's environment).
PVM_EXPORT=PVM_BULK
export PVM_EXPORT
PVM_BULK=trace run_checks 300 "$TASKS/t_big" daemon 256
check "256 MiB through the pvmd went as a bulk offer, taken" \
    grep -q 'bulk offer of .* bytes to t.*: taken' "$T_OUT"
rss=$(pvmd_rss)
echo "INFO: pvmd VmRSS after 256 MiB through it: ${rss:-?} KiB"
check "pvmd did not keep the message (VmRSS ${rss:-?} KiB < 128 MiB)" \
    test "${rss:-999999}" -lt 131072
PVM_BULK=trace run_checks 300 "$TASKS/t_big" direct 256
check "256 MiB over a direct route went as a bulk offer, taken" \
    grep -q 'bulk offer of .* bytes to t.*: taken' "$T_OUT"
PVM_BULK=0 run_checks 300 "$TASKS/t_big" daemon 256
check "... and through the pvmd's sockets (PVM_BULK=0): no offer" \
    sh -c "! grep -q 'bulk offer' '$T_OUT'"
rss=$(pvmd_rss)
check "pvmd did not keep it (VmRSS ${rss:-?} KiB < 128 MiB)" \
    test "${rss:-999999}" -lt 131072
PVM_BULK=0 run_checks 300 "$TASKS/t_big" direct 64
PVM_BULK=trace,refuse run_checks 300 "$TASKS/t_big" daemon 64
check "an offer the receiver refuses: sent through the sockets instead" \
    grep -q 'bulk offer of .* bytes to t.*: refused' "$T_OUT"
PVM_BULK=trace run_checks 60 "$TASKS/t_big" gone
check "the receiver died unread: the sender saw it gone" \
    grep -q 'bulk offer of .* bytes to t.*: peer gone' "$T_OUT"
run_checks 60 "$TASKS/t_big" gone2
run_checks 60 "$TASKS/t_big" early
check "the early receiver kept its connection to the pvmd" \
    sh -c "! grep -q 'frame with source' '$T_LOG'"
run_checks 60 "$TASKS/t_big" bogus
run_checks 60 "$TASKS/t_big" lend
check "pvmd alive after the big messages" pvmd_alive
finish
