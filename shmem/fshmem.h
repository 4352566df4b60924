/*
 * fshmem.h: the Fortran entry points of libpvmshmem (include/shmem.fh
 * is their Fortran side; docs/shmem.md, section Fortran, lists them).
 *
 * Calling convention: gfortran's, as in libfpvm3 (fortran/fpvm.h):
 * the external name is the lower-case name with one underscore added,
 * every argument is passed by reference, and a CHARACTER argument adds
 * a hidden length after all the others.  A default INTEGER is a C int,
 * INTEGER*8 an int64_t, REAL*4/REAL*8 float/double, REAL*16 __float128,
 * COMPLEX*8/COMPLEX*16 float/double _Complex; functions return their
 * value as C does (gfortran without -ff2c).
 *
 * The families are generated from the lists below, one line per member,
 * in the .c files and here alike, so a declaration never misses a
 * definition.  The wrappers call the C entry points, or the collectives'
 * shm_* cores with a Fortran pSync (SYNC_SIZE default INTEGERs).
 */
#ifndef PVMSHMEM_FSHMEM_H
#define PVMSHMEM_FSHMEM_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "optab.h"

/* External name of a Fortran-callable routine (gfortran's spelling). */
#define FSHM(name) name##_

/* Bytes of a Fortran pSync of n default INTEGERs. */
#define FSHM_PSYNC_BYTES(n) ((size_t)(n) * sizeof(int))

/* A Fortran count as a size_t; a negative one is fatal for call. */
size_t fshm_count(const char *call, int n);

/* ---- lists ---- */

/* Sized transfers and collectives: X(suffix, bits).  The suffix counts
 * bytes up to 8 (SHMEM_PUT4, SHMEM_PUT8) and bits beyond (SHMEM_PUT32 ...
 * SHMEM_PUT128), as in the Cray/SGI interface. */
#define FSHM_COLL_SIZES(X) X(4, 32) X(8, 64) X(32, 32) X(64, 64)
#define FSHM_RMA_SIZES(X) FSHM_COLL_SIZES(X) X(128, 128)

/* Typed transfers: X(name, bytes of one element). */
#define FSHM_RMA_TYPES(X)                                                      \
	X(integer, 4) X(real, 4) X(double, 8) X(complex, 8) X(logical, 4)

/* Integer atomics: X(name, C type, the C API's type name). */
#define FSHM_AMO_INT_TYPES(X) X(int4, int32_t, int32) X(int8, int64_t, int64)
/* Swaps: the integers and the reals. */
#define FSHM_AMO_SWAP_TYPES(X)                                                 \
	FSHM_AMO_INT_TYPES(X) X(real4, float, float) X(real8, double, double)

/* gfortran's REAL(KIND=16) is IEEE quad: __float128 where C has that
 * type apart from long double (x86-64), long double where long double
 * is quad (aarch64).  Elsewhere the FLOAT128 code has no kernels and a
 * REAL16 reduction ends the job with a message. */
#if !defined(OPTAB_HAVE_FLOAT128) && LDBL_MANT_DIG == 113
#define FSHM_REAL16 OPTAB_LONGDOUBLE
#else
#define FSHM_REAL16 OPTAB_FLOAT128
#endif

/* to_all reductions: X(name, optab type code).  Bitwise ops on the
 * integers, max and min also on the reals, sum and product also on the
 * complexes. */
#define FSHM_BIT_TYPES(X) X(int4, PVM_INT) X(int8, PVM_LONG)
#define FSHM_CMP_TYPES(X)                                                      \
	FSHM_BIT_TYPES(X)                                                      \
	X(real4, PVM_FLOAT) X(real8, PVM_DOUBLE) X(real16, FSHM_REAL16)
#define FSHM_ARITH_TYPES(X)                                                    \
	FSHM_CMP_TYPES(X) X(comp4, PVM_CPLX) X(comp8, PVM_DCPLX)

/* ---- fshmem_setup.c: start, identity, ordering, the heap ---- */

void FSHM(start_pes)(int *npes);
void FSHM(shmem_init)(void);
void FSHM(shmem_finalize)(void);
void FSHM(shmem_global_exit)(int *status);
int FSHM(my_pe)(void);
int FSHM(num_pes)(void);
int FSHM(shmem_my_pe)(void);
int FSHM(shmem_n_pes)(void);
void FSHM(shmem_quiet)(void);
void FSHM(shmem_fence)(void);
int64_t FSHM(shmem_ptr)(void *target, int *pe);
void FSHM(shpalloc)(intptr_t *addr, int *length, int *errcode, int *abort);
void FSHM(shpdeallc)(intptr_t *addr, int *errcode, int *abort);

/* ---- fshmem_rma.c: puts and gets ---- */

