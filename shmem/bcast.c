/*
 * bcast.c: broadcast, collect and alltoall.  Every member reads what it
 * needs straight from the others' source arrays (mapped, or through the
 * agent of their host), between the barrier that shows they are all
 * there and the one that lets them reuse their sources.
 */
#include "shm.h"

#include "shmem.h"

#include <stdlib.h>
#include <string.h>

#define SIG_BCAST 1
#define SIG_COLLECT 2
#define SIG_FCOLLECT 3
#define SIG_ALLTOALL 4

#define COLLECT_STACK 64 /* members whose counts need no malloc */

void
shm_broadcast(const char *call, void *dest, const void *src, size_t nbytes,
    int root, int start, int logstride, int size, void *psync,
    size_t psync_bytes)
{
	struct shm_coll c;

	c.call = call;
	shm_aset_check(call, start, logstride, size, &c.as);
	if (root < 0 || root >= size)
		shm_fatal(call,
		    "PE_root %d is not an ordinal of the active "
		    "set (0..%d)",
		    root, size - 1);
	c.psync = shm_psync_check(call, psync, psync_bytes);
	shm_sym_check(call, "source", src, nbytes);
	shm_sym_check(call, "dest", dest, nbytes);
	c.sig = shm_sig(SIG_BCAST, nbytes, (uint64_t)root, &c.as);
	shm_coll_begin(&c);
	if (c.as.rank != root && nbytes > 0)
		shm_read(dest, src, nbytes, shm_aset_pe(&c.as, root), call);
	shm_coll_end(&c);
}

/* A member's count of bytes, published in its pSync words 1 and 2. */
static uint64_t
collect_count_of(const struct shm_coll *c, int r)
{
	int pe = shm_aset_pe(&c->as, r);
	int32_t *w = shm_remote(
	    &c->psync[SHM_SYNC_COUNT], 2 * sizeof(int32_t), pe, c->call);
	int32_t v[2];

	if (w == NULL) {
		shm_net_get(v, &c->psync[SHM_SYNC_COUNT], sizeof(v), pe,
		    c->call);
		w = v;
	}
	return (uint64_t)(uint32_t)__atomic_load_n(&w[0], __ATOMIC_ACQUIRE) |
	       (uint64_t)(uint32_t)__atomic_load_n(&w[1], __ATOMIC_ACQUIRE)
	           << 32;
}

void
shm_collect(const char *call, void *dest, const void *src, size_t nbytes,
    size_t width, int fixed, int start, int logstride, int size, void *psync,
    size_t psync_bytes)
{
	struct shm_coll c;
	uint64_t off = 0, n, *counts, stack[COLLECT_STACK];
	int r;

	c.call = call;
	shm_aset_check(call, start, logstride, size, &c.as);
	c.psync = shm_psync_check(call, psync, psync_bytes);
	shm_sym_check(call, "source", src, nbytes);
	c.sig = fixed ? shm_sig(SIG_FCOLLECT, nbytes, 0, &c.as)
	              : shm_sig(SIG_COLLECT, width, 0, &c.as);
	c.psync[SHM_SYNC_COUNT] = (int32_t)(uint32_t)nbytes;
	c.psync[SHM_SYNC_COUNT + 1] =
	    (int32_t)(uint32_t)((uint64_t)nbytes >> 32);
	shm_coll_begin(&c);
	counts = c.as.size <= COLLECT_STACK ? stack : malloc(
	    (size_t)c.as.size * sizeof(*counts));
	if (counts == NULL)
		shm_fatal(call, "out of memory");
	for (r = 0; r < c.as.size; r++)
		off += counts[r] = collect_count_of(&c, r);
	shm_sym_check(call, "dest", dest, off);
	for (r = 0, off = 0; r < c.as.size; r++, off += n) {
		n = counts[r];
		if (n > 0)
			shm_read((char *)dest + off, src, n,
			    shm_aset_pe(&c.as, r), call);
	}
	if (counts != stack)
		free(counts);
	shm_coll_end(&c);
	c.psync[SHM_SYNC_COUNT] = 0;
	c.psync[SHM_SYNC_COUNT + 1] = 0;
}

/* Member r's block q goes to member q's block r. */
static void
alltoall(const char *call, void *dest, const void *src, size_t nbytes,
    int start, int logstride, int size, void *psync)
{
	struct shm_coll c;
	int r;

	c.call = call;
	shm_aset_check(call, start, logstride, size, &c.as);
	c.psync = shm_psync_check(
	    call, psync, SHMEM_ALLTOALL_SYNC_SIZE * sizeof(long));
	shm_sym_check(call, "source", src, nbytes * (size_t)size);
	shm_sym_check(call, "dest", dest, nbytes * (size_t)size);
	c.sig = shm_sig(SIG_ALLTOALL, nbytes, 0, &c.as);
	shm_coll_begin(&c);
	for (r = 0; r < c.as.size && nbytes > 0; r++) {
		const char *s = (const char *)src + (size_t)c.as.rank * nbytes;

		shm_read((char *)dest + (size_t)r * nbytes, s, nbytes,
		    shm_aset_pe(&c.as, r), call);
	}
	shm_coll_end(&c);
}

#define BCAST_BITS(BITS)                                                       \
	void shmem_broadcast##BITS(void *dest, const void *source,             \
	    size_t nelems, int root, int start, int logstride, int size,       \
	    long *psync)                                                       \
	{                                                                      \
		shm_broadcast(__func__, dest, source, nelems *(BITS / 8),      \
		    root, start, logstride, size, psync,                       \
		    SHMEM_BCAST_SYNC_SIZE * sizeof(long));                     \
	}                                                                      \
	void shmem_collect##BITS(void *dest, const void *source,               \
	    size_t nelems, int start, int logstride, int size, long *psync)    \
	{                                                                      \
		shm_collect(__func__, dest, source, nelems *(BITS / 8),        \
		    BITS / 8, 0, start, logstride, size, psync,                \
		    SHMEM_COLLECT_SYNC_SIZE * sizeof(long));                   \
	}                                                                      \
	void shmem_fcollect##BITS(void *dest, const void *source,              \
	    size_t nelems, int start, int logstride, int size, long *psync)    \
	{                                                                      \
		shm_collect(__func__, dest, source, nelems *(BITS / 8),        \
		    BITS / 8, 1, start, logstride, size, psync,                \
		    SHMEM_COLLECT_SYNC_SIZE * sizeof(long));                   \
	}                                                                      \
	void shmem_alltoall##BITS(void *dest, const void *source,              \
	    size_t nelems, int start, int logstride, int size, long *psync)    \
	{                                                                      \
		alltoall(__func__, dest, source, nelems *(BITS / 8), start,    \
		    logstride, size, psync);                                   \
	}
BCAST_BITS(32)
BCAST_BITS(64)
