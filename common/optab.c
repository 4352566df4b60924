/*
 * optab.c: the reduction kernels and the [op][type] table (optab.h has the
 * list of slots and the rules they follow).
 *
 * Everything is generated from the one type list OPTAB_TYPES: each kind
 * names the operations it has (OPTAB_OPS_<kind>), and the same names
 * define the kernels and fill the table, so a kernel exists exactly when
 * its slot is filled.  A type the list leaves out (FLOAT128 without
 * compiler support) keeps the zeroes of the static table: NULL, size 0.
 */
#include "optab.h"

#include <stddef.h>

/*
 * The kernels are independent element-wise loops, so vector code gives
 * the same bits as scalar code (no reassociation).  GCC's -O2 cost model
 * does not vectorize a loop with an unknown count; ask for it here.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define OPTAB_VECTOR                                                           \
	__attribute__((optimize("tree-vectorize", "vect-cost-model=cheap")))
#else
#define OPTAB_VECTOR
#endif

/* ---- what each kind supports: Y(OP, op, code, name, ctype, wtype) ---- */

#define OPTAB_OPS_MAXMIN(Y, ...)                                               \
	Y(MAX, max, __VA_ARGS__) Y(MIN, min, __VA_ARGS__)
#define OPTAB_OPS_ARITH(Y, ...)                                                \
	Y(SUM, sum, __VA_ARGS__)                                               \
	Y(PROD, prod, __VA_ARGS__) OPTAB_OPS_MAXMIN(Y, __VA_ARGS__)
#define OPTAB_OPS_BYTE(Y, ...) OPTAB_OPS_MAXMIN(Y, __VA_ARGS__)
#define OPTAB_OPS_INT(Y, ...)                                                  \
	OPTAB_OPS_ARITH(Y, __VA_ARGS__)                                        \
	Y(AND, and, __VA_ARGS__)                                               \
	Y(OR, or, __VA_ARGS__) Y(XOR, xor, __VA_ARGS__)
#define OPTAB_OPS_REAL(Y, ...) OPTAB_OPS_ARITH(Y, __VA_ARGS__)
#define OPTAB_OPS_CPLX(Y, ...) OPTAB_OPS_ARITH(Y, __VA_ARGS__)
#define OPTAB_OPS_UNS(Y, ...)

/* ---- scalar kernels (BYTE, INT, REAL) ---- */

/* One element: a is x[i], b is y[i]; the result is stored in x[i]. */
#define OPTAB_SCALAR_SUM(a, b, ctype, wtype) (ctype)((wtype)(a) + (wtype)(b))
#define OPTAB_SCALAR_PROD(a, b, ctype, wtype) (ctype)((wtype)(a) * (wtype)(b))
#define OPTAB_SCALAR_MAX(a, b, ctype, wtype) ((b) > (a) ? (b) : (a))
#define OPTAB_SCALAR_MIN(a, b, ctype, wtype) ((b) < (a) ? (b) : (a))
#define OPTAB_SCALAR_AND(a, b, ctype, wtype) (ctype)((a) & (b))
#define OPTAB_SCALAR_OR(a, b, ctype, wtype) (ctype)((a) | (b))
#define OPTAB_SCALAR_XOR(a, b, ctype, wtype) (ctype)((a) ^ (b))

#define OPTAB_SCALAR_KERNEL(OP, op, code, name, ctype, wtype)                  \
	static OPTAB_VECTOR void optab_##op##_##name(                          \
	    void *xv, const void *yv, size_t n)                                \
	{                                                                      \
		ctype *restrict x = xv;                                        \
		const ctype *restrict y = yv;                                  \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < n; i++) {                                      \
			x[i] = OPTAB_SCALAR_##OP(x[i], y[i], ctype, wtype);    \
		}                                                              \
	}

/* ---- complex kernels: (re, im) pairs, x = a+bi, y = c+di ---- */

#define OPTAB_CPLX_SUM                                                         \
	x[0] = a + c;                                                          \
	x[1] = b + d;
#define OPTAB_CPLX_PROD                                                        \
	x[0] = a * c - b * d;                                                  \
	x[1] = a * d + b * c;
#define OPTAB_CPLX_MAX                                                         \
	if (c * c + d * d > a * a + b * b) {                                   \
		x[0] = c;                                                      \
		x[1] = d;                                                      \
	}
#define OPTAB_CPLX_MIN                                                         \
	if (c * c + d * d < a * a + b * b) {                                   \
		x[0] = c;                                                      \
		x[1] = d;                                                      \
	}

#define OPTAB_CPLX_KERNEL(OP, op, code, name, ctype, wtype)                    \
	static void optab_##op##_##name(void *xv, const void *yv, size_t n)    \
	{                                                                      \
		ctype *x = xv;                                                 \
		const ctype *y = yv;                                           \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < n; i++, x += 2, y += 2) {                      \
			ctype a = x[0], b = x[1], c = y[0], d = y[1];          \
			OPTAB_CPLX_##OP                                        \
		}                                                              \
	}

/* ---- define every kernel, then fill the table with them ---- */

#define OPTAB_KERNEL_BYTE OPTAB_SCALAR_KERNEL
#define OPTAB_KERNEL_INT OPTAB_SCALAR_KERNEL
#define OPTAB_KERNEL_REAL OPTAB_SCALAR_KERNEL
#define OPTAB_KERNEL_CPLX OPTAB_CPLX_KERNEL
#define OPTAB_KERNELS(code, name, ctype, kind, wtype)                          \
	OPTAB_OPS_##kind(OPTAB_KERNEL_##kind, code, name, ctype, wtype)
OPTAB_TYPES(OPTAB_KERNELS)

#define OPTAB_SLOT(OP, op, code, name, ctype, wtype)                           \
	[OPTAB_##OP][code] = optab_##op##_##name,
#define OPTAB_SLOTS(code, name, ctype, kind, wtype)                            \
	OPTAB_OPS_##kind(OPTAB_SLOT, code, name, ctype, wtype)
static const optab_kernel optab_table[OPTAB_NOPS][OPTAB_NTYPES] = {
    OPTAB_TYPES(OPTAB_SLOTS)};

/* Bytes of one element: complex is two scalars. */
#define OPTAB_NSCALARS_BYTE 1
#define OPTAB_NSCALARS_INT 1
#define OPTAB_NSCALARS_UNS 1
#define OPTAB_NSCALARS_REAL 1
#define OPTAB_NSCALARS_CPLX 2
#define OPTAB_SIZE(code, name, ctype, kind, wtype)                             \
	[code] = OPTAB_NSCALARS_##kind * sizeof(ctype),
static const size_t optab_sizes[OPTAB_NTYPES] = {OPTAB_TYPES(OPTAB_SIZE)};

optab_kernel
optab_lookup(enum optab_op op, int type)
{
	if ((int)op < 0 || op >= OPTAB_NOPS || type < 0 ||
	    type >= OPTAB_NTYPES) {
		return NULL;
	}
	return optab_table[op][type];
}

size_t
optab_size(int type)
{
	if (type < 0 || type >= OPTAB_NTYPES) {
		return 0;
	}
	return optab_sizes[type];
}
