/*
 * conn.c: task connections.  One struct conn per accepted socket: an
 * input and an output evbuffer and two plain events (read, write).
 *
 * The I/O is done here rather than by a bufferevent because the daemon
 * is on the path of every message and each system call and loop turn
 * shows in the latency: libevent 2.1's evbuffer_read asks FIONREAD first
 * and reads at most 4 KiB, and a bufferevent writes only on the loop turn
 * after the data was queued.  Here one read is one readv, and output is
 * written as soon as the callback that queued it returns (conn_flush_ev):
 * an 8-byte message costs the pvmd epoll_wait, readv and writev.  The
 * write event is armed only while output is left over.
 *
 * Framing: a frame is handled only once it is complete in the input
 * buffer.  Reads stop at CONN_READ_HIGH buffered bytes (header +
 * WIRE_FRAME_MAX), so a 2^63 length or a half frame never grows memory.
 * Inside a large frame a read asks for exactly the rest of it, so frame
 * bodies end on chain boundaries and forwarding moves whole chains.
 *
 * Forwarding moves the body from the sender's input to the receiver's
 * output with evbuffer_remove_buffer (no copy of large bodies, no
 * parsing) after a fresh header.  Back-pressure: a sender whose receiver
 * has more than CONN_HIGH_WATER queued stops being read (its frame stays
 * put) and is parked on the receiver's waiter list; when the receiver
 * drains below CONN_LOW_WATER or dies, the waiters are kicked on the next
 * loop turn.
 *
 * A spawned task that has not connected yet has no connection: frames for
 * it are held in task->held (same high-water mark; senders parked on
 * conn_held_waiters) and handed over after its TM_CONNECT reply, as PVM
 * queues messages for a task that is still starting.
 *
 * Lifetime: conn_close marks a connection dead and moves it to a list
 * that a deferred event frees on the next loop turn, so no callback ever
 * finds its conn freed under it.
 */
#include "pvmd.h"
#include "conn.h"
#include "clock.h"
#include "fdpass.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/uio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <event2/buffer.h>
#include <event2/event.h>

#define CONN_FLUSH_TIMEOUT 5   /* s to write a last reply before closing */

/* Bounds on what a peer may leave half-sent on one connection. */
#define CONN_CTL_OPEN_MAX 1024
#define CONN_CTL_BYTES (256u * 1024 * 1024)
#define LINK_AUTH_FRAME_MAX 1024

/* Where a frame goes: a connection's output, or a pending task's hold. */
struct dest {
	struct evbuffer *buf;
	struct conn *conn; /* NULL: held for a task not yet connected */
};

static TAILQ_HEAD(, conn) conn_live = TAILQ_HEAD_INITIALIZER(conn_live);
static TAILQ_HEAD(, conn) conn_dead = TAILQ_HEAD_INITIALIZER(conn_dead);
static struct conn_list conn_held_waiters =
    TAILQ_HEAD_INITIALIZER(conn_held_waiters);
static struct event *conn_gc_ev;
/* Connections with output queued since the last flush. */
static TAILQ_HEAD(, conn) conn_dirty = TAILQ_HEAD_INITIALIZER(conn_dirty);
static struct event *conn_flush_ev;


/* Name of a connection for logs. */
static const char *
conn_name(const struct conn *c, char *buf, size_t len)
{
	if (c->state == CONN_AUTH || c->state == CONN_LINK)
		snprintf(buf, len, "link %d (fd %d)", tid_host(c->tid), c->fd);
	else if (c->tid != 0)
		snprintf(buf, len, "t%x", (unsigned)c->tid);
	else
		snprintf(buf, len, "fd %d pid %ld", c->fd, (long)c->pid);
	return buf;
}

void
conn_closef(struct conn *c, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	conn_close(c, why);
}

/* True if frames can still be queued to c. */
int
conn_usable(const struct conn *c)
{
	return c != NULL && !c->dead;
}

/* The peer process id from SO_PEERCRED. */
pid_t
conn_peer_pid(const struct conn *c)
{
	return c->pid;
}

/* Start (on) or stop reading c.  On rings the socket stays watched
 * (wake-ups, the hangup) and this says whether the ring is read. */
static void
conn_reading(struct conn *c, int on)
{
	if (c->ring != NULL) {
		c->reading = on && !c->dead;
		return;
	}
	if (on && !c->reading && !c->dead && !c->held)
		c->reading = event_add(c->rev, NULL) == 0;
	else if (!on && c->reading) {
		event_del(c->rev);
		c->reading = 0;
	}
}

/* Write c's output once the current callback is done (conn_flush_cb). */
static void
conn_want_flush(struct conn *c)
{
	if (c->dirty || c->dead)
		return;
	c->dirty = 1;
	TAILQ_INSERT_TAIL(&conn_dirty, c, dentry);
	event_active(conn_flush_ev, EV_TIMEOUT, 0);
}

