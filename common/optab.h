/*
 * optab.h: the operation x datatype table, the one place that knows the
 * element types a reduction can combine.  pvm_reduce's PvmSum, PvmProduct,
 * PvmMax and PvmMin (libgpvm/ops.c) and the OpenSHMEM to_all reductions
 * (shmem/) look their kernels up here.
 *
 * A kernel computes x[i] = x[i] op y[i] for i < n; y is only read.  The
 * type codes are PVM's own (PVM_BYTE .. PVM_ULONG, from pvm3.h) followed by
 * internal codes for types PVM has no code for (OPTAB_LONGLONG,
 * OPTAB_LONGDOUBLE, OPTAB_FLOAT128).  pvm_reduce accepts PVM's codes only;
 * libgpvm/ops.c refuses the internal ones itself.
 *
 * Slots (a missing one is NULL, as is any unknown op or type):
 *   SUM PROD MAX MIN   SHORT INT LONG LONGLONG FLOAT DOUBLE CPLX DCPLX
 *                      LONGDOUBLE FLOAT128
 *   MAX MIN            also BYTE (compared as signed char)
 *   AND OR XOR         SHORT INT LONG LONGLONG
 *   nothing            USHORT UINT ULONG (sizes only: gather and scatter
 *                      move them), PVM_STR
 * Integer SUM/PROD wrap modulo 2^bits.  Complex PROD is the complex
 * product; complex MAX/MIN compare squared moduli and keep x on a tie.
 * MAX/MIN keep x whenever the comparison is false, so a NaN in y never
 * replaces x.  FLOAT128 (__float128, gfortran's REAL(KIND=16) on x86-64)
 * exists only where the compiler has the type (OPTAB_HAVE_FLOAT128);
 * elsewhere its slots are NULL and its size 0.
 */
#ifndef PVM_OPTAB_H
#define PVM_OPTAB_H

#include <stddef.h>

#include "pvm3.h"

enum optab_op {
	OPTAB_SUM,
	OPTAB_PROD,
	OPTAB_MAX,
	OPTAB_MIN,
	OPTAB_AND,
	OPTAB_OR,
	OPTAB_XOR,
	OPTAB_NOPS
};

/* One past PVM's own datatype codes; the internal codes follow. */
#define OPTAB_PVM_NTYPES (PVM_ULONG + 1)
enum optab_internal_type {
	OPTAB_LONGLONG = OPTAB_PVM_NTYPES, /* long long */
	OPTAB_LONGDOUBLE,                  /* long double */
	OPTAB_FLOAT128,                    /* __float128 */
	OPTAB_NTYPES
};

/* GCC and clang say whether __float128 exists on the target. */
#if defined(__SIZEOF_FLOAT128__)
#define OPTAB_HAVE_FLOAT128 1
#endif

/*
 * The datatypes, one line each (STYLE 4.8):
 *   X(code, name, ctype, kind, wtype)
 * code  the type code;
 * name  the kernel names in optab.c and, for PVM's codes, pvm_pk<name> and
 *       pvm_upk<name> (reduce_binomial.c packs with them);
 * ctype the scalar type (a complex element is two of them: re, im);
 * kind  BYTE (MAX/MIN only, as PVM), INT (wrapping SUM/PROD, bitwise),
 *       REAL, CPLX (complex arithmetic, MAX/MIN by modulus) or UNS (no
 *       kernels: PVM 3.4.6 reduces no unsigned type);
 * wtype the type SUM/PROD compute in: unsigned for the integers, so
 *       overflow wraps instead of being undefined behaviour.
 * PVM_STR is not a datatype here.
 */
#define OPTAB_PVM_TYPES(X)                                                     \
	X(PVM_BYTE, byte, signed char, BYTE, unsigned int)                     \
	X(PVM_SHORT, short, short, INT, unsigned int)                          \
	X(PVM_INT, int, int, INT, unsigned int)                                \
	X(PVM_FLOAT, float, float, REAL, float)                                \
	X(PVM_CPLX, cplx, float, CPLX, float)                                  \
	X(PVM_DOUBLE, double, double, REAL, double)                            \
	X(PVM_DCPLX, dcplx, double, CPLX, double)                              \
	X(PVM_LONG, long, long, INT, unsigned long)                            \
	X(PVM_USHORT, ushort, unsigned short, UNS, unsigned int)               \
	X(PVM_UINT, uint, unsigned int, UNS, unsigned int)                     \
	X(PVM_ULONG, ulong, unsigned long, UNS, unsigned long)
#ifdef OPTAB_HAVE_FLOAT128
#define OPTAB_FLOAT128_TYPE(X)                                                 \
	X(OPTAB_FLOAT128, float128, __float128, REAL, __float128)
#else
#define OPTAB_FLOAT128_TYPE(X)
#endif
#define OPTAB_INTERNAL_TYPES(X)                                                \
	X(OPTAB_LONGLONG, longlong, long long, INT, unsigned long long)        \
	X(OPTAB_LONGDOUBLE, longdouble, long double, REAL, long double)        \
	OPTAB_FLOAT128_TYPE(X)
#define OPTAB_TYPES(X) OPTAB_PVM_TYPES(X) OPTAB_INTERNAL_TYPES(X)

/* x[i] = x[i] op y[i] for i < n. */
typedef void (*optab_kernel)(void *x, const void *y, size_t n);

/* The kernel for (op, type), or NULL if unsupported or unknown. */
optab_kernel optab_lookup(enum optab_op op, int type);
/* Bytes of one element of type (complex: both parts), 0 if unknown. */
size_t optab_size(int type);

#endif /* PVM_OPTAB_H */
