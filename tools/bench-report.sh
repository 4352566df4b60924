#!/bin/bash
# bench-report.sh: every benchmark of bench/ in one go, against PVM 3.4.6,
# Open MPI and Open MPI's OpenSHMEM where each applies, written up as one
# Markdown page with the machine, the date, the commit and the load, and
# the plots redrawn.  `make bench-report` runs it on its build tree.
#
#   tools/bench-report.sh [--quick] [--only PARTS] [--out FILE] [BUILDDIR]
#
#   BUILDDIR     a built tree (default: _build)
#   --quick      fewer rounds and repetitions: a check that everything
#                runs, not figures to quote
#   --only PARTS comma-separated, from: p2p pack oversub reduce netpipe
#                shmem hosts (default: all; hosts needs root and network
#                namespaces and is left out, saying so, without them)
#   --out FILE   the page (default: docs/benchmarks.md in the source
#                tree); the plots go next to it: bench-reduce.png,
#                bench-netpipe.png, bench-shmem.png, bench-hosts.png
#
# Each part is one of the bench/run-*.sh scripts, run as it would be by
# hand; the page gives the verdict lines of its targets first, then its
# whole output.  The scripts install what they compare against (Open MPI,
# NetPIPE, PVM 3.4.6) through tools/deps.sh or apt-get when missing, and
# leave a column out when that fails.  The machine is shared and noisy:
# the page records the load before and after each part, and only ratios
# taken within one part mean anything.  docs/performance.md explains each
# figure; this page is regenerated, never edited by hand.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
quick=0 only="p2p,pack,oversub,reduce,netpipe,shmem,hosts" out="" build=""
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--only) only=$2; shift ;;
	--out) out=$2; shift ;;
	-h | --help)
		sed -n '/^#   tools/,/^#                bench-netpipe.png/p' "$0" |
			sed 's/^# \{0,1\}//'
		exit 0 ;;
	-*) echo "bench-report.sh: unknown option $1 (--help)" >&2; exit 2 ;;
	*) build=$1 ;;
	esac
	shift
done
build=$(cd "${build:-$top/_build}" 2>/dev/null && pwd) || {
	echo "bench-report.sh: no build tree (build first: tools/build.sh)" >&2
	exit 2
}
[ -x "$build/daemon/pvmd" ] || {
	echo "bench-report.sh: $build has no daemon/pvmd: build it first" >&2
	exit 2
}
out=${out:-$top/docs/benchmarks.md}
outdir=$(cd "$(dirname "$out")" && pwd) || exit 2
work=$(mktemp -d /tmp/pvmrep.XXXXXX)
trap 'rm -rf "$work"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }
# The plots need matplotlib; without it the page has tables only.
sh "$top/tools/deps.sh" python3-matplotlib >&2 ||
	echo "bench-report.sh: no matplotlib: no plots" >&2
pkgver() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"
}

# part NAME TITLE CMD...: run one benchmark script, keep its output and
# the facts around it in $work/NAME.*.
part() {
	local name=$1 title=$2 t0 rc
	shift 2
	case ",$only," in *",$name,"*) ;; *) return 0 ;; esac
	echo "== bench-report: $name: $*" >&2
	echo "$title" >"$work/$name.title"
	touch "$work/$name.stamp"
	load >"$work/$name.load0"
	t0=$(date +%s)
	"$@" >"$work/$name.out" 2>&1
	rc=$?
	echo "$(($(date +%s) - t0)) s, exit status $rc" >"$work/$name.time"
	load >"$work/$name.load1"
	echo "$name" >>"$work/parts"
}

# What each part runs, quick or not.
if [ $quick = 1 ]; then
	R=1 Q=-q NP_UPPER=65536
else
	R=3 Q="" NP_UPPER=16777216
fi
part p2p "Point to point and spawn on one host (bench/run.sh)" \
	bash "$top/bench/run.sh" "$build" "$R"
part pack "Packing and unpacking (bench/run-pack.sh)" \
	bash "$top/bench/run-pack.sh" "$build" "$R"
