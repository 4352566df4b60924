/*
 * net.c: puts, gets, atomics and slot adds for a PE of another host,
 * as requests to that host's agent (req.h), which does them on its
 * mapping of the target's memory while the target computes.
 *
 * Requests go over a direct route (PvmRouteDirect: task-to-task TCP,
 * no pvmd in the way once it is up), set only around our own sends so
 * that the launch messages to oshrun keep going through the pvmd, whose
 * exit notify must follow them (oshrun.h).  Our messages never touch
 * the program's active send or receive buffers: a private InPlace
 * buffer (no copy of the data before the kernel) and pvm_precv, and
 * they travel in the base context whatever the program set (shm.h).
 *
 * shm_getv sends the requests of many gets before it takes the first
 * answer, so that a collective waits about one round trip, not one per
 * member of another host; each agent answers in order, so the answers
 * are taken in the order of the requests.
 *
 * Puts, non-fetching atomics and strided puts need no answer; the agent
 * is marked pending and shmem_quiet flushes it.  A reply (get, fetch)
 * also shows that every earlier request to that agent is done.  Slot
 * adds are not marked: a barrier quiets before it adds.
 *
 * An agent answers a request it will not do with a refusal (req.h), in
 * the place of that request's replies.  The library checks every
 * argument before it sends, so a refusal means a check missing here or
 * a damaged request; the PE ends the job with the agent's reason, as
 * for a broken rule it finds itself (fatal.c).  A refusal of a request
 * that has no answer (a put) is found at the next reply from that agent
 * (a get, a fetch, quiet, a barrier), or by shm_net_check while the PE
 * waits, so a PE that waits for what the refused put should have
 * caused does not wait for ever.
 */
#include "shm.h"

#include "pvm3.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct shm_agent *
net_agent(int pe)
{
	return &shm.agents[shm.peers[pe].agent];
}

/* A request for `len` bytes at symmetric addr on pe (checked already). */
static void
net_req(struct shm_req *r, int op, const void *addr, size_t len, int pe)
{
	int region;

	memset(r, 0, sizeof(*r));
	r->op = (uint16_t)op;
	r->pe = pe;
	shm_where(addr, len, &region, &r->off);
	r->region = (uint16_t)region;
}

static void
net_send(const struct shm_req *r, const void *data, size_t len,
    const char *call)
{
	struct shm_agent *a = net_agent(r->pe);
	int sb, old, route, ctx, cc;

	if ((sb = pvm_mkbuf(PvmDataInPlace)) < 0)
		shm_fatal(call, "no PVM buffer for a request (%d)", sb);
	old = pvm_setsbuf(sb);
	ctx = shm_ctx_base();
	route = pvm_setopt(PvmRoute, PvmRouteDirect);
	cc = pvm_pkbyte((char *)r, (int)sizeof(*r), 1);
	if (cc >= 0 && len > 0)
		cc = pvm_pkbyte((char *)data, (int)len, 1);
	if (cc >= 0)
		cc = pvm_send(a->tid, SHM_TAG_REQ);
	pvm_setopt(PvmRoute, route);
	pvm_setcontext(ctx);
	pvm_setsbuf(old);
	pvm_freebuf(sb);
	if (cc < 0)
		shm_fatal(call, "cannot reach the agent (t%x) of PE %d's host (%d)",
		    (unsigned)a->tid, r->pe, cc);
}

/* The agent of PE pe's host refused a request of ours: end the job with
 * its text, which precv copied (at most SHM_REFUSED_MAX - 1 of rlen
 * bytes) to text. */
static void
net_refused(int pe, const char *text, int rlen, const char *call)
{
	int n = rlen < 0 ? 0 : rlen;

	if (n > SHM_REFUSED_MAX - 1)
		n = SHM_REFUSED_MAX - 1;
	shm_fatal(call,
	    "the agent (t%x) of PE %d's host refused a request of this PE "
	    "(this call's, or an earlier put's or atomic's): %.*s",
	    (unsigned)net_agent(pe)->tid, pe, n, text);
}

