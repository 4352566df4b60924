#!/bin/sh
# t-diff-hosts.sh: the differential suite on several hosts, built of
# network namespaces (tests/integration/lib-hosts.sh), once on ours
# (PVM_RSH: netns-rsh) and once on PVM 3.4.6's (PVM_RSH:
# bench/pvm346-rsh, every host with Debian's pvmd); the records are
# compared as t-diff.sh does (lib-diff.sh's compare).  The probes of
# several hosts (h_*.c) run on a machine that starts with h1 alone: they
# add the other hosts themselves.  The one-host C probes (p_*.c) run on
# a machine of h1, h2 and h3 from a hostfile, so that their children
# land on other hosts.
#
# PVM 3.4.6 itself does not always record the same on a loaded machine
# (seen: its pvm_addhosts of a name no host has gave PvmDSysErr in one
# run of six, PvmOk with PvmNoHost in the others), so where ours differs
# from its run, it runs the probe up to twice more and ours is compared
# with the first run that agrees, or else with the last; ours runs once,
# so a record of ours that varies still fails.
#
# Where PVM 3.4.6 is not installed, tests/diff/ref/PROBE.KIND.txt (KIND:
# hosts or vm3) stands in (under CI=true a missing one fails);
# DIFF_UPDATE=1 rewrites it.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
. "$PVM_TOP_SRCDIR/tests/diff/lib-diff.sh"
need "$PVMD"
RSH346="$PVM_TOP_SRCDIR/bench/pvm346-rsh"
OUR_GLIBDIR="$PVM_TOP_BUILDDIR/libgpvm/.libs"
# probes PREFIX: the probes tests/diff/PREFIX*.c that DIFF_PROBES (if
# set) names.
probes() {
	local src p
	for src in "$D/$1"*.c; do
		p=$(basename "$src" .c)
		case " ${DIFF_PROBES:-$p} " in *" $p "*) echo "$p" ;; esac
	done
}
HPROBES=$(probes h_)
VM3PROBES=$(probes p_)
CC=${CC:-cc}

hosts_setup 4

# (lib-diff.sh's run346 and start346 are for one host; these replace
# them.)
# on346 K CMD...: CMD on hK in PVM 3.4.6's world: its PVM_ROOT, the
# host's PVM_TMP plus /pvm346 (as pvm346-rsh gives the slaves), our
# libraries out of the way, its launcher.
on346() {
	local k=$1
	shift
	mkdir -p "$(host_tmp "$k")/pvm346"
	(
		unset LD_LIBRARY_PATH
		export PVM_ROOT=/usr/lib/pvm3 PVM_ARCH=LINUX64 \
		    PVM_ALLOW_ROOT=yes PVM_RSH="$RSH346"
		on_host "$k" sh -c \
		    'PVM_TMP=$PVM_TMP/pvm346; export PVM_TMP; exec "$@"' sh "$@"
	)
}

