# lib-diff.sh: what the differential tests (t-diff.sh, t-diff-console.sh)
# share, sourced after tests/integration/lib.sh: PVM 3.4.6's world (its
# pvmd, libraries and programs, run with their own PVM_TMP), the kept
# references, and the deliberate differences.
D="$PVM_TOP_SRCDIR/tests/diff"
LIB346=/usr/lib/x86_64-linux-gnu/libpvm3.so.3
GLIB346=/usr/lib/x86_64-linux-gnu/libgpvm3.so.3
have346=no
[ -x /usr/bin/pvmd ] && [ -f /usr/include/pvm3.h ] && [ -f "$LIB346" ] &&
    [ -f "$GLIB346" ] && have346=yes

# listed FILE PROBE: the cases FILE (deliberate.txt, pending.txt) lists
# for PROBE; a run on several hosts (PROBE.vm3) shares its probe's list.
listed() {
	sed -n 's/^\([a-z0-9_.]*\) \([^ ]*\) .*/\1 \2/p' "$D/$1" |
	    awk -v p="$2" -v b="${2%%.*}" '$1 == p || $1 == b { print $2 }'
}

# filter PROBE FILE: the records without the deliberate cases and those
# of known differences not yet matched (pending.txt).
filter() {
	local p=$1 f=$2 c pat=""
	for c in $(listed deliberate.txt "$p") $(listed pending.txt "$p"); do
		pat="$pat${pat:+\\|}^$c: "
	done
	if [ -n "$pat" ]; then grep -v "$pat" "$f"; else cat "$f"; fi
}

# run346 CMD...: CMD in PVM 3.4.6's world: its PVM_ROOT, a PVM_TMP of its
# own, our libraries out of the way.  Its libgpvm3 spawns "pvmgs" by name,
# which its pvmd looks for in $HOME/pvm3/bin/$PVM_ARCH and
# $PVM_ROOT/bin/$PVM_ARCH only; Debian installs it elsewhere
# (/usr/bin/pvmgs), so a private HOME provides it (start346).
run346() {
	env -u LD_LIBRARY_PATH PVM_ROOT=/usr/lib/pvm3 PVM_ARCH=LINUX64 \
	    PVM_ALLOW_ROOT=yes PVM_TMP="$T_TMP/pvm346" HOME="$T_TMP/home346" \
	    "$@"
}

start346() {
	local n=50
	# No files of an earlier machine: a pvmd stop346 had to kill (its
	# console halt hung, e.g. after p_misc's resource manager) leaves its
	# pvmd.UID, which the wait below would take for the new one's.
	rm -rf "$T_TMP/pvm346"
	mkdir -p "$T_TMP/pvm346" "$T_TMP/home346/pvm3/bin/LINUX64"
	ln -sf /usr/bin/pvmgs "$T_TMP/home346/pvm3/bin/LINUX64/pvmgs"
	run346 setsid /usr/bin/pvmd </dev/null >"$T_TMP/pvmd346.out" 2>&1 &
	while [ $n -gt 0 ]; do
		ls "$T_TMP/pvm346"/pvmd.* >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# pid346: the PVM 3.4.6 pvmd of this test (its PVM_TMP), if it runs.
pid346() {
	local p
	for p in $(vm_pids "$T_TMP/pvm346"); do
		[ "$(vm_comm "$p")" = pvmd ] && echo "$p"
	done
}

stop346() {
	local p
	echo halt | run346 timeout -k 2 10 /usr/bin/pvm >/dev/null 2>&1
	for p in $(pid346); do
		kill -KILL "$p"
	done
}

# ours_expected PROBE GOT: a deliberate case still has to show what ours
# does: each line "PROBE RECORD" of ours.txt (for PROBE or the probe it
# runs on several hosts) must be a record of GOT, word for word.
ours_expected() {
	local p=$1 got=$2 rec
	sed -n 's/^\([a-z0-9_.]*\) \(.*\)$/\1 \2/p' "$D/ours.txt" |
	    awk -v p="$p" -v b="${p%%.*}" '$1 == p || $1 == b' |
	    cut -d' ' -f2- >"$T_TMP/$p.ours-expected"
	# (not in a pipe: check counts in this shell)
	while IFS= read -r rec; do
		check "$p: ours records \"$rec\"" grep -qxF -- "$rec" "$got"
	done <"$T_TMP/$p.ours-expected"
}

# same_records NAME WANT GOT: true if GOT's records are WANT's, the
# deliberate and pending cases left out (the diff in $T_TMP/NAME.diff).
same_records() {
	filter "$1" "$2" >"$T_TMP/$1.want"
	filter "$1" "$3" >"$T_TMP/$1.got"
	diff "$T_TMP/$1.want" "$T_TMP/$1.got" >"$T_TMP/$1.diff"
}

# compare NAME WANT GOT: NAME's records against PVM 3.4.6's (WANT),
# deliberate and pending cases left out; the diff is shown when they
# differ.  The INFO line gives the counts that docs/compat.md reports.
compare() {
	local p=$1 want=$2 got=$3 n same cases kept ndel npend
	n=$(wc -l <"$want")
	check "$p: PVM 3.4.6's records are whole ($n lines)" test "$n" -gt 10
	same=$(same_records "$p" "$want" "$got"; echo $?)
	cases=$(cut -d: -f1 "$want" | sort -u | wc -l)
	kept=$(cut -d: -f1 "$T_TMP/$p.want" | sort -u | wc -l)
	ndel=$(listed deliberate.txt "$p" | wc -l)
	npend=$(listed pending.txt "$p" | wc -l)
	echo "INFO: $p: $cases cases, $kept compared, $ndel deliberately" \
	    "different, $npend pending (known, not yet matched)"
	if [ "$same" -ne 0 ]; then
		cat "$T_TMP/$p.diff"
	fi
	check "$p: every other record is the same as PVM 3.4.6's" \
	    test "$same" -eq 0
	[ "$same" -eq 0 ] || fail_attach "$T_TMP/$p.diff"
	ours_expected "$p" "$got"
}