/*
 * Receive the next answer of pe's agent: exactly len bytes of reply into
 * buf, or a refusal.  A short reply goes through small, which has room
 * for a refusal's text; a long one straight into buf, where a refusal's
 * text lands too (the job ends then, so buf's bytes no longer matter).
 */
static void
net_reply(int pe, void *buf, size_t len, const char *call)
{
	struct shm_agent *a = net_agent(pe);
	char small[SHM_REFUSED_MAX];
	char *into = len < sizeof(small) ? small : buf;
	size_t room = len < sizeof(small) ? sizeof(small) : len;
	int rlen = -1, tag = 0, ctx = shm_ctx_base(), cc;

	cc =
	    pvm_precv(a->tid, -1, into, (int)room, PVM_BYTE, NULL, &tag, &rlen);
	pvm_setcontext(ctx);
	if (cc >= 0 && tag == SHM_TAG_REFUSED)
		net_refused(pe, into, rlen, call);
	if (cc < 0 || tag != SHM_TAG_REPLY || rlen != (int)len)
		shm_fatal(call,
		    "no answer from the agent (t%x) of PE %d's host (%d, %d "
		    "bytes for %zu)",
		    (unsigned)a->tid, pe, cc, rlen, len);
	if (into == small && len > 0)
		memcpy(buf, small, len);
	a->pending = 0;
}

/* The agent whose tid is tid, or NULL. */
static const struct shm_agent *
net_agent_of(int tid)
{
	int i;

	for (i = 0; i < shm.nagents; i++)
		if (shm.agents[i].tid == tid)
			return &shm.agents[i];
	return NULL;
}

void
shm_net_check(const char *call)
{
	char text[SHM_REFUSED_MAX];
	const struct shm_agent *a;
	int ctx, bufid, src = 0, rlen = -1;

	if (shm.nagents == 0)
		return;
	ctx = shm_ctx_base();
	bufid = pvm_probe(-1, SHM_TAG_REFUSED);
	if (bufid > 0 && pvm_bufinfo(bufid, NULL, NULL, &src) >= 0 &&
	    pvm_precv(src, SHM_TAG_REFUSED, text, (int)sizeof(text), PVM_BYTE,
	        NULL, NULL, &rlen) >= 0 &&
	    (a = net_agent_of(src)) != NULL)
		net_refused(a->pe, text, rlen, call);
	/* (From a task that is not an agent of ours: taken, ignored.) */
	pvm_setcontext(ctx);
}

void
shm_net_put(void *dest, const void *src, size_t len, int pe, const char *call)
{
	struct shm_req r;
	size_t done, n;

	for (done = 0; done < len; done += n) {
		n = len - done < SHM_REQ_CHUNK ? len - done : SHM_REQ_CHUNK;
		net_req(&r, SHM_OP_PUT, (char *)dest + done, n, pe);
		r.count = n;
		net_send(&r, (const char *)src + done, n, call);
	}
	net_agent(pe)->pending = 1;
}

/* One request, the replies stream back a chunk at a time. */
void
shm_net_get(void *dest, const void *src, size_t len, int pe, const char *call)
{
	struct shm_req r;
	size_t done, n;

	net_req(&r, SHM_OP_GET, src, len, pe);
	r.count = len;
	net_send(&r, NULL, 0, call);
	for (done = 0; done < len; done += n) {
		n = len - done < SHM_REQ_CHUNK ? len - done : SHM_REQ_CHUNK;
		net_reply(pe, (char *)dest + done, n, call);
	}
}

/* Elements per strided request or reply of w-byte elements. */
static size_t
net_per_chunk(size_t w)
{
	return SHM_REQ_CHUNK / w;
}

void
shm_net_iput(char *dest, const char *src, ptrdiff_t dst, ptrdiff_t sst,
    size_t n, size_t w, int pe, const char *call)
{
	size_t i, k, m, per = net_per_chunk(w);
	struct shm_req r;
	char *pack = NULL;

	if (sst != 1 && (pack = malloc((n < per ? n : per) * w)) == NULL)
		shm_fatal(call, "out of memory");
	for (i = 0; i < n; i += m) {
		char *at = dest + i * (size_t)dst * w;

		m = n - i < per ? n - i : per;
		net_req(&r, SHM_OP_IPUT, at, ((m - 1) * (size_t)dst + 1) * w, pe);
		r.count = m;
		r.width = (uint32_t)w;
		r.stride = dst;
		for (k = 0; pack != NULL && k < m; k++)
			memcpy(pack + k * w, src + (i + k) * (size_t)sst * w, w);
		net_send(&r, pack != NULL ? pack : src + i * w, m * w, call);
	}
	free(pack);
	net_agent(pe)->pending = 1;
}

