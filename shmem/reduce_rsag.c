/*
 * reduce_rsag.c: a to_all reduction for large arrays.
 *
 * Reduce-scatter: member r folds chunk r of every member's source, in
 * rank order, a block at a time through a small buffer (so in place
 * works: its own source chunk is read before its target chunk is
 * written, and nobody else reads that chunk), into chunk r of its
 * target.  A barrier.  Allgather: each member copies every other chunk
 * from the member that computed it.  A last barrier, so that nobody
 * changes its target while others copy from it.
 *
 * When a member is on another host, every member's chunk is got whole
 * (the requests to all agents sent at once, each answer streamed) and
 * folded in rank order, and the allgather gets every chunk the same way:
 * the same folds in the same order, so the same bits as on one host.
 */
#include "shm.h"

#include <stdlib.h>
#include <string.h>

#define RSAG_BLOCK 16384 /* bytes folded at a time: stays in L1 */

/* Element index where chunk r of n elements over p members starts. */
static size_t
rsag_lo(size_t n, int p, int r)
{
	return (size_t)((unsigned __int128)n * (unsigned)r / (unsigned)p);
}

/* Fold elements [lo, hi) of every source into our target. */
static void
rsag_fold(struct shm_fold *f, size_t lo, size_t hi)
{
	_Alignas(64) char buf[RSAG_BLOCK];
	size_t step = RSAG_BLOCK / f->esize, i, m;
	size_t all = f->n * f->esize;
	int r;

	for (i = lo; i < hi; i += m) {
		m = hi - i < step ? hi - i : step;
		for (r = 0; r < f->coll.as.size; r++) {
			const char *s = shm_remote(f->src, all,
			    shm_aset_pe(&f->coll.as, r), f->coll.call);

			if (r == 0)
				memcpy(buf, s + i * f->esize, m * f->esize);
			else
				f->kernel(buf, s + i * f->esize, m);
		}
		memcpy(f->dest + i * f->esize, buf, m * f->esize);
	}
}

/* Whether every member is mapped here. */
static int
rsag_all_mapped(const struct shm_aset *as)
{
	int r;

	for (r = 0; r < as->size; r++)
		if (!shm_mapped(shm_aset_pe(as, r)))
			return 0;
	return 1;
}

/* rsag_fold when members are on other hosts: their chunks are got all
 * at once into far (member r's at r * bytes), then folded in rank order
 * as on one host. */
static void
rsag_fold_far(struct shm_fold *f, size_t lo, size_t hi)
{
	size_t bytes = (hi - lo) * f->esize;
	const char *src = f->src + lo * f->esize;
	struct shm_getv *v;
	char *acc, *far;
	int r, n = 0;

	if (bytes == 0)
		return;
	acc = malloc(bytes);
	far = malloc((size_t)f->coll.as.size * bytes);
	v = malloc((size_t)f->coll.as.size * sizeof(*v));
	if (acc == NULL || far == NULL || v == NULL)
		shm_fatal(f->coll.call, "out of memory");
	for (r = 0; r < f->coll.as.size; r++) {
		v[n].dest = far + (size_t)r * bytes;
		v[n].src = src;
		v[n].len = bytes;
		v[n++].pe = shm_aset_pe(&f->coll.as, r);
	}
	shm_getv(v, n, f->coll.call);
	memcpy(acc, far, bytes);
	for (r = 1; r < f->coll.as.size; r++)
		f->kernel(acc, far + (size_t)r * bytes, hi - lo);
	memcpy(f->dest + lo * f->esize, acc, bytes);
	free(v);
	free(far);
	free(acc);
}

/* The whole algorithm when members are on other hosts. */
static void
rsag_far(struct shm_fold *f)
{
	const struct shm_aset *as = &f->coll.as;
	struct shm_getv *v;
	int r, n = 0;

	rsag_fold_far(f, rsag_lo(f->n, as->size, as->rank),
	    rsag_lo(f->n, as->size, as->rank + 1));
	shm_dissemination(&f->coll);
	if ((v = malloc((size_t)as->size * sizeof(*v))) == NULL)
		shm_fatal(f->coll.call, "out of memory");
	for (r = 0; r < as->size; r++) {
		size_t lo = rsag_lo(f->n, as->size, r) * f->esize;
		size_t hi = rsag_lo(f->n, as->size, r + 1) * f->esize;

		if (r == as->rank || hi == lo)
			continue;
		v[n].dest = f->dest + lo;
		v[n].src = f->dest + lo;
		v[n].len = hi - lo;
		v[n++].pe = shm_aset_pe(as, r);
	}
	shm_getv(v, n, f->coll.call);
	free(v);
	shm_coll_end(&f->coll);
}

void
shm_reduce_rsag(struct shm_fold *f)
{
	const struct shm_aset *as = &f->coll.as;
	size_t all = f->n * f->esize;
	int r;

	if (!rsag_all_mapped(as)) {
		rsag_far(f);
		return;
	}
	rsag_fold(f, rsag_lo(f->n, as->size, as->rank),
	    rsag_lo(f->n, as->size, as->rank + 1));
	shm_dissemination(&f->coll);
	for (r = 0; r < as->size; r++) {
		size_t lo = rsag_lo(f->n, as->size, r) * f->esize;
		size_t hi = rsag_lo(f->n, as->size, r + 1) * f->esize;

		if (r == as->rank || hi == lo)
			continue;
		memcpy(f->dest + lo,
		    (const char *)shm_remote(
		        f->dest, all, shm_aset_pe(as, r), f->coll.call) +
		        lo,
		    hi - lo);
	}
	shm_coll_end(&f->coll);
}
