# lib-compare.sh: the engine of the header comparisons, sourced by
# compare_constants.sh (pvm3.h) and compare_tev.sh (pvmtev.h).
#
# The sourcing script sets:
#   here          the directory of the scripts
#   ABI_HEADER    the header's name (pvm3.h, pvmtev.h)
#   sys_h         PVM's copy of it; sys_var names the environment variable
#                 that overrides the path, for the messages
#   our_dir       our include directory (ours is $our_dir/$ABI_HEADER)
#   sys_pvm3_h    PVM's pvm3.h, for configurations that include it first
#   CC, CXX       compilers (CXX is optional)
#   EXCLUDE, EXTRA_OK, SAMPLES, EXPANSIONS, CONFIGS
#                 the tables described in compare_constants.sh
#   ABI_EXTRA_CHECKS
#                 optional: the name of a function of the sourcing script,
#                 run once after all configurations, that adds checks of
#                 its own with pass and fail (it may use $tmp, write_tu
#                 and the helpers in $tmp/helpers.h)
# In the lines of CONFIGS that come before the header, @PVM3_H@ stands for
# the pvm3.h that goes with the header compared: PVM's with PVM's, ours
# with ours.
#
# The macros of a header are read from "cc -E -dD" output, keeping only
# definitions made in that file itself (a "cc -dM" diff against an empty
# file would also count the macros of <sys/time.h>, which the headers
# include).  Every macro PVM's header defines is looked up in ours:
#   - it must exist, and be object-like / function-like with the same
#     number of parameters;
#   - object-like macros are evaluated by a generated C program built once
#     with each header; value, C type and constness must agree (strings are
#     compared as strings);
#   - a few function-like macros are also evaluated on sample arguments, or
#     their expansion is compared after preprocessing.
# Structures defined by PVM's header are compared member by member (offset,
# size, type) and as a whole (size, alignment).  Function declarations are
# taken from both headers with gcc's -aux-info and compared as text.
# Macros, declarations or any other identifier that ours has and PVM's has
# not are failures too.
#
# Output: one line per mismatch, then "N passed, M failed".  The exit
# status is that of the last command: 0 when nothing failed, 1 on
# failures; the script exits 77 (skip) when PVM's header is not installed
# and CI is not "true", 99 on a broken test setup.

skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $* (CI=true, so this is an error, not a skip)" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

[ -r "$sys_h" ] || skip_or_fail "PVM's $ABI_HEADER not found at $sys_h;" \
    "install pvm-dev or set $sys_var"