void
conn_wake_list(struct conn_list *l)
{
	struct conn *w;

	while ((w = TAILQ_FIRST(l)) != NULL) {
		TAILQ_REMOVE(l, w, wentry);
		w->parked = NULL;
		if (w->dead || w->closing)
			continue;
		w->last_rx = mono_us(); /* silence while parked was ours */
		conn_reading(w, 1);
		event_active(w->kick, EV_TIMEOUT, 0);
	}
}

/* Stop reading c until the destination has drained. */
static void
conn_block(struct conn *c, const struct dest *d)
{
	char a[64], b[64];

	log_debug("%s blocked: %s has %zu bytes queued",
	    conn_name(c, a, sizeof(a)),
	    d->conn ? conn_name(d->conn, b, sizeof(b)) : "a starting task",
	    evbuffer_get_length(d->buf));
	c->parked = d->conn ? &d->conn->waiters : &conn_held_waiters;
	TAILQ_INSERT_TAIL(c->parked, c, wentry);
	conn_reading(c, 0);
}

/* Mark c dead, detach it from everything; freed later by conn_gc_cb. */
void
conn_close(struct conn *c, const char *why)
{
	struct task *t;
	char name[64];

	if (c == NULL || c->dead)
		return;
	c->dead = 1;
	if (c->task != NULL || c->state != CONN_TASK)
		log_info("connection %s closed: %s",
		    conn_name(c, name, sizeof(name)), why);
	else
		log_debug("connection %s closed: %s",
		    conn_name(c, name, sizeof(name)), why);
	conn_reading(c, 0);
	event_del(c->rev);
	event_del(c->wev);
	if (c->ring != NULL)
		conn_ring_drop(c);
	if (c->dirty) {
		TAILQ_REMOVE(&conn_dirty, c, dentry);
		c->dirty = 0;
	}
	evtimer_del(c->timer);
	conn_wake_list(&c->waiters);
	if (c->parked != NULL) {
		TAILQ_REMOVE(c->parked, c, wentry);
		c->parked = NULL;
	}
	TAILQ_REMOVE(&conn_live, c, entry);
	TAILQ_INSERT_TAIL(&conn_dead, c, entry);
	event_active(conn_gc_ev, EV_TIMEOUT, 0);
	if ((t = c->task) != NULL) {
		c->task = NULL;
		t->conn = NULL;
		depart_task(t);
	}
	if (c->state == CONN_AUTH || c->state == CONN_LINK)
		link_closed(c);
}

/* Free a connection and close its socket; any part may be missing. */
static void
conn_free(struct conn *c)
{
	int i;

	if (c->rev != NULL)
		event_free(c->rev);
	if (c->wev != NULL)
		event_free(c->wev);
	if (c->timer != NULL)
		event_free(c->timer);
	if (c->kick != NULL)
		event_free(c->kick);
	if (c->in != NULL)
		evbuffer_free(c->in);
	if (c->out != NULL)
		evbuffer_free(c->out);
	for (i = 0; i < c->nrs; i++)
		evbuffer_free(c->rs[i].buf);
	free(c->rs);
	free(c->mcast);
	link_auth_free(c->auth);
	ring_end_free(c->ring);
	if (c->passed_fd >= 0)
		close(c->passed_fd);
	close(c->fd);
	free(c);
}

/* Free the connections closed during the last loop turn. */
static void
conn_gc_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c;

	while ((c = TAILQ_FIRST(&conn_dead)) != NULL) {
		TAILQ_REMOVE(&conn_dead, c, entry);
		conn_free(c);
	}
}

/* Close once the output queue is empty (after a TM_EXIT reply). */
void
conn_close_after_flush(struct conn *c)
{
	struct timeval tv = { CONN_FLUSH_TIMEOUT, 0 };

	if (c->dead)
		return;
	c->closing = 1;
	conn_reading(c, 0);
	if (evbuffer_get_length(c->out) == 0) {
		conn_close(c, "exited");
		return;
	}
	evtimer_add(c->timer, &tv);
}

/* Bind c to task t (TM_CONNECT accepted). */
void
conn_set_task(struct conn *c, struct task *t)
{
	c->task = t;
	c->tid = t->tid;
	c->state = CONN_TASK;
	evtimer_del(c->timer);
	t->conn = c;
	t->flags |= TASK_F_CONN;
}

/* c no longer stands for a task (it sent TM_EXIT). */
void
conn_forget_task(struct conn *c)
{
	c->task = NULL;
}

/* Take ownership of a TM_MCAST list. */
void
conn_set_mcast(struct conn *c, int *tids, int n)
{
	free(c->mcast);
	c->mcast = tids;
	c->nmcast = n;
}

