#!/bin/sh
# compare_tev.sh: check include/pvmtev.h against an installed PVM 3.4.6
# pvmtev.h: every macro by kind and value, the mask macros on sample masks,
# the structures, the Pvmtmask type, the prototypes, and nothing in ours
# that PVM's lacks.
#
# Environment:
#   PVM_OUR_INCLUDE     our include directory (default: ../../include from
#                       this script)
#   PVM_SYSTEM_PVMTEV_H PVM's header (default /usr/include/pvmtev.h)
#   PVM_SYSTEM_PVM3_H   PVM's pvm3.h (default /usr/include/pvm3.h)
#   CC, CXX             compilers (default cc, c++); CXX is optional
#   CI                  when "true", a missing PVM header is an error, not a
#                       skip
#   VERBOSE             when non-empty, also print every passing check
#
# The comparison is lib-compare.sh's (see compare_constants.sh for the
# tables), run in two configurations: after <sys/time.h> (PVM's pvmtev.h
# does not compile on its own: struct Pvmtevinfo needs struct timeval),
# and after pvm3.h (PVM's after PVM's, ours after ours), the way programs
# include it.  Then, in tev_checks below:
#   - ours compiles cleanly on its own, before pvm3.h, twice, as C11, as
#     C89 (TEV_MASK_INIT in old code) and as C++;
#   - a program built with each header runs TEV_MASK_INIT (also as the
#     body of an if without a semicolon), TEV_MASK_SET, TEV_MASK_UNSET
#     and TEV_MASK_CHECK over every event number and prints the masks,
#     the results' types and Pvmtmask's size; the outputs must be equal.
#
# Output: one line per mismatch, then "N passed, M failed".  Exit status 0
# when nothing failed, 1 on failures, 77 (skip) when a PVM header is not
# installed and CI is not "true", 99 on a broken test setup.

set -u

here=$(cd "$(dirname "$0")" && pwd)
ABI_HEADER=pvmtev.h
sys_h=${PVM_SYSTEM_PVMTEV_H:-/usr/include/pvmtev.h}
sys_var=PVM_SYSTEM_PVMTEV_H
sys_pvm3_h=${PVM_SYSTEM_PVM3_H:-/usr/include/pvm3.h}
our_dir=${PVM_OUR_INCLUDE:-$here/../../include}
CC=${CC:-cc}
CXX=${CXX:-c++}

# Macros of PVM's header that are not compared: none (the guard
# _PVMTEV_H_ and __ProtoGlarp__ are compared too).
EXCLUDE='
'

# Names ours may have although PVM's has not: none.
EXTRA_OK='
'

# The mask macros on sample masks (compound literals: bytes 64, '@', are
# empty; k / 4 picks the byte, k & 3 the bit).  SET and UNSET give the new
# byte (type char), CHECK the bit (type int).
SAMPLES='
TEV_MASK_SET TEV_MASK_SET((char[TEV_MASK_LENGTH]){64}, 0)
TEV_MASK_SET TEV_MASK_SET((char[TEV_MASK_LENGTH]){64, 64}, 5)
TEV_MASK_SET TEV_MASK_SET((char[TEV_MASK_LENGTH]){64, 64, 79}, 11)
TEV_MASK_SET TEV_MASK_SET((char[TEV_MASK_LENGTH]){[26] = 64}, 107)
TEV_MASK_SET TEV_MASK_SET((char[TEV_MASK_LENGTH]){[34] = 64}, 139)
TEV_MASK_SET TEV_MASK_SET((char[TEV_MASK_LENGTH]){64, 64}, 2 + 3)
TEV_MASK_UNSET TEV_MASK_UNSET((char[TEV_MASK_LENGTH]){79}, 0)
TEV_MASK_UNSET TEV_MASK_UNSET((char[TEV_MASK_LENGTH]){79, 79}, 6)
TEV_MASK_UNSET TEV_MASK_UNSET((char[TEV_MASK_LENGTH]){64}, 1)
TEV_MASK_UNSET TEV_MASK_UNSET((char[TEV_MASK_LENGTH]){[26] = 79}, 107)
TEV_MASK_CHECK TEV_MASK_CHECK((char[TEV_MASK_LENGTH]){65}, 0)
TEV_MASK_CHECK TEV_MASK_CHECK((char[TEV_MASK_LENGTH]){65}, 1)
TEV_MASK_CHECK TEV_MASK_CHECK((char[TEV_MASK_LENGTH]){64, 72}, 7)
TEV_MASK_CHECK TEV_MASK_CHECK((char[TEV_MASK_LENGTH]){64, 72}, 3 + 4)
TEV_MASK_CHECK TEV_MASK_CHECK((char[TEV_MASK_LENGTH]){[26] = 72}, 107)
TEV_MASK_CHECK TEV_MASK_CHECK((char[TEV_MASK_LENGTH]){[26] = 72}, 106)
'

# Function-like macros whose expansion is compared token for token.
EXPANSIONS='
__ProtoGlarp__ int f __ProtoGlarp__((int, char *));
'

# Configurations: "name|line before the header|extra compiler flags".
CONFIGS='
time|#include <sys/time.h>|
pvm3|#include "@PVM3_H@"|
'

