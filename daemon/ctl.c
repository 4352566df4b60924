/*
 * ctl.c: control messages addressed to this pvmd.  The dispatch table is
 * built from WIRE_TM_LIST (one handler ctl_TM_<name> per request, in
 * whichever file owns the subject); this file holds the dispatcher, the
 * reply helpers and the small host-level requests.
 */
#include "pvmd.h"
#include "be.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

typedef void ctl_fn(struct ctlreq *q);

#define CTL_ENTRY(name, num, text) [num] = ctl_##name,
static ctl_fn *const ctl_table[WIRE_TM_COUNT + 1] = {WIRE_TM_LIST(CTL_ENTRY)};
#undef CTL_ENTRY

/*
 * Requests a task of another host may send us (wire.h: the ones about
 * this host, and the mailbox and host changes on the master).  The rest
 * act on the requester's own connection or pvmd.
 */
static const unsigned char ctl_remote_ok[WIRE_TM_COUNT + 1] = {
    [TM_TASKS & 0xffff] = 1,
    [TM_SPAWN & 0xffff] = 1,
    [TM_SENDSIG & 0xffff] = 1,
    [TM_PSTAT & 0xffff] = 1,
    [TM_HOSTSYNC & 0xffff] = 1,
    [TM_CONFIG & 0xffff] = 1,
    [TM_MSTAT & 0xffff] = 1,
    [TM_MB_PUT & 0xffff] = 1,
    [TM_MB_GET & 0xffff] = 1,
    [TM_MB_DEL & 0xffff] = 1,
    [TM_MB_LIST & 0xffff] = 1,
    [TM_ADDHOST & 0xffff] = 1,
    [TM_DELHOST & 0xffff] = 1,
    [TM_TRACER & 0xffff] = 1,
};

/* A request from src (task t, if of this host) on c, to be answered. */
static void
ctl_req_init(struct ctlreq *q, struct conn *c, struct task *t, int src,
    const struct wire_hdr *h, const uint8_t *body, size_t len)
{
	memset(q, 0, sizeof(*q));
	q->c = c;
	q->t = t;
	q->src = src;
	q->tag = h->tag;
	q->wid = h->wid;
	xdr_reader_init(&q->r, body, len);
}

/* A request from a task of another host, through link c. */
void
ctl_dispatch_remote(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len)
{
	struct ctlreq q;
	int i = wire_tm_index(h->tag);

	if (sm_is_tag(h->tag)) {
		sched_dispatch(c, h->src, h, body, len);
		return;
	}
	if (i == 0 || !tid_is_task(h->src)) {
		log_warn("t%x: control tag 0x%x from another host ignored",
		    (unsigned)h->src, (unsigned)h->tag);
		return;
	}
	ctl_req_init(&q, c, NULL, h->src, h, body, len);
	if (!ctl_remote_ok[i]) {
		log_warn("t%x: %s is for the task's own pvmd", (unsigned)h->src,
		    wire_tag_name(h->tag));
		ctl_reply_int(&q, PvmBadParam);
		return;
	}
	log_debug("t%x: %s from another host (%zu bytes)", (unsigned)q.src,
	    wire_tag_name(h->tag), len);
	ctl_table[i](&q);
}

/* Route one reassembled control message to its handler. */
void
ctl_dispatch(struct conn *c, struct task *t, const struct wire_hdr *h,
    const uint8_t *body, size_t len)
{
	struct ctlreq q;
	int i = wire_tm_index(h->tag);

	if (t != NULL && sm_is_tag(h->tag)) {
		sm_dispatch(c, t, h, body, len);
		return;
	}
	if (i == 0 || ctl_table[i] == NULL) {
		log_warn("t%x: unknown control tag 0x%x ignored",
		    (unsigned)h->src, (unsigned)h->tag);
		return;
	}
	if (t == NULL && h->tag != TM_CONNECT) {
		log_warn("control %s from a connection without a task ignored",
		    wire_tag_name(h->tag));
		return;
	}
	ctl_req_init(&q, c, t, t != NULL ? t->tid : 0, h, body, len);
	log_debug(
	    "t%x: %s (%zu bytes)", (unsigned)q.src, wire_tag_name(h->tag), len);
	ctl_table[i](&q);
}