/* Append one message, cut into frames, to out; 0 or -1 (no memory). */
static int
conn_put_msg(struct evbuffer *out, int src, int dst, int tag, int ctx,
    int wid, int enc, const void *body, size_t len)
{
	struct wire_hdr h;
	uint8_t raw[WIRE_HDR_LEN];
	size_t off = 0, n;

	memset(&h, 0, sizeof(h));
	h.version = WIRE_VERSION;
	h.dst = dst;
	h.src = src;
	h.tag = tag;
	h.ctx = ctx;
	h.enc = enc;
	h.wid = wid;
	do {
		n = len - off;
		if (n > WIRE_FRAG_DEFAULT)
			n = WIRE_FRAG_DEFAULT;
		h.flags = (uint16_t)((off == 0 ? WIRE_F_SOM : 0) |
		    (off + n == len ? WIRE_F_EOM : 0));
		h.len = n;
		wire_hdr_encode(&h, raw);
		if (evbuffer_add(out, raw, sizeof(raw)) != 0 ||
		    (n > 0 && evbuffer_add(out, (const uint8_t *)body + off,
		    n) != 0))
			return -1;
		off += n;
	} while (off < len);
	return 0;
}

/* Queue one message from this pvmd to c. */
void
conn_send(struct conn *c, int src, int dst, int tag, int ctx, int wid,
    int enc, const void *body, size_t len)
{
	if (!conn_usable(c))
		return;
	if (conn_put_msg(c->out, src, dst, tag, ctx, wid, enc, body,
	    len) != 0)
		conn_close(c, "out of memory queueing a message");
	else
		conn_want_flush(c);
}

/* The hold buffer of a pending task (created on first use). */
static struct evbuffer *
conn_held_buf(struct task *t)
{
	if (t->held == NULL)
		t->held = evbuffer_new();
	return t->held;
}

/* True for a spawned task whose process has not connected yet. */
static int
conn_task_pending(const struct task *t)
{
	return t->conn == NULL && (t->flags & TASK_F_SPAWNED) &&
	    !(t->flags & TASK_F_CONN);
}

/* Queue a message from this pvmd to task t, connected or pending. */
void
conn_send_task(struct task *t, int src, int tag, int ctx, int wid, int enc,
    const void *body, size_t len)
{
	struct evbuffer *held;

	if (t->conn != NULL) {
		conn_send(t->conn, src, t->tid, tag, ctx, wid, enc, body, len);
		return;
	}
	if (!conn_task_pending(t) || (held = conn_held_buf(t)) == NULL ||
	    conn_put_msg(held, src, t->tid, tag, ctx, wid, enc, body,
	    len) != 0)
		log_debug("message tag 0x%x to t%x dropped", (unsigned)tag,
		    (unsigned)t->tid);
}

/* Hand what was held for t to its new connection; wake held senders. */
void
conn_release_held(struct conn *c, struct task *t)
{
	if (t->held == NULL)
		return;
	if (evbuffer_add_buffer(c->out, t->held) != 0)
		conn_close(c, "out of memory releasing held messages");
	else
		conn_want_flush(c);
	evbuffer_free(t->held);
	t->held = NULL;
	conn_wake_list(&conn_held_waiters);
}

/* t leaves before it connected: forget its held frames. */
void
conn_drop_held(struct task *t)
{
	if (t->held == NULL)
		return;
	log_debug("t%x: %zu held bytes dropped", (unsigned)t->tid,
	    evbuffer_get_length(t->held));
	evbuffer_free(t->held);
	t->held = NULL;
	conn_wake_list(&conn_held_waiters);
}

/* Where frames for tid go; -1 if nowhere (no such task or host). */
static int
conn_dest(int tid, int src, struct dest *d)
{
	struct task *t;
	struct host *hp;
	int host;

	d->buf = NULL;
	d->conn = NULL;
	switch (route_decide(tid, src, pvmd.host, &host)) {
	case ROUTE_TASK:
		if ((t = task_find(&pvmd.tasks, tid)) == NULL)
			return -1;
		if (t->conn == NULL) {
			if (!conn_task_pending(t) ||
			    (d->buf = conn_held_buf(t)) == NULL)
				return -1;
			return 0;
		}
		d->conn = t->conn;
		break;
	case ROUTE_PEER:
		if ((hp = host_get(host)) == NULL)
			return -1;
		d->conn = hp->link;
		break;
	default:
		return -1;
	}
	if (!conn_usable(d->conn) || d->conn->closing)
		return -1;
	d->buf = d->conn->out;
	return 0;
}

/* Discard the frame at the head of c's input. */
static void
conn_drop(struct conn *c, const struct wire_hdr *h, const char *why)
{
	struct evbuffer *in = c->in;

	log_debug("dropped frame t%x -> t%x tag %d len %lu: %s",
	    (unsigned)h->src, (unsigned)h->dst, h->tag,
	    (unsigned long)h->len, why);
	evbuffer_drain(in, WIRE_HDR_LEN + (size_t)h->len);
}

/* True if more than the high-water mark is queued to c. */
int
conn_backed_up(const struct conn *c)
{
	return conn_usable(c) && evbuffer_get_length(c->out) > CONN_HIGH_WATER;
}