# tev_clean NAME STD TEXT: TEXT compiles without a warning in C (STD) or,
# when STD is "c++", in C++.
tev_clean() {
	printf '%s\n' "$3" >"$tmp/tclean.c"
	if [ "$2" = c++ ]; then
		command -v "$CXX" >/dev/null 2>&1 || return 0
		set -- "$1" "$2" "$CXX -x c++ -pedantic -Wall -Wextra -Werror"
	else
		set -- "$1" "$2" "$CC -std=$2 -pedantic -Wall -Wextra \
-Wstrict-prototypes -Wmissing-prototypes -Wredundant-decls -Werror"
	fi
	# shellcheck disable=SC2086
	if $3 -I"$our_dir" -c -o "$tmp/tclean.o" "$tmp/tclean.c" \
	    >"$tmp/tclean.err" 2>&1; then
		pass "$1"
	else
		fail "$1: $(grep -m1 error "$tmp/tclean.err")"
	fi
}

# tev_prog HEADER OUT: build and run the mask program with HEADER.
tev_prog() {
	{
		echo '#include <sys/time.h>'
		printf '#include "%s"\n' "$1"
		printf '#include "%s"\n' "$tmp/helpers.h"
		cat <<'EOF'
#include <string.h>

static void show(const char *what, const char *m)
{
	int i;

	printf("%s:", what);
	for (i = 0; i < TEV_MASK_LENGTH; i++)
		printf(" %02x", (unsigned char)m[i]);
	printf("\n");
}

int main(void)
{
	Pvmtmask m;
	struct Pvmtracer t;
	char *p = m;
	int k;

	printf("Pvmtmask: size %zu align %zu element %s\n",
	    sizeof(Pvmtmask), _Alignof(Pvmtmask), TYPENAME(m[0]));
	printf("types: set %s unset %s check %s\n",
	    TYPENAME(TEV_MASK_SET(m, 1)), TYPENAME(TEV_MASK_UNSET(m, 1)),
	    TYPENAME(TEV_MASK_CHECK(m, 1)));

	memset(m, 0x7e, sizeof(m));
	TEV_MASK_INIT(m)
	show("init", m);
	memset(m, 0x7e, sizeof(m));
	if (m[0] == 0x7e)
		TEV_MASK_INIT(m)
	else
		m[0] = 0;
	show("init as the body of an if", m);

	for (k = TEV_FIRST; k <= TEV_MAX; k++)
		TEV_MASK_SET(m, k);
	show("every event set", m);
	for (k = TEV_FIRST; k <= TEV_MAX; k += 3)
		TEV_MASK_UNSET(m, k);
	show("every third unset", m);
	printf("check:");
	for (k = 0; k < 4 * (TEV_MASK_LENGTH - 1); k++)
		printf(" %d", TEV_MASK_CHECK(m, k));
	printf("\n");

	TEV_MASK_INIT(m);
	printf("set 139: %d\n", TEV_MASK_SET(m, 139));
	printf("set 0: %d\n", TEV_MASK_SET(m, 0));
	printf("set 0 again: %d\n", TEV_MASK_SET(m, 0));
	printf("unset 0: %d\n", TEV_MASK_UNSET(m, 0));
	printf("unset 0 again: %d\n", TEV_MASK_UNSET(m, 0));
	show("139", m);
	TEV_MASK_SET(p, TEV_SETTMASK);
	show("through a char *", m);

	TEV_MASK_INIT(t.tmask);
	TEV_MASK_SET(t.tmask, TEV_GETTMASK);
	TEV_MASK_SET(t.tmask, TEV_USER_DEFINED);
	show("in struct Pvmtracer", t.tmask);
	return 0;
}
EOF
	} >"$tmp/tev.c"
	$CC -std=gnu11 -w -o "$tmp/tev" "$tmp/tev.c" 2>"$tmp/tev.err" &&
	    "$tmp/tev" >"$2"
}

tev_checks() {
	# Ours on its own and in every order, cleanly.
	for std in c11 c89 c++; do
		tev_clean "$std:alone" "$std" '#include <pvmtev.h>'
		tev_clean "$std:before-pvm3.h" "$std" \
		    '#include <pvmtev.h>
#include <pvm3.h>'
		tev_clean "$std:twice" "$std" \
		    '#include <pvm3.h>
#include <pvmtev.h>
#include <pvmtev.h>'
		tev_clean "$std:mask-macros" "$std" \
		    '#include <pvmtev.h>
int masks(void);
int masks(void)
{
	Pvmtmask m;
	int n = 0;

	TEV_MASK_INIT(m)
	n++;
	TEV_MASK_SET(m, TEV_SEND);
	TEV_MASK_UNSET(m, TEV_SEND);
	n += TEV_MASK_CHECK(m, TEV_RECV) != 0;
	return pvm_settmask(0, m) + n;
}'
	done

	# The mask program, with each header.
	if ! tev_prog "$sys_h" "$tmp/tev.sys"; then
		fail "mask program: does not build or run with PVM's header:" \
		    "$(grep -m1 error "$tmp/tev.err")"
		return
	fi
	if ! tev_prog "$our_h" "$tmp/tev.our"; then
		fail "mask program: does not build or run with ours:" \
		    "$(grep -m1 error "$tmp/tev.err")"
		return
	fi
	n=$(wc -l <"$tmp/tev.sys")
	if [ "$n" -lt 10 ]; then
		fail "mask program: only $n lines of output with PVM's header"
		return
	fi
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		a=$(sed -n "${i}p" "$tmp/tev.sys")
		b=$(sed -n "${i}p" "$tmp/tev.our")
		if [ "$a" = "$b" ]; then
			pass "mask program: $a"
		else
			fail "mask program: ours \"$b\", PVM \"$a\""
		fi
	done
	if [ "$(wc -l <"$tmp/tev.our")" -ne "$n" ]; then
		fail "mask program: ours printed $(wc -l <"$tmp/tev.our")" \
		    "lines, PVM's $n"
	fi
}
ABI_EXTRA_CHECKS=tev_checks

. "$here/lib-compare.sh"
