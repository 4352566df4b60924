/*
 * recv.c: the receive queue and pvm_recv, pvm_nrecv, pvm_trecv,
 * pvm_probe, pvm_recvf.
 *
 * Complete messages are appended in arrival order; a receive takes the
 * first one that matches, so messages from one sender come out in the
 * order it sent them.  The queue is singly linked through msg->next; a
 * message is queued iff its next is set or it is the tail.
 *
 * Waiting scans only what arrived since the last scan when nothing was
 * removed meanwhile (q_gen), so a receive for one tag behind many other
 * messages does not rescan the whole queue on every wakeup.
 */
#include "pvm3.h"
#include "clock.h"
#include "conn.h"

#include <limits.h>
#include <stdlib.h>

static struct lpvm_msg *q_head, *q_tail;
static unsigned q_gen; /* bumped whenever a message leaves the queue */

/* The user's matcher (pvm_recvf), or NULL for the default one. */
static int (*recv_matcher)(int, int, int);

struct recv_want {
	int tid;
	int tag;
};

void
lpvm_queue_add(struct lpvm_msg *m)
{
	m->next = NULL;
	if (q_tail != NULL)
		q_tail->next = m;
	else
		q_head = m;
	q_tail = m;
}

/* Take m out of the queue if it is queued (any message may be passed). */
void
lpvm_queue_unlink(struct lpvm_msg *m)
{
	struct lpvm_msg **pp, *prev = NULL;

	if (m == NULL || (m->next == NULL && m != q_tail))
		return;
	for (pp = &q_head; *pp != NULL; prev = *pp, pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			if (q_tail == m)
				q_tail = prev;
			m->next = NULL;
			q_gen++;
			return;
		}
	}
}

void
lpvm_queue_clear(void)
{
	struct lpvm_msg *m;

	while ((m = q_head) != NULL) {
		q_head = m->next;
		m->next = NULL;
		lpvm_msg_free(m);
	}
	q_tail = NULL;
	q_gen++;
}

static struct lpvm_msg *
q_wait(int (*match)(const struct lpvm_msg *, void *), void *arg, int timeout_ms,
    int *err)
{
	struct lpvm_msg *m, *seen = NULL;
	unsigned gen = 0;
	long long end = 0, left;
	int r;

	*err = 0;
	if (timeout_ms > 0)
		end = mono_ms() + timeout_ms;
	for (;;) {
		m = (seen != NULL && gen == q_gen) ? seen->next : q_head;
		for (; m != NULL; m = m->next) {
			if (match(m, arg)) {
				lpvm_queue_unlink(m);
				return m;
			}
			seen = m;
		}
		gen = q_gen;
		left = timeout_ms;
		if (timeout_ms > 0 && (left = end - mono_ms()) <= 0)
			left = 0;
		r = lpvm_pump_for((int)left, match, arg, &m);
		if (m != NULL)
			return m; /* it never went into the queue */
		if (r < 0) {
			*err = r;
			return NULL;
		}
		if (timeout_ms == 0 ||
		    (r == 0 && timeout_ms > 0 && mono_ms() >= end)) {
			/* One last look at what came in, then give up. */
			timeout_ms = 0;
			end = 0;
			m = (seen != NULL && gen == q_gen) ? seen->next
			                                   : q_head;
			for (; m != NULL; m = m->next) {
				if (match(m, arg)) {
					lpvm_queue_unlink(m);
					return m;
				}
			}
			return NULL;
		}
	}
}

/*
 * Handlers of messages that came before m (all if m is NULL) run once a
 * receive knows what it returns, not while it waits: PVM 3.4.6 leaves
 * the handlers of later messages to the next call.  m is out of the
 * queue already, so no handler can take it.
 */
static struct lpvm_msg *
recv_run_handlers(struct lpvm_msg *m, int hold)
{
	lpvm_mhf_hold = hold;
	lpvm_mhf_run_before(m != NULL ? m->seq : LPVM_SEQ_ALL);
	return m;
}

