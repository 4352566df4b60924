#!/bin/bash
# run-netpipe.sh: NetPIPE 3.7.2 (Debian's netpipe-pvm and netpipe-openmpi,
# unchanged) on one host: the very same Debian binary NPpvm once with our
# libpvm3.so.3 found first and our pvmd, once with PVM 3.4.6's library and
# pvmd, and NPopenmpi with 2 ranks of Open MPI on shared memory.  Prints,
# per implementation, the median over the runs of the one-way time at
# 1 byte and the bandwidth at 64 KiB, 1 MiB, 4 MiB and 16 MiB, with the
# ratios and the targets of issue 16, and draws bench/plot-netpipe.py.
#
#   bench/run-netpipe.sh [BUILDDIR [RUNS]]   (default: _build, 3 runs)
#
#   NETPIPE_PNG  where the plot goes (default: docs/netpipe.png in the
#                source tree; empty: no plot)
#   NETPIPE_OUT  a directory to keep NetPIPE's output files in
#                (IMPL.RUN.np.out, IMPL.RUN.log); default: not kept
#   NETPIPE_UPPER  the largest size, NetPIPE's -u (default 16777216)
#   NETPIPE_BIND  1: bind our (and PVM 3.4.6's) receiver to CPU 0 and
#                 transmitter to CPU 1, as mpirun binds Open MPI's ranks
#   NETPIPE_TIMEOUT  seconds each NetPIPE run may take (default 900; a
#                run that needs more is reported as "timeout" and left
#                out of the medians)
#
# Installs, as root and only if missing, Debian's netpipe-pvm,
# netpipe-openmpi, openmpi-bin and pvm with apt-get.  NetPIPE itself is
# never part of this tree.
#
# How NPpvm runs: two copies of the same binary enrolled in one virtual
# machine.  The one given -h HOST is the transmitter; it calls
# pvm_tasks(0, ...), wants exactly two tasks, and sends its tid to the
# other, the receiver (started first, without -h).  Both sides set
# PvmRoute to PvmRouteDirect and pack with PvmDataInPlace (NetPIPE's
# defaults for its pvm module).  Only the transmitter writes np.out
# (size in bytes, Mbps = 2^20 bits/s, one-way time in seconds: half the
# round trip).  Each run gets a fresh daemon, so no other task is there.
#
# Sizes: NetPIPE's default schedule (-p 3: each power of two and the
# sizes 3 bytes either side of it, plus its in-between steps), 1 byte to
# NETPIPE_UPPER.  The figures use the exact sizes 1, 65536, 1048576,
# 4194304 and 16777216, which that schedule measures (otherwise the
# nearest measured size is taken and named).
#
# Runs are interleaved (ours, pvm346, openmpi, then again) so that the
# load of a shared machine touches all three alike; every process has a
# time limit.  Nothing here is a pass/fail test.
#
# The hand-over floor: just before each run, bench/ringfloor times a
# small message handed between CPUs 0 and 1 through shared memory with
# no library at all (100,000 round trips, its "index" kind, ns one way).
# On this project's VMs it jumps between about 40 and 400 ns from one
# second to the next, as the host moves the two vCPUs, and every
# implementation's 1-byte time moves with it; so each run's floor is
# printed beside its figures, and the 1-byte ratio is also given over
# the pairs of runs (ours and Open MPI of the same round) whose floors
# lie within a factor of 1.5 of each other.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd -P) || exit 1
RUNS=${2:-3}
PNG=${NETPIPE_PNG-$top/docs/netpipe.png}
KEEP=${NETPIPE_OUT:-}
UPPER=${NETPIPE_UPPER:-16777216}
TLIM=${NETPIPE_TIMEOUT:-900}	# seconds per NetPIPE run
NPARGS=(-u "$UPPER")
case $RUNS in
'' | *[!0-9]* | 0) echo "usage: $0 [BUILDDIR [RUNS]]" >&2; exit 1 ;;
esac

ours_lib="$build/libpvm/.libs"
ours_glib="$build/libgpvm/.libs"
for f in "$build/daemon/pvmd" "$ours_lib/libpvm3.so.3" \
    "$ours_glib/libgpvm3.so.3"; do
	[ -e "$f" ] || { echo "no $f: build $build first" >&2; exit 1; }