# start346 [KIND]: PVM 3.4.6's master on h1, alone or (vm3) with h2 and
# h3; slaves get Debian's pvmd (dx=).
start346() {
	local n=50 k
	# No files of an earlier machine (the wait below looks for one).
	for k in 1 2 3 4; do
		rm -rf "$(host_tmp "$k")/pvm346"
	done
	printf '* dx=/usr/bin/pvmd ep=/usr/lib/pvm3/lib\n' >"$T_TMP/hosts346"
	[ "${1:-}" = vm3 ] && printf 'h2\nh3\n' >>"$T_TMP/hosts346"
	on346 1 setsid /usr/bin/pvmd "$T_TMP/hosts346" \
	    </dev/null >"$T_TMP/pvmd346.out" 2>&1 &
	while [ $n -gt 0 ]; do
		if ls "$(host_tmp 1)"/pvm346/pvmd.* >/dev/null 2>&1; then
			[ "${1:-}" = vm3 ] && vm3_wait346
			return 0
		fi
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# start_ours KIND / start_346 KIND: the master on h1; KIND "hosts":
# alone, "vm3": with h2 and h3 from a hostfile.
start_ours() {
	if [ "$1" = vm3 ]; then
		printf 'h2\nh3\n' >"$T_TMP/hosts.ours"
		hosts_start_master "$T_TMP/hosts.ours"
	else
		hosts_start_master
	fi
}

# vm3_wait346: until PVM 3.4.6's console on h1 lists 3 hosts (10 s).
vm3_wait346() {
	local n=100
	while [ $n -gt 0 ]; do
		echo conf | on346 1 timeout -k 2 5 /usr/bin/pvm 2>/dev/null |
		    grep -q '^3 host' && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# probe346 KIND P TRY: probe P (built) on PVM 3.4.6's machine of KIND;
# its records in $T_TMP/P.KIND.346.TRY.out.
probe346() {
	local out="$T_TMP/$2.$1.346.$3.out"
	start346 "$1" || {
		fail "$2.$1: PVM 3.4.6's pvmd did not start"
		cat "$T_TMP/pvmd346.out"
		return 1
	}
	on346 1 timeout -k 5 240 "$T_TMP/$2.346" >"$out" 2>&1
	hosts_reset
}

# probe346_agreeing KIND P: PVM 3.4.6's records of probe P, run up to
# three times until they agree with ours (see the top), into the file
# WANT346 names.  (Not in a $(...): fail counts in this shell.)
probe346_agreeing() {
	local q="$2.$1" try=1
	while :; do
		probe346 "$1" "$2" "$try" || return 1
		WANT346="$T_TMP/$q.346.$try.out"
		same_records "$q" "$WANT346" "$T_TMP/$q.ours.out" && break
		[ "$try" -lt 3 ] || break
		echo "INFO: $q: PVM 3.4.6's run $try differs from ours;" \
		    "PVM 3.4.6 once more:"
		sed "s/^/INFO:   /" "$T_TMP/$q.diff"
		try=$((try + 1))
	done
}

# diff_probe KIND P: probe P on a machine of KIND, both systems.
diff_probe() {
	local kind=$1 p=$2 src="$D/$2.c" q="$2.$1" ref want
	$CC -O1 -Wall -I"$PVM_TOP_SRCDIR/include" -I"$D" -o "$T_TMP/$p.ours" \
	    "$src" -L"$OUR_GLIBDIR" -Wl,-rpath,"$OUR_GLIBDIR" \
	    -L"$OUR_LIBDIR" -Wl,-rpath,"$OUR_LIBDIR" -lgpvm3 -lpvm3 ||
	    { fail "$p: build against ours"; return; }
	if start_ours "$kind"; then
		on_host 1 timeout -k 5 240 "$T_TMP/$p.ours" \
		    >"$T_TMP/$q.ours.out" 2>&1
	else
		fail "$q: our master pvmd did not start"
	fi
	hosts_reset
	ref="$D/ref/$q.txt"
	if [ "$have346" = yes ]; then
		$CC -O1 -Wall -I"$D" -o "$T_TMP/$p.346" "$src" "$GLIB346" \
		    "$LIB346" || { fail "$p: build against PVM 3.4.6"; return; }
		probe346_agreeing "$kind" "$p" || return
		want=$WANT346
		if [ -n "${DIFF_UPDATE:-}" ]; then
			cp "$want" "$ref"
			echo "INFO: $ref written"
		fi
		echo "INFO: $q: compared with PVM 3.4.6 itself"
	elif [ -f "$ref" ]; then
		want="$ref"
		echo "INFO: $q: compared with the kept records $ref"
	else
		fail "$q: no PVM 3.4.6 and no $ref"
		return
	fi
	compare "$q" "$want" "$T_TMP/$q.ours.out"
}

for p in $HPROBES; do
	diff_probe hosts "$p"
done
for p in $VM3PROBES; do
	diff_probe vm3 "$p"
done
finish