if printf '%s\n' "$CONFIGS" | grep -q '@PVM3_H@'; then
	[ -r "$sys_pvm3_h" ] || skip_or_fail "PVM's pvm3.h not found at" \
	    "$sys_pvm3_h; install pvm-dev or set PVM_SYSTEM_PVM3_H"
	sys_pvm3_h=$(cd "$(dirname "$sys_pvm3_h")" && pwd)/${sys_pvm3_h##*/}
fi
if ! [ -r "$our_dir/$ABI_HEADER" ]; then
	echo "ERROR: no $ABI_HEADER in PVM_OUR_INCLUDE=$our_dir" >&2
	exit 99
fi
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "ERROR: C compiler '$CC' not found" >&2
	exit 99
fi

# Absolute paths, so each header is included by exactly this name and the
# preprocessor's line markers can be matched against it.
sys_h=$(cd "$(dirname "$sys_h")" && pwd)/$(basename "$sys_h")
our_dir=$(cd "$our_dir" && pwd)
our_h=$our_dir/$ABI_HEADER

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvmabi.XXXXXX") || exit 99
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

# Fields of one configuration line.
cfg_name() { printf '%s\n' "$1" | cut -d'|' -f1; }
cfg_pre() { printf '%s\n' "$1" | cut -d'|' -f2; }
cfg_flags() { printf '%s\n' "$1" | cut -d'|' -f3; }

# pre_for HEADER PRE: PRE, with @PVM3_H@ made the pvm3.h that goes with
# HEADER (PVM's when HEADER is PVM's, else ours).
pre_for() {
	if [ "$1" = "$sys_h" ]; then
		p3=${sys_pvm3_h:-}
	else
		p3=$our_dir/pvm3.h
	fi
	printf '%s\n' "$2" | sed "s|@PVM3_H@|$p3|g"
}

# write_tu HEADER PRE FILE: a translation unit with PRE, then HEADER.
write_tu() {
	{
		[ -z "$2" ] || pre_for "$1" "$2"
		printf '#include "%s"\n' "$1"
	} >"$3"
}

# own_lines HEADER: of the preprocessor output on stdin, the lines that
# come from HEADER itself (between line markers that name it), markers
# left out.
own_lines() {
	awk -v want="$1" '
		/^# [0-9]+ "/ {
			f = $0
			sub(/^# [0-9]+ "/, "", f)
			sub(/".*$/, "", f)
			cur = (f == want)
			next
		}
		cur'
}

# macros HEADER PRE FLAGS: "NAME KIND" for every macro HEADER itself
# defines (last definition wins, #undef removes), where KIND is "object",
# "empty" or "function/N" (N parameters).  Works on cc -E -dD output,
# keeping only lines between line markers that name HEADER.
macros() {
	write_tu "$1" "$2" "$tmp/dd.c"
	# shellcheck disable=SC2086
	$CC -E -dD -I"$our_dir" $3 "$tmp/dd.c" 2>"$tmp/dd.err" |
	    own_lines "$1" | awk '
		/^#undef / {
			delete kind[$2]
			next
		}
		/^#define / {
			s = substr($0, 9)
			match(s, /^[A-Za-z_][A-Za-z0-9_]*/)
			name = substr(s, 1, RLENGTH)
			rest = substr(s, RLENGTH + 1)
			if (substr(rest, 1, 1) == "(") {
				p = substr(rest, 2, index(rest, ")") - 2)
				n = (p ~ /^[ \t]*$/) ? 0 : split(p, junk, ",")
				k = "function/" n
			} else {
				gsub(/^[ \t]+|[ \t]+$/, "", rest)
				k = (rest == "") ? "empty" : "object"
			}
			if (!(name in seen)) {
				seen[name] = 1
				order[++n_order] = name
			}
			kind[name] = k
		}
		END {
			for (i = 1; i <= n_order; i++)
				if (order[i] in kind)
					print order[i], kind[order[i]]
		}'
}

# structs HEADER PRE FLAGS: "STRUCT MEMBER" for every member of every
# structure defined in HEADER, "STRUCT" alone when it has none.
structs() {
	write_tu "$1" "$2" "$tmp/st.c"
	# shellcheck disable=SC2086
	$CC -E -I"$our_dir" $3 "$tmp/st.c" 2>/dev/null | own_lines "$1" | awk '
		{ text = text " " $0 }
		END {
			while (match(text, /struct[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{[^}]*\}/)) {
				body = substr(text, RSTART, RLENGTH)
				text = substr(text, RSTART + RLENGTH)
				head = substr(body, 1, index(body, "{") - 1)
				sub(/^struct[ \t]+/, "", head)
				gsub(/[ \t]/, "", head)
				body = substr(body, index(body, "{") + 1)
				sub(/\}$/, "", body)
				nm = split(body, decl, ";")
				found = 0
				for (i = 1; i <= nm; i++) {
					nd = split(decl[i], part, ",")
					for (j = 1; j <= nd; j++) {
						d = part[j]
						sub(/\[.*$/, "", d)
						if (match(d, /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/)) {
							m = substr(d, RSTART, RLENGTH)
							gsub(/[ \t]/, "", m)
							print head, m
							found = 1
						}
					}
				}
				if (!found)
					print head
			}
		}' | sort -u
}

# idents HEADER PRE FLAGS: every identifier left in HEADER's own lines
# after preprocessing (declarations, types, members, parameter names).
idents() {
	write_tu "$1" "$2" "$tmp/id.c"
	# shellcheck disable=SC2086
	$CC -E -I"$our_dir" $3 "$tmp/id.c" 2>/dev/null | own_lines "$1" | awk '
		{
			s = $0
			gsub(/"([^"\\]|\\.)*"/, " ", s)
			gsub(/[^A-Za-z0-9_]+/, " ", s)
			n = split(s, w, " ")
			for (i = 1; i <= n; i++)
				if (w[i] ~ /^[A-Za-z_]/)
					print w[i]
		}' | sort -u
}