done
PVM346_LIB=/usr/lib/x86_64-linux-gnu/libpvm3.so.3

# ---- 1. what NetPIPE needs, from Debian ----
need=()
[ -x /usr/bin/NPpvm ] || need+=(netpipe-pvm)
[ -x /usr/bin/NPopenmpi ] || need+=(netpipe-openmpi)
command -v mpirun >/dev/null || need+=(openmpi-bin)
{ [ -x /usr/bin/pvmd ] && [ -e "$PVM346_LIB" ]; } || need+=(pvm)
if [ ${#need[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || {
		echo "missing ${need[*]}: install them (apt-get, as root)" >&2
		exit 1
	}
	echo "== installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y "${need[@]}" >/dev/null ||
	    { apt-get update >/dev/null && apt-get install -y "${need[@]}" \
	    >/dev/null; } || { echo "apt-get install failed" >&2; exit 1; }
fi

work=$(mktemp -d /tmp/pvmnp.XXXXXX)
ORIG_HOME=${HOME:-/root}
# A private HOME too: nothing of the caller's (a .pvmrc, a .pvmd.conf)
# is read, nothing is left behind.
export HOME="$work/home"
mkdir -p "$HOME" "$work/res"

. "$top/bench/lib.sh"

# floor_now IMPL RUN: the hand-over floor (see the top) into
# res/IMPL.RUN.floor, if ringfloor built.  Not on one CPU: its two
# processes spin without yielding, so there each hand-over would wait
# for a time slice.
have_floor=0
[ "$(nproc)" -ge 2 ] && cc -O2 -std=gnu11 -I"$top/bench" \
    -o "$work/ringfloor" "$top/bench/ringfloor.c" && have_floor=1
floor_now() {
	[ $have_floor = 1 ] || return 0
	"$work/ringfloor" 100000 2>/dev/null |
	    awk '$1 == "index" { print $2 }' >"$work/res/$1.$2.floor"
}

# kill_np: the NetPIPE processes of the current run, by pid.
np_pids=()
kill_np() {
	local p
	for p in "${np_pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	np_pids=()
}
trap 'kill_np; stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# ---- library checks ----
# The binary must find our library first for "ours", and PVM 3.4.6's
# otherwise: checked with ldd before anything runs, and in every run in
# /proc/PID/maps of both NPpvm processes.
ldd_ours=$(LD_LIBRARY_PATH="$ours_lib:$ours_glib" ldd /usr/bin/NPpvm)
echo "$ldd_ours" | grep -q "libpvm3.so.3 => $ours_lib/libpvm3.so.3 " || {
	echo "ldd: NPpvm does not find our libpvm3.so.3 first:" >&2
	echo "$ldd_ours" >&2
	exit 1
}
ldd_346=$(env -u LD_LIBRARY_PATH ldd /usr/bin/NPpvm | grep libpvm3)
echo "$ldd_346" | grep -q "$ours_lib" && {
	echo "ldd: NPpvm without LD_LIBRARY_PATH finds ours: $ldd_346" >&2
	exit 1
}

# check_lib PIDFILE IMPL: wait until the process in PIDFILE is NPpvm with
# its libraries mapped; print the libpvm3 file mapped.  Fails the whole
# benchmark unless that is IMPL's.  Returns 2 (printing "gone") if the
# process ended before it could be looked at.
check_lib() {
	local pidf=$1 impl=$2 pid="" m="" i
	for i in $(seq 200); do
		pid=$(cat "$pidf" 2>/dev/null)
		if [ -n "$pid" ]; then
			if [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = \
			    /usr/bin/NPpvm ]; then
				m=$(awk '$6 ~ /libpvm3\.so/ {print $6; exit}' \
				    "/proc/$pid/maps" 2>/dev/null)
				[ -n "$m" ] && break
			elif [ ! -d "/proc/$pid" ]; then
				echo gone
				return 2
			fi
		fi
		sleep 0.05
	done
	case $impl/$m in
	ours/"$ours_lib"/libpvm3.so*) ;;
	pvm346/"$(dirname "$(readlink -f $PVM346_LIB)")"/libpvm3.so*) ;;
	*)
		echo "BROKEN RUN: $impl NPpvm (pid ${pid:-?}) mapped" \
		    "'${m:-no libpvm3}'" >&2
		exit 1
		;;
	esac
	echo "$m"
}

