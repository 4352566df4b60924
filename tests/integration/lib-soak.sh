# lib-soak.sh: the steps the soak drivers share (t-soak.sh on one host,
# t-hosts-soak.sh on four namespace hosts).  Sourced after lib.sh (and
# lib-hosts.sh).  SOAK_RUN is the prefix that runs a program where the
# coordinator belongs: empty on one host, "$NETNS_RSH h1" on the hosts.
#
#   soak_selfcheck             the soak fails on a flipped byte, a skipped
#                              send and a duplicated one (seed fixed)
#   soak_warmup                a 2-round soak: pvmgs starts, the pvmd's
#                              allocator grows to its working size
#   soak_baseline NAME:PID...  each pvmd's descriptors and resident memory,
#                              once its descriptors are steady
#   soak_main                  the soak itself (SOAK_* below; with
#                              SOAK_SAMPLE=S and SOAK_OUT, the pvmds'
#                              figures every S seconds go to SOAK_OUT)
#   soak_compare               each pvmd's descriptors back exactly, its
#                              resident memory within SOAK_RSS_TOL_KB
#                              (waiting 5 s at most for its trim)
#
# The tolerance for resident memory: the pvmd gives its freed heap back a
# second after its last read (daemon/trim.c); what it keeps is pages in
# partial use and library pages.  Measured with trimming, three soaks
# side by side: -232 to +808 KiB.  Without it a pvmd kept the peak of
# what it had queued (8 MiB per destination before back-pressure):
# +12.5 MiB in a loaded CI run.  A real leak shows in the long run's
# samples as growth, not as a plateau (docs/soak.md).

SOAK_SECONDS=${SOAK_SECONDS:-45}
SOAK_ROUNDS=${SOAK_ROUNDS:-1000000}
SOAK_TASKS=${SOAK_TASKS:-64}
SOAK_MSGS=${SOAK_MSGS:-8}
# A sanitizer's allocator keeps freed memory in its quarantine (16 MiB in
# tools/sanitize.sh) and trims nothing: the tolerance it passed with before.
if pvmd_glibc_heap; then
	SOAK_RSS_TOL_KB=${SOAK_RSS_TOL_KB:-4096}
else
	SOAK_RSS_TOL_KB=${SOAK_RSS_TOL_KB:-8192}
fi
SOAK_RUN=${SOAK_RUN:-}
SOAK_PVMDS=""

# soak_note TEXT: an INFO line, also appended to $SOAK_OUT if set.
soak_note() {
	echo "INFO: $*"
	if [ -n "${SOAK_OUT:-}" ]; then
		echo "$*" >>"$SOAK_OUT"
	fi
}

# soak_selfcheck: with each fault the soak must fail, and its figures
# must name the fault (a test that cannot fail proves nothing).
soak_selfcheck() {
	local f want out rc
	for f in flip skip dup; do
		case $f in
		flip) want='corrupted=[1-9]' ;;
		skip) want='missing=[1-9]' ;;
		dup) want='duplicated=[1-9]' ;;
		esac
		out="$T_TMP/selfcheck.$f"
		run 180 $SOAK_RUN "$TASKS/t_soak" run tasks=8 rounds=3 msgs=6 \
		    wait=5 seed=0x5eed fault=$f >"$out" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ] && grep '^INFO: SOAK ' "$out" |
		    grep -q " $want"; then
			ok "self-check: fault=$f makes the soak fail" \
			    "($(grep '^INFO: SOAK ' "$out" | grep -o "${want%%=*}=[0-9]*"))"
		else
			fail "self-check: fault=$f did not make the soak fail" \
			    "with $want (exit $rc)"
			cat "$out"
		fi
	done
}

soak_warmup() {
	run_checks 240 $SOAK_RUN "$TASKS/t_soak" run tasks="$SOAK_TASKS" \
	    rounds=2 msgs="$SOAK_MSGS"
}

