/*
 * fshmem_coll.c: the collectives of the Fortran interface.  They are
 * the C cores (shm_barrier, shm_broadcast, shm_collect, shm_to_all) with
 * a Fortran pSync: SYNC_SIZE default INTEGERs, not longs.  The call
 * names in messages are the Fortran routines', in lower case.
 */
#include "fshmem.h"

#include "optab.h"
#include "pvm3.h"
#include "shm.h"
#include "shmem.h"

void
FSHM(shmem_barrier_all)(void)
{
	shmem_barrier_all();
}

void
FSHM(shmem_barrier)(int *start, int *logstride, int *size, int *psync)
{
	shm_barrier("shmem_barrier", *start, *logstride, *size, psync,
	    FSHM_PSYNC_BYTES(SHMEM_BARRIER_SYNC_SIZE));
}

#define FSHM_COLL(SUF, BITS)                                                   \
	void FSHM(shmem_broadcast##SUF)(void *t, const void *s, int *n,        \
	    int *root, int *start, int *logstride, int *size, int *psync)      \
	{                                                                      \
		const char *call = "shmem_broadcast" #SUF;                     \
		shm_broadcast(call, t, s, fshm_count(call, *n) * (BITS / 8),   \
		    *root, *start, *logstride, *size, psync,                   \
		    FSHM_PSYNC_BYTES(SHMEM_BCAST_SYNC_SIZE));                  \
	}                                                                      \
	void FSHM(shmem_collect##SUF)(void *t, const void *s, int *n,          \
	    int *start, int *logstride, int *size, int *psync)                 \
	{                                                                      \
		const char *call = "shmem_collect" #SUF;                       \
		shm_collect(call, t, s, fshm_count(call, *n) * (BITS / 8),     \
		    BITS / 8, 0, *start, *logstride, *size, psync,             \
		    FSHM_PSYNC_BYTES(SHMEM_COLLECT_SYNC_SIZE));                \
	}                                                                      \
	void FSHM(shmem_fcollect##SUF)(void *t, const void *s, int *n,         \
	    int *start, int *logstride, int *size, int *psync)                 \
	{                                                                      \
		const char *call = "shmem_fcollect" #SUF;                      \
		shm_collect(call, t, s, fshm_count(call, *n) * (BITS / 8),     \
		    BITS / 8, 1, *start, *logstride, *size, psync,             \
		    FSHM_PSYNC_BYTES(SHMEM_COLLECT_SYNC_SIZE));                \
	}
FSHM_COLL_SIZES(FSHM_COLL)

#define FSHM_TO_ALL(OP, CODE, NAME, TYPE)                                      \
	void FSHM(shmem_##NAME##_##OP##_to_all)(void *t, const void *s,        \
	    int *n, int *start, int *logstride, int *size, void *pwrk,         \
	    int *psync)                                                        \
	{                                                                      \
		struct shm_reduce r = {"shmem_" #NAME "_" #OP "_to_all", CODE, \
		    TYPE, t, s, *n, *start, *logstride, *size, pwrk, psync,    \
		    FSHM_PSYNC_BYTES(SHMEM_REDUCE_SYNC_SIZE)};                 \
		shm_to_all(&r);                                                \
	}
#define FSHM_AND(NAME, TYPE) FSHM_TO_ALL(and, OPTAB_AND, NAME, TYPE)
#define FSHM_OR(NAME, TYPE) FSHM_TO_ALL(or, OPTAB_OR, NAME, TYPE)
#define FSHM_XOR(NAME, TYPE) FSHM_TO_ALL(xor, OPTAB_XOR, NAME, TYPE)
#define FSHM_MAX(NAME, TYPE) FSHM_TO_ALL(max, OPTAB_MAX, NAME, TYPE)
#define FSHM_MIN(NAME, TYPE) FSHM_TO_ALL(min, OPTAB_MIN, NAME, TYPE)
#define FSHM_SUM(NAME, TYPE) FSHM_TO_ALL(sum, OPTAB_SUM, NAME, TYPE)
#define FSHM_PROD(NAME, TYPE) FSHM_TO_ALL(prod, OPTAB_PROD, NAME, TYPE)
FSHM_BIT_TYPES(FSHM_AND)
FSHM_BIT_TYPES(FSHM_OR)
FSHM_BIT_TYPES(FSHM_XOR)
FSHM_CMP_TYPES(FSHM_MAX)
FSHM_CMP_TYPES(FSHM_MIN)
FSHM_ARITH_TYPES(FSHM_SUM)
FSHM_ARITH_TYPES(FSHM_PROD)