# ---- one run of each ----
# np_pvm IMPL RUN: NPpvm's receiver, then its transmitter, against a
# fresh daemon of IMPL; the transmitter's np.out to res/IMPL.RUN.np.out.
# Echoes ok, timeout or fail.
np_pvm() {
	local impl=$1 r=$2 d="$work/$1.$2" envp rc i lib_rx lib_tx rx_pid tx_pid
	local log="$work/res/$impl.$r.log"
	mkdir -p "$d"
	if [ "$impl" = ours ]; then
		OURS_TMP="$work/ours-tmp.$r"
		start_ours
		# Rings are opt-in for now (libpvm/shm.c); NETPIPE_SHM=0
		# measures the sockets.
		envp=(env LD_LIBRARY_PATH="$ours_lib:$ours_glib"
		    PVM_TMP="$OURS_TMP" PVM_SHM="${NETPIPE_SHM:-1}")
	else
		PVM_TMP346="$work/pvm346-tmp.$r"
		start_pvm346
		envp=(env -u LD_LIBRARY_PATH PVM_TMP="$PVM_TMP346"
		    PVM_ROOT=/usr/lib/pvm3 PVM_ALLOW_ROOT=1)
	fi
	# The loader, in this very environment, must pick IMPL's library
	# (also catches a process that dies before its maps can be read).
	case $impl/$("${envp[@]}" ldd /usr/bin/NPpvm |
	    awk '$1 == "libpvm3.so.3" {print $3}') in
	ours/"$ours_lib"/libpvm3.so.3) ;;
	pvm346/*/x86_64-linux-gnu/libpvm3.so.3) ;;
	*)
		echo "BROKEN RUN: ldd: NPpvm would not load the $impl" \
		    "libpvm3:" >&2
		"${envp[@]}" ldd /usr/bin/NPpvm | grep libpvm3 >&2
		exit 1
		;;
	esac
	# NETPIPE_BIND=1: receiver on CPU 0, transmitter on CPU 1, as
	# mpirun binds Open MPI's two ranks (to tell the cost of sharing a
	# CPU from the cost of the path).
	rx_bind=() tx_bind=()
	if [ "${NETPIPE_BIND:-0}" = 1 ]; then
		rx_bind=(taskset -c 0) tx_bind=(taskset -c 1)
	fi
	# sh writes its pid and execs NPpvm, so the pid is NPpvm's.
	(cd "$d" && exec "${rx_bind[@]}" "${envp[@]}" timeout -k 5 "$TLIM" sh -c \
	    'echo $$ >rx.pid; exec /usr/bin/NPpvm "$@"' sh "${NPARGS[@]}" \
	    >"$d/rx.log" 2>&1) &
	rx_pid=$!
	np_pids=("$rx_pid")
	lib_rx=$(check_lib "$d/rx.pid" "$impl") || {
		echo "BROKEN RUN: $impl receiver: $lib_rx" >&2
		cat "$d/rx.log" >&2
		exit 1
	}
	np_pids+=("$(cat "$d/rx.pid")")
	sleep 0.5
	# The transmitter wants both tasks enrolled; the receiver may not be
	# yet: try again on "cannot find other".
	for i in 1 2 3 4 5; do
		rm -f "$d/tx.pid" "$d/np.out"
		(cd "$d" && exec "${tx_bind[@]}" "${envp[@]}" timeout -k 5 "$TLIM" sh -c \
		    'echo $$ >tx.pid; exec /usr/bin/NPpvm "$@"' sh -h \
		    localhost "${NPARGS[@]}" -o np.out >"$d/tx.log" 2>&1) &
		tx_pid=$!
		np_pids+=("$tx_pid")
		lib_tx=$(check_lib "$d/tx.pid" "$impl")
		case $? in
		0) np_pids+=("$(cat "$d/tx.pid")") ;;
		2) ;;	# ended at once: judged below
		*) exit 1 ;;
		esac
		wait "$tx_pid"
		rc=$?
		grep -q "cannot find other" "$d/tx.log" || break
		sleep 1
	done
	if [ "$lib_tx" = gone ]; then
		echo "BROKEN RUN: $impl transmitter ended before its" \
		    "library could be checked (rc $rc):" >&2
		cat "$d/tx.log" >&2
		exit 1
	fi
	# The receiver ends after the last size; give it a moment.
	for i in $(seq 50); do
		kill -0 "$rx_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill_np
	wait "$rx_pid" 2>/dev/null
	{
		echo "== $impl run $r: libpvm3 mapped by receiver: $lib_rx"
		echo "== $impl run $r: libpvm3 mapped by transmitter: $lib_tx"
		echo "== receiver:"; cat "$d/rx.log"
		echo "== transmitter (rc $rc):"; cat "$d/tx.log"
	} >"$log"
	if [ "$impl" = ours ]; then stop_ours; else stop_pvm346; fi
	result "$impl" "$r" "$rc" "$d/np.out"
}

# Open MPI on shared memory only: the ob1 PML with the self and vader
# BTLs (no UCX, no TCP); vader's single-copy mechanism is left at its
# default (cma here), binding at mpirun's default for 2 ranks (a core
# each).  Printed in the header.
OMPI_ENV=(OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader)
MPIRUN=(mpirun --allow-run-as-root -np 2)

np_mpi() {
	local r=$1 d="$work/openmpi.$1" rc
	mkdir -p "$d"
	(cd "$d" && exec env -u LD_LIBRARY_PATH "${OMPI_ENV[@]}" \
	    timeout -k 5 "$TLIM" "${MPIRUN[@]}" /usr/bin/NPopenmpi \
	    "${NPARGS[@]}" -o np.out >"$d/mpi.log" 2>&1)
	rc=$?
	cp "$d/mpi.log" "$work/res/openmpi.$r.log"
	result openmpi "$r" "$rc" "$d/np.out"
}

# result IMPL RUN RC NPOUT: keep np.out, say how the run went.
result() {
	local impl=$1 r=$2 rc=$3 out=$4 v
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		v=timeout
	elif [ "$rc" != 0 ] || [ ! -s "$out" ]; then
		v="fail (rc $rc)"
	else
		v=ok
		cp "$out" "$work/res/$impl.$r.np.out"
	fi
	printf '  %-8s run %s: %s (%s points)\n' "$impl" "$r" "$v" \
	    "$([ -s "$out" ] && wc -l <"$out" || echo 0)"
}

echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cpus," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== packages: $(dpkg-query -W -f='${Package} ${Version}\n' \
    netpipe-pvm netpipe-openmpi openmpi-bin pvm 2>/dev/null | paste -sd, |
    sed 's/,/, /g')"
echo "== args: ${NPARGS[*]} (default perturbation -p 3), $RUNS run(s)"
echo "== ours:    LD_LIBRARY_PATH=$ours_lib:$ours_glib /usr/bin/NPpvm," \
    "pvmd $build/daemon/pvmd"
echo "== pvm346:  /usr/bin/NPpvm with $PVM346_LIB, pvmd /usr/bin/pvmd"
echo "== openmpi: ${OMPI_ENV[*]} ${MPIRUN[*]} /usr/bin/NPopenmpi"
for r in $(seq "$RUNS"); do
	echo "== run $r (load $(cut -d' ' -f1-3 /proc/loadavg))"
	floor_now ours "$r"
	np_pvm ours "$r"
	floor_now pvm346 "$r"
	np_pvm pvm346 "$r"
	floor_now openmpi "$r"
	np_mpi "$r"
done
echo "== load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
grep -h '^== .*mapped' "$work"/res/*.log | sort -u | sed 's/ run [0-9]*//' |
    sort -u

