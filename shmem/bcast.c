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

/* A member's count of bytes, published in its pSync words 1 and 2 (a
 * member of this host). */
static uint64_t
collect_count_of(const struct shm_coll *c, int r)
{
	int32_t *w = shm_remote(&c->psync[SHM_SYNC_COUNT], 2 * sizeof(int32_t),
	    shm_aset_pe(&c->as, r), c->call);

	return (uint64_t)(uint32_t)__atomic_load_n(&w[0], __ATOMIC_ACQUIRE) |
	       (uint64_t)(uint32_t)__atomic_load_n(&w[1], __ATOMIC_ACQUIRE)
	           << 32;
}

/* Every member's count; those of other hosts got at once. */
static void
collect_counts(const struct shm_coll *c, uint64_t *counts)
{
	struct shm_getv *v;
	uint32_t *w;
	int r, n = 0;

	if (shm.nremote == 0) {
		for (r = 0; r < c->as.size; r++)
			counts[r] = collect_count_of(c, r);
		return;
	}
	w = malloc((size_t)c->as.size * 2 * sizeof(*w));
	v = malloc((size_t)c->as.size * sizeof(*v));
	if (w == NULL || v == NULL)
		shm_fatal(c->call, "out of memory");
	for (r = 0; r < c->as.size; r++) {
		v[n].dest = &w[2 * r];
		v[n].src = &c->psync[SHM_SYNC_COUNT];
		v[n].len = 2 * sizeof(*w);
		v[n++].pe = shm_aset_pe(&c->as, r);
	}
	shm_getv(v, n, c->call);
	for (r = 0; r < c->as.size; r++)
		counts[r] = w[2 * r] | (uint64_t)w[2 * r + 1] << 32;
	free(v);
	free(w);
}

/* Copy member r's len[r] bytes at src (offset soff[r]) to dest (offset
 * doff[r]), every member; those of other hosts all at once. */
static void
gather(const struct shm_coll *c, char *dest, const char *src,
    const uint64_t *len, const uint64_t *doff, const uint64_t *soff)
{
	struct shm_getv *v;
	int r;

	if ((v = malloc((size_t)c->as.size * sizeof(*v))) == NULL)
		shm_fatal(c->call, "out of memory");
	for (r = 0; r < c->as.size; r++) {
		v[r].dest = dest + doff[r];
		v[r].src = src + soff[r];
		v[r].len = len[r];
		v[r].pe = shm_aset_pe(&c->as, r);
	}
	shm_getv(v, c->as.size, c->call);
	free(v);
}

void
shm_collect(const char *call, void *dest, const void *src, size_t nbytes,
    size_t width, int fixed, int start, int logstride, int size, void *psync,
    size_t psync_bytes)
{
	struct shm_coll c;
	uint64_t off = 0, *counts, *offs;
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
	/* counts, then the offsets in dest, then zeros (source offsets) */
	counts = calloc(3 * (size_t)c.as.size, sizeof(*counts));
	if (counts == NULL)
		shm_fatal(call, "out of memory");
	offs = counts + c.as.size;
	collect_counts(&c, counts);
	for (r = 0; r < c.as.size; r++) {
		offs[r] = off;
		off += counts[r];
	}
	shm_sym_check(call, "dest", dest, off);
	gather(&c, dest, src, counts, offs, offs + c.as.size);
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
	uint64_t *len;
	int r;

	c.call = call;
	shm_aset_check(call, start, logstride, size, &c.as);
	c.psync = shm_psync_check(
	    call, psync, SHMEM_ALLTOALL_SYNC_SIZE * sizeof(long));
	shm_sym_check(call, "source", src, nbytes * (size_t)size);
	shm_sym_check(call, "dest", dest, nbytes * (size_t)size);
	c.sig = shm_sig(SIG_ALLTOALL, nbytes, 0, &c.as);
	shm_coll_begin(&c);
	if ((len = malloc(3 * (size_t)size * sizeof(*len))) == NULL)
		shm_fatal(call, "out of memory");
	for (r = 0; r < size; r++) {
		len[r] = nbytes;
		len[size + r] = (uint64_t)r * nbytes;             /* dest */
		len[2 * size + r] = (uint64_t)c.as.rank * nbytes; /* source */
	}
	gather(&c, dest, src, len, len + size, len + 2 * size);
	free(len);
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
