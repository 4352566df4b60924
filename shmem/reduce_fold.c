/*
 * reduce_fold.c: a to_all reduction for small arrays.  Once every member
 * is there, each one folds every member's source, in rank order, into
 * its own target (or a scratch copy when source and target are the same
 * array, since the others are still reading it), then one more barrier
 * frees the sources.  Two barriers, N reads of the array per member.
 * When the array fits in pWrk, every member has copied its source there
 * before the first barrier and the second one is not needed.  A member
 * of another host is read through its agent into a scratch buffer.
 */
#include "shm.h"

#include <stdlib.h>
#include <string.h>

/* Member r's copy of sym (the array of bytes bytes): mapped, or got into
 * *tmp (allocated on first use). */
static const char *
fold_src(const struct shm_fold *f, const char *sym, int r, char **tmp)
{
	size_t bytes = f->n * f->esize;
	int pe = shm_aset_pe(&f->coll.as, r);
	const char *s = shm_remote(sym, bytes, pe, f->coll.call);

	if (s != NULL)
		return s;
	if (*tmp == NULL && (*tmp = malloc(bytes)) == NULL)
		shm_fatal(f->coll.call, "out of memory");
	shm_net_get(*tmp, sym, bytes, pe, f->coll.call);
	return *tmp;
}

void
shm_reduce_fold(struct shm_fold *f)
{
	size_t bytes = f->n * f->esize;
	int inplace = f->dest == f->src, r;
	char stackbuf[1024], *acc = f->dest, *tmp = NULL;

	if (inplace && bytes > 0) {
		acc = bytes <= sizeof(stackbuf) ? stackbuf : malloc(bytes);
		if (acc == NULL)
			shm_fatal(f->coll.call, "out of memory");
	}
	for (r = 0; r < f->coll.as.size && bytes > 0; r++) {
		const char *s = fold_src(f, f->src, r, &tmp);

		if (r == 0)
			memcpy(acc, s, bytes);
		else
			f->kernel(acc, s, f->n);
	}
	free(tmp);
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
	char *tmp = NULL;
	int r;

	for (r = 0; r < f->coll.as.size && bytes > 0; r++) {
		const char *s = fold_src(f, f->wrk, r, &tmp);

		if (r == 0)
			memcpy(f->dest, s, bytes);
		else
			f->kernel(f->dest, s, f->n);
	}
	free(tmp);
	shm_coll_leave(&f->coll);
}