# ---- 3. summary ----
# at FILE SIZE: "size time" of the point of FILE nearest SIZE (by ratio),
# or nothing if none is within a factor of 1.5 (a run cut short).
at() {
	awk -v s="$2" 'function ab(x) { return x < 0 ? -x : x }
	    $3 > 0 { d = ab(log($1 / s)); if (n++ == 0 || d < best) {
	      best = d; sz = $1; t = $3 } }
	    END { if (n && best <= log(1.5)) print sz, t }' "$1"
}

# figure FILE SIZE: FILE's figure at the size nearest SIZE, as FIG's
# (one-way us for SIZE 1, else MB/s), or nothing.
figure() {
	local sz="" t=""
	[ -s "$1" ] || return 0
	read -r sz t < <(at "$1" "$2")
	[ -n "$sz" ] || return 0
	awk -v s="$sz" -v t="$t" -v k="$2" 'BEGIN {
	    if (k == 1) printf "%.3f\n", t * 1e6;
	    else printf "%.1f\n", s / t / 1e6 }'
}

# median: of the numbers on stdin, one per line (mean of the middle two
# for an even count); nothing for none.
median() {
	sort -g | awk '{ x[NR] = $1 } END { if (NR == 0) exit;
	    if (NR % 2) print x[(NR + 1) / 2];
	    else print (x[NR / 2] + x[NR / 2 + 1]) / 2 }'
}

