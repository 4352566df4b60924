#!/bin/sh
# t-fshmem-rma.sh: frma.f90 on 2 and 5 PEs: every put and get family to
# and from a neighbour, strided ones, SHPALLOC'd arrays (units of 32-bit
# words, errcodes), a broadcast and the collects, and N PEs x K updates
# of PE 0's INTEGER*4 and INTEGER*8 counters by every atomic, counted
# exactly, plus a CSWAP/SWAP lock that must lose no update.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/shmem/fshmem-lib.sh"
fbuild frma -fcray-pointer -ffree-line-length-none -fallow-argument-mismatch "$FSRC/frma.f90"

for n in 2 5; do
	run_checks 240 "$OSHRUN" -np "$n" "$T_TMP/frma"
	check "np $n: every PE got to the end" \
	    test "$(grep -c '^PE [0-9]*: done$' "$T_OUT")" -eq "$n"
	check "np $n: PE 0 checked the counters" \
	    grep -q '^PASS: PE 0: int8 inc/finc/fadd/add: exact count$' "$T_OUT"
done
finish