/* Forward the head frame of c to tid; 1 if c must wait for it to drain. */
static int
conn_forward(struct conn *c, const struct wire_hdr *h, int tid)
{
	struct evbuffer *in = c->in;
	uint8_t raw[WIRE_HDR_LEN];
	struct dest d;

	if (conn_dest(tid, c->tid, &d) != 0) {
		conn_drop(c, h, "no such task");
		return 0;
	}
	if (evbuffer_get_length(d.buf) > CONN_HIGH_WATER) {
		conn_block(c, &d);
		return 1;
	}
	wire_hdr_encode(h, raw);
	evbuffer_drain(in, WIRE_HDR_LEN);
	if (evbuffer_add(d.buf, raw, sizeof(raw)) != 0 ||
	    evbuffer_remove_buffer(in, d.buf, (size_t)h->len) != (int)h->len) {
		if (d.conn != NULL)
			conn_close(d.conn, "out of memory forwarding");
		conn_close(c, "out of memory forwarding");
		return 1;
	}
	if (d.conn != NULL)
		conn_want_flush(d.conn);
	return 0;
}

/* A frame to our multicast address: one copy per listed task. */
static int
conn_mcast_frame(struct conn *c, const struct wire_hdr *h)
{
	struct evbuffer *in = c->in;
	struct wire_hdr h2 = *h;
	uint8_t raw[WIRE_HDR_LEN];
	unsigned char *frame;
	struct dest d;
	int i;

	for (i = 0; i < c->nmcast; i++) {
		if (conn_dest(c->mcast[i], c->tid, &d) == 0 &&
		    evbuffer_get_length(d.buf) > CONN_HIGH_WATER) {
			conn_block(c, &d);
			return 1;
		}
	}
	frame = evbuffer_pullup(in, WIRE_HDR_LEN + (ssize_t)h->len);
	if (frame == NULL) {
		conn_close(c, "out of memory in multicast");
		return 1;
	}
	for (i = 0; i < c->nmcast; i++) {
		if (conn_dest(c->mcast[i], c->tid, &d) != 0)
			continue;
		h2.dst = c->mcast[i];
		wire_hdr_encode(&h2, raw);
		if ((evbuffer_add(d.buf, raw, sizeof(raw)) != 0 ||
		    evbuffer_add(d.buf, frame + WIRE_HDR_LEN,
		    (size_t)h->len) != 0) && d.conn != NULL)
			conn_close(d.conn, "out of memory in multicast");
		else if (d.conn != NULL)
			conn_want_flush(d.conn);
	}
	if (c->nmcast == 0)
		log_debug("t%x: multicast frame without a list", c->tid);
	evbuffer_drain(in, WIRE_HDR_LEN + (size_t)h->len);
	if (h->flags & WIRE_F_EOM)
		conn_set_mcast(c, NULL, 0);
	return 0;
}

typedef void frame_fn(struct conn *c, const struct wire_hdr *h,
    const uint8_t *body, size_t len);

/*
 * Hand the whole head frame of c's input, made contiguous where it lies,
 * to fn, then drop it.  1 if c is closed or closing, else 0.
 */
static int
conn_frame_in_place(struct conn *c, const struct wire_hdr *h, frame_fn *fn)
{
	const uint8_t *p;

	p = evbuffer_pullup(c->in, (ev_ssize_t)(WIRE_HDR_LEN + h->len));
	if (p == NULL) {
		conn_close(c, "out of memory reading a frame");
		return 1;
	}
	fn(c, h, p + WIRE_HDR_LEN, (size_t)h->len);
	if (!c->dead)
		evbuffer_drain(c->in, WIRE_HDR_LEN + (size_t)h->len);
	return c->dead || c->closing;
}

/* A handshake frame on a link that has not proved itself yet. */
static int
conn_auth_frame(struct conn *c, const struct wire_hdr *h)
{
	if (h->len > LINK_AUTH_FRAME_MAX || h->flags != WIRE_F_ALL) {
		conn_closef(c, "refused: handshake frame of %lu bytes",
		    (unsigned long)h->len);
		return 1;
	}
	return conn_frame_in_place(c, h, link_auth_frame);
}

/* The reassembly of src's control message on c, or NULL. */
static struct ctl_reasm *
conn_reasm_find(struct conn *c, int src)
{
	int i;

	for (i = 0; i < c->nrs; i++) {
		if (c->rs[i].src == src)
			return &c->rs[i];
	}
	return NULL;
}

/* Start reassembling a message from src on c; NULL past the limits. */
static struct ctl_reasm *
conn_reasm_new(struct conn *c, int src, const struct wire_hdr *h)
{
	struct ctl_reasm *r;

	if (c->nrs >= CONN_CTL_OPEN_MAX ||
	    (r = realloc(c->rs, sizeof(*r) * (size_t)(c->nrs + 1))) == NULL)
		return NULL;
	c->rs = r;
	r = &c->rs[c->nrs];
	if ((r->buf = evbuffer_new()) == NULL)
		return NULL;
	r->src = src;
	r->h = *h;
	c->nrs++;
	return r;
}