# Helpers of the generated value program.  Each result line is
# "KEY<TAB>DESCRIPTION"; strings are shown between quotes, numbers with
# their C type, and "(not constant)" when the compiler cannot fold them.
cat >"$tmp/helpers.h" <<'EOF'
#include <stdio.h>
#include <stddef.h>
static void e_str(const char *k, const char *v, int c)
{ (void)c; printf("%s\tstring \"%s\"\n", k, v); }
static void e_int(const char *k, int v, int c)
{ printf("%s\tint %d%s\n", k, v, c ? "" : " (not constant)"); }
static void e_uint(const char *k, unsigned v, int c)
{ printf("%s\tunsigned int %u%s\n", k, v, c ? "" : " (not constant)"); }
static void e_long(const char *k, long v, int c)
{ printf("%s\tlong %ld%s\n", k, v, c ? "" : " (not constant)"); }
static void e_ulong(const char *k, unsigned long v, int c)
{ printf("%s\tunsigned long %lu%s\n", k, v, c ? "" : " (not constant)"); }
static void e_llong(const char *k, long long v, int c)
{ printf("%s\tlong long %lld%s\n", k, v, c ? "" : " (not constant)"); }
static void e_ullong(const char *k, unsigned long long v, int c)
{ printf("%s\tunsigned long long %llu%s\n", k, v,
    c ? "" : " (not constant)"); }
static void e_char(const char *k, int v, int c)
{ printf("%s\tchar %d%s\n", k, v, c ? "" : " (not constant)"); }
static void e_schar(const char *k, int v, int c)
{ printf("%s\tsigned char %d%s\n", k, v, c ? "" : " (not constant)"); }
static void e_uchar(const char *k, int v, int c)
{ printf("%s\tunsigned char %d%s\n", k, v, c ? "" : " (not constant)"); }
static void e_short(const char *k, int v, int c)
{ printf("%s\tshort %d%s\n", k, v, c ? "" : " (not constant)"); }
static void e_ushort(const char *k, int v, int c)
{ printf("%s\tunsigned short %d%s\n", k, v, c ? "" : " (not constant)"); }
static void e_dbl(const char *k, double v, int c)
{ printf("%s\tdouble %.17g%s\n", k, v, c ? "" : " (not constant)"); }
static void e_other(const char *k, ...)
{ printf("%s\tvalue of another type\n", k); }
#define EMIT(k, v) _Generic((v), \
	char *: e_str, const char *: e_str, \
	char: e_char, signed char: e_schar, unsigned char: e_uchar, \
	short: e_short, unsigned short: e_ushort, \
	int: e_int, unsigned int: e_uint, \
	long: e_long, unsigned long: e_ulong, \
	long long: e_llong, unsigned long long: e_ullong, \
	double: e_dbl, default: e_other)((k), (v), __builtin_constant_p(v))
#define TYPENAME(x) _Generic((x), \
	char: "char", signed char: "signed char", \
	unsigned char: "unsigned char", short: "short", \
	unsigned short: "unsigned short", int: "int", \
	unsigned int: "unsigned int", long: "long", \
	unsigned long: "unsigned long", float: "float", double: "double", \
	char *: "char *", const char *: "const char *", int *: "int *", \
	unsigned int *: "unsigned int *", void *: "void *", \
	char **: "char **", int **: "int **", \
	default: "another type")
#define MEMBER(k, s, m) printf("%s\toffset %zu size %zu type %s\n", (k), \
	offsetof(struct s, m), sizeof(((struct s *)0)->m), \
	TYPENAME(((struct s *)0)->m))
#define WHOLE(k, s) printf("%s\tsize %zu align %zu\n", (k), \
	sizeof(struct s), _Alignof(struct s))
EOF

