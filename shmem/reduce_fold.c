/*
 * reduce_fold.c: a to_all reduction for small arrays.  Once every member
 * is there, each one folds every member's source, in rank order, into
 * its own target (or a scratch copy when source and target are the same
 * array, since the others are still reading it), then one more barrier
 * frees the sources.  Two barriers, N reads of the array per member.
 * When the array fits in pWrk, every member has copied its source there
 * before the first barrier and the second one is not needed.  The
 * arrays of members of other hosts are got through their agents, all at
 * once, into a scratch buffer; the fold is the same, in the same order.
 */
#include "shm.h"

#include <stdlib.h>
#include <string.h>

/* The copies of sym of the members of other hosts, all got at once
 * (one round trip) into one buffer, member r's at r * bytes; NULL when
 * every member is of this host. */
static char *
fold_far(const struct shm_fold *f, const char *sym)
{
	size_t bytes = f->n * f->esize;
	struct shm_getv *v;
	char *far;
	int r, n = 0;

	if (shm.nremote == 0 || bytes == 0)
		return NULL;
	far = malloc((size_t)f->coll.as.size * bytes);
	v = malloc((size_t)f->coll.as.size * sizeof(*v));
	if (far == NULL || v == NULL)
		shm_fatal(f->coll.call, "out of memory");
	for (r = 0; r < f->coll.as.size; r++) {
		int pe = shm_aset_pe(&f->coll.as, r);

		if (shm_mapped(pe))
			continue;
		v[n].dest = far + (size_t)r * bytes;
		v[n].src = sym;
		v[n].len = bytes;
		v[n++].pe = pe;
	}
	shm_getv(v, n, f->coll.call);
	free(v);
	return far;
}

/* Member r's copy of sym: mapped, or in far. */
static const char *
fold_src(const struct shm_fold *f, const char *sym, int r, const char *far)
{
	size_t bytes = f->n * f->esize;
	const char *s =
	    shm_remote(sym, bytes, shm_aset_pe(&f->coll.as, r), f->coll.call);

	return s != NULL ? s : far + (size_t)r * bytes;
}

void
shm_reduce_fold(struct shm_fold *f)
{
	size_t bytes = f->n * f->esize;
	int inplace = f->dest == f->src, r;
	char stackbuf[1024], *acc = f->dest, *far;

	if (inplace && bytes > 0) {
		acc = bytes <= sizeof(stackbuf) ? stackbuf : malloc(bytes);
		if (acc == NULL)
			shm_fatal(f->coll.call, "out of memory");
	}
	far = fold_far(f, f->src);
	for (r = 0; r < f->coll.as.size && bytes > 0; r++) {
		const char *s = fold_src(f, f->src, r, far);

		if (r == 0)
			memcpy(acc, s, bytes);
		else
			f->kernel(acc, s, f->n);
	}
	free(far);
	shm_coll_end(&f->coll);
	if (acc != f->dest) {
		memcpy(f->dest, acc, bytes);
		if (acc != stackbuf)
			free(acc);
	}
}

void
shm_reduce_wrk(struct shm_fold *f)
{
	size_t bytes = f->n * f->esize;
	char *far = fold_far(f, f->wrk);
	int r;

	for (r = 0; r < f->coll.as.size && bytes > 0; r++) {
		const char *s = fold_src(f, f->wrk, r, far);

		if (r == 0)
			memcpy(f->dest, s, bytes);
		else
			f->kernel(f->dest, s, f->n);
	}
	free(far);
	shm_coll_leave(&f->coll);
}
