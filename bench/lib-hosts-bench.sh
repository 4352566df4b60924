# lib-hosts-bench.sh: sourced by bench/run-hosts.sh.  Builds hosts
# h1..hN as network namespaces with the tests' tests/integration/
# lib-hosts.sh (sourced, not copied: hosts_setup, on_host, host_tmp,
# hosts_pvmd_pids, hosts_teardown and the launcher netns-rsh), without the
# tests' lib.sh: that one exports LD_LIBRARY_PATH=our libpvm, which would
# load our libpvm3.so.3 under PVM 3.4.6's programs, and a PVM_ROOT of its
# own.  Defines what lib-hosts.sh expects from lib.sh (T_TMP, run, need,
# T_FAIL, T_RUNS) and replaces its EXIT trap with bench_hosts_exit, which
# stops everything in the run's namespaces (both systems' daemons and
# tasks), deletes them, runs the caller's bench_cleanup if defined, and
# removes $T_TMP.
#
# Needs $top (the source tree) and $build (our build).  Sets T_TMP, PVMD,
# PVMGS_PATH (exported), and every variable lib-hosts.sh sets.

PVM_TOP_SRCDIR=$top
PVMD="$build/daemon/pvmd"
PVM_CONSOLE="$build/console/pvm"
export PVMGS_PATH="$build/libgpvm/pvmgs"
# A short directory: Unix socket paths must fit in 108 bytes, and its
# random part names the namespaces (<= 15 characters).
T_TMP=$(mktemp -d /tmp/pvmh.XXXXXX) || exit 1
T_FAIL=0
T_RUNS=0
unset PVM_VMID PVMSOCK PVMEPID PVMHOSTFILE PVM_EXPORT PVM_DPATH PVM_RSH

run() {
	local secs=$1
	shift
	timeout -k 5 "$secs" "$@"
}

need() {
	local f
	for f in "$@"; do
		[ -x "$f" ] || { echo "$f is missing (not built?)" >&2; exit 1; }
	done
}

. "$top/tests/integration/lib-hosts.sh"

# lib-hosts.sh skips (exit 77) where root or namespaces are missing; the
# benchmark says why and stops.
hosts_unsupported() {
	echo "run-hosts.sh: cannot build hosts: $*" >&2
	exit 1
}

bench_hosts_exit() {
	local rc=$?
	trap - EXIT INT TERM
	command -v bench_cleanup >/dev/null 2>&1 && bench_cleanup
	hosts_teardown
	rm -rf "$T_TMP"
	exit "$rc"
}
trap bench_hosts_exit EXIT
trap 'exit 130' INT TERM

