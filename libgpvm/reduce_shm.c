/*
 * reduce_shm.c: pvm_reduce through the group's data segment (gdata.h),
 * for a group whose members all live on this host.
 *
 * Algorithm.  The members form a k-nomial tree over their instances
 * (gpvm_ktree_build) rooted at the root.  The data is cut into chunks of
 * at most GDATA_CHUNK bytes (whole elements, the same cut everywhere).
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
 * Calls.  A call is named by the view version it was made on and the
 * number of shared-memory collectives this member made on that version
 * before it (gpvm_view.ncalls).  Members that agree on the view (a
 * barrier after every membership change, as PVM requires) agree on the
 * names, so a deposit can never be taken for another call, even with the
 * same tag and a different root.  A deposit of another call, count, tag
 * or datatype is PvmMismatch, never folded.
 *
 * Flow control.  A slot holds GDATA_DEPTH (2) deposits.  A member's
 * next deposit waits while both are untaken (unless their reader went
 * or gave that call up): a member copies chunk k + 1 while its parent
 * folds chunk k, and a member of a small reduce runs at most two calls
 * ahead of its parents.
 *
 * Waits spin (yielding, common/spin.h) while spinning pays, then sleep
 * on the slot's futex word, and every RS_CHECK_MS read pending notifies
 * and pushes: a dead pvmgs is PvmSysErr.  pvmgs marks the slot of a
 * member that dies (PvmNoTask) or leaves (PvmMismatch) and wakes every
 * sleeper, so a wait for it ends with that error.
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
#include "spin.h"

/* How often a sleeping wait checks that pvmgs is still alive. */
#define RS_CHECK_MS 20

/*
 * The selection, from bench/run-reduce.sh (docs/performance-reduce.md,
 * "Selection"): this path at every size (it was faster than the message
 * tree from 1 to 1,048,576 doubles at 2 to 16 tasks), a flat tree up to
 * RS_FLAT_BYTES (the root folds every child: one wake-up level), a
 * binomial one above (interior members fold chunks in parallel).  For
 * experiments and tests only, set alike on every member: GPVM_SHM_MAX
 * (bytes; 0: never this path) and GPVM_SHM_RADIX (the radix at every
 * size).
 */
#define RS_MAX_BYTES ((size_t)1 << 62)
#define RS_FLAT_BYTES ((size_t)2 * GDATA_CHUNK)