# FIG[IMPL/SIZE]: the median over IMPL's runs of the one-way time in us
# (SIZE 1) or of the bandwidth in MB/s (10^6 bytes/s) at the size nearest
# SIZE; FIGN: how many runs; FIGSZ: the sizes measured.
declare -A FIG FIGN FIGSZ
for impl in ours pvm346 openmpi; do
	for s in 1 65536 1048576 4194304 16777216; do
		vals="" sizes=""
		for f in "$work/res/$impl".*.np.out; do
			[ -s "$f" ] || continue
			sz="" t=""
			read -r sz t < <(at "$f" "$s")
			[ -n "${sz:-}" ] || continue
			sizes+="$sz "
			vals+=$(figure "$f" "$s")$'\n'
		done
		FIG[$impl/$s]=$(printf '%s' "$vals" | grep . | median)
		FIGN[$impl/$s]=$(printf '%s' "$vals" | grep -c .)
		FIGSZ[$impl/$s]=$(echo "$sizes" | tr ' ' '\n' | grep . |
		    sort -u | tr '\n' ' ')
	done
done

# ratio A B: FIG[A] / FIG[B] to 2 decimals, or -.
ratio() {
	local a=${FIG[$1]:-} b=${FIG[$2]:-}
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "-"
	else
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }'
	fi
}

label() {
	case $1 in
	1) echo "1 B one-way time (us)" ;;
	65536) echo "64 KiB bandwidth (MB/s)" ;;
	1048576) echo "1 MiB bandwidth (MB/s)" ;;
	4194304) echo "4 MiB bandwidth (MB/s)" ;;
	16777216) echo "16 MiB bandwidth (MB/s)" ;;
	esac
}

echo
echo "== summary: medians over the runs that completed (time: lower is"
echo "   better; bandwidth, MB/s = 10^6 bytes/s: higher is better)"
printf '%-26s %10s %10s %10s | %9s %9s\n' figure ours pvm346 openmpi \
    ours/mpi ours/pvm
for s in 1 65536 1048576 4194304 16777216; do
	printf '%-26s %10s %10s %10s | %9s %9s\n' "$(label $s)" \
	    "${FIG[ours/$s]:-n/a}" "${FIG[pvm346/$s]:-n/a}" \
	    "${FIG[openmpi/$s]:-n/a}" "$(ratio "ours/$s" "openmpi/$s")" \
	    "$(ratio "ours/$s" "pvm346/$s")"
