#!/bin/sh
# t-diff-console.sh: the console against PVM 3.4.6's (/usr/bin/pvm).  Each
# case below is a few command lines fed to a fresh console on a private
# pvmd of its own system; what the console prints (stdout, then stderr,
# each line marked) is normalised for what legitimately differs (tids,
# the host name, environment variables of the test) and becomes records
# "case: line", compared line by line as t-diff.sh compares a probe's.
#
# Left out of the comparison, always: PVM 3.4.6's console echoes each
# line it reads after its prompt even when the input is not a terminal
# ("pvm> ps"); ours prints no prompt then.  Those lines are dropped.
#
# Where PVM 3.4.6 is not installed, tests/diff/ref/console.txt stands in
# (a missing one fails under CI=true); DIFF_UPDATE=1 rewrites it from PVM
# 3.4.6's run.  Deliberate differences: tests/diff/deliberate.txt, probe
# "console", case = the case name below.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$PVMD" "$PVM_CONSOLE"
. "$PVM_TOP_SRCDIR/tests/diff/lib-diff.sh"
H=$(hostname)

# The cases: NAME|LINE|LINE...  ("@sleep N" waits instead of a line).
cases() {
	cat <<EOF
help|help
help-cmd|help setenv
help-unknown|help nosuch
conf|conf
conf-arg|conf 1
ps|ps
ps-a|ps -a
ps-x|ps -x
ps-bad-flag|ps -q
mstat-none|mstat
mstat-host|mstat $H
mstat-absent|mstat nosuchhost
mstat-two|mstat $H nosuchhost
version|version
version-arg|version 1
id|id
id-arg|id 1
alias-none|alias
alias|alias ll ps -a|alias|ll
alias-one|alias x
alias-args|alias x echo y|x 1 2
unalias|alias ll ps -a|unalias ll|alias
unalias-none|unalias
unalias-absent|unalias zz
setenv-set|setenv CONSVA one|setenv CONSVA
setenv-eq|setenv CONSVB=two|setenv CONSVB|setenv CONSVB=two
setenv-absent|setenv CONSVNONE
setenv-list|setenv CONSVC three|setenv
setenv-multi|setenv CONSVD a b|setenv CONSVD
export|export
export-add|export CONSVX|export CONSVY CONSVZ|export
unexport|export CONSVX CONSVY|unexport CONSVX|export
unexport-absent|unexport CONSVQ|export
unexport-none|unexport
echo|echo hello world
echo-empty|echo
echo-spaces|echo  a   b
kill-none|kill
kill-hex|kill 12345
kill-absent|kill t4fff0
kill-junk|kill junk
kill-c|kill -c t4fff0
kill-lax|kill t12 12zz t
sig-none|sig
sig-one|sig 15
sig-absent|sig 15 t4fff0
sig-junk|sig junk t1
sig-junk-tid|sig 15 junk
sig-atoi|sig 0x9 t4fff0|sig 9junk t4fff0|sig -9 0
pstat-none|pstat
pstat-absent|pstat t4fff0
pstat-zero|pstat 0
pstat-junk|pstat junk
pstat-lax|pstat 12zz t12 T12 0x12 -5 4fff0junk tt5 123456789
spawn-none|spawn
spawn-nofile|spawn nosuchprog
spawn-nofile-job|spawn -> nosuchprog
spawn-count|spawn -2 nosuchprog
spawn-count-word|spawn -count 2 nosuchprog
spawn-host|spawn -nosuchhost nosuchprog
spawn-trace|spawn -@ nosuchprog
spawn-trace-out|spawn -@ -> nosuchprog|spawn -> nosuchprog|jobs
spawn-trace-nofile|spawn -@/nonexistent/dir/f nosuchprog|spawn -> nosuchprog
spawn-job|spawn -> /bin/echo hi there|@sleep 1|echo end
spawn-job-2|spawn -2 -> /bin/true|@sleep 1|echo end
spawn-plain|spawn /bin/true|@sleep 1|echo end
spawn-ps-reset|spawn /bin/sleep 30|ps -a|reset|@sleep 1|ps -a
jobs|jobs
jobs-arg|jobs 1
getopt|getopt
getopt-one|getopt PvmRoute
setopt-none|setopt
setopt-route|setopt PvmRoute 2|getopt PvmRoute
setopt-bad|setopt PvmRoute 99|setopt PvmRoute junk|setopt route 2|setopt 1 3
getopt-unknown|getopt pvmroute|getopt PvmRoute x
names|names
put-none|put
put-args|put a|put a b c d
put-names|put cpa 0 v|put cpb 4 v|put cpb 6 w|names cp*
put-bad|put "" 0 v
tickle|tickle
tickle-mask|tickle 5|tickle 6 0x10|tickle 5|tickle 6 0
tickle-args|tickle 99|tickle 5 1 2 3 4 5 6 7 8 9|tickle 5 1 2 3 4 5 6 7 8 9 10
trace|trace
trace-edit|trace - *|trace + send pvm_recv nosuch|trace - recv + exit|trace
trace-all|trace *|trace - xpvm + kill|trace
trace-buf|trace buf|trace buf 100|trace buf|trace opt|trace opt time mytid|trace opt|trace opt junk|getopt PvmTraceBuffer|getopt PvmTraceOptions
delete-none|delete
delete-absent|delete nosuchhost
add-none|add
reset|reset
unknown|frobnicate
quit|quit
quit-arg|quit now
empty-line|echo before||echo after
halt|halt
EOF
}

