/*
 * coll_shm.c: the moves of the shared-memory collectives, over the
 * group's data segment (gdata.h): begin a call, wait for a member's
 * deposit and take it, make a deposit.  reduce_shm.c (a fan-in tree)
 * and gather_shm.c (all to the root, and the root to all) are built
 * from them.
 *
 * Calls.  A reduce is named by the view version it was made on and the
 * number of shared-memory collectives this member made on that version
 * before it (gpvm_view.ncalls).  Members that agree on the view (a
 * barrier after every membership change, as PVM requires) agree on the
 * names, so a deposit can never be taken for another call, even with the
 * same tag and another root.  A deposit of another call, collective,
 * count, tag or datatype is PvmMismatch, never used.  A gather or a
 * scatter is matched first in first out per (member, tag), as PVM's
 * messages are (gdata.h); a scatter's root deposits into each reader's
 * own place, and waits for it only while the reader has not taken its
 * previous slice.
 *
 * Waits spin on memory alone while the group fits the CPUs and that has
 * paid lately (spin_hot), then yield between looks while that pays
 * (spin_wait, up to SPIN_COLL_MAX_US), then sleep on the slot's futex
 * word, and every SHM_CHECK_MS read pending notifies and pushes: a dead
 * pvmgs is PvmSysErr.  pvmgs marks the slot of a member that dies
 * (PvmNoTask) or leaves (PvmMismatch) and wakes every sleeper, so a wait
 * for it (or, at a scatter's root, for its place) ends with that error.
 */
#include <stdlib.h>
#include <string.h>

#include "gpvm.h"
#include "gdata.h"
#include "spin.h"

/* How often a sleeping wait checks that pvmgs is still alive. */
#define SHM_CHECK_MS 20

/*
 * Largest call (bytes per member) on these paths: what a member can
 * deposit whole, so that a non-root member returns without waiting for
 * its parent, as with PVM's messages (unless its earlier parts are still
 * untaken): one chunk for a gather or a scatter, the long place
 * (GDATA_LONG, in chunks) for a reduce.  Calls in chunks through the
 * ordinary places make a member wait for its parent to take chunk after
 * chunk: a program whose root receives a message from a member before it
 * reduces, while the member reduces before it sends, would deadlock.
 * For experiments and tests only, set alike on every member:
 * GPVM_SHM_MAX (bytes; 0: always the message paths; larger: such
 * chunked calls, binomial above RS_FLAT_BYTES).
 */
#define SHM_MAX_BYTES ((size_t)GDATA_CHUNK)
#define SHM_MAX_REDUCE ((size_t)GDATA_LONG)

int
gpvm_shm_begin(struct gpvm_shm *k, struct gpvm_view *v, int op, int tag,
    int datatype, int count)
{
	/* The barrier segment too: its version lets the next call skip a
	 * poll of the pvmd socket (gpvm_view_fast). */
	if ((k->d = gpvm_view_dseg(v)) == NULL || gpvm_view_seg(v) == NULL) {
		return PvmSysErr;
	}
	k->hot = spin_hot_us(v->nmembers) != 0;
	k->me = v->myinst;
	k->esize = gpvm_type_size(datatype);
	k->per = (int)(GDATA_CHUNK / k->esize);
	k->nchunk = (count + k->per - 1) / k->per;
	memset(&k->w, 0, sizeof(k->w));
	if (op == GDATA_REDUCE && k->nchunk > 1 &&
	    (size_t)count * k->esize <= GDATA_LONG) {
		/* A reduce's part in the long place (gdata.h) */
		k->w.per = k->per;
		k->w.chunkbytes = (size_t)k->per * k->esize;
	}
	k->w.me = v->myinst;
	k->w.metid = v->tids[v->myinst];
	k->w.op = op;
	k->w.tag = tag;
	k->w.datatype = datatype;
	k->w.count = count;
	if (GDATA_FIFO(op)) {
		return 0; /* matched first in first out: not counted */
	}
	k->w.version = v->version;
	k->w.call = v->ncalls++;
	gdata_enter(k->d, k->me, GDATA_ID(k->w.version, k->w.call));
	return 0;
}

void
gpvm_shm_end(struct gpvm_shm *k)
{
	if (!GDATA_FIFO(k->w.op)) {
		gdata_leave(k->d, k->me, GDATA_ID(k->w.version, k->w.call));
	}
}

int
gpvm_shm_chunk_len(const struct gpvm_shm *k, int chunk)
{
	int left = k->w.count - chunk * k->per;

	return left < k->per ? left : k->per;
}

/* Read notifies and pushes: a dead pvmgs ends every wait. */
static int
shm_server_ok(void)
{
	int cc;

	if ((cc = gpvm_enter()) < 0 || (cc = gpvm_server_check()) < 0) {
		return cc;
	}
	return 0;
}

/* One look at a member's slot, for the spins. */
struct shm_look {
	struct gdata *d;
	int c;
	const struct gdata_want *w;
	struct gdata_seen *seen;
	int err;
};

static int
shm_look_once(void *arg)
{
	struct shm_look *l = arg;

	return gdata_look(l->d, l->c, l->w, l->seen, &l->err);
}