# gen_items CFG_NAME MACROS_FILE STRUCTS_FILE: one C fragment per check
# into $tmp/items/, with their keys listed in $tmp/items/list.
gen_items() {
	rm -rf "$tmp/items"
	mkdir "$tmp/items"
	: >"$tmp/items/list"
	i=0
	while read -r name kind; do
		[ "$kind" = object ] || continue
		i=$((i + 1))
		key="$1:$name"
		cat >"$tmp/items/$i.c" <<EOF
#ifdef $name
EMIT("$key", $name);
#else
printf("%s\tnot defined\n", "$key");
#endif
EOF
		echo "$i $key" >>"$tmp/items/list"
	done <"$2"
	printf '%s\n' "$SAMPLES" | while read -r name expr; do
		[ -n "$name" ] || continue
		grep -q "^$name " "$2" || continue
		echo "$expr"
	done >"$tmp/samples"
	while read -r expr; do
		i=$((i + 1))
		key="$1:$(printf '%s' "$expr" | tr -d ' ')"
		name=${expr%%(*}
		cat >"$tmp/items/$i.c" <<EOF
#ifdef $name
EMIT("$key", $expr);
#else
printf("%s\tnot defined\n", "$key");
#endif
EOF
		echo "$i $key" >>"$tmp/items/list"
	done <"$tmp/samples"
	while read -r s m; do
		[ -n "${m:-}" ] || continue
		i=$((i + 1))
		key="$1:struct.$s.$m"
		echo "MEMBER(\"$key\", $s, $m);" >"$tmp/items/$i.c"
		echo "$i $key" >>"$tmp/items/list"
	done <"$3"
	# Size and alignment of each structure.
	cut -d' ' -f1 "$3" | sort -u | while read -r s; do
		i=$((i + 1))
		echo "WHOLE(\"$1:struct.$s\", $s);" >"$tmp/items/$i.c"
		echo "$i $1:struct.$s" >>"$tmp/items/list"
	done
}

# build_prog HEADER PRE FLAGS OUT ITEM...: compile and run a program made
# of the given items; its output goes to OUT.  Returns non-zero when the
# program does not build.
build_prog() {
	hdr=$1 pre=$2 flags=$3 out=$4
	shift 4
	{
		[ -z "$pre" ] || pre_for "$hdr" "$pre"
		printf '#include "%s"\n' "$hdr"
		printf '#include "%s"\n' "$tmp/helpers.h"
		echo 'int main(void) {'
		for it in "$@"; do
			printf '#include "%s"\n' "$tmp/items/$it.c"
		done
		echo 'return 0; }'
	} >"$tmp/prog.c"
	# shellcheck disable=SC2086
	$CC -std=gnu11 -w -I"$our_dir" $flags -o "$tmp/prog" "$tmp/prog.c" \
	    2>"$tmp/prog.err" || return 1
	"$tmp/prog" >"$out" 2>/dev/null
}

# values HEADER PRE FLAGS OUT: run every item; when the whole program does
# not build, run the items one by one and note those that fail.
values() {
	items=$(cut -d' ' -f1 "$tmp/items/list")
	# shellcheck disable=SC2086
	if build_prog "$1" "$2" "$3" "$4" $items; then
		return 0
	fi
	: >"$4"
	while read -r it key; do
		if build_prog "$1" "$2" "$3" "$tmp/one.out" "$it"; then
			cat "$tmp/one.out" >>"$4"
		else
			printf '%s\tdoes not compile: %s\n' "$key" \
			    "$(grep -m1 'error' "$tmp/prog.err" |
			    sed 's/^[^ ]* //')" >>"$4"
		fi
	done <"$tmp/items/list"
}

