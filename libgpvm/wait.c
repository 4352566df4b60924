/*
 * wait.c: failure-aware receives for the group library.
 *
 * A collective waits for a message from one named peer (a tree child, the
 * gather root, the group server).  If that peer dies first, PVM 3.4 waits
 * forever; we return PvmNoTask instead.  The first time we wait on a tid
 * we ask our pvmd for a TaskExit notify on it (tag GS_PEERDEAD, context
 * SYSCTX_DG); the tid then stays "watched", so steady-state waits cost no
 * request to the pvmd.  A notify that arrives is remembered in the same
 * table ("dead"), whichever peer we were waiting for at the time.
 *
 * Only libpvm's public API is used.  The wait installs a private matcher
 * with pvm_recvf (the user's, if any, is put back afterwards) that takes
 * either the wanted message or any exit notify, both in SYSCTX_DG, so the
 * receive blocks in libpvm without polling.  The user's active receive
 * buffer is detached first and restored, so it is neither freed nor
 * replaced.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "gpvm.h"
#include "tid.h"

/* How long to wait for the data of a peer whose exit was reported. */
#define W_GRACE_MS 200

/* Open-addressing set of tids; state per slot. */
#define W_EMPTY 0
#define W_WATCHED 1
#define W_DEAD 2

struct w_slot {
	int tid;
	int state;
};

static struct w_slot *w_tab;
static size_t w_size; /* power of two, or 0 */
static size_t w_used;

/* What the matcher looks for (set around each receive). */
static int w_want_tid;
static int w_want_tag;
static int w_want_notify; /* also accept exit notifies */

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
	free(w_tab);
	w_tab = NULL;
	w_size = 0;
	w_used = 0;
}

int
gpvm_is_dead(int tid)
{
	return w_state(tid) == W_DEAD;
}

/* Ask the pvmd for tid's TaskExit once.  0 or a Pvm* error. */
static int
w_watch(int tid)
{
	int ctx, cc;

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

/* pvm_recvf matcher: the wanted message, or (if asked) an exit notify. */
static int
w_match(int bufid, int tid, int tag)
{
	struct pvmminfo mi;

	(void)tid;
	(void)tag;
	if (pvm_getminfo(bufid, &mi) < 0 || mi.ctx != SYSCTX_DG) {
		return 0;
	}
	if (mi.src == w_want_tid && mi.tag == w_want_tag) {
		return 1;
	}
	return w_want_notify && mi.tag == GS_PEERDEAD &&
	    ((unsigned)mi.src & TID_PVMD_BIT) != 0;
}

/* Swap the receive matcher; returns the previous one. */
static int (*w_setmatcher(int (*f)(int, int, int)))(int, int, int)
{
	/* pvm3.h's odd return type, through the generic function pointer. */
	return (int (*)(int, int, int))(void (*)(void))pvm_recvf(f);
}

/*
 * One receive under our matcher: wait forever (-1), poll (0) or up to
 * timeout_ms.  The user's receive buffer must already be detached.
 */
static int
w_recv(int timeout_ms)
{
	int (*old)(int, int, int);
	struct timeval tv;
	int b;

	old = w_setmatcher(w_match);
	if (timeout_ms < 0) {
		b = pvm_recv(-1, -1);
	} else {
		tv.tv_sec = timeout_ms / 1000;
		tv.tv_usec = (timeout_ms % 1000) * 1000;
		b = pvm_trecv(-1, -1, &tv);
	}
	w_setmatcher(old);
	return b;
}

/* The received buffer b is an exit notify: record the tid, free it. */
static void
w_notify_input(int b)
{
	int dead = 0;

	if (pvm_upkint(&dead, 1, 1) >= 0 && dead != 0) {
		w_set(dead, W_DEAD);
	}
	pvm_freebuf(b);
}

/* Milliseconds on the monotonic clock. */
static long long
w_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
gpvm_trecv_from(int tid, int tag, int timeout_ms)
{
	struct pvmminfo mi;
	long long end = timeout_ms > 0 ? w_now_ms() + timeout_ms : 0;
	int saved, b, cc;

	if (!tid_is_task(tid)) {
		return PvmBadParam;
	}
	if ((cc = w_watch(tid)) < 0) {
		return cc;
	}
	saved = pvm_setrbuf(0);
	w_want_tid = tid;
	w_want_tag = tag;
	for (;;) {
		/*
		 * A dead peer's last message may still be on its way: over a
		 * direct route it does not queue behind the pvmd's notify, so
		 * keep reading for a short grace period before giving up.
		 */
		w_want_notify = !gpvm_is_dead(tid);
		b = w_recv(w_want_notify ? timeout_ms : W_GRACE_MS);
		if (b <= 0) {
			if (b == 0 && !w_want_notify) {
				b = PvmNoTask;
			}
			break;
		}
		if (pvm_getminfo(b, &mi) == 0 && mi.src == tid &&
		    mi.tag == tag) {
			break;
		}
		w_notify_input(b);
		if (timeout_ms > 0 &&
		    (timeout_ms = (int)(end - w_now_ms())) < 1) {
			timeout_ms = 0;
		}
	}
	pvm_setrbuf(saved);
	return b;
}

int
gpvm_recv_from(int tid, int tag)
{
	return gpvm_trecv_from(tid, tag, -1);
}
