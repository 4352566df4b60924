#!/bin/sh
# run.sh SECONDS CORPUS BINDIR TARGET...: run each libFuzzer target
# BINDIR/fuzz_TARGET for SECONDS on a copy of its seeds CORPUS/TARGET/,
# one after the other (they are not meant to share the CPUs), then print
# a line of figures per target.  `make fuzz` calls it (tests/fuzz/fuzz.am).
#
# Fails if any target crashed, hung (-timeout), ran out of memory or
# broke one of its checks.  The input that did it is kept as
# BINDIR/artifacts/TARGET-crash-... (or -timeout-, -oom-), and the
# target's log as BINDIR/artifacts/TARGET.log; replay it with
#   BINDIR/fuzz_TARGET BINDIR/artifacts/TARGET-crash-...
# New inputs found are thrown away with the copy: the committed corpus
# stays small and is changed only by hand (mkcorpus.py).
set -e
seconds=$1
corpus=$2
bindir=$(cd "$3" && pwd)
shift 3
art=$bindir/artifacts
mkdir -p "$art"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvm-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
summary=$bindir/fuzz-summary.txt

# The value of libFuzzer's "stat::NAME: value" line in a log.
stat() {
	sed -n "s/^stat::$1: *//p" "$2" | tail -n 1
}

# The number after "NAME: " on the last status line ("#123 DONE cov: ...").
last() {
	grep '^#[0-9]' "$2" | tail -n 1 | sed -n "s/.* $1: \([0-9]*\).*/\1/p"
}

printf '%-10s %5s %12s %9s %6s %6s %7s  %s\n' target secs execs exec/s \
	cov ft corpus result >"$summary"
failed=""
for t in "$@"; do
	mkdir "$tmp/$t" "$tmp/$t.tmp"
	cp "$corpus/$t"/* "$tmp/$t/"
	log=$art/$t.log
	rm -f "$log"
	# TMPDIR: anything a target writes goes where it is cleaned up.
	if TMPDIR=$tmp/$t.tmp "$bindir/fuzz_$t" -max_total_time="$seconds" \
	    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$art/$t-" "$tmp/$t" >"$log" 2>&1; then
		result=ok
	else
		result=FAILED
		failed="$failed $t"
	fi
	printf '%-10s %5s %12s %9s %6s %6s %7s  %s\n' "$t" "$seconds" \
	    "$(stat number_of_executed_units "$log")" \
	    "$(stat average_exec_per_sec "$log")" "$(last cov "$log")" \
	    "$(last ft "$log")" "$(ls "$tmp/$t" | wc -l)" "$result" \
	    >>"$summary"
	tail -n 1 "$summary"
	if [ "$result" != ok ]; then
		grep -v '^#[0-9]' "$log" | tail -n 40
	fi
done
echo
cat "$summary"
if [ -n "$failed" ]; then
	echo "fuzz: FAILED:$failed (inputs and logs in $art)" >&2
	exit 1
fi
