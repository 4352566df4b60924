/*
 * wait.c: failure-aware receives for the group library.
 *
 * A collective waits for a message from one named peer (a tree child, the
 * gather root, the group server).  If that peer dies first, PVM 3.4 waits
 * forever; we return PvmNoTask instead.  The first time we wait on a tid
 * we ask our pvmd for a TaskExit notify on it (tag GS_PEERDEAD, context
 * SYSCTX_DG); the tid then stays "watched", so steady-state waits cost no
 * request to the pvmd.
 *
 * Cost.  Nothing in a collective waits for a go-ahead, so in a loop of
 * reduces the members that run ahead fill our queue with their later
 * messages.  libpvm's queue is one list that a receive scans from its
 * head and unlinks from by a walk from its head: a targeted
 * pvm_recv(tid, tag) then costs O(queue), and measured 90% of the CPU of
 * 20,000 back-to-back 1-double reduces at 8 tasks.  So we always take the
 * head: pvm_recv(-1, -1) in SYSCTX_DG, and a message that is not the one
 * wanted goes to our own stash, a FIFO per (src, tag); a wait looks there
 * first.  Per message: O(1) in libpvm plus a look-up among the (src, tag)
 * pairs in use.  Exit notifies never enter the queue: a message handler
 * (pvm_addmhf) records them in a table as libpvm reads them, so "is this
 * peer dead?" is a table look-up.
 *
 * Waking a blocked wait.  A targeted receive only returns for its
 * (tid, tag).  When the handler learns something that must end the
 * current wait -- the peer died (here), or the collective's group changed
 * in a way that affects the peer (gpvm_wait_view_changed, from the push
 * handler in client.c) -- it posts a wake-up: an empty message sent to
 * ourselves (delivered locally, no I/O) in SYSCTX_DG, so that the
 * pending pvm_recv(-1, -1) returns; the wait recognises it by its buffer
 * id (the header is also rewritten with pvm_setminfo to name the awaited
 * peer), and every wait frees a wake-up it did not consume, so none is
 * ever left in the queue.
 *
 * After the peer's death, its data may still be unread: over a direct
 * route it does not queue behind the pvmd's notify.  But the peer wrote
 * it before it exited, so it is already in our sockets when the notify
 * comes.  So we read on while any of our connections holds bytes libpvm
 * has not read (lpvm_input_pending; not pvm_getfds, whose watch would
 * make every later write into our rings cost its writer a write(2)),
 * then give up: a dead peer costs microseconds, not a fixed grace
 * period.  W_GRACE_MS only bounds that loop (a peer that keeps sending).
 * The same drain runs before a wait ends for a membership change.
 *
 * The user's active receive buffer, context and pvm_recvf matcher are
 * saved and put back around every wait.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpvm.h"
#include "clock.h"
#include "libpvm_private.h"
#include "tid.h"

/* Upper bound on reading input after a peer's death (see above). */
#define W_GRACE_MS 200

/* Open-addressing set of tids; state per slot. */
#define W_EMPTY 0
#define W_WATCHED 1
#define W_DEAD 2

/* Tag of a wake-up (matched by its bufid, not its tag). */
#define W_WAKE_TAG 0

/* Why a wake-up was posted. */
#define W_WHY_DEAD 1
#define W_WHY_VIEW 2

struct w_slot {
	int tid;
	int state;
};

static struct w_slot *w_tab;
static size_t w_size; /* power of two, or 0 */
static size_t w_used;

static int w_mhf = -1; /* our exit-notify handler, -1 if not installed */

/* The wait in progress (w_tid 0: none). */
static int w_tid;     /* peer */
static int w_wake;    /* bufid of a posted wake-up, 0 if none */
static int w_why;     /* W_WHY_* of the last wake-up, 0 if none */
static struct gpvm_coll *w_coll; /* the collective around it, or NULL */

/* Messages taken from libpvm's queue before anyone asked for them. */
struct w_fifo {
	int src, tag;
	int *ids;    /* ring of bufids, oldest at head */
	size_t head, n, cap;
};
static struct w_fifo *w_stash;
static size_t w_nstash, w_capstash;

static void w_stash_clear(void);

