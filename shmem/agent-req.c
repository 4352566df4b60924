/*
 * agent-req.c: the agent's side of req.h.  From the table it maps the
 * memory of every PE of its host, as the PEs do each other's
 * (peermap.c); then each request, once shm_req_check has accepted it, is
 * a copy or a CPU atomic on that mapping, done in arrival order, with no
 * help from the target PE.  Only the job's PEs may ask (their tids are
 * in the table).
 *
 * A request of another task is dropped with a line on stderr (which
 * reaches oshrun): nobody of the job waits for it.  A request of a PE
 * that fails the check is answered with SHM_TAG_REFUSED in place of its
 * replies (req.h): that PE may be waiting for an answer, and it is the
 * one that can name the call that went wrong, so it ends the job, as
 * for any broken rule (fatal.c).  The agent goes on serving the others
 * until oshrun stops it.
 */
#include "agent.h"
#include "shm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"

static int
agent_cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return a < b ? -1 : a > b;
}

/* Map PE pe of our host from its hello; -1 if it cannot be. */
static int
agent_map(struct agent *a, const struct shm_hello *h)
{
	a->data[h->pe] = shm_segment_map_peer(h->pid, h->data_fd, h->data_len);
	a->heap[h->pe] = shm_segment_map_peer(h->pid, h->heap_fd, h->heap_len);
	if (a->data[h->pe] == NULL || a->heap[h->pe] == NULL) {
		fprintf(stderr, "oshrun agent: cannot map the memory of PE %d "
		                "(pid %d)\n",
		    h->pe, h->pid);
		return -1;
	}
	return 0;
}

/* One hello of the table; -1 if it is bad. */
static int
agent_hello(struct agent *a, int i)
{
	struct shm_hello h;

	if (pvm_upkbyte((char *)&h, (int)sizeof(h), 1) < 0 ||
	    h.magic != SHM_HELLO_MAGIC || h.pe != i)
		return -1;
	if (i == 0) {
		a->lim.data_len = h.data_len;
		a->lim.heap_len = h.heap_len;
	} else if (h.data_len != a->lim.data_len ||
	           h.heap_len != a->lim.heap_len) {
		return -1;
	}
	a->tids[i] = h.tid;
	if (pvm_tidtohost(h.tid) != pvm_tidtohost(a->mytid))
		return 0;
	a->local[i] = 1;
	return agent_map(a, &h);
}

int
agent_req_table(struct agent *a)
{
	int n, nag, i;

	if (pvm_upkint(&n, 1, 1) < 0 || n != a->npes ||
	    pvm_upkint(&nag, 1, 1) < 0 || nag < 0 || nag > n + 1)
		goto bad;
	/* The agents' entries: the PEs need them, we do not. */
	for (i = 0; i < nag; i++) {
		struct shm_agent_ent e;

		if (pvm_upkbyte((char *)&e, (int)sizeof(e), 1) < 0)
			goto bad;
	}
	a->local = calloc((size_t)n, 1);
	a->data = calloc((size_t)n, sizeof(*a->data));
	a->heap = calloc((size_t)n, sizeof(*a->heap));
	a->tids = calloc((size_t)n, sizeof(*a->tids));
	if (a->local == NULL || a->data == NULL || a->heap == NULL ||
	    a->tids == NULL)
		goto bad;
	for (i = 0; i < n; i++)
		if (agent_hello(a, i) < 0)
			goto bad;
	qsort(a->tids, (size_t)n, sizeof(*a->tids), agent_cmp_int);
	a->lim.npes = n;
	a->lim.local = a->local;
	a->have_table = 1;
	return 0;
bad:
	fprintf(stderr, "oshrun agent t%x: a bad table from oshrun\n",
	    (unsigned)a->mytid);
	return -1;
}

/* Send a reply to src over a direct route. */
static void
agent_reply(int src, const void *p, size_t len)
{
	int route = pvm_setopt(PvmRoute, PvmRouteDirect);

	pvm_psend(src, SHM_TAG_REPLY, (void *)p, (int)len, PVM_BYTE);
	pvm_setopt(PvmRoute, route);
}

#define AGENT_AMO(T, p, r)                                                     \
	do {                                                                   \
		T *q = (T *)(p), c = (T)(r)->b;                                \
		switch ((r)->amo) {                                            \
		case SHM_AMO_FETCH:                                            \
			return __atomic_load_n(q, __ATOMIC_SEQ_CST);           \
		case SHM_AMO_SET:                                              \
			__atomic_store_n(q, (T)(r)->a, __ATOMIC_SEQ_CST);      \
			return 0;                                              \
		case SHM_AMO_SWAP:                                             \
			return __atomic_exchange_n(                            \
			    q, (T)(r)->a, __ATOMIC_SEQ_CST);                   \
		case SHM_AMO_CSWAP:                                            \
			__atomic_compare_exchange_n(q, &c, (T)(r)->a, 0,       \
			    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);               \
			return c;                                              \
		case SHM_AMO_ADD:                                              \
			return __atomic_fetch_add(                             \
			    q, (T)(r)->a, __ATOMIC_SEQ_CST);                   \
		case SHM_AMO_AND:                                              \
			return __atomic_fetch_and(                             \
			    q, (T)(r)->a, __ATOMIC_SEQ_CST);                   \
		case SHM_AMO_OR:                                               \
			return __atomic_fetch_or(                              \
			    q, (T)(r)->a, __ATOMIC_SEQ_CST);                   \
		default:                                                       \
			return __atomic_fetch_xor(                             \
			    q, (T)(r)->a, __ATOMIC_SEQ_CST);                   \
		}                                                              \
	} while (0)