/* Drop src's reassembly on c (its message was dispatched). */
static void
conn_reasm_drop(struct conn *c, int src)
{
	struct ctl_reasm *r = conn_reasm_find(c, src);

	c->rsbytes -= evbuffer_get_length(r->buf);
	evbuffer_free(r->buf);
	*r = c->rs[--c->nrs];
}

/* A whole control message for this pvmd: a task's or a peer pvmd's. */
static void
conn_ctl_dispatch(struct conn *c, const struct wire_hdr *h,
    const uint8_t *body, size_t len)
{
	if (c->state == CONN_LINK)
		link_ctl_dispatch(c, h, body, len);
	else
		ctl_dispatch(c, c->task, h, body, len);
}

/*
 * A frame of a control message to this pvmd; dispatch at EOM.  One-frame
 * messages (nearly all) are handled where they lie in the input; longer
 * ones are gathered per source, within bounds.
 */
static int
conn_ctl_frame(struct conn *c, const struct wire_hdr *h)
{
	struct ctl_reasm *r = conn_reasm_find(c, h->src);
	const uint8_t *body;
	struct wire_hdr mh;
	size_t len;

	if ((h->flags & WIRE_F_SOM) && r != NULL) {
		conn_close(c, "control message interrupted");
		return 1;
	}
	if (!(h->flags & WIRE_F_SOM) && r == NULL) {
		conn_close(c, "control frame without a start");
		return 1;
	}
	if (h->flags == WIRE_F_ALL)
		return conn_frame_in_place(c, h, conn_ctl_dispatch);
	if (r == NULL && (r = conn_reasm_new(c, h->src, h)) == NULL) {
		conn_closef(c, "bad or oversized control message from t%x "
		    "(too many open)", (unsigned)h->src);
		return 1;
	}
	if (evbuffer_get_length(r->buf) + h->len > WIRE_CTL_MAX ||
	    c->rsbytes + h->len > CONN_CTL_BYTES) {
		conn_closef(c, "bad or oversized control message from t%x "
		    "(over WIRE_CTL_MAX)", (unsigned)h->src);
		return 1;
	}
	evbuffer_drain(c->in, WIRE_HDR_LEN);
	if (evbuffer_remove_buffer(c->in, r->buf, (size_t)h->len) !=
	    (int)h->len) {
		conn_close(c, "out of memory reading a control message");
		return 1;
	}
	c->rsbytes += h->len;
	if (!(h->flags & WIRE_F_EOM))
		return 0;
	mh = r->h;
	len = evbuffer_get_length(r->buf);
	body = len > 0 ? evbuffer_pullup(r->buf, -1) : NULL;
	if (len > 0 && body == NULL) {
		conn_close(c, "out of memory reading a control message");
		return 1;
	}
	conn_ctl_dispatch(c, &mh, body, len);
	if (!c->dead)
		conn_reasm_drop(c, mh.src);
	return c->dead || c->closing;
}

/*
 * A frame from another pvmd.  Its source must lie behind the link (the
 * peer's own host, except on a slave's link to the master, which
 * forwards for every host), so a pvmd cannot speak for hosts it does
 * not serve.
 */
static int
conn_link_frame(struct conn *c, const struct wire_hdr *h)
{
	int host, sh = tid_host(h->src);

	if (sh == 0 || sh == pvmd.host ||
	    (c != pvmd.master_link && sh != tid_host(c->tid))) {
		conn_closef(c, "frame with source t%x", (unsigned)h->src);
		return 1;
	}
	switch (route_decide(h->dst, h->src, pvmd.host, &host)) {
	case ROUTE_PVMD:
		return conn_ctl_frame(c, h);
	case ROUTE_TASK:
		if (h->ctx == SYSCTX_TM && tid_is_pvmd(h->src) &&
		    (h->flags & WIRE_F_SOM))
			vm_rpc_answered(h->dst, h->wid);
		return conn_forward(c, h, h->dst);
	case ROUTE_PEER:
		if (pvmd.master && host != tid_host(c->tid))
			return conn_forward(c, h, h->dst);
		break;
	default:
		break;
	}
	conn_drop(c, h, "not a valid destination from a link");
	return 0;
}

/*
 * A task's frame for another host.  A request to a pvmd there is
 * remembered, so that the task gets an error instead of silence if that
 * host is not there or fails before it answers.
 */
static int
conn_task_to_peer(struct conn *c, const struct wire_hdr *h, int host)
{
	if (h->ctx == SYSCTX_TM && tid_is_pvmd(h->dst) &&
	    (h->flags & WIRE_F_SOM) && h->wid != 0) {
		if (host_get(host) == NULL) {
			vm_rpc_fail(h->src, h->tag, h->wid, PvmNoHost);
			conn_drop(c, h, "no such host");
			return 0;
		}
		vm_rpc_sent(h->src, h->wid, h->tag, host);
	}
	return conn_forward(c, h, h->dst);
}

