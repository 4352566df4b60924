#!/bin/sh
# compare_fortran_constants.sh: check include/fpvm3.h against an installed
# PVM 3.4.6 fpvm3.h.
#
# Environment:
#   PVM_OUR_INCLUDE      our include directory (default: ../../include from
#                        this script)
#   PVM_SYSTEM_FPVM3_H   PVM's file (default /usr/include/fpvm3.h)
#   FC                   Fortran compiler (default gfortran; optional)
#   CI                   when "true", a missing PVM file is an error, not a
#                        skip
#   VERBOSE              when non-empty, also print every passing check
#
# Both files are parsed as fixed-form Fortran (comment lines, continuation
# lines, columns 73 and up ignored, tab format accepted).  From the INTEGER
# (or other type) statements and the PARAMETER statements, in any layout
# (one constant per statement or several), each named constant gets a
# type (declared, or implicit from its first letter) and a value.  Names
# are compared without regard to case, as Fortran does.  Every constant of
# PVM's file must be in ours with the same type and value, and ours must
# have no other.  Ours must also keep to fixed form (no tabs, nothing past
# column 72, comments with c, C or * in column 1).  When a Fortran compiler
# is there, a generated program prints every constant through each file,
# and ours must compile with -std=f95 -pedantic -Wall -Werror.
#
# Output: one line per mismatch, then "N passed, M failed".  Exit status 0
# when nothing failed, 1 on failures, 77 (skip) when PVM's file is not
# installed and CI is not "true", 99 on a broken test setup.

set -u

here=$(cd "$(dirname "$0")" && pwd)
sys_f=${PVM_SYSTEM_FPVM3_H:-/usr/include/fpvm3.h}
our_dir=${PVM_OUR_INCLUDE:-$here/../../include}
FC=${FC:-gfortran}

skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $* (CI=true, so this is an error, not a skip)" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

[ -r "$sys_f" ] || skip_or_fail "PVM's fpvm3.h not found at $sys_f;" \
    "install pvm-dev or set PVM_SYSTEM_FPVM3_H"
our_f=$our_dir/fpvm3.h
if ! [ -r "$our_f" ]; then
	echo "ERROR: no fpvm3.h in PVM_OUR_INCLUDE=$our_dir" >&2
	exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvmfabi.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

npass=0
nfail=0
pass() {
	npass=$((npass + 1))
	[ -z "${VERBOSE:-}" ] || echo "ok   $*"
}
fail() {
	nfail=$((nfail + 1))
	echo "FAIL $*"
}