/* An atomic of 4 or 8 bytes (checked): the old value. */
static uint64_t
agent_amo(char *p, const struct shm_req *r)
{
	if (r->width == 4)
		AGENT_AMO(uint32_t, p, r);
	AGENT_AMO(uint64_t, p, r);
}

/* Strided get: gather and reply a chunk of elements at a time; -1 if
 * there is no memory for the chunk (nothing sent yet). */
static int
agent_iget(const struct shm_req *r, const char *p, int src)
{
	size_t per = SHM_REQ_CHUNK / r->width, i, k, m;
	size_t step = (size_t)r->stride * r->width;
	char *buf = malloc((r->count < per ? r->count : per) * r->width + 1);

	if (buf == NULL)
		return -1;
	for (i = 0; i < r->count; i += m) {
		m = r->count - i < per ? r->count - i : per;
		for (k = 0; k < m; k++)
			memcpy(buf + k * r->width, p + (i + k) * step, r->width);
		agent_reply(src, buf, m * r->width);
	}
	free(buf);
	return 0;
}

/* Answer PE src's request r (NULL: too short to read) with a refusal
 * saying why, in place of its replies (req.h). */
static void
agent_refuse(int src, const struct shm_req *r, const char *why)
{
	char what[SHM_REFUSED_MAX / 2], text[SHM_REFUSED_MAX];
	int route, n;

	if (r != NULL)
		shm_req_name(r, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "a request");
	n = snprintf(text, sizeof(text), "%s: %s", what, why);
	if (n < 0)
		return;
	if (n >= (int)sizeof(text))
		n = (int)sizeof(text) - 1;
	route = pvm_setopt(PvmRoute, PvmRouteDirect);
	pvm_psend(src, SHM_TAG_REFUSED, text, n, PVM_BYTE);
	pvm_setopt(PvmRoute, route);
}

/* Do the accepted request r on p, its target in our mapping; NULL, or
 * why it could not be done. */
static const char *
agent_do(const struct shm_req *r, char *p, int src)
{
	uint64_t old, i, n;
	int32_t was;

	switch (r->op) {
	case SHM_OP_PUT:
		pvm_upkbyte(p, (int)r->count, 1);
		return NULL;
	case SHM_OP_IPUT:
		for (i = 0; i < r->count; i++)
			pvm_upkbyte(p + i * (uint64_t)r->stride * r->width,
			    (int)r->width, 1);
		return NULL;
	case SHM_OP_GET:
		for (i = 0; i < r->count; i += n) {
			n = r->count - i < SHM_REQ_CHUNK ? r->count - i
			                                 : SHM_REQ_CHUNK;
			agent_reply(src, p + i, n);
		}
		return NULL;
	case SHM_OP_IGET:
		return agent_iget(r, p, src) < 0 ? "the agent is out of memory"
		                                 : NULL;
	case SHM_OP_AMO:
		old = agent_amo(p, r);
		if (r->fetch)
			agent_reply(src, &old, sizeof(old));
		return NULL;
	case SHM_OP_SLOT:
		was = __atomic_fetch_add((int32_t *)p, 1, __ATOMIC_SEQ_CST);
		if (was & SHM_SLOT_SLEEP)
			shm_slot_wake((int32_t *)p);
		return NULL;
	default: /* SHM_OP_FLUSH */
		agent_reply(src, NULL, 0);
		return NULL;
	}
}

void
agent_req_serve(struct agent *a, int len, int src)
{
	struct shm_req r;
	const char *why;
	char *base = NULL;

	if (bsearch(&src, a->tids, (size_t)a->npes, sizeof(int),
	        agent_cmp_int) == NULL) {
		agent_drop(a, src, SHM_TAG_REQ, len, "not a PE of this job");
		return;
	}
	if (len < (int)sizeof(r) ||
	    pvm_upkbyte((char *)&r, (int)sizeof(r), 1) < 0) {
		agent_refuse(src, NULL, "shorter than a request");
		return;
	}
	if ((why = shm_req_check(&r, (size_t)len - sizeof(r), &a->lim)) !=
	    NULL) {
		agent_refuse(src, &r, why);
		return;
	}
	if (r.op != SHM_OP_FLUSH)
		base = r.region == SHM_REGION_DATA ? a->data[r.pe]
		                                   : a->heap[r.pe];
	if ((why = agent_do(&r, base != NULL ? base + r.off : NULL, src)) !=
	    NULL)
		agent_refuse(src, &r, why);
}
