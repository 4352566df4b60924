#!/bin/sh
# t-soak.sh: the soak on one host (issue 11; docs/soak.md).  64 workers
# exchange checksummed, sequenced messages of 1 B to 4 MiB under a seeded
# random schedule (every encoding, pvm_send, pvm_mcast, pvm_psend, through
# the pvmd and direct, wildcard and by-sender receives), with barriers,
# reduces, mailbox traffic, TaskExit notifies and workers that exit and
# are respawned (tasks/t_soak.c).  Nothing may be lost, duplicated,
# reordered within a pair or corrupted, and the totals must match the
# schedule.  Then pvmd's descriptors must be back at their starting level
# exactly, its resident memory within SOAK_RSS_TOL_KB (below).
#
# First a self-check: the soak must fail when slot 0 flips a byte of a
# message, skips one, or sends one twice.  Then a warm-up run starts the
# group server and brings the pvmd's allocator to its working size, and
# the starting level is taken.
#
# Environment (tools/soak.sh sets these for a long run):
#   SOAK_SECONDS (45)  SOAK_ROUNDS (1000000)  SOAK_TASKS (64)
#   SOAK_MSGS (8, per worker and round, on average)  SOAK_SEED (random)
#   SOAK_SELFCHECK (yes)  SOAK_OUT (file: gets the figures)
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-soak.sh"
need "$TASKS/t_soak" "$PVMGS_PATH"

start_pvmd
pid=$(pvmd_pid)
soak_note "pvmd at start: rss $(rss_of "$pid") KiB, fds $(fds_of "$pid")"
if [ "${SOAK_SELFCHECK:-yes}" = yes ]; then
	soak_selfcheck
fi
run_checks 60 "$TASKS/t_soak" bulkack
soak_warmup
soak_baseline "h1:$pid"
soak_main
check "pvmd alive after the soak" pvmd_alive
soak_compare
finish