/* The slot for tid (empty if absent); w_size > 0. */
static struct w_slot *
w_find(int tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (w_size - 1);

	while (w_tab[i].state != W_EMPTY && w_tab[i].tid != tid) {
		i = (i + 1) & (w_size - 1);
	}
	return &w_tab[i];
}

/* Double the table (or create it).  0 or PvmNoMem. */
static int
w_grow(void)
{
	struct w_slot *old = w_tab, *s;
	size_t oldsize = w_size, i;

	w_size = w_size == 0 ? 64 : w_size * 2;
	if ((w_tab = calloc(w_size, sizeof(*w_tab))) == NULL) {
		w_tab = old;
		w_size = oldsize;
		return PvmNoMem;
	}
	for (i = 0; i < oldsize; i++) {
		if (old[i].state != W_EMPTY) {
			s = w_find(old[i].tid);
			*s = old[i];
		}
	}
	free(old);
	return 0;
}

/* State of tid: W_EMPTY (unknown), W_WATCHED or W_DEAD. */
static int
w_state(int tid)
{
	return w_size == 0 ? W_EMPTY : w_find(tid)->state;
}

/* Record tid's state.  0 or PvmNoMem. */
static int
w_set(int tid, int state)
{
	struct w_slot *s;

	if ((w_used + 1) * 2 > w_size && w_grow() < 0) {
		return PvmNoMem;
	}
	s = w_find(tid);
	if (s->state == W_EMPTY) {
		w_used++;
	}
	s->tid = tid;
	s->state = state;
	return 0;
}

void
gpvm_wait_reset(void)
{
	int autoerr;

	w_stash_clear();
	free(w_tab);
	w_tab = NULL;
	w_size = 0;
	w_used = 0;
	if (w_mhf >= 0) {
		/* Our pvmd's address may differ after a new enrolment. */
		autoerr = pvm_setopt(PvmAutoErr, 0);
		pvm_delmhf(w_mhf);
		pvm_setopt(PvmAutoErr, autoerr);
		w_mhf = -1;
	}
}

/* Whether a TaskExit for tid has been seen (without waiting). */
int
gpvm_peer_dead(int tid)
{
	return w_state(tid) == W_DEAD;
}

/*
 * Post a wake-up for the wait in progress (from a message handler: no
 * active send buffer, our own context is restored afterwards).  It is an
 * empty message to ourselves, rewritten to come from the awaited peer.
 */
static void
w_post_wake(int why)
{
	struct pvmminfo mi;
	int me = pvm_mytid(), b, id;

	w_why = why;
	if (w_tid == 0 || w_wake != 0 || me <= 0) {
		return;
	}
	pvm_setcontext(SYSCTX_DG);
	if ((b = pvm_mkbuf(PvmDataDefault)) < 0) {
		return;
	}
	pvm_setsbuf(b);
	id = pvm_send(me, W_WAKE_TAG) < 0 ? 0 : pvm_probe(me, W_WAKE_TAG);
	pvm_setsbuf(0);
	pvm_freebuf(b);
	if (id > 0 && pvm_getminfo(id, &mi) == 0) {
		mi.src = w_tid;
		if (pvm_setminfo(id, &mi) == 0) {
			w_wake = id;
		}
	}
}

/* Message handler: a TaskExit notify from our pvmd (body: int tid). */
static int
w_on_exit(int mid)
{
	int dead = 0;

	(void)mid;
	if (pvm_upkint(&dead, 1, 1) < 0 || dead == 0) {
		return 0;
	}
	w_set(dead, W_DEAD);
	if (dead == w_tid) {
		w_post_wake(W_WHY_DEAD);
	}
	return 0;
}

/* Install the exit-notify handler once per enrolment.  0 or an error. */
static int
w_install(void)
{
	int me, cc;

	if (w_mhf >= 0) {
		return 0;
	}
	if ((me = pvm_mytid()) < 0) {
		return me;
	}
	/* From our pvmd only (notifies come from TIDPVMD, "my pvmd", as in
	 * PVM): a task's data with this tag is no notify. */
	cc = pvm_addmhf(TID_LOCAL_PVMD, GS_PEERDEAD, SYSCTX_DG, w_on_exit);
	if (cc < 0) {
		return cc;
	}
	w_mhf = cc;
	return 0;
}

