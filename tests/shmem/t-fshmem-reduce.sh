#!/bin/sh
# t-fshmem-reduce.sh: every Fortran to_all routine (SHMEM_{INT4,INT8,
# REAL4,REAL8,REAL16,COMP4,COMP8}_{SUM,PROD}_TO_ALL, {INT4,INT8,REAL4,
# REAL8,REAL16}_{MAX,MIN}_TO_ALL, {INT4,INT8}_{AND,OR,XOR}_TO_ALL) at
# nreduce 1, 3 and 1000, on all PEs and on the odd ones, against a serial
# reference, exactly (fred_type.F90), on 3 and 8 PEs.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/shmem/fshmem-lib.sh"

# name kind-class kind Fortran-type ops
objs=
nroutines=0
while read -r name class kind ftype ops; do
	set -- -c -o "$T_TMP/red_$name.o" "$FSRC/fred_type.F90" \
	    -DFNAME="red_$name" -DTNAME="'$name'" -DFT="$ftype" -DFK="$kind" \
	    -DKIND_$class
	for op in $ops; do
		set -- "$@" -DR_$op="shmem_${name}_$(echo "$op" |
		    tr 'A-Z' 'a-z')_to_all"
		nroutines=$((nroutines + 1))
	done
	fbuild "red_$name.o" "$@"
	objs="$objs $T_TMP/red_$name.o"
done <<'TYPES'
int4 INT 4 integer(4) SUM PROD MAX MIN AND OR XOR
int8 INT 8 integer(8) SUM PROD MAX MIN AND OR XOR
real4 REAL 4 real(4) SUM PROD MAX MIN
real8 REAL 8 real(8) SUM PROD MAX MIN
real16 REAL 16 real(16) SUM PROD MAX MIN
comp4 CPLX 4 complex(4) SUM PROD
comp8 CPLX 8 complex(8) SUM PROD
TYPES
check "30 routines listed (got $nroutines)" test "$nroutines" -eq 30
# shellcheck disable=SC2086
fbuild fred "$FSRC/fred_main.f90" $objs

for n in 3 8; do
	run_checks 240 "$OSHRUN" -np "$n" "$T_TMP/fred"
	check "np $n: a PASS line from every PE for each of the 30 routines" \
	    test "$(grep -c '^PASS: PE .* cases exact$' "$T_OUT")" -eq $((30 * n))
	check "np $n: every PE ends with 0 failures" \
	    test "$(grep -c '^PE [0-9]*: 0 failures$' "$T_OUT")" -eq "$n"
done
finish