/* Handle the complete frame at the head of c's input; 0 = go on. */
static int
conn_frame(struct conn *c, const struct wire_hdr *h)
{
	int host;

	if (c->state == CONN_AUTH)
		return conn_auth_frame(c, h);
	if (c->state == CONN_LINK)
		return conn_link_frame(c, h);
	if (c->state == CONN_HELLO) {
		if (route_decide(h->dst, 0, pvmd.host, &host) != ROUTE_PVMD ||
		    h->tag != TM_CONNECT || h->flags != WIRE_F_ALL) {
			conn_closef(c, "first frame is not TM_CONNECT "
			    "(tag %d dst 0x%x)", h->tag, (unsigned)h->dst);
			return 1;
		}
		return conn_ctl_frame(c, h);
	}
	if (h->src != c->tid) {
		conn_closef(c, "frame with source t%x", (unsigned)h->src);
		return 1;
	}
	switch (route_decide(h->dst, h->src, pvmd.host, &host)) {
	case ROUTE_PVMD:
		return conn_ctl_frame(c, h);
	case ROUTE_TASK:
		return conn_forward(c, h, h->dst);
	case ROUTE_PEER:
		return conn_task_to_peer(c, h, host);
	case ROUTE_MCAST:
		return conn_mcast_frame(c, h);
	case ROUTE_DROP:
		break;
	}
	conn_drop(c, h, "not a valid destination");
	return 0;
}

void
conn_process(struct conn *c)
{
	uint8_t raw[WIRE_HDR_LEN];
	struct wire_hdr h;
	enum wire_status st;
	size_t have;

	while (!c->dead && !c->closing && c->parked == NULL && !c->held) {
		have = evbuffer_get_length(c->in);
		c->need = WIRE_HDR_LEN;
		if (have < WIRE_HDR_LEN)
			return;
		evbuffer_copyout(c->in, raw, WIRE_HDR_LEN);
		if ((st = wire_hdr_decode(raw, WIRE_HDR_LEN, &h)) != WIRE_OK) {
			conn_closef(c, "bad frame: %s", wire_status_str(st));
			return;
		}
		c->need = WIRE_HDR_LEN + (size_t)h.len;
		if (have < c->need)
			return;
		if (conn_frame(c, &h) != 0)
			return;
	}
}

size_t
conn_read_want(const struct conn *c)
{
	size_t have = evbuffer_get_length(c->in), want = CONN_READ_CHUNK;

	if (c->need > have && c->need - have >= CONN_READ_CHUNK)
		want = c->need - have;
	if (want > CONN_READ_HIGH - have)
		want = CONN_READ_HIGH - have;
	return want;
}

/*
 * recvmsg for a task's socket: a segment for TM_RINGS may come with
 * the bytes (SCM_RIGHTS).  The last one passed is kept; any other
 * descriptor is closed at once.
 */
static ssize_t
conn_recv_fds(struct conn *c, struct iovec *v)
{
	int fds[FDPASS_MAX];
	size_t i, nfd;
	ssize_t n;

	n = fdpass_recv(c->fd, v, 1, 0, fds, &nfd);
	for (i = 0; i < nfd; i++) {
		if (c->passed_fd >= 0)
			close(c->passed_fd);
		c->passed_fd = fds[i];
	}
	return n;
}

/*
 * Read once from c into its input: CONN_READ_CHUNK, or exactly the rest
 * of a large frame (its body then ends on a chain boundary and moves to
 * the destination without a copy).  Bytes read, 0 at end of file, -1 on
 * error or EAGAIN (errno tells).
 */
static ssize_t
conn_read_some(struct conn *c)
{
	struct evbuffer_iovec v;
	size_t want = conn_read_want(c);
	ssize_t n;

	if (evbuffer_reserve_space(c->in, (ev_ssize_t)want, &v, 1) != 1) {
		errno = ENOMEM;
		return -1;
	}
	if (v.iov_len > want)
		v.iov_len = want;
	if (c->state == CONN_HELLO || c->state == CONN_TASK)
		n = conn_recv_fds(c, (struct iovec *)(void *)&v);
	else {
		do {
			n = readv(c->fd, (struct iovec *)(void *)&v, 1);
		} while (n == -1 && errno == EINTR);
	}
	if (n > 0) {
		/* Uncommitted, the reservation is simply dropped. */
		v.iov_len = (size_t)n;
		evbuffer_commit_space(c->in, &v, 1);
	}
	return n;
}

/* Input arrived (or end of file, or an error). */
static void
conn_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	ssize_t n;

	if (c->ring != NULL) {
		conn_ring_socket(c);
		return;
	}
	if (evbuffer_get_length(c->in) >= CONN_READ_HIGH) {
		/* Cannot happen (complete frames are consumed); be safe. */
		conn_close(c, "input over limit");
		return;
	}
	n = conn_read_some(c);
	if (n == 0) {
		conn_close(c, "end of file");
		return;
	}
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		conn_closef(c, "socket error: %s", strerror(errno));
		return;
	}
	pvmd.nreads++; /* data came: worth spinning for more (pvmd.c) */
	if (c->state == CONN_LINK)
		c->last_rx = mono_us(); /* for link.c's liveness check */
	conn_process(c);
}

