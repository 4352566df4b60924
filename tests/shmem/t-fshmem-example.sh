#!/bin/sh
# t-fshmem-example.sh: the to_all pages' Fortran example (fex_sumax.f,
# fixed form, include 'mpp/shmem.fh') on 4 and 8 PEs: every even PE
# prints the sum and the max of FOO = MY_PE()+1 over the even PEs, and
# no odd PE prints anything.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/shmem/fshmem-lib.sh"
fbuild fex "$FSRC/fex_sumax.f" -Wno-integer-division

for n in 4 8; do
	want=
	sum=0
	for pe in $(seq 0 2 $((n - 2))); do
		sum=$((sum + pe + 1))
	done
	for pe in $(seq 0 2 $((n - 2))); do
		want="${want}Sum on PE $pe is $sum.0
Max on PE $pe is $((n - 1)).0
"
	done
	run 60 "$OSHRUN" -np "$n" "$T_TMP/fex" >"$T_TMP/fex.$n" 2>&1
	rc=$?
	sed "s/^/[np $n] /" "$T_TMP/fex.$n"
	check "np $n: oshrun exits 0 (got $rc)" test "$rc" -eq 0
	got=$(sort "$T_TMP/fex.$n")
	want=$(printf '%s' "$want" | sort)
	if [ "$got" = "$want" ]; then
		ok "np $n: every even PE prints the sum $sum and the max $((n - 1))"
	else
		fail "np $n: output differs; wanted (sorted):"
		echo "$want"
	fi
done
finish
