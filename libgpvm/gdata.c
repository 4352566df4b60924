/*
 * gdata.c: the per-group data segment of the shared-memory collectives
 * (gdata.h has the protocol).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pvm3.h"
#include "futex.h"
#include "gdata.h"
#include "segfile.h"

/* Reads of a place, or scans of a slot, that its owner changed under us
 * before we give up for now (and look again later). */
#define GD_RETRIES 8

int
gdata_path(const char *dir, uint32_t segid, char *out, size_t outlen)
{
	int n = snprintf(out, outlen, "%s/g%08x.d", dir, (unsigned)segid);

	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

/* The layout a segment must have. */
static int
gd_shape_ok(const struct gdata *d)
{
	return d->magic == GDATA_MAGIC && d->layout == GDATA_LAYOUT &&
	    d->nslots == GDATA_SLOTS && d->chunk == GDATA_CHUNK;
}

struct gdata *
gdata_map(const char *path)
{
	struct gdata *d = segfile_map(path, sizeof(*d));

	if (d != NULL && !gd_shape_ok(d)) {
		munmap(d, sizeof(*d));
		return NULL;
	}
	return d;
}

void
gdata_unmap(struct gdata *d)
{
	if (d != NULL) {
		munmap(d, sizeof(*d));
	}
}

struct gdata *
gdata_create(const char *path)
{
	struct gdata *d = segfile_create(path, sizeof(*d));

	if (d == NULL) {
		return NULL;
	}
	d->layout = GDATA_LAYOUT;
	d->nslots = GDATA_SLOTS;
	d->chunk = GDATA_CHUNK;
	/* Last: a member that maps the file early sees no magic and fails. */
	__atomic_store_n(&d->magic, GDATA_MAGIC, __ATOMIC_RELEASE);
	return d;
}

/* Place i of slot s: a shared one, GDATA_OWN(reader) or GDATA_LONGP. */
static struct gdata_place *
gd_pl(struct gdata_slot *s, int i)
{
	if (i == GDATA_LONGP) {
		return &s->lplace;
	}
	return i < GDATA_DEPTH ? &s->place[i] : &s->own[i - GDATA_DEPTH];
}

static unsigned char *
gd_pdata(struct gdata_slot *s, int i)
{
	if (i == GDATA_LONGP) {
		return s->ldata;
	}
	return i < GDATA_DEPTH ? s->data[i] : s->odata[i - GDATA_DEPTH];
}

/* ---- futex ---- */

void
gdata_sleep_put(struct gdata *d, int c, uint32_t seen, int timeout_ms)
{
	struct gdata_slot *s = &d->slot[c];

	atomic_fetch_add(&s->rsleep, 1);
	if (atomic_load(&s->put) == seen) {
		gpvm_futex_wait(&s->put, seen, timeout_ms);
	}
	atomic_fetch_sub(&s->rsleep, 1);
}

void
gdata_sleep_got(struct gdata *d, int me, uint32_t seen, int timeout_ms)
{
	struct gdata_slot *s = &d->slot[me];

	atomic_fetch_add(&s->wsleep, 1);
	if (atomic_load(&s->got) == seen) {
		gpvm_futex_wait(&s->got, seen, timeout_ms);
	}
	atomic_fetch_sub(&s->wsleep, 1);
}

void
gdata_sleep_own(struct gdata *d, int c, int me, uint32_t seen, int timeout_ms)
{
	struct gdata_place *pl = &d->slot[c].own[me];

	atomic_fetch_add(&pl->nsleep, 1);
	if (atomic_load(&pl->state) == seen) {
		gpvm_futex_wait(&pl->state, seen, timeout_ms);
	}
	atomic_fetch_sub(&pl->nsleep, 1);
}

/* ---- readers ---- */

/* What gd_deposit makes of a deposit, worst to best for the reader. */
#define GD_OTHER 0   /* not for us now (another reader's earlier call...) */
#define GD_PAST 1    /* another reader's, a later call: we get nothing */
#define GD_LATER 2   /* ours, a later call: not now */
#define GD_STALE 3   /* ours, an earlier call, not long: PvmMismatch */
#define GD_WRONG 4   /* ours, this call, but wrong count...: take it */
#define GD_STATUS 5  /* ours, this call, an error status: take it */
#define GD_EXACT 6   /* ours, this call and chunk */

/* Whether deposit h is for reader w at all (to it, same kind of call). */
static int
gd_for(const struct gdata_hdr *h, const struct gdata_want *w)
{
	return h->to == w->me && h->totid == w->metid &&
	    GDATA_FIFO(h->op) == GDATA_FIFO(w->op) &&
	    (!GDATA_FIFO(w->op) || (h->op == w->op && h->tag == w->tag));
}

/* A deposit h, as reader w sees it (GD_OTHER .. GD_EXACT); in the long
 * place (longp) with `filled` chunks written. */
static int
gd_deposit(const struct gdata_hdr *h, const struct gdata_want *w, int longp,
    uint32_t filled)
{
	uint64_t mine = GDATA_ID(w->version, w->call);
	uint64_t theirs = GDATA_ID(h->version, h->call);

	if (!gd_for(h, w)) {
		/* A counted call of another reader's past ours? */
		return !GDATA_FIFO(w->op) && !GDATA_FIFO(h->op) &&
		    theirs > mine ? GD_PAST : GD_OTHER;
	}
	if (!GDATA_FIFO(w->op) && theirs != mine) {
		/* A long deposit of a call that failed at a later chunk stays
		 * until its owner reclaims it (gd_wanted): not a mismatch. */
		return theirs > mine ? GD_LATER : longp ? GD_OTHER : GD_STALE;
	}
	if (h->status < 0) {
		return GD_STATUS;
	}
	if (h->count != w->count || h->tag != w->tag ||
	    h->datatype != w->datatype || h->op != w->op) {
		return GD_WRONG;
	}
	if (longp != (h->chunk == GDATA_WHOLE)) {
		return GD_WRONG; /* only the long place holds a whole part */
	}
	if (longp) {
		if (w->per == 0 || h->nelem != w->per) {
			return GD_WRONG;
		}
		/* Ours; chunk k is there once filled > k. */
		return (uint32_t)w->chunk < filled ? GD_EXACT : GD_OTHER;
	}
	return h->chunk == w->chunk ? GD_EXACT : GD_WRONG;
}

/*
 * Place i of slot s as reader w sees it: gd_deposit's verdict, -1 if
 * empty; *state, *status and *seq receive what was read.
 */
static int
gd_place(struct gdata_slot *s, int i, const struct gdata_want *w,
    uint32_t *state, int *status, uint32_t *seq)
{
	struct gdata_place *pl = gd_pl(s, i);
	struct gdata_hdr h;
	uint32_t st, filled;
	int tries;

	for (tries = 0; tries < GD_RETRIES; tries++) {
		st = atomic_load_explicit(&pl->state, memory_order_acquire);
		if (st % 2 == 0) {
			return -1;
		}
		memcpy(&h, &pl->h, sizeof(h));
		filled = atomic_load_explicit(&pl->filled, memory_order_acquire);
		atomic_thread_fence(memory_order_acquire);
		/* Taken and filled again meanwhile: h may be half done. */
		if (atomic_load_explicit(&pl->state, memory_order_relaxed) ==
		    st) {
			*state = st;
			*status = h.status;
			*seq = h.seq;
			return gd_deposit(&h, w, i == GDATA_LONGP, filled);
		}
	}
	return -1;
}

/* Map the best place verdict v to gdata_look's answer. */
static int
gd_verdict(int v, int status, int *err)
{
	*err = v == GD_STATUS ? status : PvmMismatch;
	if (v == GD_EXACT) {
		*err = 0;
		return GD_READY;
	}
	if (v >= GD_STALE) {
		return GD_FAILED;
	}
	if (v >= GD_PAST) {
		return GD_LOST;
	}
	return GD_WAIT;
}

/* check_gdata builds this file with GDATA_TEST_HOOK, to act as the owner
 * between the reads of two places (a deterministic race). */
#ifdef GDATA_TEST_HOOK
void (*gdata_test_hook)(int place);
#define GD_HOOK(i)                                                             \
	do {                                                                   \
		if (gdata_test_hook != NULL)                                   \
			gdata_test_hook(i);                                    \
	} while (0)
#else
#define GD_HOOK(i) ((void)0)
#endif

/* Where the chunk w wants lies in place i, whose verdict was v. */
static void
gd_where(const struct gdata_want *w, int i, int v, struct gdata_seen *seen)
{
	seen->off = 0;
	seen->last = 1;
	if (i == GDATA_LONGP && v == GD_EXACT) {
		seen->off = (size_t)w->chunk * w->chunkbytes;
		seen->last = (int64_t)(w->chunk + 1) * w->per >= w->count;
	}
}

/*
 * One scan of slot s's places for reader w: the best verdict (a reduce)
 * or the oldest deposit for us (gather; a scatter's reader has only its
 * own place), GD_OTHER if none; seen->place, seen->state, seen->off,
 * seen->last and *status describe it.  A reduce's reader looks at the
 * long place only when its call goes there (w->per): a child's long
 * deposit for a shorter call is then never seen, and the wait for that
 * child ends as GD_LOST once it has finished the call.
 */
static int
gd_scan(struct gdata_slot *s, const struct gdata_want *w,
    struct gdata_seen *seen, int *status)
{
	uint32_t state = 0, seq = 0, bestseq = 0;
	int i, n, v, st, best = GD_OTHER, fifo = GDATA_FIFO(w->op);
	int at[GDATA_DEPTH + 1];

	n = 0;
	if (GDATA_OWNED(w->op)) {
		at[n++] = GDATA_OWN(w->me);
	} else {
		for (i = 0; i < GDATA_DEPTH; i++) {
			at[n++] = i;
		}
		if (!fifo && w->per != 0) {
			at[n++] = GDATA_LONGP;
		}
	}
	seen->place = -1;
	for (int j = 0; j < n; j++) {
		i = at[j];
		v = gd_place(s, i, w, &state, &st, &seq);
		GD_HOOK(i);
		if (fifo ? v > GD_OTHER && (seen->place < 0 ||
		    (int32_t)(seq - bestseq) < 0) : v > best) {
			best = v;
			bestseq = seq;
			*status = st;
			seen->place = i;
			seen->state = state;
			gd_where(w, i, v, seen);
		}
	}
	return best;
}

int
gdata_look(struct gdata *d, int c, const struct gdata_want *w,
    struct gdata_seen *seen, int *err)
{
	struct gdata_slot *s = &d->slot[c];
	uint64_t cur, done, mine = GDATA_ID(w->version, w->call);
	int owner, gone, best, status = 0, tries = 0, v;
	int owned = GDATA_OWNED(w->op);

	if (owned && (w->me < 0 || w->me >= GDATA_SLOTS)) {
		*err = PvmMismatch;
		return GD_LOST;
	}
	/*
	 * Everything read before the places happened before what they
	 * show.  A scan during which the owner made a deposit (put moved)
	 * may have missed an earlier one in a place read before it was
	 * filled, and seen a later one: scan again.  (A scatter's reader
	 * has one place: nothing to miss.)
	 */
	do {
		seen->put = atomic_load(&s->put);
		seen->ostate = owned ? atomic_load(&s->own[w->me].state) : 0;
		owner = atomic_load_explicit(&s->owner, memory_order_acquire);
		gone = atomic_load_explicit(&s->gone, memory_order_relaxed);
		cur = atomic_load_explicit(&s->cur, memory_order_acquire);
		done = atomic_load_explicit(&s->done, memory_order_acquire);
		best = gd_scan(s, w, seen, &status);
	} while (!owned && atomic_load(&s->put) != seen->put &&
	         ++tries < GD_RETRIES);
	if (tries == GD_RETRIES) {
		return GD_WAIT; /* a busy owner: look again soon */
	}
	if ((v = gd_verdict(best, status, err)) != GD_WAIT) {
		return v;
	}
	if (owner != w->tid) {
		*err = owner == 0 && gone < 0 ? gone : PvmMismatch;
		return GD_LOST;
	}
	if (!GDATA_FIFO(w->op) && (cur > mine || done > mine)) {
		/* Done with our call or past it, and nothing here for it. */
		*err = PvmMismatch;
		return GD_LOST;
	}
	return GD_WAIT;
}

const void *
gdata_data(struct gdata *d, int c, const struct gdata_seen *seen)
{
	return gd_pdata(&d->slot[c], seen->place) + seen->off;
}

/* Empty place i of slot s if it is still in state st; wake the owner. */
static void
gd_empty(struct gdata_slot *s, int i, uint32_t st)
{
	if (atomic_compare_exchange_strong(&gd_pl(s, i)->state, &st, st + 1)) {
		atomic_fetch_add(&s->got, 1);
		if (atomic_load(&s->wsleep) != 0) {
			gpvm_futex_wake_all(&s->got);
		}
	}
}

void
gdata_take(struct gdata *d, int c, const struct gdata_seen *seen)
{
	/* A failed swap: the owner reclaimed it first, the same result. */
	if (seen->last) {
		gd_empty(&d->slot[c], seen->place, seen->state);
	}
}

/* ---- owners ---- */

void
gdata_enter(struct gdata *d, int me, uint64_t id)
{
	atomic_store_explicit(&d->slot[me].cur, id, memory_order_release);
}

void
gdata_leave(struct gdata *d, int me, uint64_t id)
{
	atomic_store_explicit(&d->slot[me].done, id + 1, memory_order_release);
}

/* Whether the reader of our deposit h may still take it. */
static int
gd_wanted(struct gdata *d, const struct gdata_hdr *h)
{
	struct gdata_slot *r;
	uint64_t id;

	if (h->to < 0 || h->to >= GDATA_SLOTS) {
		return 0;
	}
	r = &d->slot[h->to];
	id = GDATA_ID(h->version, h->call);
	return atomic_load(&r->owner) == h->totid &&
	    (GDATA_FIFO(h->op) || (atomic_load(&r->cur) <= id &&
	                              atomic_load(&r->done) <= id));
}

int
gdata_put_ready(struct gdata *d, int me, uint32_t *seen)
{
	struct gdata_slot *s = &d->slot[me];
	uint32_t st;
	int i;

	*seen = atomic_load(&s->got);
	for (i = 0; i < GDATA_DEPTH; i++) {
		st = atomic_load_explicit(&s->place[i].state,
		    memory_order_acquire);
		if (st % 2 == 0) {
			return i + 1;
		}
	}
	for (i = 0; i < GDATA_DEPTH; i++) {
		st = atomic_load(&s->place[i].state);
		if (st % 2 == 1 && !gd_wanted(d, &s->place[i].h)) {
			/* Its reader went, or gave that call up. */
			gd_empty(s, i, st);
			return i + 1;
		}
	}
	return 0;
}

int
gdata_put_ready_long(struct gdata *d, int me, uint32_t *seen)
{
	struct gdata_slot *s = &d->slot[me];
	uint32_t st;

	*seen = atomic_load(&s->got);
	st = atomic_load_explicit(&s->lplace.state, memory_order_acquire);
	if (st % 2 == 1 && !gd_wanted(d, &s->lplace.h)) {
		gd_empty(s, GDATA_LONGP, st); /* its reader went or is past it */
		st++;
	}
	return st % 2 == 0 ? GDATA_LONGP + 1 : 0;
}

int
gdata_put_ready_own(struct gdata *d, int me, int to, int totid, uint32_t *seen)
{
	struct gdata_slot *s = &d->slot[me], *r;
	struct gdata_place *pl;
	uint32_t st;
	int owner, gone;

	*seen = atomic_load(&s->got);
	if (to < 0 || to >= GDATA_SLOTS) {
		return PvmMismatch;
	}
	pl = &s->own[to];
	r = &d->slot[to];
	st = atomic_load_explicit(&pl->state, memory_order_acquire);
	if (st % 2 == 1 && !gd_wanted(d, &pl->h)) {
		/* Its reader went: nobody will take it. */
		gd_empty(s, GDATA_OWN(to), st);
		st++;
	}
	if ((owner = atomic_load(&r->owner)) != totid) {
		/* Died (pvmgs wrote why, owner 0) or left. */
		gone = atomic_load(&r->gone);
		return owner == 0 && gone < 0 ? gone : PvmMismatch;
	}
	return st % 2 == 0 ? GDATA_OWN(to) + 1 : 0;
}

struct gdata_hdr *
gdata_put_hdr(struct gdata *d, int me, int place)
{
	return &gd_pl(&d->slot[me], place)->h;
}

void *
gdata_put_data(struct gdata *d, int me, int place)
{
	return gd_pdata(&d->slot[me], place);
}

void
gdata_put(struct gdata *d, int me, int place)
{
	struct gdata_slot *s = &d->slot[me];
	struct gdata_place *pl = gd_pl(s, place);

	pl->h.seq = atomic_load(&s->put);
	atomic_store_explicit(&pl->filled, 1, memory_order_relaxed);
	/* Sequentially consistent, against gdata_sleep_own's nsleep. */
	atomic_fetch_add(&pl->state, 1);
	atomic_fetch_add(&s->put, 1);
	if (place >= GDATA_DEPTH && place != GDATA_LONGP) {
		if (atomic_load(&pl->nsleep) != 0) {
			gpvm_futex_wake_all(&pl->state); /* its one reader */
		}
	} else if (atomic_load(&s->rsleep) != 0) {
		gpvm_futex_wake_all(&s->put);
	}
}

void
gdata_put_more(struct gdata *d, int me, int chunk)
{
	struct gdata_slot *s = &d->slot[me];

	atomic_store_explicit(&s->lplace.filled, (uint32_t)chunk + 1,
	    memory_order_release);
	/* Sequentially consistent, against gdata_sleep_put's rsleep. */
	atomic_fetch_add(&s->put, 1);
	if (atomic_load(&s->rsleep) != 0) {
		gpvm_futex_wake_all(&s->put);
	}
}

/* ---- pvmgs ---- */

void
gdata_member_new(struct gdata *d, int inst, int tid)
{
	struct gdata_slot *s;
	struct gdata_place *pl;
	uint32_t st;
	int i;

	if (inst < 0 || inst >= GDATA_SLOTS) {
		return;
	}
	s = &d->slot[inst];
	atomic_store(&s->owner, 0);
	atomic_store(&s->cur, 0);
	atomic_store(&s->done, 0);
	for (i = 0; i < GDATA_PLACES; i++) {
		pl = gd_pl(s, i);
		st = atomic_load(&pl->state);
		memset(&pl->h, 0, sizeof(pl->h));
		pl->h.to = -1;
		atomic_store(&pl->filled, 0);
		/* Empty (even), and never a state a reader saw full. */
		atomic_store(&pl->state, st + 2 - st % 2);
	}
	atomic_store(&s->gone, 0);
	atomic_store(&s->owner, tid);
	gpvm_futex_wake_all(&s->put);
}

void
gdata_member_gone(struct gdata *d, int inst, int code)
{
	int i;

	if (inst < 0 || inst >= GDATA_SLOTS) {
		return;
	}
	atomic_store(&d->slot[inst].gone, code);
	atomic_store(&d->slot[inst].owner, 0);
	/* Its readers end their waits; owners whose deposit it was to read
	 * reclaim their slots. */
	for (i = 0; i < GDATA_SLOTS; i++) {
		if (atomic_load(&d->slot[i].owner) != 0 || i == inst) {
			gpvm_futex_wake_all(&d->slot[i].put);
			gpvm_futex_wake_all(&d->slot[i].got);
		}
		/* Readers of its scatters, asleep on their own places. */
		if (atomic_load(&d->slot[inst].own[i].nsleep) != 0) {
			gpvm_futex_wake_all(&d->slot[inst].own[i].state);
		}
	}
}
