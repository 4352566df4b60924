/*
 * reduce_shm.c: pvm_reduce through the group's data segment (gdata.h),
 * for a group whose members all live on this host.
 *
 * Algorithm.  The members form a k-nomial tree over their instances
 * (gpvm_ktree_build) rooted at the root.  The data is cut into chunks of
 * at most GDATA_CHUNK bytes (whole elements, the same cut everywhere):
 * one chunk up to GDATA_CHUNK bytes a member, all of them in the slot's
 * long place up to GDATA_LONG (gdata.h), or (only when GPVM_SHM_MAX
 * raised the limit, coll_shm.c) one ordinary place each.
 * For each chunk in order a member waits for that chunk from each child
 * in the tree's fixed child order and folds it into its own data with
 * func(&datatype, mine, theirs, &n, &info), reading the child's slot in
 * place (no copy); then, unless it is the root, it copies the folded
 * chunk into its own slot for its parent.  So every byte is copied once
 * per tree edge and read once by the parent, and no message, system call
 * or pvmd is involved while the members keep up with each other.  A
 * non-root member returns once its last chunk is in its slot, as PVM's
 * reduce returns once the data is sent.
 *
 * Ordering.  Each element is folded as on the message path:
 * x = f(...f(f(mine, child1), child2)..., childc), children in the fixed
 * tree order, whatever the arrival order or chunk size, so results are
 * bit-identical from run to run; with radix 2 the bracketing is the
 * binomial tree's, bit for bit the message path's.
 *
 * Calls, waits and failures: coll_shm.c.
 *
 * Flow control.  A slot holds GDATA_DEPTH (2) deposits and one long
 * one.  A member's next deposit waits while both are untaken (or, for
 * a long call, while its last long one is; unless their reader went or
 * gave that call up): a member copies chunk k + 1 while its parent folds
 * chunk k, and a member runs at most two small calls, or one long call,
 * ahead of its parents.
 *
 * Errors, as on the message path: a user function's *info < 0, a child
 * that died or left, or a mismatch ends this member's part; it deposits
 * the error (a status, no data) for its parent at once, then only takes
 * what its other children still send this call, without folding.  The
 * root returns the first error.
 */
#include <stdlib.h>
#include <string.h>

#include "gpvm.h"
#include "gdata.h"

/*
 * The tree (docs/performance-reduce.md, "Selection"): flat up to
 * RS_FLAT_BYTES (the root folds every child: one level of wake-ups),
 * binomial above (interior members fold chunks in parallel): so a call
 * of one chunk is flat and a long one binomial (at 8 tasks and 65,536
 * doubles the flat tree took 1.5 ms against 0.6-1.3: its root folds every
 * child's 512 KiB alone).  For experiments and
 * tests only, set alike on every member: GPVM_SHM_RADIX (the radix at
 * every size).
 */
#define RS_FLAT_BYTES ((size_t)2 * GDATA_CHUNK)

/* One call as this member runs it. */
struct rs_call {
	struct gpvm_shm k;
	const struct gpvm_reduce *r;
	int parent, ptid; /* -1, 0 at the root */
	int nkids;
	int kid[GPVM_KTREE_MAX], kidtid[GPVM_KTREE_MAX], live[GPVM_KTREE_MAX];
};

/* The tree's radix for a call of `bytes` in a group of n members. */
static int
rs_radix(int n, size_t bytes)
{
	static int env = -1;
	const char *e;

	if (env < 0) {
		e = getenv("GPVM_SHM_RADIX");
		env = e != NULL && atoi(e) >= 2 ? atoi(e) : 0;
	}
	if (env != 0) {
		return env;
	}
	return bytes <= RS_FLAT_BYTES && n > 2 ? n : 2;
}

/* x = f(x, y) over n elements: 0 or the function's *info < 0. */
static int
rs_fold(const struct gpvm_reduce *r, void *x, const void *y, int n)
{
	int dt = r->datatype, info = PvmOk, k = n;

	r->fn(&dt, x, (void *)y, &k, &info);
	return info < 0 ? info : 0;
}

/*
 * Take chunk `chunk` (n elements for x) from every live child in order,
 * folding while err is 0.  Returns the first error met, else err.
 */
static int
rs_take_chunk(struct rs_call *c, int chunk, void *x, int n, int err)
{
	struct gdata_seen seen;
	const void *y;
	int i, cc;

	for (i = 0; i < c->nkids; i++) {
		if (!c->live[i]) {
			continue;
		}
		cc = gpvm_shm_wait(&c->k, c->kid[i], c->kidtid[i], chunk, &y,
		    &seen);
		if (cc < 0) {
			c->live[i] = 0; /* its part of the call has ended */
			err = err != 0 ? err : cc;
			continue;
		}
		if (err == 0 && (cc = rs_fold(c->r, x, y, n)) < 0) {
			err = cc;
		}
		gpvm_shm_done(&c->k, c->kid[i], &seen);
	}
	return err;
}

/* Fill c from view v (copied: a push may change v while we wait). */
static int
rs_begin(struct rs_call *c, const struct gpvm_reduce *r, struct gpvm_view *v,
    int rootinst)
{
	struct gpvm_ktree t;
	int i, cc;

	cc = gpvm_ktree_build(v->tids, v->ninst, rootinst, v->myinst,
	    rs_radix(v->nmembers, (size_t)r->count * r->esize), &t);
	if (cc < 0) {
		return cc;
	}
	c->r = r;
	c->parent = t.parent;
	c->ptid = t.parent >= 0 ? v->tids[t.parent] : 0;
	c->nkids = t.nchildren;
	for (i = 0; i < t.nchildren; i++) {
		c->kid[i] = t.children[i];
		c->kidtid[i] = v->tids[t.children[i]];
		c->live[i] = 1;
	}
	return gpvm_shm_begin(&c->k, v, GDATA_REDUCE, r->tag, r->datatype,
	    r->count);
}

int
gpvm_reduce_shm(const struct gpvm_reduce *r, struct gpvm_view *v,
    int rootinst)
{
	struct rs_call c;
	unsigned char *x;
	int ch, n, cc, err = 0, sent_err = 0;

	if ((cc = rs_begin(&c, r, v, rootinst)) < 0) {
		return cc;
	}
	for (ch = 0; ch < c.k.nchunk; ch++) {
		x = (unsigned char *)r->data + (size_t)ch * c.k.per * r->esize;
		n = gpvm_shm_chunk_len(&c.k, ch);
		err = rs_take_chunk(&c, ch, x, n, err);
		if (c.parent < 0 || sent_err) {
			continue;
		}
		/* An error goes up at once; then we only drain. */
		sent_err = err != 0;
		cc = gpvm_shm_put(&c.k, c.parent, c.ptid, ch, err, x, n);
		if (cc < 0) {
			err = err != 0 ? err : cc;
			sent_err = 1;
		}
	}
	gpvm_shm_end(&c.k);
	return err;
}