/* Reply to a request: same tag and wid, SYSCTX_TM, from this pvmd. */
void
ctl_reply(const struct ctlreq *q, const struct xdr_writer *w)
{
	if (w->failed) {
		log_warn("t%x: out of memory building a %s reply",
		    (unsigned)q->src, wire_tag_name(q->tag));
		ctl_reply_int(q, PvmNoMem);
		return;
	}
	conn_send(q->c, pvmd.mytid, q->src, q->tag, SYSCTX_TM, q->wid,
	    WIRE_ENC_XDR, w->data, w->len);
}

/* Reply with a single int. */
void
ctl_reply_int(const struct ctlreq *q, int v)
{
	uint8_t b[4];

	put32(b, (uint32_t)v);
	conn_send(q->c, pvmd.mytid, q->src, q->tag, SYSCTX_TM, q->wid,
	    WIRE_ENC_XDR, b, sizeof(b));
}

/* A request body that does not decode. */
void
ctl_bad(const struct ctlreq *q)
{
	log_warn("t%x: malformed %s request", (unsigned)q->src,
	    wire_tag_name(q->tag));
	ctl_reply_int(q, PvmBadMsg);
}

/* Send a message from this pvmd to tid; silently dropped if unreachable. */
void
pvmd_send_raw(
    int dst, int tag, int ctx, int wid, int enc, const void *body, size_t len)
{
	pvmd_send_from(pvmd.mytid, dst, tag, ctx, wid, enc, body, len);
}

/* The same with source src: this pvmd's tid, or TID_LOCAL_PVMD (notify). */
void
pvmd_send_from(int src, int dst, int tag, int ctx, int wid, int enc,
    const void *body, size_t len)
{
	struct task *t;
	struct host *hp;
	int host;

	switch (route_decide(dst, 0, pvmd.host, &host)) {
	case ROUTE_TASK:
		if ((t = task_find(&pvmd.tasks, dst)) != NULL) {
			conn_send_task(t, src, tag, ctx, wid, enc, body, len);
			return;
		}
		break;
	case ROUTE_PEER:
		/* Across a link only our own tid is a valid source. */
		if ((hp = host_get(host)) != NULL && hp->link != NULL) {
			conn_send(hp->link, pvmd.mytid, dst, tag, ctx, wid, enc,
			    body, len);
			return;
		}
		break;
	default:
		break;
	}
	log_debug("message tag 0x%x to t%x dropped: unreachable", (unsigned)tag,
	    (unsigned)dst);
}

/* Send a message whose XDR body is one int from this pvmd to dst. */
void
pvmd_send_int(int dst, int tag, int ctx, int wid, int v)
{
	pvmd_send_int_from(pvmd.mytid, dst, tag, ctx, wid, v);
}

/* The same with source src (see pvmd_send_from). */
void
pvmd_send_int_from(int src, int dst, int tag, int ctx, int wid, int v)
{
	uint8_t b[4];

	put32(b, (uint32_t)v);
	pvmd_send_from(src, dst, tag, ctx, wid, WIRE_ENC_XDR, b, sizeof(b));
}

/* Send an XDR body from this pvmd to tid. */
void
pvmd_send(int dst, int tag, int ctx, int wid, const struct xdr_writer *w)
{
	if (w->failed) {
		log_warn("out of memory: message to t%x lost", (unsigned)dst);
		return;
	}
	pvmd_send_raw(dst, tag, ctx, wid, WIRE_ENC_XDR, w->data, w->len);
}

/* TM_CONFIG: the host table. */
void
ctl_TM_CONFIG(struct ctlreq *q)
{
	struct xdr_writer w;
	struct host *hp;
	int i;

	xdr_writer_init(&w);
	xdr_put_int(&w, host_count());
	xdr_put_int(&w, host_narch());
	for (i = 1; i <= TID_HOST_MAX; i++) {
		if ((hp = host_get(i)) == NULL)
			continue;
		xdr_put_int(&w, tid_make(hp->index, 0));
		xdr_put_str(&w, hp->name);
		xdr_put_str(&w, hp->arch);
		xdr_put_int(&w, hp->speed);
		xdr_put_int(&w, hp->dsig);
	}
	xdr_put_int(&w, pvmd.spawn_cursor);
	ctl_reply(q, &w);
	xdr_writer_free(&w);
}