struct lpvm_msg *
lpvm_queue_wait(int (*match)(const struct lpvm_msg *, void *), void *arg,
    int timeout_ms, int *err)
{
	int hold = lpvm_mhf_hold;
	struct lpvm_msg *m;

	lpvm_mhf_hold = 1;
	m = q_wait(match, arg, timeout_ms, err);
	return recv_run_handlers(m, hold);
}

/* PVM's default matcher: source, tag (-1 wildcards) and current context. */
static int
recv_match_default(const struct lpvm_msg *m, void *arg)
{
	const struct recv_want *w = arg;

	return (w->tid == -1 || m->src == w->tid) &&
	       (w->tag == -1 || m->tag == w->tag) &&
	       (m->ctx == lpvm.ctx || lpvm.ctx == -1);
}

/*
 * The message the user's matcher picks: the first one it rates 1, else
 * the highest rated (> 1).  *err gets a negative rating.
 */
static struct lpvm_msg *
recv_find_user(int tid, int tag, int *err)
{
	struct lpvm_msg *m, *best = NULL;
	int r, bestr = 1;

	*err = 0;
	for (m = q_head; m != NULL; m = m->next) {
		r = recv_matcher(m->id, tid, tag);
		if (r < 0) {
			*err = r;
			return NULL;
		}
		if (r == 1)
			return m;
		if (r > bestr) {
			best = m;
			bestr = r;
		}
	}
	return best;
}

/* Wait for a message the user's matcher accepts (timeout as for
 * lpvm_queue_wait). */
static struct lpvm_msg *
recv_wait_user(int tid, int tag, int timeout_ms, int *err)
{
	struct lpvm_msg *m;
	long long end = timeout_ms > 0 ? mono_ms() + timeout_ms : 0;
	long long left;
	int r;

	for (;;) {
		if ((m = recv_find_user(tid, tag, err)) != NULL || *err < 0)
			return m;
		if (timeout_ms == 0)
			r = lpvm_pump(0);
		else if (timeout_ms < 0)
			r = lpvm_pump(-1);
		else {
			if ((left = end - mono_ms()) < 0)
				left = 0;
			r = lpvm_pump((int)left);
		}
		if (r < 0) {
			*err = r;
			return NULL;
		}
		if (timeout_ms == 0 ||
		    (r == 0 && timeout_ms > 0 && mono_ms() >= end))
			return recv_find_user(tid, tag, err);
	}
}

/* Valid source for a receive: -1, a task or a pvmd address. */
static int
recv_tid_ok(int tid)
{
	return tid == -1 || tid_is_task(tid) || tid_is_pvmd(tid);
}

/* The first queued message w (or the user's matcher) takes, or NULL. */
static struct lpvm_msg *
recv_scan(const struct recv_want *w, int *err)
{
	struct lpvm_msg *m;

	*err = 0;
	if (recv_matcher != NULL)
		return recv_find_user(w->tid, w->tag, err);
	for (m = q_head; m != NULL; m = m->next) {
		if (recv_match_default(m, (void *)w))
			return m;
	}
	return NULL;
}

/*
 * pvm_probe: look without taking.  Scan, read what is there, scan again;
 * then run the handlers of what came before the message found (all if
 * none), and scan once more, since a handler may have received it.
 */
static int
recv_look(const struct recv_want *w, struct lpvm_msg **mp)
{
	int hold = lpvm_mhf_hold, rc;

	lpvm_mhf_hold = 1;
	if ((*mp = recv_scan(w, &rc)) == NULL && rc == 0) {
		rc = lpvm_pump(0) < 0 ? PvmSysErr : 0;
		if (rc == 0)
			*mp = recv_scan(w, &rc);
	}
	recv_run_handlers(*mp, hold);
	if (rc < 0)
		return rc;
	*mp = recv_scan(w, &rc);
	return rc;
}