part reduce "pvm_reduce and pvm_barrier on one host (bench/run-reduce.sh)" \
	bash "$top/bench/run-reduce.sh" $Q -p "$outdir/bench-reduce.png" "$build"
part oversub "Ping-pong pairs, 16 tasks on this host (bench/run-oversub.sh)" \
	bash "$top/bench/run-oversub.sh" "$build" "$R"
part netpipe "NetPIPE on one host (bench/run-netpipe.sh)" \
	env NETPIPE_PNG="$outdir/bench-netpipe.png" NETPIPE_UPPER=$NP_UPPER \
	bash "$top/bench/run-netpipe.sh" "$build" "$R"
part shmem "SHMEM against Open MPI's OpenSHMEM (bench/run-shmem.sh)" \
	bash "$top/bench/run-shmem.sh" $Q -R "$R" -p "$outdir/bench-shmem.png" \
	"$build"
if [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null &&
    ip netns list >/dev/null 2>&1; then
	part hosts "Four hosts in network namespaces (bench/run-hosts.sh)" \
		bash "$top/bench/run-hosts.sh" "$build" "$R"
	if [ -f "$work/hosts.out" ] &&
	    /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
		/usr/bin/python3 "$top/bench/plot-hosts.py" "$work/hosts.out" \
		    "$outdir/bench-hosts.png" >/dev/null 2>&1
	fi
else
	case ",$only," in *,hosts,*)
		echo "hosts" >>"$work/parts"
		echo "Four hosts in network namespaces (bench/run-hosts.sh)" \
		    >"$work/hosts.title"
		echo "not run: it needs root and ip netns" >"$work/hosts.time"
		: >"$work/hosts.out" ;;
	esac
fi

# ---- the page ----
# The scripts' verdict lines: "... 0.44  met (<= 0.5)", "... NOT met".
VERDICT='(^|[[:space:]])met([[:space:]]|$)|cannot tell'

{
	echo "# Benchmark report"
	echo
	echo "Written by \`tools/bench-report.sh\` (\`make bench-report\`);"
	echo "do not edit by hand. [performance.md](performance.md) explains"
	echo "each figure. Compare ratios within one part only: the machine is"
	echo "shared and its load changes between parts."
	[ $quick = 1 ] && echo && echo "**Quick run (--quick): not figures to quote.**"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
	echo "| commit | $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet HEAD 2>/dev/null || echo ' (with local changes)') |"
	echo "| machine | $(uname -srm), $(nproc) CPUs, $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo) |"
	echo "| memory | $(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo) |"
	echo "| compiler | $(${CC:-cc} --version 2>/dev/null | head -n 1) |"
	echo "| PVM 3.4.6 (Debian pvm) | $(pkgver pvm) |"
	echo "| Open MPI (Debian openmpi-bin) | $(pkgver openmpi-bin) |"
	echo "| NetPIPE (Debian netpipe-pvm) | $(pkgver netpipe-pvm) |"
	echo
	for name in $(cat "$work/parts" 2>/dev/null); do
		echo "## $(cat "$work/$name.title")"
		echo
		if [ -f "$work/$name.load0" ]; then
			echo "Load $(cat "$work/$name.load0") before, $(cat "$work/$name.load1") after; $(cat "$work/$name.time")."
		else
			echo "$(cat "$work/$name.time")."
		fi
		echo
		if grep -q -E "$VERDICT" "$work/$name.out"; then
			echo "Targets:"
			echo
			echo '```'
			grep -E "$VERDICT" "$work/$name.out"
			echo '```'
			echo
		fi
		[ -s "$work/$name.out" ] || continue
		case $name in
		reduce | netpipe | shmem | hosts)
			# only a plot this run drew
			[ "$outdir/bench-$name.png" -nt "$work/$name.stamp" ] &&
				echo "![$name](bench-$name.png)" && echo ;;
		esac
		echo "<details><summary>Whole output</summary>"
		echo
		echo '```'
		cat "$work/$name.out"
		echo '```'
		echo
		echo "</details>"
		echo
	done
} >"$work/page"
mv "$work/page" "$out"
echo "bench-report.sh: wrote $out" >&2
