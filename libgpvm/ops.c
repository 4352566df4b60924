/*
 * ops.c: the predefined reduce functions PvmSum, PvmProduct, PvmMax and
 * PvmMin, and the datatype checks pvm_reduce, gather and scatter make.
 *
 * Each has the user-function signature f(&datatype, x, y, &num, &info)
 * and computes x[i] = x[i] op y[i] for i < num, setting *info to PvmOk,
 * or to PvmBadParam (x untouched) for a datatype the operation does not
 * support.  The kernels and sizes are common/optab.c's [operation][type]
 * table, the one list of element types; a NULL slot means "unsupported",
 * so the table is also what pvm_reduce consults to refuse a bad pair on
 * every member before any message moves.  The table also holds types and
 * operations PVM has no code for (OpenSHMEM's); this file admits PVM's
 * own codes only (below GPVM_NTYPES) and the four operations above.
 *
 * Supported pairs, as in PVM 3.4.6 (tests/diff/p_group.c):
 *   Sum, Product  SHORT INT LONG FLOAT DOUBLE CPLX DCPLX
 *   Max, Min      the same, plus BYTE (compared as signed char)
 * BYTE with Sum/Product, the unsigned types (known sizes, for gather and
 * scatter, but no kernels) and PVM_STR with anything are PvmBadParam, as
 * in PVM 3.4.6.  Integer Sum/Product wrap modulo 2^bits.  Complex Product
 * is (a+bi)(c+di) = (ac-bd) + (ad+bc)i; complex Max/Min compare squared
 * moduli and keep x on a tie.  Max/Min keep x when a comparison is false,
 * so a NaN in y never replaces x.
 */
#include "gpvm.h"

#include <stddef.h>

#include "optab.h"

/* The kernel for (op, datatype), or NULL if unsupported or not one of
 * PVM's own codes (optab's internal codes are not reduce datatypes). */
static optab_kernel
ops_lookup(enum optab_op op, int datatype)
{
	if (datatype < 0 || datatype >= GPVM_NTYPES) {
		return NULL;
	}
	return optab_lookup(op, datatype);
}

/* Run op on x, y per the user-function contract (see the top). */
static void
ops_apply(
    enum optab_op op, int *datatype, void *x, void *y, int *num, int *info)
{
	optab_kernel k;

	if (datatype == NULL || num == NULL || *num < 0 ||
	    (k = ops_lookup(op, *datatype)) == NULL ||
	    (*num > 0 && (x == NULL || y == NULL))) {
		if (info != NULL) {
			*info = PvmBadParam;
		}
		return;
	}
	k(x, y, (size_t)*num);
	if (info != NULL) {
		*info = PvmOk;
	}
}

/* x = x + y elementwise. */
void
PvmSum(int *datatype, void *x, void *y, int *num, int *info)
{
	ops_apply(OPTAB_SUM, datatype, x, y, num, info);
}

/* x = x * y elementwise (complex product for CPLX and DCPLX). */
void
PvmProduct(int *datatype, void *x, void *y, int *num, int *info)
{
	ops_apply(OPTAB_PROD, datatype, x, y, num, info);
}

/* x = max(x, y) elementwise (complex: the larger modulus). */
void
PvmMax(int *datatype, void *x, void *y, int *num, int *info)
{
	ops_apply(OPTAB_MAX, datatype, x, y, num, info);
}

/* x = min(x, y) elementwise (complex: the smaller modulus). */
void
PvmMin(int *datatype, void *x, void *y, int *num, int *info)
{
	ops_apply(OPTAB_MIN, datatype, x, y, num, info);
}

size_t
gpvm_type_size(int datatype)
{
	if (datatype < 0 || datatype >= GPVM_NTYPES) {
		return 0;
	}
	return optab_size(datatype);
}

int
gpvm_op_supports(gpvm_reduce_fn fn, int datatype)
{
	if (fn == PvmSum) {
		return ops_lookup(OPTAB_SUM, datatype) != NULL;
	}
	if (fn == PvmProduct) {
		return ops_lookup(OPTAB_PROD, datatype) != NULL;
	}
	if (fn == PvmMax) {
		return ops_lookup(OPTAB_MAX, datatype) != NULL;
	}
	if (fn == PvmMin) {
		return ops_lookup(OPTAB_MIN, datatype) != NULL;
	}
	return 1;
}