# feed LINES...: the lines of one case, on stdout.
feed() {
	local l
	for l in "$@"; do
		case $l in
		@sleep*) sleep "${l#@sleep }" ;;
		*) printf '%s\n' "$l" ;;
		esac
	done
}

# unprompt LINES: PVM 3.4.6's echo of the lines it read ("pvm> LINE",
# "pvm> quit" at the end of input) dropped, other prompts cut off.
unprompt() {
	awk -v lines="$1" 'BEGIN {
		n = split(lines, a, "|")
		for (i = 1; i <= n; i++)
			echoed["pvm> " a[i]] = 1
		echoed["pvm> quit"] = 1
	}
	$0 in echoed { next }
	{ while (substr($0, 1, 5) == "pvm> ") $0 = substr($0, 6) }
	("pvm> " $0) in echoed { next }
	{ print }'
}

# norm: what legitimately differs, out of the console's output: also
# the wording of help's one-line summaries (ours are our own), and the
# date and time (seconds and microseconds) in the trace output.
norm() {
	sed -e "s/\<$H\>/HOST/g" \
	    -e 's/^\(  \)\{0,1\}\([a-z]\{2,\}\)  *[A-Z].*/\1\2 .../' \
	    -e 's/"Creation Date" "[^"]*"/"Creation Date" "DATE"/' \
	    -e 's/{ [0-9]\{9,\}, [0-9]\{1,\}, /{ TIME, TU, /' \
	    -e 's/\<t[0-9a-f]\{5,8\}\>/tTID/g' \
	    -e 's/\<0x4[0-9a-f]\{4\}\>/0xTID/g' \
	    -e 's/\<[0-9a-f]\{5,8\}\>/TID/g' \
	    -e '/^CONSV/b' -e '/^PVM_EXPORT=/b' \
	    -e '/^[A-Za-z_][A-Za-z0-9_]*=/d'
}

# run_cases WHICH OUT: every case through console WHICH (ours or 346).
run_cases() {
	local which=$1 out=$2 name lines o="$T_TMP/case.out" e="$T_TMP/case.err"
	: >"$out"
	cases | while IFS='|' read -r name lines; do
		(
			IFS='|'
			# shellcheck disable=SC2086
			feed $lines
		) | if [ "$which" = ours ]; then
			run 20 "$PVM_CONSOLE" >"$o" 2>"$e"
		else
			run346 timeout -k 2 20 /usr/bin/pvm >"$o" 2>"$e"
		fi
		echo "exit $?" >>"$o"
		{
			unprompt "$lines" <"$o" | norm | sed "s/^/$name: /"
			unprompt "$lines" <"$e" | norm |
			    sed "s/^/$name: stderr: /"
		} >>"$out"
	done
}

start_pvmd
run_cases ours "$T_TMP/console.ours"
stop_pvmd
ref="$D/ref/console.txt"
if [ "$have346" = yes ]; then
	start346 || { fail "PVM 3.4.6's pvmd did not start"; finish; }
	run_cases 346 "$T_TMP/console.346"
	stop346
	if [ -n "${DIFF_UPDATE:-}" ]; then
		cp "$T_TMP/console.346" "$ref"
		echo "INFO: $ref written"
	fi
	want="$T_TMP/console.346"
	echo "INFO: console: compared with PVM 3.4.6 itself"
elif [ -f "$ref" ]; then
	want="$ref"
	echo "INFO: console: compared with the kept records $ref"
else
	fail "console: no PVM 3.4.6 and no $ref"
	finish
fi
# DIFF_KEEP=DIR keeps both records there (for a look at the whole).
[ -n "${DIFF_KEEP:-}" ] && cp "$T_TMP/console.ours" "$want" "$DIFF_KEEP/"
compare console "$want" "$T_TMP/console.ours"
finish