# soak_steady PID: wait (20 s at most) until PID's descriptor count has
# not changed for a second; the pvmd closes a task's connection after the
# task's process ended.
soak_steady() {
	local n=20 a b
	a=$(fds_of "$1")
	while [ "$n" -gt 0 ]; do
		sleep 1
		b=$(fds_of "$1")
		[ "$a" = "$b" ] && return 0
		a=$b
		n=$((n - 1))
	done
	return 1
}

soak_baseline() {
	local e name pid
	SOAK_PVMDS="$*"
	for e in "$@"; do
		name=${e%%:*}
		pid=${e#*:}
		soak_steady "$pid"
		eval "SOAK_FD0_$name=\$(fds_of \$pid)"
		eval "SOAK_RSS0_$name=\$(rss_of \$pid)"
		soak_note "$name pvmd before the soak (after the warm-up):" \
		    "rss $(rss_of "$pid") KiB, fds $(fds_of "$pid")"
	done
}

# soak_sampler: every $SOAK_SAMPLE seconds (0: never) each pvmd's
# resident memory and descriptors into $SOAK_OUT: the long run's trend.
soak_sampler() {
	local t=0 e pid
	[ "${SOAK_SAMPLE:-0}" -gt 0 ] && [ -n "${SOAK_OUT:-}" ] || return 0
	while sleep "$SOAK_SAMPLE"; do
		t=$((t + SOAK_SAMPLE))
		for e in $SOAK_PVMDS; do
			pid=${e#*:}
			echo "sample ${t}s ${e%%:*}: rss $(rss_of "$pid") KiB," \
			    "fds $(fds_of "$pid")" >>"$SOAK_OUT"
		done
	done
}

soak_main() {
	local secs=$((SOAK_SECONDS + 300)) line
	soak_note "soak: tasks=$SOAK_TASKS seconds=$SOAK_SECONDS" \
	    "rounds=$SOAK_ROUNDS msgs=$SOAK_MSGS"
	soak_sampler &
	SOAK_SAMPLER=$!
	run_checks "$secs" $SOAK_RUN "$TASKS/t_soak" run tasks="$SOAK_TASKS" \
	    seconds="$SOAK_SECONDS" rounds="$SOAK_ROUNDS" msgs="$SOAK_MSGS" \
	    ${SOAK_SEED:+seed=$SOAK_SEED}
	kill "$SOAK_SAMPLER" 2>/dev/null
	wait "$SOAK_SAMPLER" 2>/dev/null
	line=$(grep '^INFO: SOAK ' "$T_OUT")
	soak_note "${line#INFO: }"
}

# soak_compare: every pvmd of soak_baseline against its starting level.
soak_compare() {
	local e name pid fd0 rss0 fd rss n
	for e in $SOAK_PVMDS; do
		name=${e%%:*}
		pid=${e#*:}
		eval "fd0=\$SOAK_FD0_$name rss0=\$SOAK_RSS0_$name"
		n=150
		while [ "$n" -gt 0 ] && [ "$(fds_of "$pid")" != "$fd0" ]; do
			sleep 0.1
			n=$((n - 1))
		done
		fd=$(fds_of "$pid")
		# The pvmd trims its heap a second after its last read
		# (daemon/trim.c): give it 5 s to get there.
		wait_for 5 rss_at_most "$pid" $((rss0 + SOAK_RSS_TOL_KB))
		rss=$(rss_of "$pid")
		soak_note "$name pvmd after the soak: rss $rss KiB" \
		    "($((rss - rss0)) KiB), fds $fd ($((fd - fd0)));" \
		    "$(grep -E '^Rss(Anon|File|Shmem)' "/proc/$pid/status" 2>/dev/null | tr -s ' \t\n' ' ')"
		check "$name pvmd: descriptors back to $fd0 (now $fd)" \
		    test "$fd" -eq "$fd0"
		check "$name pvmd: resident memory $rss KiB within $SOAK_RSS_TOL_KB KiB of $rss0 KiB" \
		    test "$rss" -le $((rss0 + SOAK_RSS_TOL_KB))
	done
}
