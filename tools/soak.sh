#!/bin/sh
# soak.sh: the long soak (docs/soak.md).  Runs the soak drivers of
# `make check` (tests/integration/t-soak.sh on one host, t-hosts-soak.sh
# on four network-namespace hosts, which needs root) for as long as asked,
# and keeps their figures.
#
#   tools/soak.sh [--minutes M | --seconds S] [--hosts | --both]
#                 [--tasks N] [--seed S] [--build DIR] [--out FILE]
#
#   --minutes/--seconds  how long the soak proper runs (default 30 min);
#                        the self-check, the warm-up and the checks after
#                        it take about a minute more
#   --hosts              on four namespace hosts instead of one host
#   --both               one host, then four hosts (each the full time)
#   --tasks N            workers (default 64)
#   --seed S             the schedule's seed (default: random, printed)
#   --build DIR          a configured build tree (default _build, made
#                        with tools/build.sh if it has no Makefile)
#   --out FILE           the figures (default DIR/soak-DATE.txt); each
#                        driver's whole output goes to FILE.NAME.log
#
# The pvmds' resident memory and descriptors are sampled every
# $SOAK_SAMPLE seconds (default 60) into the figures file.  The exit
# status is 0 if every driver passed.  `make soak SOAK_SECONDS=S` runs
# `tools/soak.sh --seconds S` in its build tree.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
secs=1800
build=$top/_build
scripts=t-soak.sh
tasks=64
seed=""
out=""

usage() {
	sed -n '/^#   tools/,/^#   --out/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--minutes) secs=$(($2 * 60)); shift ;;
	--seconds) secs=$2; shift ;;
	--hosts) scripts=t-hosts-soak.sh ;;
	--both) scripts="t-soak.sh t-hosts-soak.sh" ;;
	--tasks) tasks=$2; shift ;;
	--seed) seed=$2; shift ;;
	--build) build=$2; shift ;;
	--out) out=$2; shift ;;
	*) usage ;;
	esac
	shift
done

if [ ! -f "$build/Makefile" ]; then
	sh "$top/tools/build.sh" "$build" || exit 1
fi
build=$(cd "$build" && pwd)
make -C "$build" -j2 all tests/integration/tasks/t_soak \
    tests/integration/tasks/t_hosts >/dev/null || exit 1
out=${out:-$build/soak-$(date +%Y%m%d-%H%M%S).txt}
: >"$out" || exit 1

# What make check's environment gives the drivers (Makefile.am).
PVM_TOP_BUILDDIR=$build
PVM_TOP_SRCDIR=$top
PVM_OUR_INCLUDE=$top/include
PVM_ARCH_NAME=$(sed -n 's/^PVM_ARCH_NAME *= *//p' "$build/Makefile")
SOAK_SECONDS=$secs
SOAK_TASKS=$tasks
SOAK_SEED=$seed
SOAK_OUT=$out
SOAK_SAMPLE=${SOAK_SAMPLE:-60}
export PVM_TOP_BUILDDIR PVM_TOP_SRCDIR PVM_OUR_INCLUDE PVM_ARCH_NAME \
    SOAK_SECONDS SOAK_TASKS SOAK_SEED SOAK_OUT SOAK_SAMPLE

rc=0
for t in $scripts; do
	echo "== $t: $secs s, $tasks tasks ($(date))" | tee -a "$out"
	sh "$top/tests/integration/$t" >"$out.$t.log" 2>&1
	r=$?
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$out.$t.log" | tail -n 1 |
	    tee -a "$out"
	case $r in
	0) echo "== $t: PASS" | tee -a "$out" ;;
	77) echo "== $t: SKIP (see $out.$t.log)" | tee -a "$out" ;;
	*) echo "== $t: FAIL (exit $r; $out.$t.log)" | tee -a "$out"
	   grep '^FAIL' "$out.$t.log" | head -n 20
	   rc=1 ;;
	esac
done
echo "figures: $out"
cat "$out"
exit $rc