/* Ask the pvmd for tid's TaskExit once.  0 or a Pvm* error. */
static int
w_watch(int tid)
{
	int ctx, cc;

	if ((cc = w_install()) < 0) {
		return cc;
	}
	if (w_state(tid) != W_EMPTY) {
		return 0;
	}
	/* The notify comes in the context current at request time. */
	ctx = pvm_setcontext(SYSCTX_DG);
	cc = pvm_notify(PvmTaskExit, GS_PEERDEAD, 1, &tid);
	pvm_setcontext(ctx);
	if (cc < 0) {
		return cc;
	}
	return w_set(tid, W_WATCHED);
}

void
gpvm_coll_begin(struct gpvm_coll *c)
{
	w_coll = c;
}

void
gpvm_coll_end(void)
{
	w_coll = NULL;
}

/* Whether view v of the collective's group no longer lets tid send. */
static int
w_affected(const struct gpvm_view *v, int tid)
{
	return w_coll != NULL && v != NULL &&
	    strcmp(v->name, w_coll->group) == 0 &&
	    v->version != w_coll->version &&
	    w_coll->affected(v, tid, w_coll->arg);
}

void
gpvm_wait_view_changed(const struct gpvm_view *v)
{
	if (w_tid != 0 && w_affected(v, w_tid)) {
		w_post_wake(W_WHY_VIEW);
	}
}

/* The FIFO of stashed messages from src with tag; created if asked. */
static struct w_fifo *
w_fifo(int src, int tag, int create)
{
	struct w_fifo *f;
	size_t i, n;

	for (i = 0; i < w_nstash; i++) {
		if (w_stash[i].src == src && w_stash[i].tag == tag) {
			return &w_stash[i];
		}
	}
	if (!create) {
		return NULL;
	}
	if (w_nstash == w_capstash) {
		n = w_capstash == 0 ? 16 : w_capstash * 2;
		if ((f = realloc(w_stash, n * sizeof(*f))) == NULL) {
			return NULL;
		}
		w_stash = f;
		w_capstash = n;
	}
	f = &w_stash[w_nstash++];
	memset(f, 0, sizeof(*f));
	f->src = src;
	f->tag = tag;
	return f;
}

/* Append message b (from src with tag) to its FIFO.  0 or PvmNoMem. */
static int
w_stash_put(int b, int src, int tag)
{
	struct w_fifo *f;
	size_t i, n;
	int *p;

	if ((f = w_fifo(src, tag, 1)) == NULL) {
		return PvmNoMem;
	}
	if (f->n == f->cap) {
		n = f->cap == 0 ? 8 : f->cap * 2;
		if ((p = malloc(n * sizeof(*p))) == NULL) {
			return PvmNoMem;
		}
		for (i = 0; i < f->n; i++) {
			p[i] = f->ids[(f->head + i) % f->cap];
		}
		free(f->ids);
		f->ids = p;
		f->head = 0;
		f->cap = n;
	}
	f->ids[(f->head + f->n++) % f->cap] = b;
	return 0;
}

/* The oldest stashed message from src with tag, or 0. */
static int
w_stash_take(int src, int tag)
{
	struct w_fifo *f;
	int b;

	if (w_nstash == 0 || (f = w_fifo(src, tag, 0)) == NULL || f->n == 0) {
		return 0;
	}
	b = f->ids[f->head];
	f->head = (f->head + 1) % f->cap;
	f->n--;
	return b;
}

/* Free every stashed message and the stash (our tid changed). */
static void
w_stash_clear(void)
{
	size_t i;
	int b;

	for (i = 0; i < w_nstash; i++) {
		while ((b = w_stash_take(w_stash[i].src, w_stash[i].tag)) > 0) {
			pvm_freebuf(b);
		}
		free(w_stash[i].ids);
	}
	free(w_stash);
	w_stash = NULL;
	w_nstash = w_capstash = 0;
}

/*
 * The next message from tid with tag: from the stash, else from libpvm,
 * waiting up to ms (-1 forever, 0 poll).  Every other message of context
 * SYSCTX_DG met on the way is stashed under its (src, tag), so the
 * receive always takes the head of libpvm's queue (see the top).  A
 * posted wake-up is returned as is.  bufid, 0 (time out) or an error.
 */