# constants FILE: "NAME<TAB>TYPE VALUE" for each named constant of FILE,
# NAME in upper case.  Lines "!error<TAB>text" report what could not be
# parsed.
constants() {
	awk '
	function flush() {
		if (stmt != "")
			statement(stmt)
		stmt = ""
	}
	# Splits s at commas outside parentheses into part[1..n].
	function split_top(s, part,    n, depth, i, c, cur) {
		n = 0
		depth = 0
		cur = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "(")
				depth++
			else if (c == ")")
				depth--
			if (c == "," && depth == 0) {
				part[++n] = cur
				cur = ""
			} else
				cur = cur c
		}
		part[++n] = cur
		return n
	}
	function trim(s) {
		gsub(/^[ \t]+|[ \t]+$/, "", s)
		return s
	}
	function value_of(e,    v) {
		e = trim(e)
		gsub(/[ \t]+/, "", e)
		while (e ~ /^\(.*\)$/)
			e = substr(e, 2, length(e) - 2)
		if (e ~ /^[-+]?[0-9]+$/)
			return e + 0
		if (e ~ /^[-+]?[A-Z][A-Z0-9_]*$/) {
			v = e
			sub(/^[-+]/, "", v)
			if (v in val)
				return (substr(e, 1, 1) == "-") ? -val[v] : val[v]
		}
		return "expression " e
	}
	function statement(s,    u, n, i, part, name, type, eq, rest) {
		u = toupper(s)
		gsub(/\t/, " ", u)
		u = trim(u)
		if (u ~ /^PARAMETER *\(/) {
			sub(/^PARAMETER *\(/, "", u)
			sub(/\) *$/, "", u)
			n = split_top(u, part)
			for (i = 1; i <= n; i++) {
				eq = index(part[i], "=")
				if (eq == 0) {
					print "!error\tcannot read: " part[i]
					continue
				}
				name = trim(substr(part[i], 1, eq - 1))
				val[name] = value_of(substr(part[i], eq + 1))
				if (name in seen)
					print "!error\t" name " given a value twice"
				else {
					seen[name] = 1
					order[++norder] = name
				}
			}
			return
		}
		if (match(u, /^(INTEGER|REAL|DOUBLE *PRECISION|LOGICAL|COMPLEX|CHARACTER)(\*[0-9]+)?( *::)? */)) {
			type = substr(u, 1, RLENGTH)
			rest = substr(u, RLENGTH + 1)
			gsub(/ *:: *$/, "", type)
			gsub(/ +/, " ", type)
			type = tolower(trim(type))
			n = split_top(rest, part)
			for (i = 1; i <= n; i++) {
				name = trim(part[i])
				sub(/[ (*].*$/, "", name)
				if (name != "")
					decl[name] = type
			}
			return
		}
		if (u != "" && u !~ /^IMPLICIT /)
			print "!error\tstatement not understood: " s
	}
	{
		line = $0
		sub(/\r$/, "", line)
		# DEC tab format: tab then digit = continuation.
		if (line ~ /^\t[1-9]/) {
			stmt = stmt " " substr(line, 3)
			next
		}
		if (line ~ /^\t/) {
			flush()
			stmt = substr(line, 2)
			next
		}
		if (line ~ /^[cC*!]/ || line ~ /^[ \t]*$/ || line ~ /^ *!/)
			next
		line = substr(line, 1, 72)
		sub(/!.*$/, "", line)
		if (length(line) >= 6 && substr(line, 1, 5) ~ /^ *$/ &&
		    substr(line, 6, 1) !~ /[ 0]/) {
			stmt = stmt " " substr(line, 7)
			next
		}
		flush()
		stmt = substr(line, 7)
	}
	END {
		flush()
		for (i = 1; i <= norder; i++) {
			name = order[i]
			if (name in decl)
				type = decl[name]
			else if (name ~ /^[I-N]/)
				type = "integer (implicit)"
			else
				type = "real (implicit)"
			print name "\t" type " " val[name]
		}
	}' "$1"
}

# 1. Constants: names, types, values.
constants "$sys_f" >"$tmp/sys.all"
constants "$our_f" >"$tmp/our.all"
if grep -q '^!error' "$tmp/sys.all"; then
	echo "ERROR: cannot parse $sys_f:" >&2
	grep '^!error' "$tmp/sys.all" | cut -f2- >&2
	exit 99
fi
if ! grep -qv '^!error' "$tmp/sys.all"; then
	echo "ERROR: no constants found in $sys_f" >&2
	exit 99
fi
grep '^!error' "$tmp/our.all" | cut -f2- | while read -r msg; do
	echo "parse: $msg"
done >"$tmp/our.errors"
while read -r line; do fail "$line"; done <"$tmp/our.errors"
grep -v '^!error' "$tmp/sys.all" >"$tmp/sys.c"
grep -v '^!error' "$tmp/our.all" >"$tmp/our.c"

awk -F '\t' '
	FNR == NR { ours[$1] = $2; next }
	{
		seen[$1] = 1
		if (!($1 in ours))
			print "FAIL", $1 ": missing in ours (PVM: " $2 ")"
		else if (ours[$1] != $2)
			print "FAIL", $1 ": ours " ours[$1] ", PVM " $2
		else
			print "PASS", $1
	}
	END {
		for (k in ours)
			if (!(k in seen))
				print "FAIL", k ": only in ours (" ours[k] ")"
	}' "$tmp/our.c" "$tmp/sys.c" >"$tmp/cmp.out"
while read -r verdict rest; do
	if [ "$verdict" = PASS ]; then pass "$rest"; else fail "$rest"; fi
done <"$tmp/cmp.out"

# 2. Our file keeps to fixed form.
awk '
	/\t/ { print "line " FNR ": contains a tab" }
	length($0) > 72 { print "line " FNR ": longer than 72 columns" }
	/^[^cC* ]/ { print "line " FNR ": column 1 is neither blank nor c" }
	/^ / && !/^ *$/ && !/^      [^ ]/ && !/^     [^ 0]/ {
		print "line " FNR ": statement does not start in column 7"
	}' "$our_f" >"$tmp/form.out"
if [ -s "$tmp/form.out" ]; then
	while read -r msg; do fail "fixed-form: $msg"; done <"$tmp/form.out"
else
	pass "fixed-form"
fi

# 3. With a compiler: every constant printed through each file.
if command -v "$FC" >/dev/null 2>&1; then
	mkdir "$tmp/sys" "$tmp/ours"
	cp "$sys_f" "$tmp/sys/fpvm3.h"
	cp "$our_f" "$tmp/ours/fpvm3.h"
	{
		echo "      program pvmabi"
		echo "      implicit none"
		echo "      include 'fpvm3.h'"
		cut -f1 "$tmp/sys.c" | while read -r name; do
			echo "      print *, '$name', $name"
		done
		echo "      end"
	} >"$tmp/prog.f"
	for side in sys ours; do
		if (cd "$tmp" && "$FC" -ffixed-form -I"$tmp/$side" \
		    -o "prog.$side" prog.f) >"$tmp/fc.$side.err" 2>&1; then
			"$tmp/prog.$side" >"$tmp/run.$side" 2>&1 ||
			    echo "program failed" >>"$tmp/run.$side"
		else
			echo "does not compile" >"$tmp/run.$side"
		fi
	done
	if cmp -s "$tmp/run.sys" "$tmp/run.ours"; then
		pass "$FC: constants print the same"
	elif [ "$(cat "$tmp/run.ours")" = "does not compile" ]; then
		fail "$FC: printing program does not compile with ours:"
		grep -i -m5 error "$tmp/fc.ours.err" | sed 's/^/    /'
	else
		fail "$FC: constants print differently (< PVM, > ours):"
		diff "$tmp/run.sys" "$tmp/run.ours" | grep '^[<>]' |
		    head -20 | sed 's/^/    /'
	fi
	if (cd "$tmp" && "$FC" -ffixed-form -std=f95 -pedantic -Wall \
	    -Werror -I"$tmp/ours" -fsyntax-only prog.f) \
	    >"$tmp/strict.err" 2>&1; then
		pass "$FC: ours compiles with -std=f95 -pedantic -Werror"
	else
		fail "$FC: ours does not compile with -std=f95 -pedantic" \
		    "-Werror: $(grep -m1 -i error "$tmp/strict.err")"
	fi
else
	echo "note: no Fortran compiler ($FC); compiler checks not run"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