done
echo "-- each run (the same figures; the spread shows the machine's noise;"
echo "   last column: the hand-over floor just before the run, ns one way):"
for f in "$work"/res/*.np.out; do
	[ -s "$f" ] || continue
	printf '%-26s' "$(basename "$f" .np.out)"
	for s in 1 65536 1048576 4194304 16777216; do
		v=$(figure "$f" "$s")
		printf ' %10s' "${v:-n/a}"
	done
	printf ' %8s\n' "$(cat "${f%.np.out}.floor" 2>/dev/null || echo -)"
done
echo "runs completed: ours ${FIGN[ours/1]:-0}, pvm346 ${FIGN[pvm346/1]:-0}," \
    "openmpi ${FIGN[openmpi/1]:-0} of $RUNS"
for s in 1 65536 1048576 4194304 16777216; do
	for impl in ours pvm346 openmpi; do
		case "${FIGSZ[$impl/$s]:-$s }" in
		"$s ") ;;
		*) echo "note: $impl: nearest size to $s measured:" \
		    "${FIGSZ[$impl/$s]}" ;;
		esac
	done
done

# matched_1b: ours / Open MPI at 1 byte over the rounds whose two runs
# found hand-over floors within a factor of 1.5 (see the top): the median
# of those rounds' ratios, and how many there were.
matched_1b() {
	local r o m fo fm med all ratios="" k=0
	for r in $(seq "$RUNS"); do
		o=$(figure "$work/res/ours.$r.np.out" 1)
		m=$(figure "$work/res/openmpi.$r.np.out" 1)
		fo=$(cat "$work/res/ours.$r.floor" 2>/dev/null)
		fm=$(cat "$work/res/openmpi.$r.floor" 2>/dev/null)
		[ -n "$o" ] && [ -n "$m" ] && [ -n "$fo" ] && [ -n "$fm" ] ||
		    continue
		awk -v a="$fo" -v b="$fm" 'BEGIN { exit !(a > 0 && b > 0 &&
		    a / b <= 1.5 && b / a <= 1.5) }' || continue
		ratios+=$(awk -v o="$o" -v m="$m" \
		    'BEGIN { printf "%.2f", o / m }')$'\n'
		k=$((k + 1))
	done
	if [ $k = 0 ]; then
		echo "  1 B, rounds with matching hand-over floors: none"
		return 0
	fi
	med=$(printf '%s' "$ratios" | median)
	all=$(printf '%s' "$ratios" | tr '\n' ' ')
	echo "  1 B, rounds with matching hand-over floors: ours / Open MPI" \
	    "$med (median of $k of $RUNS rounds: ${all% })"
}

# target (bench/lib.sh), in narrower columns.
TARGET_W=44 TARGET_RW=6
echo
echo "== targets (issue 16): ours against Open MPI, same host"
target "1 B one-way time: ours / Open MPI" "$(ratio ours/1 openmpi/1)" \
    "<=" 1
matched_1b
for s in 65536 1048576 4194304 16777216; do
	target "$(label $s | sed 's/ (MB\/s)//'): ours / Open MPI" \
	    "$(ratio "ours/$s" "openmpi/$s")" ">=" 1
done

# ---- the two-copy floor (bench/copyfloor.c) ----
# The same bodies moved by process_vm_readv alone (one copy, as Open
# MPI's) and followed by a memcpy (libpvm's two: into the message, then
# pvm_upk* into the array): the best ours/Open MPI a two-copy path gets.
if cc -O2 -std=gnu11 -o "$work/copyfloor" "$top/bench/copyfloor.c"; then
	echo "== the two-copy floor: size, MB/s with one copy, with two," \
	    "two/one (the best ours / Open MPI at that size)"
	"$work/copyfloor" 20 | while read -r sz one two r; do
		printf '  %-9s %9s %9s %6s\n' "$sz" "$one" "$two" "$r"
	done
fi

# ---- 4. the plot ----
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" && cp "$work"/res/* "$KEEP"/ &&
	    echo "== NetPIPE's output kept in $KEEP"
fi
if [ -n "$PNG" ]; then
	if HOME="$ORIG_HOME" /usr/bin/python3 -c 'import matplotlib' \
	    2>/dev/null; then
		HOME="$ORIG_HOME" /usr/bin/python3 "$top/bench/plot-netpipe.py" \
		    "$work/res" "$PNG" && echo "== plot: $PNG"
	else
		echo "== SKIPPING the plot: /usr/bin/python3 has no matplotlib" \
		    "(Debian package python3-matplotlib)"
	fi
fi
for f in "$work"/res/*.log; do
	if grep -qiE 'error|abort|warn' "$f"; then
		echo "== $(basename "$f") (errors or warnings, last lines):"
		grep -iE 'error|abort|warn' "$f" | tail -5
	fi
done
exit 0
