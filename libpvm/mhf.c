/*
 * mhf.c: message handlers (pvm_addmhf, pvm_delmhf).
 *
 * When input processing completes a message that matches a handler's
 * (src, tag, ctx) pattern, the message is set aside instead of queued, and
 * the handler runs at the end of that input step, never in the middle of
 * a write and never asynchronously: only while the program is inside a
 * libpvm call, as in PVM.  Around the call the active send and receive
 * buffers and the context are saved and restored; the message is the
 * active receive buffer during the call and is freed afterwards.
 */
#include "pvm3.h"
#include "conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mhf {
	int id;
	int src, tag, ctx; /* -1 = any */
	int (*f)(int);
};

/*
 * Handler ids as PVM 3.4.6 hands them out: its library keeps ids 0-8 for
 * handlers of its own, so a program's first handler is 9; a deleted id
 * is reused before a new one, the last deleted first.
 */
#define MHF_FIRST_ID 9

static struct mhf *mhf_tab;
static int mhf_n, mhf_cap, mhf_nextid = MHF_FIRST_ID;
static int *mhf_freeids; /* a stack of deleted ids */
static int mhf_nfree, mhf_freecap;

/* Messages waiting for their handler, in arrival order (NULL: done). */
static struct lpvm_msg **mhf_pend;
size_t lpvm_mhf_npend;
static size_t mhf_pcap;
static int mhf_running;

int lpvm_mhf_hold;

/* Do two patterns accept a common message?  -1 matches anything. */
static int
mhf_overlap(int s1, int t1, int c1, int s2, int t2, int c2)
{
	return (s1 == -1 || s2 == -1 || s1 == s2) &&
	       (t1 == -1 || t2 == -1 || t1 == t2) &&
	       (c1 == -1 || c2 == -1 || c1 == c2);
}

/* Would the pattern catch libpvm's own task-control messages? */
static int
mhf_overlaps_internal(int tag, int ctx)
{
	return (ctx == -1 || ctx == SYSCTX_TC) &&
	       (tag == -1 || tag == TC_OUTPUT || tag == TC_SIBLINGS ||
	           tag == TC_ROUTE);
}

/* The handler for m, or NULL. */
static struct mhf *
mhf_find(const struct lpvm_msg *m)
{
	int i;

	for (i = 0; i < mhf_n; i++) {
		if ((mhf_tab[i].src == -1 || mhf_tab[i].src == m->src) &&
		    (mhf_tab[i].tag == -1 || mhf_tab[i].tag == m->tag) &&
		    (mhf_tab[i].ctx == -1 || mhf_tab[i].ctx == m->ctx))
			return &mhf_tab[i];
	}
	return NULL;
}

/* The id for a new handler: the last one deleted, else a new one. */
static int
mhf_newid(void)
{
	return mhf_nfree > 0 ? mhf_freeids[--mhf_nfree] : mhf_nextid++;
}

/* Keep a deleted id for reuse; 0 or PvmNoMem. */
static int
mhf_freeid(int id)
{
	int *t, n;

	if (mhf_nfree == mhf_freecap) {
		n = mhf_freecap ? mhf_freecap * 2 : 8;
		if ((t = realloc(mhf_freeids, (size_t)n * sizeof(*t))) == NULL)
			return PvmNoMem;
		mhf_freeids = t;
		mhf_freecap = n;
	}
	mhf_freeids[mhf_nfree++] = id;
	return 0;
}

/*
 * Install f for messages matching (src, tag, ctx); returns its id.  Any
 * src, tag and ctx is taken, -1 being the wildcard, as in PVM 3.4.6;
 * only a missing function is refused (PVM 3.4.6 takes it, and would
 * call it when a message matched).
 */
int
pvm_addmhf(int src, int tag, int ctx, int (*f)(int))
{
	struct mhf *t;
	int i, n;

	if (f == NULL)
		return lpvm_err("pvm_addmhf", PvmBadParam);
	if (mhf_overlaps_internal(tag, ctx))
		return lpvm_err("pvm_addmhf", PvmExists);
	for (i = 0; i < mhf_n; i++) {
		if (mhf_overlap(src, tag, ctx, mhf_tab[i].src, mhf_tab[i].tag,
		        mhf_tab[i].ctx))
			return lpvm_err("pvm_addmhf", PvmExists);
	}
	if (mhf_n == mhf_cap) {
		n = mhf_cap ? mhf_cap * 2 : 8;
		if ((t = realloc(mhf_tab, (size_t)n * sizeof(*t))) == NULL)
			return lpvm_err("pvm_addmhf", PvmNoMem);
		mhf_tab = t;
		mhf_cap = n;
	}
	t = &mhf_tab[mhf_n++];
	t->id = mhf_newid();
	t->src = src;
	t->tag = tag;
	t->ctx = ctx;
	t->f = f;
	return t->id;
}

/* Remove handler id. */
int
pvm_delmhf(int id)
{
	int i;

	if (id < 0)
		return lpvm_err("pvm_delmhf", PvmBadParam);
	for (i = 0; i < mhf_n; i++) {
		if (mhf_tab[i].id == id) {
			if (mhf_freeid(id) < 0)
				return lpvm_err("pvm_delmhf", PvmNoMem);
			memmove(&mhf_tab[i], &mhf_tab[i + 1],
			    (size_t)(mhf_n - i - 1) * sizeof(*mhf_tab));
			mhf_n--;
			return 0;
		}
	}
	return lpvm_err("pvm_delmhf", PvmNotFound);
}