/* Wait until l's slot has a verdict other than GD_WAIT; return it. */
static int
shm_wait_look(struct shm_look *l, int hot)
{
	static struct spin_budget hbudget = SPIN_BUDGET_INIT(SPIN_HOT_US);
	static struct spin_budget budget = SPIN_BUDGET_INIT(SPIN_COLL_MAX_US);
	int v, cc;

	spin_window_update(&hbudget, &budget);
	if ((v = shm_look_once(l)) != GD_WAIT ||
	    (v = spin_hot(&hbudget, shm_look_once, l, hot)) != GD_WAIT ||
	    (v = spin_wait(&budget, shm_look_once, l)) != GD_WAIT) {
		return v;
	}
	for (;;) {
		if (GDATA_OWNED(l->w->op)) {
			gdata_sleep_own(l->d, l->c, l->w->me, l->seen->ostate,
			    SHM_CHECK_MS);
		} else {
			gdata_sleep_put(l->d, l->c, l->seen->put, SHM_CHECK_MS);
		}
		if ((v = shm_look_once(l)) != GD_WAIT) {
			return v;
		}
		if ((cc = shm_server_ok()) < 0) {
			l->err = cc;
			return GD_LOST;
		}
	}
}

int
gpvm_shm_wait(struct gpvm_shm *k, int from, int fromtid, int chunk,
    const void **data, struct gdata_seen *seen)
{
	struct shm_look l = { k->d, from, &k->w, seen, 0 };
	int v;

	k->w.tid = fromtid;
	k->w.chunk = chunk;
	if ((v = shm_wait_look(&l, k->hot)) == GD_READY) {
		*data = gdata_data(k->d, from, seen);
		return 0;
	}
	if (v == GD_FAILED) {
		gdata_take(k->d, from, seen);
	}
	return l.err < 0 ? l.err : PvmMismatch;
}

void
gpvm_shm_done(struct gpvm_shm *k, int from, const struct gdata_seen *seen)
{
	gdata_take(k->d, from, seen);
}

/* For the spins: a place we may fill (for reader `to` alone when
 * owned; the long place when lng), + 1, or an error. */
struct shm_room {
	struct gdata *d;
	int me, owned, lng, to, totid;
	uint32_t seen;
};

static int
shm_room_once(void *arg)
{
	struct shm_room *m = arg;

	if (m->lng) {
		return gdata_put_ready_long(m->d, m->me, &m->seen);
	}
	if (m->owned) {
		return gdata_put_ready_own(
		    m->d, m->me, m->to, m->totid, &m->seen);
	}
	return gdata_put_ready(m->d, m->me, &m->seen);
}

/* Wait for m's place: its index, or an error (the reader went, pvmgs
 * died). */
static int
shm_wait_room(struct shm_room *m, int hot)
{
	static struct spin_budget hbudget = SPIN_BUDGET_INIT(SPIN_HOT_US);
	static struct spin_budget budget = SPIN_BUDGET_INIT(SPIN_COLL_MAX_US);
	int p, cc;

	spin_window_update(&hbudget, &budget);
	if ((p = shm_room_once(m)) != 0 ||
	    (p = spin_hot(&hbudget, shm_room_once, m, hot)) != 0 ||
	    (p = spin_wait(&budget, shm_room_once, m)) != 0) {
		return p > 0 ? p - 1 : p;
	}
	for (;;) {
		gdata_sleep_got(m->d, m->me, m->seen, SHM_CHECK_MS);
		if ((p = shm_room_once(m)) != 0) {
			return p > 0 ? p - 1 : p;
		}
		if ((cc = shm_server_ok()) < 0) {
			return cc;
		}
	}
}

/* Chunk `chunk` > 0 of a long deposit, behind the ones before it. */
static void
shm_put_more(struct gpvm_shm *k, int chunk, const void *x, int n)
{
	unsigned char *at = gdata_put_data(k->d, k->me, GDATA_LONGP);

	memcpy(at + (size_t)chunk * k->w.chunkbytes, x, (size_t)n * k->esize);
	gdata_put_more(k->d, k->me, chunk);
}

int
gpvm_shm_put(struct gpvm_shm *k, int to, int totid, int chunk, int status,
    const void *x, int n)
{
	int lng = k->w.per != 0 && status == 0; /* in the long place */
	struct shm_room m = {
	    k->d, k->me, GDATA_OWNED(k->w.op), lng, to, totid, 0};
	struct gdata_hdr *h;
	int place;

	if (lng && chunk > 0) {
		shm_put_more(k, chunk, x, n);
		return 0;
	}
	if ((place = shm_wait_room(&m, k->hot)) < 0) {
		return place;
	}
	h = gdata_put_hdr(k->d, k->me, place);
	h->version = k->w.version;
	h->call = k->w.call;
	h->to = to;
	h->totid = totid;
	h->tag = k->w.tag;
	h->status = status;
	h->datatype = k->w.datatype;
	h->count = k->w.count;
	h->chunk = lng ? GDATA_WHOLE : chunk;
	h->nelem = lng ? k->per : status < 0 ? 0 : n;
	h->op = k->w.op;
	if (status == 0 && n > 0) {
		memcpy(gdata_put_data(k->d, k->me, place), x,
		    (size_t)n * k->esize);
	}
	gdata_put(k->d, k->me, place);
	return 0;
}

int
gpvm_shm_fits(const struct gpvm_view *v, int op, size_t bytes)
{
	static size_t env;
	static int known, set;
	const char *e;
	size_t max;

	if (!known) {
		e = getenv("GPVM_SHM_MAX");
		set = e != NULL;
		env = set ? (size_t)strtoull(e, NULL, 10) : 0;
		known = 1;
	}
	max = set ? env : op == GDATA_REDUCE ? SHM_MAX_REDUCE : SHM_MAX_BYTES;
	return bytes <= max && v->segid != 0 && v->ninst <= GDATA_SLOTS &&
	    v->nmembers > 1 && gpvm_view_local(v);
}
