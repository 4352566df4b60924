/*
 * fshmem_setup.c: starting, the PE's identity, ordering, SHMEM_PTR and
 * the SGI heap routines SHPALLOC and SHPDEALLC, from Fortran.
 */
#include "fshmem.h"

#include "shm.h"
#include "shmem.h"

size_t
fshm_count(const char *call, int n)
{
	if (n < 0)
		shm_fatal(call, "the count is %d", n);
	return (size_t)n;
}

void
FSHM(start_pes)(int *npes)
{
	start_pes(*npes);
}

void
FSHM(shmem_init)(void)
{
	shmem_init();
}

void
FSHM(shmem_finalize)(void)
{
	shmem_finalize();
}

void
FSHM(shmem_global_exit)(int *status)
{
	shmem_global_exit(*status);
}

int
FSHM(my_pe)(void)
{
	return shmem_my_pe();
}

int
FSHM(num_pes)(void)
{
	return shmem_n_pes();
}

int
FSHM(shmem_my_pe)(void)
{
	return shmem_my_pe();
}

int
FSHM(shmem_n_pes)(void)
{
	return shmem_n_pes();
}

void
FSHM(shmem_quiet)(void)
{
	shmem_quiet();
}

void
FSHM(shmem_fence)(void)
{
	shmem_fence();
}

/* The address (for a Cray pointer) of target on PE pe, or 0. */
int64_t
FSHM(shmem_ptr)(void *target, int *pe)
{
	return (int64_t)(intptr_t)shmem_ptr(target, *pe);
}

/*
 * SHPALLOC(addr, length, errcode, abort): length counts 32-bit words, as
 * on the SGI and Cray machines the call comes from.  A collective, like
 * shmem_malloc.  errcode: 0, -1 for a length below 1, -2 when the heap
 * has no block that big; with abort nonzero an error ends the job.
 */
void
FSHM(shpalloc)(intptr_t *addr, int *length, int *errcode, int *abort)
{
	void *p = NULL;

	*errcode = 0;
	if (*length < 1)
		*errcode = -1;
	else if ((p = shmem_malloc((size_t)*length * 4)) == NULL)
		*errcode = -2;
	if (*errcode != 0 && *abort != 0)
		shm_fatal("SHPALLOC",
		    *errcode == -1 ? "length %d is not above 0"
		                   : "no room for %d words in the heap",
		    *length);
	*addr = (intptr_t)p;
}

/*
 * SHPDEALLC(addr, errcode, abort): a collective, like shmem_free.
 * errcode: 0, or -3 when addr is not in the symmetric heap (ends the
 * job when abort is nonzero).  An address inside the heap that is not a
 * block SHPALLOC returned always ends the job (shmem_free's check).
 */
void
FSHM(shpdeallc)(intptr_t *addr, int *errcode, int *abort)
{
	char *p = (char *)*addr;

	*errcode = 0;
	shm_need_init("SHPDEALLC");
	if (p < shm.heap + SHM_HEAP_RESERVED || p >= shm.heap + shm.heap_len) {
		*errcode = -3;
		if (*abort != 0)
			shm_fatal("SHPDEALLC",
			    "%p is not in the symmetric heap", (void *)p);
		return;
	}
	shmem_free(p);
}