/*
 * Print the handler table on stdout, headed by who and msg: a PVM 3.4
 * internal that its mhf_server example calls (not in pvm3.h).
 */
void pvmdisplaymhfinfo(const char *, const char *, int);

void
pvmdisplaymhfinfo(const char *who, const char *msg, int tid)
{
	char src[16];
	int i;

	if (who == NULL)
		who = "";
	printf("%s: %s\n", who, msg != NULL ? msg : "");
	printf("%s: t%x has %d message handler%s\n", who, (unsigned)tid,
	    mhf_n, mhf_n == 1 ? "" : "s");
	for (i = 0; i < mhf_n; i++) {
		if (mhf_tab[i].src == -1)
			snprintf(src, sizeof(src), "any");
		else
			snprintf(src, sizeof(src), "t%x",
			    (unsigned)mhf_tab[i].src);
		printf("%s:   mhid %d: src %s tag %d ctx %d\n", who,
		    mhf_tab[i].id, src, mhf_tab[i].tag, mhf_tab[i].ctx);
	}
	fflush(stdout);
}

int
lpvm_mhf_take(struct lpvm_msg *m)
{
	struct lpvm_msg **p;
	size_t n;

	if (mhf_n == 0 || mhf_find(m) == NULL)
		return 0;
	if (lpvm_mhf_npend == mhf_pcap) {
		n = mhf_pcap ? mhf_pcap * 2 : 8;
		if ((p = realloc(mhf_pend, n * sizeof(*p))) == NULL)
			return 0; /* queue it instead */
		mhf_pend = p;
		mhf_pcap = n;
	}
	mhf_pend[lpvm_mhf_npend++] = m;
	return 1;
}

/*
 * Call the handler of m with the user's buffers and context saved.  It
 * runs in the message's context (what pvm_getcontext tells it in PVM
 * 3.4.6, and what its sends go out in).
 */
static void
mhf_call(struct mhf *h, struct lpvm_msg *m)
{
	int sbuf = lpvm_sbuf, rbuf = lpvm_rbuf, ctx = lpvm.ctx, id = m->id;
	struct lpvm_want *want = lpvm_rx_want;
	int (*f)(int) = h->f;

	lpvm_sbuf = 0; /* a pvm_initsend in f must not free the user's */
	lpvm_rbuf = id;
	lpvm.ctx = m->ctx;
	m->rpos = 0;
	lpvm_rx_want = NULL; /* f's receives see the queue as it is */
	(void)f(id);
	lpvm_rx_want = want;
	if (lpvm_msg_get(id) == m)
		lpvm_msg_free(m);
	if (lpvm_sbuf != 0 && lpvm_sbuf != sbuf && lpvm_sbuf != rbuf)
		lpvm_msg_free(lpvm_msg_get(lpvm_sbuf));
	lpvm_sbuf = lpvm_msg_get(sbuf) != NULL ? sbuf : 0;
	lpvm_rbuf = lpvm_msg_get(rbuf) != NULL ? rbuf : 0;
	lpvm.ctx = ctx;
}

/*
 * Whether m's handler may run now, before the message a receive returns
 * (arrival number limit): PVM 3.4.6 runs the handlers of messages that
 * came before that one, and leaves later ones for the next call.
 * libgpvm's own handlers (system contexts) always run: its waits learn
 * of deaths and new views through them.
 */
static int
mhf_due(const struct lpvm_msg *m, const struct mhf *h,
    unsigned long long limit)
{
	return m->seq < limit || (h->ctx >= SYSCTX_DG && h->ctx <= SYSCTX_TC);
}

/* Close the gaps that run handlers left in the pending list. */
static void
mhf_compact(void)
{
	size_t i, k = 0;

	for (i = 0; i < lpvm_mhf_npend; i++) {
		if (mhf_pend[i] != NULL)
			mhf_pend[k++] = mhf_pend[i];
	}
	lpvm_mhf_npend = k;
}

void
lpvm_mhf_run_owed(unsigned long long limit)
{
	struct lpvm_msg *m;
	struct mhf *h;
	size_t i;

	if (mhf_running)
		return;
	mhf_running = 1;
	/* A handler may add messages to the list (mhf_pend may move). */
	for (i = 0; i < lpvm_mhf_npend; i++) {
		m = mhf_pend[i];
		if ((h = mhf_find(m)) != NULL && !mhf_due(m, h, limit))
			continue;
		mhf_pend[i] = NULL;
		if (h == NULL)
			lpvm_queue_add(m); /* handler deleted meanwhile */
		else
			mhf_call(h, m);
	}
	mhf_compact();
	mhf_running = 0;
}

int
lpvm_mhf_any(void)
{
	return mhf_n > 0;
}

void
lpvm_mhf_reset(void)
{
	size_t i;

	for (i = 0; i < lpvm_mhf_npend; i++) {
		if (mhf_pend[i] != NULL)
			lpvm_msg_free(mhf_pend[i]);
	}
	lpvm_mhf_npend = 0;
}