/* One call as this member runs it. */
struct rs_call {
	const struct gpvm_reduce *r;
	struct gdata *d;
	struct gdata_want w; /* tid and chunk set per look */
	int me, parent, ptid;
	int hot; /* spin_hot_us(members) != 0 */
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

int
gpvm_reduce_shm_fits(const struct gpvm_view *v, size_t bytes)
{
	static size_t max;
	static int known;
	const char *e;

	if (!known) {
		e = getenv("GPVM_SHM_MAX");
		max = e != NULL ? (size_t)strtoull(e, NULL, 10) : RS_MAX_BYTES;
		known = 1;
	}
	return bytes <= max && v->segid != 0 && v->ninst <= GDATA_SLOTS &&
	    gpvm_view_local(v);
}

/* ---- waits ---- */

/* One look at a child's slot, for spin_wait. */
struct rs_look {
	struct gdata *d;
	int c;
	int hot; /* memory-only spin first (spin_hot_us) */
	const struct gdata_want *w;
	struct gdata_seen seen;
	int err;
};

static int
rs_look_once(void *arg)
{
	struct rs_look *l = arg;

	return gdata_look(l->d, l->c, l->w, &l->seen, &l->err);
}

/* Read notifies and pushes: a dead pvmgs ends every wait. */
static int
rs_server_ok(void)
{
	int cc;

	if ((cc = gpvm_enter()) < 0 || (cc = gpvm_server_check()) < 0) {
		return cc;
	}
	return 0;
}

/* Wait until l's slot has a verdict other than GD_WAIT; return it. */
static int
rs_wait_kid(struct rs_look *l)
{
	static struct spin_budget hot = SPIN_BUDGET_INIT(SPIN_HOT_US);
	static struct spin_budget budget = SPIN_BUDGET_INIT(SPIN_MAX_US);
	int v, cc;

	if ((v = spin_hot(&hot, rs_look_once, l, l->hot)) != GD_WAIT ||
	    (v = spin_wait(&budget, rs_look_once, l)) != GD_WAIT) {
		return v;
	}
	for (;;) {
		if ((v = rs_look_once(l)) != GD_WAIT) {
			return v;
		}
		gdata_sleep_put(l->d, l->c, l->seen.put, RS_CHECK_MS);
		if ((v = rs_look_once(l)) != GD_WAIT) {
			return v;
		}
		if ((cc = rs_server_ok()) < 0) {
			l->err = cc;
			return GD_LOST;
		}
	}
}

/* For spin_wait: may we deposit? */
struct rs_room {
	struct gdata *d;
	int me;
	uint32_t seen;
	int hot;
};

static int
rs_room_once(void *arg)
{
	struct rs_room *m = arg;

	return gdata_put_ready(m->d, m->me, &m->seen);
}

/* Wait for a place in our slot: its index, or PvmSysErr. */
static int
rs_wait_room(struct gdata *d, int me, int hot)
{
	static struct spin_budget hbudget = SPIN_BUDGET_INIT(SPIN_HOT_US);
	static struct spin_budget budget = SPIN_BUDGET_INIT(SPIN_MAX_US);
	struct rs_room m = { d, me, 0, hot };
	int p, cc;

	if ((p = rs_room_once(&m)) != 0 ||
	    (p = spin_hot(&hbudget, rs_room_once, &m, hot)) != 0 ||
	    (p = spin_wait(&budget, rs_room_once, &m)) != 0) {
		return p - 1;
	}
	while ((p = rs_room_once(&m)) == 0) {
		gdata_sleep_got(d, me, m.seen, RS_CHECK_MS);
		if ((p = rs_room_once(&m)) != 0) {
			break;
		}
		if ((cc = rs_server_ok()) < 0) {
			return cc;
		}
	}
	return p - 1;
}

/* ---- one chunk ---- */

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
rs_take_chunk(struct rs_call *k, int chunk, void *x, int n, int err)
{
	struct rs_look l = { k->d, 0, k->hot, &k->w, { 0, 0, 0 }, 0 };
	int i, v, cc;

	k->w.chunk = chunk;
	for (i = 0; i < k->nkids; i++) {
		if (!k->live[i]) {
			continue;
		}
		l.c = k->kid[i];
		k->w.tid = k->kidtid[i];
		v = rs_wait_kid(&l);
		if (v == GD_READY) {
			if (err == 0 && (cc = rs_fold(k->r, x,
			    gdata_data(k->d, l.c, &l.seen), n)) < 0) {
				err = cc;
			}
		} else {
			k->live[i] = 0;
			err = err != 0 ? err : l.err;
		}
		if (v == GD_READY || v == GD_FAILED) {
			gdata_take(k->d, l.c, &l.seen);
		}
	}
	return err;
}

/* Put chunk `chunk` (status 0: n elements at x) in our slot. */
static int
rs_deposit(struct rs_call *k, int chunk, int status, const void *x, int n)
{
	struct gdata_hdr *h;
	int place;

	if ((place = rs_wait_room(k->d, k->me, k->hot)) < 0) {
		return place;
	}
	h = gdata_put_hdr(k->d, k->me, place);
	h->version = k->w.version;
	h->call = k->w.call;
	h->to = k->parent;
	h->totid = k->ptid;
	h->tag = k->r->tag;
	h->status = status;
	h->datatype = k->r->datatype;
	h->count = k->r->count;
	h->chunk = chunk;
	h->nelem = status < 0 ? 0 : n;
	if (status == 0) {
		memcpy(gdata_put_data(k->d, k->me, place), x,
		    (size_t)n * k->r->esize);
	}
	gdata_put(k->d, k->me, place);
	return 0;
}

/* ---- the call ---- */

/* Fill k from view v (copied: a push may change v while we wait). */
static int
rs_begin(struct rs_call *k, const struct gpvm_reduce *r, struct gpvm_view *v,
    int rootinst)
{
	struct gpvm_ktree t;
	int i, cc;

	/* The barrier segment too: its version lets the next call skip a
	 * poll of the pvmd socket (gpvm_view_fast). */
	if ((k->d = gpvm_view_dseg(v)) == NULL || gpvm_view_seg(v) == NULL) {
		return PvmSysErr;
	}
	cc = gpvm_ktree_build(v->tids, v->ninst, rootinst, v->myinst,
	    rs_radix(v->nmembers, (size_t)r->count * r->esize), &t);
	if (cc < 0) {
		return cc;
	}
	k->r = r;
	k->hot = spin_hot_us(v->nmembers) != 0;
	k->me = v->myinst;
	k->parent = t.parent;
	k->ptid = t.parent >= 0 ? v->tids[t.parent] : 0;
	k->nkids = t.nchildren;
	for (i = 0; i < t.nchildren; i++) {
		k->kid[i] = t.children[i];
		k->kidtid[i] = v->tids[t.children[i]];
		k->live[i] = 1;
	}
	memset(&k->w, 0, sizeof(k->w));
	k->w.me = v->myinst;
	k->w.metid = r->me;
	k->w.version = v->version;
	k->w.call = v->ncalls++;
	k->w.tag = r->tag;
	k->w.datatype = r->datatype;
	k->w.count = r->count;
	gdata_enter(k->d, k->me, GDATA_ID(k->w.version, k->w.call));
	return 0;
}

int
gpvm_reduce_shm(const struct gpvm_reduce *r, struct gpvm_view *v,
    int rootinst)
{
	struct rs_call k;
	unsigned char *x;
	int per, nchunk, c, n, cc, err = 0, sent_err = 0;

	if ((cc = rs_begin(&k, r, v, rootinst)) < 0) {
		return cc;
	}
	per = (int)(GDATA_CHUNK / r->esize);
	nchunk = (r->count + per - 1) / per;
	for (c = 0; c < nchunk; c++) {
		x = (unsigned char *)r->data + (size_t)c * per * r->esize;
		n = r->count - c * per < per ? r->count - c * per : per;
		err = rs_take_chunk(&k, c, x, n, err);
		if (k.parent < 0 || sent_err) {
			continue;
		}
		/* An error goes up at once; then we only drain. */
		sent_err = err != 0;
		if ((cc = rs_deposit(&k, c, err, x, n)) < 0) {
			err = err != 0 ? err : cc;
			sent_err = 1;
		}
	}
	return err;
}