void
shm_net_iget(char *dest, const char *src, ptrdiff_t dst, ptrdiff_t sst,
    size_t n, size_t w, int pe, const char *call)
{
	size_t i, k, m, per = net_per_chunk(w);
	struct shm_req r;
	char *pack = NULL;

	if (dst != 1 && (pack = malloc((n < per ? n : per) * w)) == NULL)
		shm_fatal(call, "out of memory");
	for (i = 0; i < n; i += m) {
		const char *at = src + i * (size_t)sst * w;

		m = n - i < per ? n - i : per;
		net_req(&r, SHM_OP_IGET, at, ((m - 1) * (size_t)sst + 1) * w, pe);
		r.count = m;
		r.width = (uint32_t)w;
		r.stride = sst;
		net_send(&r, NULL, 0, call);
		net_reply(pe, pack != NULL ? pack : dest + i * w, m * w, call);
		for (k = 0; pack != NULL && k < m; k++)
			memcpy(dest + (i + k) * (size_t)dst * w, pack + k * w, w);
	}
	free(pack);
}

void
shm_getv(const struct shm_getv *v, int n, const char *call)
{
	struct shm_req r;
	size_t done, k;
	int i;

	for (i = 0; i < n; i++) {
		const void *p = shm_remote(v[i].src, v[i].len, v[i].pe, call);

		if (p != NULL || v[i].len == 0) {
			if (p != v[i].dest && v[i].len > 0)
				memcpy(v[i].dest, p, v[i].len);
			continue;
		}
		net_req(&r, SHM_OP_GET, v[i].src, v[i].len, v[i].pe);
		r.count = v[i].len;
		net_send(&r, NULL, 0, call);
	}
	for (i = 0; i < n; i++) {
		if (shm_mapped(v[i].pe))
			continue;
		for (done = 0; done < v[i].len; done += k) {
			k = v[i].len - done < SHM_REQ_CHUNK ? v[i].len - done
			                                    : SHM_REQ_CHUNK;
			net_reply(v[i].pe, (char *)v[i].dest + done, k, call);
		}
	}
}

uint64_t
shm_net_amo(void *dest, size_t w, int amo, uint64_t a, uint64_t b, int fetch,
    int pe, const char *call)
{
	struct shm_req r;
	uint64_t old = 0;

	net_req(&r, SHM_OP_AMO, dest, w, pe);
	r.amo = (uint16_t)amo;
	r.fetch = (uint16_t)(fetch != 0);
	r.width = (uint32_t)w;
	r.a = a;
	r.b = b;
	net_send(&r, NULL, 0, call);
	if (fetch)
		net_reply(pe, &old, sizeof(old), call);
	else
		net_agent(pe)->pending = 1;
	return old;
}

void
shm_net_slot(const int32_t *slot, int pe, const char *call)
{
	struct shm_req r;

	net_req(&r, SHM_OP_SLOT, slot, sizeof(*slot), pe);
	net_send(&r, NULL, 0, call);
}

/* Flush every pending agent at once, then take their answers. */
void
shm_net_quiet(void)
{
	struct shm_req r;
	int i;

	for (i = 0; i < shm.nagents; i++) {
		if (!shm.agents[i].pending)
			continue;
		memset(&r, 0, sizeof(r));
		r.op = SHM_OP_FLUSH;
		r.pe = shm.agents[i].pe;
		net_send(&r, NULL, 0, "shmem_quiet");
	}
	for (i = 0; i < shm.nagents; i++)
		if (shm.agents[i].pending)
			net_reply(shm.agents[i].pe, NULL, 0, "shmem_quiet");
}
