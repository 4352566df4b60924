#!/bin/sh
# t-man-lint.sh: every manual page in docs/man/ is well formed.
#  - A page of its own starts its macros with ".TH NAME SECTION" naming
#    its own file, and `groff -ww -z -man -t` says nothing about it
#    (every groff warning counts).
#  - An alias page holds exactly one line, ".so manS/NAME.S", naming a
#    page of its own in docs/man/ (not another alias: man(1) follows one
#    .so, and a chain is a mistake waiting to happen).
#  - docs/man/man.am lists every page, and lists no page that is missing,
#    so `make install` installs exactly these.
set -u
top=${PVM_TOP_SRCDIR:?run through make check}
dir="$top/docs/man"
am="$dir/man.am"
if ! command -v groff >/dev/null 2>&1; then
	echo "FAIL: groff is not installed (tools/deps.sh installs groff-base)"
	exit 1
fi
work=$(mktemp -d /tmp/pvmman.XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT

fails=0
pages=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# is_alias FILE: the file's first line is a .so request.
is_alias() {
	head -n 1 "$1" | grep -q '^\.so[ 	]'
}

check_alias() {
	f=$1
	lines=$(wc -l <"$f")
	line=$(head -n 1 "$f")
	if [ "$lines" -ne 1 ]; then
		fail "$f: an alias page must be one line, has $lines"
		return
	fi
	target=$(printf '%s\n' "$line" |
		sed -n 's/^\.so man\([1-9]\)\/\([A-Za-z0-9_.+-]*\.\1\)$/\2/p')
	if [ -z "$target" ]; then
		fail "$f: not of the form '.so manS/NAME.S': $line"
		return
	fi
	if [ ! -f "$dir/$target" ]; then
		fail "$f: points at $target, which is not in docs/man/"
	elif is_alias "$dir/$target"; then
		fail "$f: points at $target, which is itself an alias"
	fi
}

check_page() {
	f=$1
	base=$(basename "$f")
	name=${base%.*}
	sect=${base##*.}
	th=$(grep -m 1 '^\.TH[ 	]' "$f")
	first=$(grep -m 1 '^\.[A-Za-z]' "$f")
	if [ "$th" != "$first" ]; then
		fail "$f: .TH is not the first macro"
	fi
	set -- $th
	if [ $# -lt 3 ]; then
		fail "$f: .TH has no name and section"
	else
		thname=$(printf '%s' "$2" | tr -d '"' | tr 'A-Z' 'a-z')
		thsect=$(printf '%s' "$3" | tr -d '"')
		lname=$(printf '%s' "$name" | tr 'A-Z' 'a-z')
		[ "$thname" = "$lname" ] ||
			fail "$f: .TH names '$2', not $name"
		[ "$thsect" = "$sect" ] ||
			fail "$f: .TH says section '$3', the file name $sect"
	fi
	grep -q '^\.SH "*NAME"*$' "$f" || fail "$f: no NAME section"
	if ! groff -ww -z -man -t "$f" >"$work/out" 2>&1; then
		fail "$f: groff failed"
	fi
	if [ -s "$work/out" ]; then
		fail "$f: groff -ww warns:"
		sed 's/^/    /' "$work/out"
	fi
}

for f in "$dir"/*.[1-9]; do
	[ -f "$f" ] || continue
	pages=$((pages + 1))
	if is_alias "$f"; then
		check_alias "$f"
	else
		check_page "$f"
	fi
done
if [ "$pages" -eq 0 ]; then
	fail "no pages in docs/man/"
fi

# What man.am installs, against what is there.
tr ' \t\\' '\n\n\n' <"$am" | sed -n 's/^docs\/man\/\(.*\.[1-9]\)$/\1/p' |
	sort >"$work/listed"
dups=$(uniq -d "$work/listed")
[ -z "$dups" ] || fail "man.am lists twice: $dups"
(cd "$dir" && ls -- *.[1-9] 2>/dev/null) | sort >"$work/present"
for f in $(comm -23 "$work/present" "$work/listed"); do
	fail "docs/man/$f is not in man.am's dist_man_MANS"
done
for f in $(comm -13 "$work/present" "$work/listed"); do
	fail "man.am lists docs/man/$f, which does not exist"
done

echo "$pages pages checked, $fails problems"
[ "$fails" -eq 0 ]
