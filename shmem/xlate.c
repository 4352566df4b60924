/*
 * xlate.c: where a symmetric object of this PE is on another PE.
 *
 * A symmetric object has the same offset in the same region on every PE
 * (the data segment: same program; the heap: same calls in the same
 * order), so its address on PE pe is that PE's region, mapped here, plus
 * the offset.  A PE of another host is not mapped here: its objects are
 * reached through its host's agent (net.c) by region and offset.
 */
#include "shm.h"

#include "shmem.h"

#include <stdint.h>
#include <string.h>

/* Region of [a, a+len): SHM_REGION_DATA or _HEAP, 0 neither; *off its
 * offset. */
static int
xlate_region(uintptr_t a, size_t len, size_t *off)
{
	uintptr_t h = (uintptr_t)shm.heap;

	if (a >= shm.data_lo && a < shm.data_hi && len <= shm.data_hi - a) {
		*off = a - shm.data_lo;
		return SHM_REGION_DATA;
	}
	if (a >= h && a < h + shm.heap_len && len <= h + shm.heap_len - a) {
		*off = a - h;
		return SHM_REGION_HEAP;
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
	if (shm.peers[pe].data == NULL)
		return NULL; /* on another host */
	r = xlate_region((uintptr_t)addr, len, &off);
	if (r == SHM_REGION_DATA)
		return shm.peers[pe].data + off;
	if (r == SHM_REGION_HEAP)
		return shm.peers[pe].heap + off;
	return NULL;
}

void
shm_where(const void *addr, size_t len, int *region, uint64_t *off)
{
	size_t o = 0;

	*region = xlate_region((uintptr_t)addr, len, &o);
	*off = o;
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
	if ((p = shm_xlate(addr, len, pe)) == NULL && shm_is_symmetric(addr, len))
		return NULL; /* a PE of another host */
	if (p == NULL)
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

/* Every PE is reachable, mapped or through its host's agent. */
int
shmem_addr_accessible(const void *addr, int pe)
{
	shm_need_init("shmem_addr_accessible");
	return pe >= 0 && pe < shm.npes && shm_is_symmetric(addr, 1);
}

/* NULL for a PE of another host: no load or store can reach it. */
void *
shmem_ptr(const void *dest, int pe)
{
	shm_need_init("shmem_ptr");
	return shm_xlate(dest, 1, pe);
}

const void *
shm_fetch(const void *addr, size_t len, int pe, const char *call, void *buf)
{
	const void *p = shm_remote(addr, len, pe, call);

	if (p != NULL)
		return p;
	if (len > 0)
		shm_net_get(buf, addr, len, pe, call);
	return buf;
}

void
shm_read(void *dst, const void *addr, size_t len, int pe, const char *call)
{
	const void *p = shm_fetch(addr, len, pe, call, dst);

	if (p != dst && len > 0)
		memcpy(dst, p, len);
}