# protos HEADER PRE FLAGS OUT: "NAME<TAB>DECLARATION" for every function
# HEADER declares, from gcc -aux-info.  Returns 2 when the compiler has no
# -aux-info.
protos() {
	write_tu "$1" "$2" "$tmp/pr.c"
	rm -f "$tmp/pr.aux"
	# shellcheck disable=SC2086
	$CC -std=gnu11 -fsyntax-only -I"$our_dir" $3 -aux-info "$tmp/pr.aux" \
	    "$tmp/pr.c" 2>/dev/null || return 2
	[ -f "$tmp/pr.aux" ] || return 2
	awk -v want="$1" '
		{
			s = $0
			if (substr(s, 1, 3) != "/* ")
				next
			f = substr(s, 4)
			sub(/:[0-9]+:[A-Z]+ \*\/.*$/, "", f)
			if (f != want)
				next
			sub(/^\/\*[^*]*\*\/ */, "", s)
			gsub(/[ \t]+/, " ", s)
			if (!match(s, /[A-Za-z_][A-Za-z0-9_]* \([^*]/))
				next
			name = substr(s, RSTART, RLENGTH)
			sub(/ .*$/, "", name)
			print name "\t" s
		}' "$tmp/pr.aux" | sort
}

# compare SYS OURS EXTRA_CHECK: compare two "KEY<TAB>TEXT" files, KEY
# being "config:kind.NAME" or "config:NAME".  Keys only in ours fail when
# EXTRA_CHECK is "extra", unless NAME is listed in EXTRA_OK.
compare() {
	PVM_ABI_EXTRA_OK=$EXTRA_OK awk -F '\t' -v extra="$3" '
		BEGIN {
			n = split(ENVIRON["PVM_ABI_EXTRA_OK"], a, "\n")
			for (i = 1; i <= n; i++) {
				sub(/[ \t].*$/, "", a[i])
				if (a[i] != "")
					allowed[a[i]] = 1
			}
		}
		FNR == NR { ours[$1] = $2; next }
		{
			seen[$1] = 1
			if (!($1 in ours))
				print "FAIL", $1 ": missing in ours (PVM: " $2 ")"
			else if (ours[$1] != $2)
				print "FAIL", $1 ": ours " ours[$1] \
				    ", PVM " $2
			else
				print "PASS", $1
		}
		END {
			if (extra != "extra")
				exit
			for (k in ours) {
				if (k in seen)
					continue
				name = k
				sub(/^[^:]*:/, "", name)
				sub(/^(macro|proto)\./, "", name)
				if (name in allowed)
					print "PASS", k " (allowed extension)"
				else
					print "FAIL", k \
					    ": only in ours (" ours[k] ")"
			}
		}' "$2" "$1" >"$tmp/cmp.out"
	while read -r verdict rest; do
		if [ "$verdict" = PASS ]; then
			pass "$rest"
		else
			fail "$rest"
		fi
	done <"$tmp/cmp.out"
}

excluded_extra() {
	printf '%s\n' "$EXTRA_OK" | sed 's/[[:space:]#].*$//' | grep -qx "$1"
}

excluded() {
	printf '%s\n' "$EXCLUDE" | sed 's/[[:space:]#].*$//' | grep -qx "$1"
}

aux_ok=yes
configs=$(printf '%s\n' "$CONFIGS" | grep -v '^$')
IFS_save=$IFS
IFS='
'
for cfg in $configs; do
	IFS=$IFS_save
	c_name=$(cfg_name "$cfg")
	c_pre=$(cfg_pre "$cfg")
	c_flags=$(cfg_flags "$cfg")

	# 1. Which macros exist, and of which kind.
	macros "$sys_h" "$c_pre" "$c_flags" >"$tmp/sys.macros.all"
	if ! [ -s "$tmp/sys.macros.all" ]; then
		echo "ERROR: no macros found in $sys_h" \
		    "(preprocessor output below)" >&2
		cat "$tmp/dd.err" >&2
		exit 99
	fi
	: >"$tmp/sys.macros"
	while read -r m k; do
		excluded "$m" || echo "$m $k" >>"$tmp/sys.macros"
	done <"$tmp/sys.macros.all"
	macros "$our_h" "$c_pre" "$c_flags" >"$tmp/our.macros"
	sed "s/^\([^ ]*\) /$c_name:macro.\1	/" "$tmp/sys.macros" >"$tmp/a"
	: >"$tmp/b"
	while read -r m k; do
		excluded "$m" || printf '%s:macro.%s\t%s\n' "$c_name" "$m" "$k"
	done <"$tmp/our.macros" >"$tmp/b"
	compare "$tmp/a" "$tmp/b" extra

	# 2. Values of object-like macros, samples of function-like ones,
	#    structure layouts.
	structs "$sys_h" "$c_pre" "$c_flags" >"$tmp/sys.structs"
	gen_items "$c_name" "$tmp/sys.macros" "$tmp/sys.structs"
	if ! values "$sys_h" "$c_pre" "$c_flags" "$tmp/sys.values"; then :; fi
	values "$our_h" "$c_pre" "$c_flags" "$tmp/our.values"
	compare "$tmp/sys.values" "$tmp/our.values" no
	structs "$our_h" "$c_pre" "$c_flags" | cut -d' ' -f1 | sort -u \
	    >"$tmp/our.snames"
	cut -d' ' -f1 "$tmp/sys.structs" | sort -u >"$tmp/sys.snames"
	for s in $(comm -13 "$tmp/sys.snames" "$tmp/our.snames"); do
		fail "$c_name:struct.$s: only in ours"
	done

	# 3. Expansions of function-like macros.
	printf '%s\n' "$EXPANSIONS" | while read -r m text; do
		[ -n "$m" ] || continue
		grep -q "^$m " "$tmp/sys.macros" || continue
		for h in "$sys_h" "$our_h"; do
			{
				[ -z "$c_pre" ] || pre_for "$h" "$c_pre"
				printf '#include "%s"\n' "$h"
				echo '@@expansion@@'
				printf '%s\n' "$text"
			} >"$tmp/ex.c"
			# shellcheck disable=SC2086
			$CC -E -P -I"$our_dir" $c_flags "$tmp/ex.c" 2>/dev/null |
			    sed -n '/^@@expansion@@$/,$p' | sed 1d | tr -d ' \t\n'
			echo
		done >"$tmp/ex.out"
		key="$c_name:expand.$(printf '%s' "$text" | tr -d ' ')"
		if [ "$(sed -n 1p "$tmp/ex.out")" = "$(sed -n 2p "$tmp/ex.out")" ]
		then
			echo "PASS $key"
		else
			echo "FAIL $key: ours $(sed -n 2p "$tmp/ex.out")," \
			    "PVM $(sed -n 1p "$tmp/ex.out")"
		fi
	done >"$tmp/ex.verdicts"
	while read -r verdict rest; do
		if [ "$verdict" = PASS ]; then pass "$rest"; else fail "$rest"; fi
	done <"$tmp/ex.verdicts"

	# 4. Function prototypes.
	if [ "$aux_ok" = yes ]; then
		if protos "$sys_h" "$c_pre" "$c_flags" >"$tmp/sys.protos" &&
		    protos "$our_h" "$c_pre" "$c_flags" >"$tmp/our.protos"; then
			sed "s/^/$c_name:proto./" "$tmp/sys.protos" >"$tmp/a"
			sed "s/^/$c_name:proto./" "$tmp/our.protos" >"$tmp/b"
			compare "$tmp/a" "$tmp/b" extra
		else
			aux_ok=no
			echo "note: $CC has no -aux-info; prototypes not compared"
		fi
	fi

	# 5. Nothing declared that PVM's header does not declare: every
	#    identifier of ours must appear in PVM's preprocessed header too.
	idents "$sys_h" "$c_pre" "$c_flags" >"$tmp/sys.idents"
	idents "$our_h" "$c_pre" "$c_flags" >"$tmp/our.idents"
	extra=$(comm -13 "$tmp/sys.idents" "$tmp/our.idents" |
	    while read -r id; do excluded_extra "$id" || echo "$id"; done |
	    tr '\n' ' ')
	if [ -z "$extra" ]; then
		pass "$c_name:identifiers"
	else
		fail "$c_name:identifiers: only in ours: $extra"
	fi

	# 6. Our header on its own compiles cleanly as C and as C++.
	write_tu "$our_h" "$c_pre" "$tmp/clean.c"
	# shellcheck disable=SC2086
	if $CC -std=c11 -pedantic -Wall -Wextra -Wstrict-prototypes \
	    -Wmissing-prototypes -Wredundant-decls -Werror $c_flags \
	    -fsyntax-only "$tmp/clean.c" >"$tmp/clean.err" 2>&1; then
		pass "$c_name:clean-c11"
	else
		fail "$c_name:clean-c11: $(grep -m1 error "$tmp/clean.err")"
	fi
	if command -v "$CXX" >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		if $CXX -x c++ -pedantic -Wall -Wextra -Werror $c_flags \
		    -fsyntax-only "$tmp/clean.c" >"$tmp/clean.err" 2>&1; then
			pass "$c_name:clean-c++"
		else
			fail "$c_name:clean-c++:" \
			    "$(grep -m1 error "$tmp/clean.err")"
		fi
	fi
done
IFS=$IFS_save

# Checks of the sourcing script's own.
[ -z "${ABI_EXTRA_CHECKS:-}" ] || "$ABI_EXTRA_CHECKS"

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
