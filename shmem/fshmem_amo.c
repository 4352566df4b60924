/*
 * fshmem_amo.c: the atomics and the waits of the Fortran interface, on
 * INTEGER*4 and INTEGER*8 targets (swaps also on REAL*4 and REAL*8).
 * Each is the C call of the same width.
 */
#include "fshmem.h"

#include "shmem.h"

#define FSHM_AMO_INT(NAME, T, CNAME)                                           \
	void FSHM(shmem_##NAME##_add)(T * t, T * v, int *pe)                   \
	{                                                                      \
		shmem_##CNAME##_atomic_add(t, *v, *pe);                        \
	}                                                                      \
	T FSHM(shmem_##NAME##_fadd)(T * t, T * v, int *pe)                     \
	{                                                                      \
		return shmem_##CNAME##_atomic_fetch_add(t, *v, *pe);           \
	}                                                                      \
	void FSHM(shmem_##NAME##_inc)(T * t, int *pe)                          \
	{                                                                      \
		shmem_##CNAME##_atomic_inc(t, *pe);                            \
	}                                                                      \
	T FSHM(shmem_##NAME##_finc)(T * t, int *pe)                            \
	{                                                                      \
		return shmem_##CNAME##_atomic_fetch_inc(t, *pe);               \
	}                                                                      \
	T FSHM(shmem_##NAME##_cswap)(T * t, T * cond, T * v, int *pe)          \
	{                                                                      \
		return shmem_##CNAME##_atomic_compare_swap(t, *cond, *v, *pe); \
	}                                                                      \
	void FSHM(shmem_##NAME##_wait)(T * ivar, T * v)                        \
	{                                                                      \
		shmem_##CNAME##_wait(ivar, *v);                                \
	}                                                                      \
	void FSHM(shmem_##NAME##_wait_until)(T * ivar, int *cmp, T *v)         \
	{                                                                      \
		shmem_##CNAME##_wait_until(ivar, *cmp, *v);                    \
	}
FSHM_AMO_INT_TYPES(FSHM_AMO_INT)

#define FSHM_SWAP(NAME, T, CNAME)                                              \
	T FSHM(shmem_##NAME##_swap)(T * t, T * v, int *pe)                     \
	{                                                                      \
		return shmem_##CNAME##_atomic_swap(t, *v, *pe);                \
	}
FSHM_AMO_SWAP_TYPES(FSHM_SWAP)