static int
w_recv(int tid, int tag, int ms)
{
	struct timeval tv;
	struct pvmminfo mi;
	long long end = ms > 0 ? mono_ms() + ms : 0;
	int b, cc;

	if ((b = w_stash_take(tid, tag)) > 0) {
		return b;
	}
	for (;;) {
		if (ms < 0) {
			b = pvm_recv(-1, -1);
		} else {
			tv.tv_sec = ms / 1000;
			tv.tv_usec = (ms % 1000) * 1000;
			b = pvm_trecv(-1, -1, &tv);
		}
		if (b <= 0 || b == w_wake) {
			return b;
		}
		/* Detach it: the next receive would free the active one. */
		pvm_setrbuf(0);
		if (pvm_getminfo(b, &mi) < 0) {
			return PvmSysErr;
		}
		if (mi.src == tid && mi.tag == tag) {
			return b;
		}
		if (mi.src == tid && tag < 0 && mi.tag < 0) {
			/* A server reply to a request we gave up on. */
			pvm_freebuf(b);
		} else if ((cc = w_stash_put(b, mi.src, mi.tag)) < 0) {
			pvm_freebuf(b);
			return cc;
		}
		if (ms > 0 && (ms = (int)(end - mono_ms())) < 0) {
			ms = 0;
		}
	}
}

/*
 * The wait ends without data (why): read what our sockets still hold, in
 * case the peer's message is among it.  Its bufid if so, else the error.
 */
static int
w_drain(int tid, int tag, int why)
{
	long long end = mono_ms() + W_GRACE_MS;
	int b, last;

	for (;;) {
		last = !lpvm_input_pending() || mono_ms() >= end;
		if ((b = w_recv(tid, tag, 0)) != 0) {
			return b;
		}
		if (last) {
			return why == W_WHY_DEAD ? PvmNoTask : PvmMismatch;
		}
	}
}

/* Why the wait for tid must end now (W_WHY_*), or 0. */
static int
w_must_end(int tid)
{
	if (gpvm_peer_dead(tid)) {
		return W_WHY_DEAD;
	}
	if (w_why == W_WHY_VIEW) {
		return W_WHY_VIEW;
	}
	if (w_coll != NULL &&
	    w_affected(gpvm_view_peek(w_coll->group), tid)) {
		return W_WHY_VIEW;
	}
	return 0;
}

/*
 * The wait proper: user state already saved, context SYSCTX_DG, default
 * matcher.
 */
static int
w_wait(int tid, int tag, int timeout_ms)
{
	long long end = timeout_ms > 0 ? mono_ms() + timeout_ms : 0;
	int b, why;

	for (;;) {
		if ((why = w_must_end(tid)) != 0) {
			b = w_drain(tid, tag, why);
		} else {
			b = w_recv(tid, tag, timeout_ms);
		}
		if (b <= 0 || b != w_wake) {
			return b;
		}
		w_wake = 0;
		pvm_freebuf(b);
		if (timeout_ms > 0 &&
		    (timeout_ms = (int)(end - mono_ms())) < 1) {
			timeout_ms = 0;
		}
	}
}

int
gpvm_trecv_from(int tid, int tag, int timeout_ms)
{
	int (*matcher)(int, int, int);
	int saved, ctx, b, cc;

	if (!tid_is_task(tid)) {
		return PvmBadParam;
	}
	if ((cc = w_watch(tid)) < 0) {
		return cc;
	}
	saved = pvm_setrbuf(0);
	ctx = pvm_setcontext(SYSCTX_DG);
	/* pvm3.h's odd return type, through the generic function pointer. */
	matcher = (int (*)(int, int, int))(void (*)(void))pvm_recvf(NULL);
	w_tid = tid;
	w_wake = 0;
	w_why = 0;
	b = w_wait(tid, tag, timeout_ms);
	if (w_wake != 0) {
		/* Posted, but data came first: take it out of the queue. */
		pvm_freebuf(w_wake);
		w_wake = 0;
	}
	w_tid = 0;
	w_why = 0;
	pvm_recvf(matcher);
	pvm_setcontext(ctx);
	pvm_setrbuf(saved);
	return b;
}

int
gpvm_recv_from(int tid, int tag)
{
	return gpvm_trecv_from(tid, tag, -1);
}