/* Deferred processing after back-pressure was lifted. */
static void
conn_kick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	if (c->ring != NULL)
		conn_ring_input(c); /* the ring may hold more */
	else
		conn_process(c);
}

/*
 * Write up to limit bytes of c's output to its socket, and arm the write
 * event if the socket took less.  Bytes written, or -1 if c was closed.
 */
static ssize_t
conn_sock_write(struct conn *c, size_t limit)
{
	size_t done = 0;
	int n;

	while (done < limit && evbuffer_get_length(c->out) > 0) {
		n = evbuffer_write_atmost(
		    c->out, c->fd, (ev_ssize_t)(limit - done));
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n == 0 || errno == EAGAIN || errno == EWOULDBLOCK) {
			event_add(c->wev, NULL);
			break;
		}
		if (errno != EINTR) {
			conn_closef(c, "socket error: %s", strerror(errno));
			return -1;
		}
	}
	return (ssize_t)done;
}

/*
 * Write what c has queued, as far as the socket (or its ring) takes it;
 * arm the write event for the rest.  Resumes parked senders below the
 * low-water mark and finishes a pending close.
 */
static void
conn_flush(struct conn *c)
{
	ssize_t n;

	if (c->dead)
		return;
	if (c->ring == NULL) {
		if (conn_sock_write(c, SIZE_MAX) < 0)
			return;
	} else if (c->sock_out > 0) {
		/* What went before the TM_RINGS reply, and the reply. */
		if ((n = conn_sock_write(c, c->sock_out)) < 0)
			return;
		c->sock_out -= (size_t)n;
	}
	if (c->ring != NULL && c->sock_out == 0) {
		conn_ring_flush(c);
		return;
	}
	conn_written(c);
}

void
conn_written(struct conn *c)
{
	size_t left = evbuffer_get_length(c->out);

	if (left <= CONN_LOW_WATER)
		conn_wake_list(&c->waiters);
	if (c->closing && left == 0)
		conn_close(c, "exited");
}

void
conn_flush_dirty(void)
{
	struct conn *c;

	while ((c = TAILQ_FIRST(&conn_dirty)) != NULL) {
		TAILQ_REMOVE(&conn_dirty, c, dentry);
		c->dirty = 0;
		if (!event_pending(c->wev, EV_WRITE, NULL))
			conn_flush(c); /* else the write event will */
	}
}

/* Write the output queued during the callbacks just run. */
static void
conn_flush_cb(evutil_socket_t fd, short what, void *arg)
{
	conn_flush_dirty();
}

/* The socket can take more output. */
static void
conn_write_cb(evutil_socket_t fd, short what, void *arg)
{
	conn_flush(arg);
}

/* Handshake timeout, or a final reply that could not be written. */
static void
conn_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	if (c->state == CONN_HELLO)
		conn_close(c, "no TM_CONNECT in time");
	else if (c->state == CONN_AUTH)
		conn_close(c, "refused: no handshake in time");
	else if (c->closing)
		conn_close(c, "peer did not read its last reply");
}

/*
 * A live connection on socket s (owned from here on, closed on failure)
 * in `state`, with the handshake timer running.  NULL if out of memory.
 */
static struct conn *
conn_alloc(int s, pid_t pid, enum conn_state state)
{
	struct timeval tv = { pvmd.hs_timeout, 0 };
	int sockbuf = WIRE_SOCKBUF;
	struct conn *c;

	if ((c = calloc(1, sizeof(*c))) == NULL) {
		close(s);
		return NULL;
	}
	c->fd = s;
	c->pid = pid;
	c->passed_fd = -1;
	/*
	 * Socket buffers as large as the tasks' (libpvm's lpvm_fd_setup):
	 * bulk data then moves in few, long system calls.  Measured: 16 MiB
	 * through the pvmd ran about 20% faster than with the default
	 * 208 KiB.  Memory is only used while data is in flight.
	 */
	(void)setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sockbuf, sizeof(sockbuf));
	(void)setsockopt(s, SOL_SOCKET, SO_RCVBUF, &sockbuf, sizeof(sockbuf));
	c->state = state;
	TAILQ_INIT(&c->waiters);
	c->in = evbuffer_new();
	c->out = evbuffer_new();
	c->rev = event_new(pvmd.base, s, EV_READ | EV_PERSIST, conn_read_cb,
	    c);
	c->wev = event_new(pvmd.base, s, EV_WRITE, conn_write_cb, c);
	c->timer = evtimer_new(pvmd.base, conn_timer_cb, c);
	c->kick = event_new(pvmd.base, -1, 0, conn_kick_cb, c);
	c->need = WIRE_HDR_LEN;
	c->last_rx = mono_us();
	if (c->in == NULL || c->out == NULL || c->rev == NULL ||
	    c->wev == NULL || c->timer == NULL || c->kick == NULL) {
		conn_free(c);
		return NULL;
	}
	conn_reading(c, 1);
	if (!c->reading) {
		conn_free(c);
		return NULL;
	}
	if (state != CONN_LINK)
		evtimer_add(c->timer, &tv);
	TAILQ_INSERT_TAIL(&conn_live, c, entry);
	return c;
}

