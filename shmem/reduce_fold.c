/*
 * reduce_fold.c: a to_all reduction for small arrays.  Once every member
 * is there, each one folds every member's source, in rank order, into
 * its own target (or a scratch copy when source and target are the same
 * array, since the others are still reading it), then one more barrier
 * frees the sources.  Two barriers, N reads of the array per member.
 * When the array fits in pWrk, every member has copied its source there
 * before the first barrier and the second one is not needed.
 */
#include "shm.h"

#include <stdlib.h>
#include <string.h>

void
shm_reduce_fold(struct shm_fold *f)
{
	size_t bytes = f->n * f->esize;
	int inplace = f->dest == f->src, r;
	char stackbuf[1024], *acc = f->dest;

	if (inplace && bytes > 0) {
		acc = bytes <= sizeof(stackbuf) ? stackbuf : malloc(bytes);
		if (acc == NULL)
			shm_fatal(f->coll.call, "out of memory");
	}
	for (r = 0; r < f->coll.as.size && bytes > 0; r++) {
		const char *s = shm_remote(
		    f->src, bytes, shm_aset_pe(&f->coll.as, r), f->coll.call);

		if (r == 0)
			memcpy(acc, s, bytes);
		else
			f->kernel(acc, s, f->n);
	}
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
	int r;

	for (r = 0; r < f->coll.as.size && bytes > 0; r++) {
		const char *s = shm_remote(
		    f->wrk, bytes, shm_aset_pe(&f->coll.as, r), f->coll.call);

		if (r == 0)
			memcpy(f->dest, s, bytes);
		else
			f->kernel(f->dest, s, f->n);
	}
	shm_coll_leave(&f->coll);
}
