/*
 * fshmem_rma.c: puts and gets from Fortran.  Counts are default
 * INTEGERs in elements; strides of IPUT/IGET are in elements too.
 */
#include "fshmem.h"

#include "shm.h"
#include "shmem.h"

/* Bytes of n elements of w bytes; a negative n is fatal for call. */
static size_t
rma_bytes(const char *call, int n, size_t w)
{
	return fshm_count(call, n) * w;
}

#define FSHM_SIZED(SUF, BITS)                                                  \
	void FSHM(shmem_put##SUF)(void *t, const void *s, int *n, int *pe)     \
	{                                                                      \
		shmem_putmem(                                                  \
		    t, s, rma_bytes("shmem_put" #SUF, *n, BITS / 8), *pe);     \
	}                                                                      \
	void FSHM(shmem_get##SUF)(void *t, const void *s, int *n, int *pe)     \
	{                                                                      \
		shmem_getmem(                                                  \
		    t, s, rma_bytes("shmem_get" #SUF, *n, BITS / 8), *pe);     \
	}                                                                      \
	void FSHM(shmem_iput##SUF)(                                            \
	    void *t, const void *s, int *tst, int *sst, int *n, int *pe)       \
	{                                                                      \
		shmem_iput##BITS(                                              \
		    t, s, *tst, *sst, fshm_count("shmem_iput" #SUF, *n), *pe); \
	}                                                                      \
	void FSHM(shmem_iget##SUF)(                                            \
	    void *t, const void *s, int *tst, int *sst, int *n, int *pe)       \
	{                                                                      \
		shmem_iget##BITS(                                              \
		    t, s, *tst, *sst, fshm_count("shmem_iget" #SUF, *n), *pe); \
	}
FSHM_RMA_SIZES(FSHM_SIZED)

#define FSHM_TYPED(NAME, BYTES)                                                \
	void FSHM(shmem_##NAME##_put)(void *t, const void *s, int *n, int *pe) \
	{                                                                      \
		shmem_putmem(                                                  \
		    t, s, rma_bytes("shmem_" #NAME "_put", *n, BYTES), *pe);   \
	}                                                                      \
	void FSHM(shmem_##NAME##_get)(void *t, const void *s, int *n, int *pe) \
	{                                                                      \
		shmem_getmem(                                                  \
		    t, s, rma_bytes("shmem_" #NAME "_get", *n, BYTES), *pe);   \
	}
FSHM_RMA_TYPES(FSHM_TYPED)

void
FSHM(shmem_putmem)(void *t, const void *s, int *n, int *pe)
{
	shmem_putmem(t, s, rma_bytes("shmem_putmem", *n, 1), *pe);
}

void
FSHM(shmem_getmem)(void *t, const void *s, int *n, int *pe)
{
	shmem_getmem(t, s, rma_bytes("shmem_getmem", *n, 1), *pe);
}

/* n characters; the hidden lengths are not needed (n says how many). */
void
FSHM(shmem_character_put)(
    char *t, const char *s, int *n, int *pe, size_t tlen, size_t slen)
{
	(void)tlen;
	(void)slen;
	shmem_putmem(t, s, rma_bytes("shmem_character_put", *n, 1), *pe);
}

void
FSHM(shmem_character_get)(
    char *t, const char *s, int *n, int *pe, size_t tlen, size_t slen)
{
	(void)tlen;
	(void)slen;
	shmem_getmem(t, s, rma_bytes("shmem_character_get", *n, 1), *pe);
}