/*
 * Set up a task connection on an accepted Unix socket (owns s).  With a
 * refusal (a Pvm* error) its TM_CONNECT is answered with that error and
 * the connection closed (accept.c, out of descriptors).
 */
void
conn_task_accepted(int s, int refusal)
{
	struct conn *c;
	struct ucred cr;
	socklen_t crlen = sizeof(cr);

	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) != 0) {
		log_warn("SO_PEERCRED: %s; connection refused",
		    strerror(errno));
		close(s);
		return;
	}
	if (cr.uid != getuid()) {
		log_warn("refused connection from uid %ld pid %ld",
		    (long)cr.uid, (long)cr.pid);
		close(s);
		return;
	}
	if ((c = conn_alloc(s, cr.pid, CONN_HELLO)) == NULL) {
		log_warn("out of memory accepting a connection");
		return;
	}
	c->refusal = refusal;
	log_debug("accepted fd %d from pid %ld", s, (long)cr.pid);
}

/* A TCP connection from a would-be peer pvmd (owns s); NULL on failure. */
struct conn *
conn_link_accepted(int s)
{
	int one = 1;

	(void)setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return conn_alloc(s, 0, CONN_AUTH);
}

/* The handshake succeeded: c now carries frames for host `host`. */
void
conn_link_up(struct conn *c, int host)
{
	c->state = CONN_LINK;
	c->tid = tid_pvmd(host);
	evtimer_del(c->timer);
}

/* A link authenticated already (a slave's, to its master) on s. */
struct conn *
conn_link_open(int s, int host)
{
	struct conn *c;

	if ((c = conn_link_accepted(s)) != NULL)
		conn_link_up(c, host);
	return c;
}

/* A link's peer host index (0 while unknown). */
int
conn_link_host(const struct conn *c)
{
	return tid_host(c->tid);
}

/* The handshake state slot of a link (link.c owns what it points at). */
void **
conn_link_auth(struct conn *c)
{
	return &c->auth;
}

/*
 * mono_us() when c last brought data.  While we do not read c (its
 * frames wait for a receiver to drain), its silence says nothing about
 * the peer: it counts as heard from now.
 */
long long
conn_last_rx(const struct conn *c)
{
	return c->parked != NULL || c->closing || c->held ? mono_us()
	                                                  : c->last_rx;
}

/*
 * Hold (on) or release a link: while held, nothing is read or handled
 * from it, not even what an earlier read left in its input (mesh.c).
 */
void
conn_hold(struct conn *c, int on)
{
	c->held = on;
	if (on)
		conn_reading(c, 0);
	else if (!c->dead && !c->closing && c->parked == NULL) {
		c->last_rx = mono_us();
		conn_reading(c, 1);
		event_active(c->kick, EV_TIMEOUT, 0);
	}
}

/* The numeric address of a link's peer ("" if unknown), IPv4 plain. */
void
conn_peer_addr(const struct conn *c, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char a[INET6_ADDRSTRLEN];

	buf[0] = '\0';
	if (getpeername(c->fd, (struct sockaddr *)&ss, &sl) != 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, a, sizeof(a), NULL, 0,
	        NI_NUMERICHOST) != 0)
		return;
	/* A slave on IPv4 reached our IPv6 socket as ::ffff:a.b.c.d. */
	if (strncmp(a, "::ffff:", 7) == 0 && strchr(a, '.') != NULL)
		snprintf(buf, len, "%s", a + 7);
	else
		snprintf(buf, len, "%s", a);
}

/* The error c's TM_CONNECT is to be refused with, or 0. */
int
conn_refusal(const struct conn *c)
{
	return c->refusal;
}

/* The loop's own events of this file; before any connection. */
int
conn_init(void)
{
	conn_gc_ev = event_new(pvmd.base, -1, 0, conn_gc_cb, NULL);
	conn_flush_ev = event_new(pvmd.base, -1, 0, conn_flush_cb, NULL);
	return conn_gc_ev != NULL && conn_flush_ev != NULL ? 0 : -1;
}

/* Halt: one non-blocking attempt to write what is queued. */
void
conn_flush_all(void)
{
	struct conn *c;

	struct conn *next;

	TAILQ_FOREACH_SAFE(c, &conn_live, entry, next) {
		if (c->ring == NULL || c->sock_out > 0)
			evbuffer_write(c->out, c->fd);
		else
			conn_ring_halt_flush(c);
	}
}
