/*
 * xlate.c: where a symmetric object of this PE is on another PE.
 *
 * A symmetric object has the same offset in the same region on every PE
 * (the data segment: same program; the heap: same calls in the same
 * order), so its address on PE pe is that PE's region, mapped here, plus
 * the offset.
 */
#include "shm.h"

#include "shmem.h"

#include <stdint.h>

/* Region of [a, a+len): 1 data, 2 heap, 0 neither; *off its offset. */
static int
xlate_region(uintptr_t a, size_t len, size_t *off)
{
	uintptr_t h = (uintptr_t)shm.heap;

	if (a >= shm.data_lo && a < shm.data_hi && len <= shm.data_hi - a) {
		*off = a - shm.data_lo;
		return 1;
	}
	if (a >= h && a < h + shm.heap_len && len <= h + shm.heap_len - a) {
		*off = a - h;
		return 2;
	}
	return 0;
}

void *
shm_xlate(const void *addr, size_t len, int pe)
{
	size_t off;
	int r;

	if (!shm.inited || pe < 0 || pe >= shm.npes)
		return NULL;
	r = xlate_region((uintptr_t)addr, len, &off);
	if (r == 1)
		return shm.peers[pe].data + off;
	if (r == 2)
		return shm.peers[pe].heap + off;
	return NULL;
}

int
shm_is_symmetric(const void *addr, size_t len)
{
	size_t off;

	return xlate_region((uintptr_t)addr, len, &off) != 0;
}

void *
shm_remote(const void *addr, size_t len, int pe, const char *call)
{
	void *p;

	shm_need_init(call);
	if (pe < 0 || pe >= shm.npes)
		shm_fatal(
		    call, "PE %d does not exist (0..%d)", pe, shm.npes - 1);
	if ((p = shm_xlate(addr, len, pe)) == NULL)
		shm_fatal(call,
		    "%p (%zu bytes) is not symmetric: not a global or static "
		    "variable nor shmem_malloc'd memory",
		    addr, len);
	return p;
}

int
shmem_pe_accessible(int pe)
{
	shm_need_init("shmem_pe_accessible");
	return pe >= 0 && pe < shm.npes;
}

int
shmem_addr_accessible(const void *addr, int pe)
{
	shm_need_init("shmem_addr_accessible");
	return shm_xlate(addr, 1, pe) != NULL;
}

void *
shmem_ptr(const void *dest, int pe)
{
	shm_need_init("shmem_ptr");
	return shm_xlate(dest, 1, pe);
}