#define FSHM_DECL_SIZED(SUF, BITS)                                             \
	void FSHM(shmem_put##SUF)(void *t, const void *s, int *n, int *pe);    \
	void FSHM(shmem_get##SUF)(void *t, const void *s, int *n, int *pe);    \
	void FSHM(shmem_iput##SUF)(                                            \
	    void *t, const void *s, int *tst, int *sst, int *n, int *pe);      \
	void FSHM(shmem_iget##SUF)(                                            \
	    void *t, const void *s, int *tst, int *sst, int *n, int *pe);
FSHM_RMA_SIZES(FSHM_DECL_SIZED)
#undef FSHM_DECL_SIZED

#define FSHM_DECL_TYPED(NAME, BYTES)                                           \
	void FSHM(shmem_##NAME##_put)(                                         \
	    void *t, const void *s, int *n, int *pe);                          \
	void FSHM(shmem_##NAME##_get)(void *t, const void *s, int *n, int *pe);
FSHM_RMA_TYPES(FSHM_DECL_TYPED)
#undef FSHM_DECL_TYPED

void FSHM(shmem_putmem)(void *t, const void *s, int *n, int *pe);
void FSHM(shmem_getmem)(void *t, const void *s, int *n, int *pe);
void FSHM(shmem_character_put)(
    char *t, const char *s, int *n, int *pe, size_t tlen, size_t slen);
void FSHM(shmem_character_get)(
    char *t, const char *s, int *n, int *pe, size_t tlen, size_t slen);

/* ---- fshmem_amo.c: atomics and waits ---- */

#define FSHM_DECL_AMO_INT(NAME, T, CNAME)                                      \
	void FSHM(shmem_##NAME##_add)(T * t, T * v, int *pe);                  \
	T FSHM(shmem_##NAME##_fadd)(T * t, T * v, int *pe);                    \
	void FSHM(shmem_##NAME##_inc)(T * t, int *pe);                         \
	T FSHM(shmem_##NAME##_finc)(T * t, int *pe);                           \
	T FSHM(shmem_##NAME##_cswap)(T * t, T * cond, T * v, int *pe);         \
	void FSHM(shmem_##NAME##_wait)(T * ivar, T * v);                       \
	void FSHM(shmem_##NAME##_wait_until)(T * ivar, int *cmp, T *v);
FSHM_AMO_INT_TYPES(FSHM_DECL_AMO_INT)
#undef FSHM_DECL_AMO_INT

#define FSHM_DECL_SWAP(NAME, T, CNAME)                                         \
	T FSHM(shmem_##NAME##_swap)(T * t, T * v, int *pe);
FSHM_AMO_SWAP_TYPES(FSHM_DECL_SWAP)
#undef FSHM_DECL_SWAP

/* ---- fshmem_coll.c: barriers, broadcasts, collects, reductions ---- */

void FSHM(shmem_barrier_all)(void);
void FSHM(shmem_barrier)(int *start, int *logstride, int *size, int *psync);

#define FSHM_DECL_COLL(SUF, BITS)                                              \
	void FSHM(shmem_broadcast##SUF)(void *t, const void *s, int *n,        \
	    int *root, int *start, int *logstride, int *size, int *psync);     \
	void FSHM(shmem_collect##SUF)(void *t, const void *s, int *n,          \
	    int *start, int *logstride, int *size, int *psync);                \
	void FSHM(shmem_fcollect##SUF)(void *t, const void *s, int *n,         \
	    int *start, int *logstride, int *size, int *psync);
FSHM_COLL_SIZES(FSHM_DECL_COLL)
#undef FSHM_DECL_COLL

#define FSHM_DECL_TO_ALL(OP, NAME)                                             \
	void FSHM(shmem_##NAME##_##OP##_to_all)(void *t, const void *s,        \
	    int *n, int *start, int *logstride, int *size, void *pwrk,         \
	    int *psync);
#define FSHM_DECL_AND(NAME, CODE) FSHM_DECL_TO_ALL(and, NAME)
#define FSHM_DECL_OR(NAME, CODE) FSHM_DECL_TO_ALL(or, NAME)
#define FSHM_DECL_XOR(NAME, CODE) FSHM_DECL_TO_ALL(xor, NAME)
#define FSHM_DECL_MAX(NAME, CODE) FSHM_DECL_TO_ALL(max, NAME)
#define FSHM_DECL_MIN(NAME, CODE) FSHM_DECL_TO_ALL(min, NAME)
#define FSHM_DECL_SUM(NAME, CODE) FSHM_DECL_TO_ALL(sum, NAME)
#define FSHM_DECL_PROD(NAME, CODE) FSHM_DECL_TO_ALL(prod, NAME)
FSHM_BIT_TYPES(FSHM_DECL_AND)
FSHM_BIT_TYPES(FSHM_DECL_OR)
FSHM_BIT_TYPES(FSHM_DECL_XOR)
FSHM_CMP_TYPES(FSHM_DECL_MAX)
FSHM_CMP_TYPES(FSHM_DECL_MIN)
FSHM_ARITH_TYPES(FSHM_DECL_SUM)
FSHM_ARITH_TYPES(FSHM_DECL_PROD)
#undef FSHM_DECL_AND
#undef FSHM_DECL_OR
#undef FSHM_DECL_XOR
#undef FSHM_DECL_MAX
#undef FSHM_DECL_MIN
#undef FSHM_DECL_SUM
#undef FSHM_DECL_PROD
#undef FSHM_DECL_TO_ALL

#endif /* PVMSHMEM_FSHMEM_H */
