#!/bin/sh
# compare_constants.sh: check include/pvm3.h against an installed PVM 3.4.6
# pvm3.h, macro by macro, structure by structure, prototype by prototype.
#
# Environment:
#   PVM_OUR_INCLUDE     our include directory (default: ../../include from
#                       this script)
#   PVM_SYSTEM_PVM3_H   PVM's header (default /usr/include/pvm3.h)
#   CC, CXX             compilers (default cc, c++); CXX is optional
#   CI                  when "true", a missing PVM header is an error, not a
#                       skip
#   VERBOSE             when non-empty, also print every passing check
#
# How the headers are compared (macros and their values, structures,
# prototypes, identifiers only in ours) is in lib-compare.sh, which
# compare_tev.sh shares.  The tables below say what is particular to
# pvm3.h.  It is done for three configurations, covering every #ifdef in
# PVM's header: the header alone; <stdio.h> first (pvm_catchout, L_tmpnam);
# <stdio.h> first with NOTMPNAM and PVM33COMPAT defined.
#
# Output: one line per mismatch, then "N passed, M failed".  Exit status 0
# when nothing failed, 1 on failures, 77 (skip) when PVM's header is not
# installed and CI is not "true", 99 on a broken test setup.

set -u

here=$(cd "$(dirname "$0")" && pwd)
ABI_HEADER=pvm3.h
sys_h=${PVM_SYSTEM_PVM3_H:-/usr/include/pvm3.h}
sys_var=PVM_SYSTEM_PVM3_H
sys_pvm3_h=$sys_h
our_dir=${PVM_OUR_INCLUDE:-$here/../../include}
CC=${CC:-cc}
CXX=${CXX:-c++}

# Macros of PVM's header that are not compared, one per line, as
# "NAME  # reason".  Empty: ours defines all of them, the include guard
# _PVM3_H_ and the prototype helper __ProtoGlarp__ included, since code
# written for PVM may test or use them.
EXCLUDE='
'

# Names (macros, functions, other identifiers) our header may have although
# PVM's has not, as "NAME  # reason" (documented extensions).  Empty on
# purpose: pvm3.h declares PVM 3.4.6 and nothing else.
EXTRA_OK='
'

# Function-like macros evaluated on sample arguments: "macro expression".
# The out-of-range PvmMboxDirectIndex calls print to stderr and give 0.
SAMPLES='
PvmMboxDirectIndex PvmMboxDirectIndex(0)
PvmMboxDirectIndex PvmMboxDirectIndex(1)
PvmMboxDirectIndex PvmMboxDirectIndex(77)
PvmMboxDirectIndex PvmMboxDirectIndex(2097151)
PvmMboxDirectIndex PvmMboxDirectIndex(2097152)
PvmMboxDirectIndex PvmMboxDirectIndex(-1)
PvmMboxDirectIndex PvmMboxDirectIndex(5)|PvmMboxMultiInstance
PvmMboxDirectIndexOf PvmMboxDirectIndexOf(0)
PvmMboxDirectIndexOf PvmMboxDirectIndexOf(1023)
PvmMboxDirectIndexOf PvmMboxDirectIndexOf(1024)
PvmMboxDirectIndexOf PvmMboxDirectIndexOf(77<<10|18)
PvmMboxDirectIndexOf PvmMboxDirectIndexOf(-1)
PvmMboxDirectIndexOf PvmMboxDirectIndexOf(0x7fffffff)
PvmMboxDirectIndexOf PvmMboxDirectIndexOf(PvmMboxDirectIndex(2097151))
'

# Function-like macros whose expansion is compared token for token:
# "macro text-to-expand".
EXPANSIONS='
PVMTMPNAMFUN PVMTMPNAMFUN(name)
__ProtoGlarp__ int f __ProtoGlarp__((int, char *));
'

# Configurations: "name|lines before the header|extra compiler flags".
CONFIGS='
plain||
stdio|#include <stdio.h>|
compat|#include <stdio.h>|-DNOTMPNAM -DPVM33COMPAT
'

. "$here/lib-compare.sh"