/* TM_SPAWNCUR: where this host's next spread of tasks starts. */
void
ctl_TM_SPAWNCUR(struct ctlreq *q)
{
	int32_t host = 0;

	if (xdr_get_int(&q->r, &host) < 0 || host < 1 || host > TID_HOST_MAX) {
		ctl_bad(q);
		return;
	}
	pvmd.spawn_cursor = host;
	ctl_reply_int(q, 0);
}

/* TM_MSTAT: is this host part of the machine. */
void
ctl_TM_MSTAT(struct ctlreq *q)
{
	const char *name = xdr_get_str(&q->r);

	if (name == NULL) {
		ctl_bad(q);
		return;
	}
	ctl_reply_int(q, host_find_name(name) != NULL ? PvmOk : PvmNoHost);
}

/* TM_HOSTSYNC: our clock. */
void
ctl_TM_HOSTSYNC(struct ctlreq *q)
{
	struct xdr_writer w;
	struct timeval tv;

	gettimeofday(&tv, NULL);
	xdr_writer_init(&w);
	xdr_put_int(&w, (int32_t)tv.tv_sec);
	xdr_put_int(&w, (int32_t)tv.tv_usec);
	ctl_reply(q, &w);
	xdr_writer_free(&w);
}

/*
 * TM_HALT: answer, then end the whole machine.  The caller is spared and
 * keeps its connection: it returns from pvm_halt when the connection
 * closes, which is when this pvmd exits, after every other pvmd did.
 */
void
ctl_TM_HALT(struct ctlreq *q)
{
	ctl_reply_int(q, 0);
	log_info("halt requested by t%x", (unsigned)q->src);
	halt_machine(q->src, "pvm_halt");
}

/* TM_CTX_NEW: a fresh context owned by the caller. */
void
ctl_TM_CTX_NEW(struct ctlreq *q)
{
	ctl_reply_int(q, ctx_new(&pvmd.ctxs, q->src));
}

/* TM_CTX_FREE: give one back (only the owner may). */
void
ctl_TM_CTX_FREE(struct ctlreq *q)
{
	int32_t ctx;

	if (xdr_get_int(&q->r, &ctx) != 0) {
		ctl_bad(q);
		return;
	}
	ctl_reply_int(q, ctx_free(&pvmd.ctxs, q->src, ctx));
}

/* TM_MCAST: the destinations of the caller's next multicast message. */
void
ctl_TM_MCAST(struct ctlreq *q)
{
	int32_t n, i, tid;
	int *v;

	if (xdr_get_int(&q->r, &n) != 0 || n < 0 ||
	    (size_t)n > xdr_left(&q->r) / 4) {
		log_warn("t%x: malformed mcast list", (unsigned)q->src);
		return;
	}
	if ((v = calloc((size_t)n + 1, sizeof(*v))) == NULL) {
		log_warn("t%x: out of memory for mcast list", (unsigned)q->src);
		conn_set_mcast(q->c, NULL, 0);
		return;
	}
	for (i = 0; i < n; i++) {
		if (xdr_get_int(&q->r, &tid) != 0)
			break; /* cannot happen: n was checked against the bytes */
		v[i] = tid;
	}
	conn_set_mcast(q->c, v, i);
}

/* TM_SETOUT: where the caller's own stdout/stderr goes. */
void
ctl_TM_SETOUT(struct ctlreq *q)
{
	int32_t tid, ctx, tag;

	if (xdr_get_int(&q->r, &tid) != 0 || xdr_get_int(&q->r, &ctx) != 0 ||
	    xdr_get_int(&q->r, &tag) != 0) {
		log_warn("t%x: malformed setout", (unsigned)q->src);
		return;
	}
	/* The task's inherited out* (for its own children) stay as is. */
	if (q->t->child != NULL)
		output_redirect(q->t->child, tid, ctx, tag);
}
