/*
 * gather_shm.c: pvm_gather and pvm_scatter through the group's data
 * segment (gdata.h, moves in coll_shm.c), for a group whose members all
 * live on this host (gpvm_shm_fits; gather.c decides, every member the
 * same from its view).
 *
 * Gather: every other member copies its count elements into its own
 * slot for the root, in chunks of at most GDATA_CHUNK bytes, and returns
 * (as PVM's gather returns once the data is sent); the root copies each
 * member's chunks straight from the member's slot into result[i * count]
 * (one copy in, one out; no message, no pvmd), members in instance order
 * within each chunk, and its own part last.
 *
 * Scatter, the mirror: the root copies member i's slice, chunk by
 * chunk, into the place of its slot that is i's own (gdata.h) and
 * returns once every slice is there, without waiting for the members to
 * take them (as PVM's scatter returns once its messages are sent); it
 * waits for i's place only if i has not yet taken its slice of the
 * root's previous scatter (or the previous chunk).  Each member copies
 * its slice out of its place; the root copies its own slice last.
 *
 * Failures as in coll_shm.c: a member that dies or leaves ends the wait
 * for it with PvmNoTask or PvmMismatch.  The root of a gather still
 * takes what every other member sends before it returns the first error,
 * and the root of a scatter still deposits for every other member;
 * deposits for a member that went are reclaimed by their owner.
 */
#include <string.h>

#include "gpvm.h"
#include "gdata.h"

/* Bytes of chunk ch of member i's part in an array of n-element parts. */
static size_t
gs_offset(const struct gpvm_shm *k, int i, int ch)
{
	return ((size_t)i * (size_t)k->w.count + (size_t)ch * k->per) *
	    k->esize;
}

/* The root of a gather: every member's chunks into result. */
static int
gs_gather_root(struct gpvm_shm *k, const int *tids, int ninst, void *result)
{
	struct gdata_seen seen;
	const void *y;
	int ch, i, n, cc, err = 0, live[GDATA_SLOTS];

	for (i = 0; i < ninst; i++) {
		live[i] = i != k->me;
	}
	for (ch = 0; ch < k->nchunk; ch++) {
		n = gpvm_shm_chunk_len(k, ch);
		for (i = 0; i < ninst; i++) {
			if (!live[i]) {
				continue;
			}
			cc = gpvm_shm_wait(k, i, tids[i], ch, &y, &seen);
			if (cc < 0) {
				live[i] = 0;
				err = err != 0 ? err : cc;
				continue;
			}
			memcpy((char *)result + gs_offset(k, i, ch), y,
			    (size_t)n * k->esize);
			gpvm_shm_done(k, i, &seen);
		}
	}
	return err;
}

int
gpvm_gather_shm(void *result, void *data, int count, int datatype, int tag,
    struct gpvm_view *v, int rootinst)
{
	struct gpvm_shm k;
	int tids[GDATA_SLOTS], ninst = v->ninst, ch, cc;

	memcpy(tids, v->tids, (size_t)ninst * sizeof(int));
	cc = gpvm_shm_begin(&k, v, GDATA_GATHER, tag, datatype, count);
	if (cc < 0) {
		return cc;
	}
	if (k.me != rootinst) {
		for (ch = 0; ch < k.nchunk; ch++) {
			cc = gpvm_shm_put(&k, rootinst, tids[rootinst], ch, 0,
			    (char *)data + gs_offset(&k, 0, ch),
			    gpvm_shm_chunk_len(&k, ch));
			if (cc < 0) {
				return cc;
			}
		}
		return 0;
	}
	cc = gs_gather_root(&k, tids, ninst, result);
	memmove((char *)result + gs_offset(&k, k.me, 0), data,
	    (size_t)count * k.esize);
	return cc;
}

/* The root of a scatter: every other member's slice into its place. */
static int
gs_scatter_root(
    struct gpvm_shm *k, const int *tids, int ninst, const void *data)
{
	int ch, i, cc, err = 0, live[GDATA_SLOTS];

	for (i = 0; i < ninst; i++) {
		live[i] = i != k->me;
	}
	for (ch = 0; ch < k->nchunk; ch++) {
		for (i = 0; i < ninst; i++) {
			if (!live[i]) {
				continue;
			}
			cc = gpvm_shm_put(k, i, tids[i], ch, 0,
			    (const char *)data + gs_offset(k, i, ch),
			    gpvm_shm_chunk_len(k, ch));
			if (cc < 0) {
				live[i] = 0;
				err = err != 0 ? err : cc;
			}
		}
	}
	return err;
}

int
gpvm_scatter_shm(void *result, void *data, int count, int datatype, int tag,
    struct gpvm_view *v, int rootinst)
{
	struct gpvm_shm k;
	struct gdata_seen seen;
	const void *y;
	int tids[GDATA_SLOTS], ninst = v->ninst, ch, cc;

	memcpy(tids, v->tids, (size_t)ninst * sizeof(int));
	cc = gpvm_shm_begin(&k, v, GDATA_SCATTER, tag, datatype, count);
	if (cc < 0) {
		return cc;
	}
	if (k.me == rootinst) {
		cc = gs_scatter_root(&k, tids, ninst, data);
		memmove(result, (char *)data + gs_offset(&k, k.me, 0),
		    (size_t)count * k.esize);
		return cc;
	}
	for (ch = 0; ch < k.nchunk; ch++) {
		cc = gpvm_shm_wait(&k, rootinst, tids[rootinst], ch, &y, &seen);
		if (cc < 0) {
			return cc;
		}
		memcpy((char *)result + gs_offset(&k, 0, ch), y,
		    (size_t)gpvm_shm_chunk_len(&k, ch) * k.esize);
		gpvm_shm_done(&k, rootinst, &seen);
	}
	return 0;
}