/*
 * The body of every receive call.  consume: take the message and make it
 * the active receive buffer (freeing the previous one first), else just
 * return its id (pvm_probe).  Returns a bufid, 0 if none came in time, or
 * an error.
 */
static int
recv_common(const char *call, int tid, int tag, int timeout_ms, int consume)
{
	struct recv_want w = {tid, tag};
	struct lpvm_msg *m, *old;
	int rc, hold;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err(call, rc);
	/* A reserved (negative) tag only with PvmResvTids: a hoster,
	 * tasker or resource manager waits for its SM_* messages so. */
	if (!recv_tid_ok(tid) || (tag < -1 && !lpvm.resvtids))
		return lpvm_err(call, PvmBadParam);
	if (consume && lpvm_rbuf != 0) {
		old = lpvm_msg_get(lpvm_rbuf);
		lpvm_queue_unlink(old);
		lpvm_msg_free(old);
		lpvm_rbuf = 0;
	}
	if (!consume) {
		if ((rc = recv_look(&w, &m)) < 0)
			return lpvm_err(call, rc);
		return m != NULL ? m->id : 0;
	}
	if (recv_matcher != NULL) {
		hold = lpvm_mhf_hold;
		lpvm_mhf_hold = 1;
		m = recv_wait_user(tid, tag, timeout_ms, &rc);
		if (m != NULL)
			lpvm_queue_unlink(m);
		recv_run_handlers(m, hold);
	} else
		m = lpvm_queue_wait(recv_match_default, &w, timeout_ms, &rc);
	if (rc < 0)
		return lpvm_err(call, rc);
	if (m == NULL)
		return 0;
	lpvm_rbuf = m->id;
	m->rpos = 0;
	return m->id;
}

/* Block until a matching message arrives; it becomes the receive buffer. */
int
pvm_recv(int tid, int tag)
{
	return recv_common("pvm_recv", tid, tag, -1, 1);
}

/* Like pvm_recv but returns 0 at once if nothing matches. */
int
pvm_nrecv(int tid, int tag)
{
	return recv_common("pvm_nrecv", tid, tag, 0, 1);
}

/* Like pvm_recv with a time limit: NULL blocks, {0,0} polls once. */
int
pvm_trecv(int tid, int tag, struct timeval *tmo)
{
	long long ms;

	if (tmo == NULL)
		return recv_common("pvm_trecv", tid, tag, -1, 1);
	if (tmo->tv_sec < 0 || tmo->tv_usec < 0)
		return lpvm_err("pvm_trecv", PvmBadParam);
	ms = (long long)tmo->tv_sec * 1000 + (tmo->tv_usec + 999) / 1000;
	if (ms > INT_MAX)
		ms = INT_MAX;
	return recv_common("pvm_trecv", tid, tag, (int)ms, 1);
}

/* The id of a matching queued message (not taken), or 0. */
int
pvm_probe(int tid, int tag)
{
	return recv_common("pvm_probe", tid, tag, 0, 0);
}

/*
 * The default rule as a matcher a program can hold: pvm_recvf hands it
 * out as the previous matcher (PVM 3.4.6 returns its own, never NULL), and
 * installing it again is the same as installing NULL.
 */
static int
recv_match_builtin(int bufid, int tid, int tag)
{
	struct lpvm_msg *m = lpvm_msg_get(bufid);
	struct recv_want w = {tid, tag};

	return m != NULL && recv_match_default(m, &w);
}

/*
 * Install a matcher for the receive calls (NULL: the default one); returns
 * the previous matcher.  The odd return type is the one pvm3.h declares,
 * kept for source compatibility with PVM 3.4.
 */
int (*pvm_recvf(int (*f)(int, int, int)))(int (*)(int, int, int))
{
	int (*old)(int, int, int) =
	    recv_matcher != NULL ? recv_matcher : recv_match_builtin;

	recv_matcher = f == recv_match_builtin ? NULL : f;
	/* Through void (*)(void), the generic function pointer type. */
	return (int (*)(int (*)(int, int, int)))(void (*)(void))old;
}
