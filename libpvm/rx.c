/*
 * rx.c: input.  Waits on every socket with one poll, reads in big chunks,
 * cuts frames out of the input buffer, reassembles messages per source and
 * hands complete ones on: RPC replies to rpc.c, task-control messages to
 * their hooks, the rest to a message handler or the receive queue.
 *
 * Cost per small message: one poll and one read, shared by all messages
 * that arrived together (a task whose only live socket is the pvmd's
 * waits in a blocking read instead: one system call); one malloc for the
 * body (it becomes the buffer's data) and the message struct.  The body
 * of a large frame is read straight into the reassembly, so big messages
 * are copied once, from the kernel into their final place; a message of
 * several frames is allocated once, at the size its first frame announces
 * (WIRE_F_TOTAL), so it is never grown and copied by realloc.
 *
 * A route on our host with rings (shm.c) is read from its ring instead
 * of its socket, into the same buffer and parser (a whole one-frame
 * message straight into its body: rx_shm_whole); its socket is drained
 * of wake-up bytes and watched for the hangup.  Before input from the
 * pvmd is handled, the rings are emptied: what a task wrote to its ring
 * before the pvmd sent something about it (its exit notify, say) is then
 * delivered first, as it was when everything came through the pvmd.
 *
 * A wait that may block first looks without blocking for a while, and
 * yields the CPU between looks (spin.h: adaptive, it stops where it does
 * not pay).  Waits on the pvmd alone and waits that involve a direct
 * route keep separate budgets: their answers come at different speeds
 * (two hops against one), so one kind's misses must not starve the other.
 */
#include "pvm3.h"
#include "clock.h"
#include "conn.h"
#include "fdpass.h"
#include "libpvm_private.h"
#include "spin.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

/* Frame bodies at least this long are read directly into the message. */
#define RX_DIRECT_MIN (16 * 1024)
/*
 * With ring routes, one look of a spin watches the rings for a few CPU
 * pauses (well under a microsecond) before it yields, and asks the
 * kernel about the sockets only every RX_RING_POLL_EVERY looks: a
 * system call per look would cost more than a small message through a
 * ring.  Not so while a connection that may deliver is read from its
 * socket (a TCP route to another host): then every look polls, and
 * there is no memory-only spin first (with the pvmd's connection on
 * rings, these had made the 8-byte round trip over a direct route
 * between hosts 37-40 us instead of 15).  Short, because the peer may share our CPU: then only our yield
 * lets it run and answer.
 */
#define RX_RING_RELAX 16
/* rx_shm_one copies a frame's header and a small body out in one go. */
#define RX_SHM_PEEK (WIRE_HDR_LEN + 256)
#define RX_RING_POLL_EVERY 8

/*
 * Spin budgets (spin.h): waits on the pvmd alone, and all others; and
 * with ring routes, first a memory-only spin of up to SPIN_HOT_US
 * (spin_hot), because each yield of the other spin costs a system call
 * during which the peer's answer waits: with the two tasks of a
 * ping-pong on two CPUs the 8-byte round trip fell from 1.1-2.3 us to
 * 0.9-1.3 (medians 1.7 and 1.1), and 16 tasks ping-ponging in pairs on
 * 2 CPUs were not slower (the budget halves on every miss;
 * docs/performance.md).
 */
static struct spin_budget rx_spin_pvmd = SPIN_BUDGET_INIT(SPIN_MAX_US);
static struct spin_budget rx_spin_poll = SPIN_BUDGET_INIT(SPIN_MAX_US);
static struct spin_budget rx_spin_hot = SPIN_BUDGET_INIT(SPIN_HOT_US);

static unsigned long long rx_seq; /* messages received so far */
/* rx_take spun on the rings and found nothing: the wait that follows
 * skips its own memory-only spin (rx_hot_wait). */
static int rx_hot_spent;
/* What the blocking receives' first spin did (lpvm_rx_trace_counts). */
static struct {
	unsigned long taken;   /* took the message from a ring */
	unsigned long waited;  /* found nothing it may take, waited on */
	unsigned long refused; /* rx_take_ok said no: the general wait */
} rx_takes;

struct lpvm_want *lpvm_rx_want;
static struct pollfd *rx_pfd;
static struct lpvm_conn **rx_pconn;
static size_t rx_pcap;

static void rx_dispatch(
    const struct wire_hdr *h, uint8_t *data, size_t len, size_t cap);
static int rx_parse(struct lpvm_conn *c);
static void rx_route_lost(struct lpvm_conn *c);

/* A bulk offer: deliver the message it carried in its place (bulk.c). */
static void
rx_bulk(const struct wire_hdr *h, uint8_t *data, size_t len)
{
	struct wire_hdr mh;
	uint8_t *body = NULL;
	size_t blen;

	if (lpvm_bulk_input(h, data, len, &mh, &body, &blen) == 0 &&
	    !(mh.ctx == SYSCTX_TC &&
	        (mh.tag == TC_BULK || mh.tag == TC_BULKACK)))
		rx_dispatch(&mh, body, blen, blen);
	else if (body != NULL)
		free(body);
	free(data);
}

/*
 * The task-control messages libpvm takes itself, and the pvmd's replies:
 * handled (data taken), 1; anything else 0.
 */
static int
rx_dispatch_control(const struct wire_hdr *h, uint8_t *data, size_t len)
{
	if (h->ctx == SYSCTX_TM && h->tag < 0) {
		lpvm_rpc_input(h->wid, data, len);
		return 1;
	}
	if (h->ctx != SYSCTX_TC)
		return 0;
	switch (h->tag) {
	case TC_ROUTE:
		lpvm_route_marker(h->src, data, len);
		break;
	case TC_ROUTEREQ:
		lpvm_route_req_input(h->src, data, len);
		break;
	case TC_ROUTEADDR:
		lpvm_route_addr_input(h->src, data, len);
		break;
	case TC_BULK:
		rx_bulk(h, data, len);
		return 1; /* it frees data */
	case TC_BULKACK:
		lpvm_bulk_answer(data, len);
		break;
	default:
		return 0;
	}
	free(data);
	return 1;
}

/* Hand a complete message to whoever wants it.  Takes ownership of data,
 * which has room for cap bytes (lpvm_data_free's).  A program's message
 * (any context but libpvm's two) is tested for those once. */
static void
rx_dispatch(const struct wire_hdr *h, uint8_t *data, size_t len, size_t cap)
{
	struct lpvm_msg *m;

	if ((h->ctx == SYSCTX_TM || h->ctx == SYSCTX_TC) &&
	    rx_dispatch_control(h, data, len))
		return;
	if ((m = lpvm_msg_wrap(data, len, h->enc)) == NULL) {
		free(data);
		return;
	}
	m->cap = cap;
	m->src = h->src;
	m->dst = h->dst;
	m->tag = h->tag;
	m->ctx = h->ctx;
	m->wid = h->wid;
	if (h->ctx == SYSCTX_TC &&
	    (h->tag == TC_OUTPUT || h->tag == TC_SIBLINGS)) {
		if (h->tag == TC_OUTPUT)
			lpvm_catchout_input(m);
		else
			lpvm_siblings_input(m);
		lpvm_msg_free(m);
		return;
	}
	if (lpvm_msg_register(m) < 0) {
		lpvm_msg_free(m);
		return;
	}
	m->seq = ++rx_seq;
	if (lpvm_mhf_take(m))
		return;
	if (lpvm_rx_want != NULL && lpvm_rx_want->m == NULL &&
	    lpvm_rx_want->match(m, lpvm_rx_want->arg)) {
		lpvm_rx_want->m = m; /* the first match, as the queue's scan */
		return;
	}
	lpvm_queue_add(m);
}

/* The reassembly of messages from src on c, or NULL. */
static struct lpvm_asm *
rx_asm_find(struct lpvm_conn *c, int src)
{
	struct lpvm_asm *a;

	for (a = c->asms; a != NULL; a = a->next) {
		if (a->h.src == src)
			return a;
	}
	return NULL;
}

/*
 * May frame h come in on c?  A route speaks for its peer alone, to us
 * alone.  Before the route is open only the one-frame hello or ack may
 * come: a TCP connection is anyone's until its hello proved otherwise,
 * and must not make us buffer more.
 */
static int
rx_frame_ok(const struct lpvm_conn *c, const struct wire_hdr *h)
{
	if (c == lpvm_pvmd)
		return 1;
	if ((c->peer != 0 && h->src != c->peer) || h->dst != lpvm.mytid)
		return 0;
	if (c->state == CONN_IN_HELLO || c->state == CONN_OUT_WAIT)
		return (h->flags & WIRE_F_KNOWN) == WIRE_F_ALL &&
		       h->len <= WIRE_ROUTEHELLO_LEN;
	return 1;
}

/*
 * One assembly record kept for the next message: every message takes
 * one and gives it back at its end, so a steady exchange needs no
 * calloc and free per message for it.
 */
static struct lpvm_asm *rx_asm_spare;

static struct lpvm_asm *
rx_asm_new(void)
{
	struct lpvm_asm *a = rx_asm_spare;

	if (a == NULL)
		return calloc(1, sizeof(*a));
	rx_asm_spare = NULL;
	memset(a, 0, sizeof(*a));
	return a;
}

static void
rx_asm_free(struct lpvm_asm *a)
{
	if (rx_asm_spare == NULL)
		rx_asm_spare = a;
	else
		free(a);
}

/*
 * A frame header was read: find or start its reassembly.  total: the
 * message length the first frame announced (WIRE_F_TOTAL), else 0.
 * 0 or -1.
 */
static int
rx_frame_begin(struct lpvm_conn *c, const struct wire_hdr *h, size_t total)
{
	struct lpvm_asm *a = rx_asm_find(c, h->src);
	size_t need, cap;
	uint8_t *p;

	if (!rx_frame_ok(c, h))
		return -1;
	if (h->flags & WIRE_F_SOM) {
		if (a != NULL)
			return -1; /* previous message never ended */
		if ((a = rx_asm_new()) == NULL)
			return -1;
		a->h = *h;
		a->next = c->asms;
		c->asms = a;
	} else if (a == NULL)
		return -1;
	need = a->len + (size_t)h->len;
	if (need > LPVM_MSG_MAX)
		return -1;
	if (need > a->cap || a->data == NULL) {
		/*
		 * Exact size for a one-frame message or an announced one,
		 * else grow by doubling (realloc may copy, hence the
		 * announcement).
		 */
		cap = need;
		if (total >= need && total <= LPVM_MSG_MAX)
			cap = total;
		else if (!(h->flags & WIRE_F_EOM) && cap < a->cap * 2)
			cap = a->cap * 2;
		if (cap < 16)
			cap = 16;
		if (a->data == NULL)
			p = lpvm_data_alloc(cap, &cap); /* kept ones first */
		else if ((p = realloc(a->data, cap)) != NULL &&
		         cap >= LPVM_BULK_MIN)
			lpvm_data_advise(p, cap);
		if (p == NULL)
			return -1;
		a->data = p;
		a->cap = cap;
	}
	c->inframe = 1;
	c->fh = *h;
	c->left = (size_t)h->len;
	c->cur = a;
	return 0;
}

/* A whole message came in on c: deliver it, or to the route handshake
 * if c does not deliver yet.  Takes ownership of data (cap bytes). */
static void
rx_deliver(struct lpvm_conn *c, struct wire_hdr *h, uint8_t *data, size_t len,
    size_t cap)
{
	if (lpvm_conn_delivers(c)) {
		if (c != lpvm_pvmd)
			h->src = c->peer; /* a route speaks for one task */
		else if (tid_is_task(h->src))
			lpvm_route_heard(h->src);
		rx_dispatch(h, data, len, cap);
	} else {
		lpvm_route_frame(c, h, data, len);
		free(data);
	}
}

/* The current frame is complete.  Returns 1 if it ended a message. */
static int
rx_frame_end(struct lpvm_conn *c)
{
	struct lpvm_asm *a = c->cur, **pp;
	struct wire_hdr h;
	uint8_t *data;
	size_t len, a_cap;

	c->inframe = 0;
	c->cur = NULL;
	if (!(c->fh.flags & WIRE_F_EOM))
		return 0;
	for (pp = &c->asms; *pp != a; pp = &(*pp)->next)
		;
	*pp = a->next;
	h = a->h;
	data = a->data;
	len = a->len;
	a_cap = a->cap;
	rx_asm_free(a);
	rx_deliver(c, &h, data, len, a_cap);
	return 1;
}

/* The announced message length (WIRE_F_TOTAL) at p. */
static size_t
rx_get_total(const uint8_t *p)
{
	uint64_t v = wire_total_decode(p);

	return v > LPVM_MSG_MAX ? (size_t)LPVM_MSG_MAX + 1 : (size_t)v;
}

/* Parse the buffered input of c.  Messages delivered, or -1 (bad data). */
static int
rx_parse(struct lpvm_conn *c)
{
	struct wire_hdr h;
	size_t k, total;
	int n = 0;

	c->pending = 0;
	while (c->ibuf != NULL) {
		if (lpvm_conn_rx_held(c)) {
			c->pending = lpvm_conn_buffered(c);
			return n;
		}
		if (!c->inframe) {
			if (c->iend - c->ibeg < WIRE_HDR_LEN)
				break;
			if (wire_hdr_decode(c->ibuf + c->ibeg,
			        c->iend - c->ibeg, &h) != WIRE_OK)
				return -1;
			total = 0;
			if (h.flags & WIRE_F_TOTAL) {
				if (!(h.flags & WIRE_F_SOM) ||
				    h.len < WIRE_TOTAL_LEN)
					return -1;
				if (c->iend - c->ibeg <
				    WIRE_HDR_LEN + WIRE_TOTAL_LEN)
					break; /* the length is still coming */
				total = rx_get_total(
				    c->ibuf + c->ibeg + WIRE_HDR_LEN);
				c->ibeg += WIRE_TOTAL_LEN;
				h.len -= WIRE_TOTAL_LEN;
			}
			c->ibeg += WIRE_HDR_LEN;
			if (rx_frame_begin(c, &h, total) != 0)
				return -1;
			if (h.len > 0)
				continue;
		} else {
			k = c->iend - c->ibeg;
			if (k > c->left)
				k = c->left;
			memcpy(
			    c->cur->data + c->cur->len, c->ibuf + c->ibeg, k);
			c->cur->len += k;
			c->ibeg += k;
			c->left -= k;
			if (c->left > 0)
				break;
		}
		n += rx_frame_end(c);
		if (c->fd < 0)
			return n; /* closed by what we delivered */
	}
	if (c->ibuf != NULL && c->ibeg == c->iend)
		c->ibeg = c->iend = 0;
	return n;
}

static int rx_read_shm(struct lpvm_conn *c, int woke);
static int rx_shm_drain(void);
static int rx_rings_input(struct lpvm_conn *wout, int *writable);

/* Allocate c's input buffer and move unparsed bytes to its start. */
static int
rx_ibuf_compact(struct lpvm_conn *c)
{
	if (c->ibuf == NULL && (c->ibuf = malloc(LPVM_IBUF)) == NULL)
		return -1;
	if (c->ibeg > 0) {
		memmove(c->ibuf, c->ibuf + c->ibeg, c->iend - c->ibeg);
		c->iend -= c->ibeg;
		c->ibeg = 0;
	}
	return 0;
}

/*
 * The hello of a Unix route may bring the opener's segment (route.c):
 * read with room for one descriptor, and map what comes as c's offer.
 */
static ssize_t
rx_recv_hello(struct lpvm_conn *c, void *buf, size_t len)
{
	struct iovec iov;
	int fds[FDPASS_MAX];
	size_t i, nfd;
	ssize_t r;

	iov.iov_base = buf;
	iov.iov_len = len;
	r = fdpass_recv(c->fd, &iov, 1, MSG_DONTWAIT, fds, &nfd);
	for (i = 0; i < nfd; i++) {
		/* The first one is the offer; more is nonsense. */
		if (i == 0 && c->shm_offer == NULL)
			c->shm_offer = lpvm_shm_attach(fds[i]);
		close(fds[i]);
	}
	return r;
}

/*
 * Read once from c and parse.  Messages delivered, or -1 (EOF, error).
 * block: wait in the read for data (c's socket is in blocking mode: only
 * the pvmd connection is, see lpvm_fd_setup); else never wait.  A
 * route with rings is read from its ring (rx_read_shm).
 */
static int
rx_read(struct lpvm_conn *c, int block)
{
	int flags = block ? 0 : MSG_DONTWAIT;
	struct iovec iov[2];
	struct msghdr mh;
	ssize_t r;
	size_t k;
	int n = 0, m;

	if (c->shm != NULL)
		return rx_read_shm(c, 1);
	if (rx_ibuf_compact(c) != 0)
		return -1;
	if (c->inframe && c->fh.len >= RX_DIRECT_MIN && c->iend == 0) {
		/*
		 * Rest of this frame into the message and at most the next
		 * header into ibuf: the next body, if big, comes here too.
		 * Decided on the frame's size, not on what is left of it, so
		 * a short read never drops a big message back into the
		 * copying path for good.
		 */
		iov[0].iov_base = c->cur->data + c->cur->len;
		iov[0].iov_len = c->left;
		iov[1].iov_base = c->ibuf;
		iov[1].iov_len = WIRE_HDR_LEN;
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = iov;
		mh.msg_iovlen = 2;
		do {
			r = recvmsg(c->fd, &mh, flags);
		} while (r == -1 && errno == EINTR);
		if (r > 0 && c == lpvm_pvmd)
			n += rx_shm_drain();
		if (r > 0) {
			k = (size_t)r < c->left ? (size_t)r : c->left;
			c->cur->len += k;
			c->left -= k;
			c->iend = (size_t)r - k;
			if (c->left == 0) {
				n += rx_frame_end(c);
				if (c->fd < 0)
					return n;
			}
		}
	} else {
		/*
		 * After a big frame, most likely another comes: read only its
		 * header (and announced length), so that its body too goes
		 * straight to the message instead of through ibuf.
		 */
		k = LPVM_IBUF - c->iend;
		if (c->fh.len >= RX_DIRECT_MIN && !c->inframe && c->iend == 0)
			k = WIRE_HDR_LEN + WIRE_TOTAL_LEN;
		if (c->state == CONN_IN_HELLO && !c->tcp)
			r = rx_recv_hello(c, c->ibuf + c->iend, k);
		else {
			do {
				r = recv(c->fd, c->ibuf + c->iend, k, flags);
			} while (r == -1 && errno == EINTR);
		}
		if (r > 0 && c == lpvm_pvmd)
			n += rx_shm_drain();
		if (r > 0)
			c->iend += (size_t)r;
	}
	if (r == 0)
		return -1;
	if (r < 0)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ? n : -1;
	if ((m = rx_parse(c)) < 0)
		return -1;
	return n + m;
}

/*
 * Empty c's socket of wake-up bytes (a ring route's socket carries
 * nothing else once the ack is read); note a hangup in c->eof.
 */
static void
rx_shm_wakes(struct lpvm_conn *c)
{
	char junk[256];
	ssize_t r;

	while (!c->eof && c->fd >= 0) {
		r = recv(c->fd, junk, sizeof(junk), MSG_DONTWAIT);
		if (r > 0)
			continue;
		if (r == -1 && errno == EINTR)
			continue;
		if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			c->eof = 1;
		break;
	}
}

/*
 * Move bytes from c's ring: the rest of a large frame body straight into
 * its message, else into the input buffer.  Bytes moved, or -1 if the
 * peer broke the ring.
 */
static long long
rx_shm_fill(struct lpvm_conn *c)
{
	long long k;

	if (rx_ibuf_compact(c) != 0)
		return -1;
	if (c->inframe && c->ibeg == c->iend && c->left > 0) {
		k = ring_end_read(
		    c->shm, c->cur->data + c->cur->len, c->left, c->fd);
		if (k > 0) {
			c->cur->len += (size_t)k;
			c->left -= (size_t)k;
		}
		return k;
	}
	if (c->iend == LPVM_IBUF)
		return 0; /* the parser owes room first */
	k = ring_end_read(
	    c->shm, c->ibuf + c->iend, LPVM_IBUF - c->iend, c->fd);
	if (k > 0)
		c->iend += (size_t)k;
	return k;
}

/* Nothing of c is half read: no frame begun, no bytes buffered. */
static int
rx_nothing_begun(const struct lpvm_conn *c)
{
	return !c->inframe && !lpvm_conn_buffered(c);
}

/*
 * The common case of a ring: a whole one-frame message next in it, and
 * nothing of c half read.  It is copied once, from the ring into its own
 * body, and delivered, without the input buffer and the reassembly
 * (about 200 of the 830 instructions of reading an 8-byte message,
 * callgrind).  Anything else (a message of several frames, one not all
 * there yet, one that breaks the rules) is left in the ring for the
 * general path, which takes it as it always did.  The bytes taken from
 * the ring, or 0.
 */
static size_t
rx_shm_one(struct lpvm_conn *c)
{
	uint8_t fb[RX_SHM_PEEK], *data;
	struct wire_hdr h;
	long long got;
	size_t cap;

	if (lpvm_conn_rx_held(c) || !rx_nothing_begun(c) || c->asms != NULL ||
	    (got = ring_end_peek_some(c->shm, fb, sizeof(fb))) < WIRE_HDR_LEN ||
	    wire_hdr_decode(fb, WIRE_HDR_LEN, &h) != WIRE_OK ||
	    h.flags != WIRE_F_ALL || h.len > LPVM_IBUF || !rx_frame_ok(c, &h))
		return 0;
	if ((data = lpvm_data_alloc(h.len < 16 ? 16 : h.len, &cap)) == NULL)
		return 0;
	if ((size_t)got - WIRE_HDR_LEN >= h.len)
		memcpy(data, fb + WIRE_HDR_LEN, h.len);
	else if (ring_end_peek(c->shm, WIRE_HDR_LEN, data, h.len) !=
	         (long long)h.len) {
		lpvm_data_free(data, cap);
		return 0;
	}
	ring_end_skip(c->shm, WIRE_HDR_LEN + h.len, c->fd);
	rx_deliver(c, &h, data, h.len, cap);
	return WIRE_HDR_LEN + h.len;
}

/* rx_shm_one while it takes messages, a few rings' worth at most.
 * Messages delivered. */
static int
rx_shm_whole(struct lpvm_conn *c)
{
	size_t k, taken = 0;
	int n = 0;

	while (c->fd >= 0 && taken < 4 * LPVM_IBUF &&
	       ring_end_rx_ready(c->shm) && (k = rx_shm_one(c)) > 0) {
		taken += k;
		n++;
	}
	return n;
}

/*
 * Read a ring route: its wake-ups (woke: its socket polled readable; a
 * read of the ring alone costs no system call), then (unless it is
 * held) its ring, parsing as we go.  At most a few rings' worth per call, so a
 * peer that writes as fast as we read cannot keep us here; all of it after a
 * hangup.  Messages delivered, or -1 (hung up and read to the end, or a
 * broken ring: the caller closes it).
 */
static int
rx_read_shm(struct lpvm_conn *c, int woke)
{
	long long k, moved = 0;
	int n = 0, m;

	if (woke)
		rx_shm_wakes(c);
	n = rx_shm_whole(c);
	if (c->fd >= 0 && !c->eof && rx_nothing_begun(c) &&
	    !ring_end_rx_ready(c->shm))
		return n; /* all taken: no need to look again */
	while (c->fd >= 0 && !lpvm_conn_rx_held(c)) {
		if ((k = rx_shm_fill(c)) < 0)
			return -1;
		moved += k;
		if ((m = rx_parse(c)) < 0)
			return -1;
		n += m;
		if (k == 0 && !(c->inframe && c->left == 0))
			break;
		if (!c->eof && moved >= 4 * LPVM_IBUF)
			return n;
	}
	/* What was delivered first counts (a waiter must see it: lpvm_pump
	 * waits on while nothing is counted), as a socket's last read
	 * does; the next read finds the hangup alone and closes. */
	if (c->fd >= 0 && c->eof && !lpvm_conn_rx_held(c))
		return n > 0 ? n : -1;
	return n;
}

/* Read c if it is a ring that may deliver and has bytes, or hung up.
 * Messages delivered. */
static int
rx_shm_drain_one(struct lpvm_conn *c)
{
	int k;

	if (c == NULL || c->shm == NULL || c->fd < 0 ||
	    lpvm_conn_rx_held(c) || !(c->eof || ring_end_rx_ready(c->shm)))
		return 0;
	if ((k = rx_read_shm(c, 0)) >= 0)
		return k;
	rx_route_lost(c);
	return 0;
}

/* Read every ring that may deliver and has bytes (see the head
 * comment): the routes first, the pvmd's last.  Messages delivered. */
static int
rx_shm_drain(void)
{
	struct lpvm_conn *c;
	int n = 0;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c != lpvm_pvmd)
			n += rx_shm_drain_one(c);
	}
	return n + rx_shm_drain_one(lpvm_pvmd);
}

int
lpvm_rx_conn(struct lpvm_conn *c)
{
	if (c->fd < 0 || lpvm_conn_rx_held(c))
		return 0;
	return rx_read(c, 0);
}

/* Make room for n poll entries.  0 or -1. */
static int
rx_reserve(size_t n)
{
	struct pollfd *p;
	struct lpvm_conn **q;

	if (n <= rx_pcap)
		return 0;
	n += 8;
	if ((p = realloc(rx_pfd, n * sizeof(*p))) == NULL)
		return -1;
	rx_pfd = p;
	if ((q = realloc(rx_pconn, n * sizeof(*q))) == NULL)
		return -1;
	rx_pconn = q;
	rx_pcap = n;
	return 0;
}

/* Fill the poll set; returns the number of entries or -1. */
static int
rx_pollset(struct lpvm_conn *wout)
{
	struct lpvm_conn *c;
	size_t n = 2; /* the listening sockets */

	for (c = lpvm_conns; c != NULL; c = c->next)
		n++;
	if (rx_reserve(n) != 0)
		return -1;
	n = 0;
	if (lpvm.listenfd >= 0) {
		rx_pfd[n].fd = lpvm.listenfd;
		rx_pfd[n].events = POLLIN;
		rx_pconn[n++] = NULL;
	}
	if (lpvm_tcp_listenfd >= 0) {
		rx_pfd[n].fd = lpvm_tcp_listenfd;
		rx_pfd[n].events = POLLIN;
		rx_pconn[n++] = NULL;
	}
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->fd < 0)
			continue;
		if (c->shm != NULL) {
			/* Wake-ups and the hangup only (held or not: see
			 * rx_shm_held_hup); a hangup seen is not polled
			 * again. */
			if (c->eof)
				continue;
			rx_pfd[n].fd = c->fd;
			rx_pfd[n].events = POLLIN;
			rx_pconn[n++] = c;
			continue;
		}
		/* A held route is not read: its hangup must wait too. */
		if (lpvm_conn_rx_held(c) && c != wout)
			continue;
		rx_pfd[n].fd = c->fd;
		{
			rx_pfd[n].events = lpvm_conn_rx_held(c) ? 0 : POLLIN;
			if (c == wout)
				rx_pfd[n].events |= POLLOUT;
		}
		rx_pconn[n++] = c;
	}
	/* A look that finds bytes in a ring returns without poll(2)
	 * (rx_look_poll): no revents of an earlier poll may stand. */
	for (size_t i = 0; i < n; i++)
		rx_pfd[i].revents = 0;
	return (int)n;
}

/*
 * A direct route failed: outgoing ones are remembered as refused.  The
 * pvmd's connection on rings fails here too: it is closed, and
 * lpvm_io_wait then disconnects (not in here: the callers walk the list
 * of connections, which a disconnect may free).
 */
static void
rx_route_lost(struct lpvm_conn *c)
{
	switch (c->state) {
	case CONN_OUT_WAIT:
	case CONN_OUT_ACKED:
	case CONN_OUT_OPEN:
		lpvm_conn_close(c, CONN_REFUSED);
		break;
	default:
		lpvm_conn_close(c, CONN_DEAD);
		break;
	}
}

/* Parse what c holds already, or read its ring if it has bytes.
 * Messages delivered. */
static int
rx_pending_one(struct lpvm_conn *c)
{
	int k;

	if (c == NULL || c->fd < 0 || lpvm_conn_rx_held(c))
		return 0;
	if (c->shm != NULL) {
		if (!c->pending && !c->eof && !ring_end_rx_ready(c->shm))
			return 0;
		k = rx_read_shm(c, 0);
	} else if (!c->pending)
		return 0;
	else
		k = rx_parse(c);
	if (k >= 0)
		return k;
	rx_route_lost(c);
	return 0;
}

/* The routes first, the pvmd last (see rx_shm_drain). */
int
lpvm_rx_pending(void)
{
	struct lpvm_conn *c;
	int n = 0;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c != lpvm_pvmd)
			n += rx_pending_one(c);
	}
	return n + rx_pending_one(lpvm_pvmd);
}

/* For libgpvm's drain after a peer's death (libpvm_private.h): bytes
 * parsed but not delivered, a ring's, or a socket's; a ring route's
 * socket carries only wake-up bytes, so only its ring counts. */
int
lpvm_input_pending(void)
{
	const struct lpvm_conn *c;
	int avail;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->fd < 0 || lpvm_conn_rx_held(c))
			continue;
		if (c->pending)
			return 1;
		if (c->shm != NULL) {
			if (ring_end_rx_ready(c->shm))
				return 1;
			continue;
		}
		avail = 0;
		if (ioctl(c->fd, FIONREAD, &avail) == 0 && avail > 0)
			return 1;
	}
	return 0;
}

/* True if a ring that may deliver has bytes, or wout's ring has room. */
static int
rx_look_rings(const struct lpvm_conn *wout)
{
	const struct lpvm_conn *c;

	if (wout != NULL && wout->shm != NULL &&
	    (wout->eof || ring_end_tx_room(wout->shm)))
		return 1;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->shm != NULL && c->fd >= 0 && !lpvm_conn_rx_held(c) &&
		    ring_end_rx_ready(c->shm))
			return 1;
	}
	return 0;
}

/*
 * About to block: ask every ring's writer for a wake-up (and wout's
 * reader, for room).  Returns 1 if a ring turned out ready meanwhile.
 */
static int
rx_rings_sleep(struct lpvm_conn *wout)
{
	struct lpvm_conn *c;
	int ready = 0;

	if (wout != NULL && wout->shm != NULL && ring_end_tx_sleep(wout->shm))
		ready = 1;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->shm != NULL && c->fd >= 0 && !lpvm_conn_rx_held(c) &&
		    lpvm_shm_rx_sleep(c->shm))
			ready = 1;
	}
	return ready;
}

/* Awake again: withdraw the wake-up requests of rx_rings_sleep. */
static void
rx_rings_awake(void)
{
	struct lpvm_conn *c;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->shm != NULL && c->fd >= 0)
			lpvm_shm_rx_awake(c->shm);
	}
}

/* Any connection read from its socket that may deliver now (a route
 * without rings, a TCP route, the pvmd's without rings): then a wait
 * polls the sockets at every look, not only now and then. */
static int
rx_any_sockets(void)
{
	const struct lpvm_conn *c;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->shm == NULL && c->fd >= 0 && !lpvm_conn_rx_held(c))
			return 1;
	}
	return 0;
}

/* Any ring route at all (then waits watch memory as well as sockets). */
static int
rx_any_rings(void)
{
	const struct lpvm_conn *c;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->shm != NULL && c->fd >= 0)
			return 1;
	}
	return 0;
}

/*
 * True if the pvmd connection is the only socket worth waiting on: no
 * direct route can deliver or is being set up.  The Unix listening
 * socket does not count: a task that connects to it knocks through the
 * pvmd too (route.c).  The TCP one counts while a cookie is out: there
 * the knock may overtake the connection it announces.
 */
static int
rx_only_pvmd(void)
{
	struct lpvm_conn *c;

	if (lpvm_pvmd == NULL || lpvm_pvmd->fd < 0 || lpvm_pvmd->shm != NULL ||
	    lpvm_route_tcp_waiting())
		return 0;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c != lpvm_pvmd && c->fd >= 0 && !lpvm_conn_rx_held(c))
			return 0;
	}
	return 1;
}

/*
 * Wait for the pvmd: spin on non-blocking reads within the budget, then
 * block in one read (one system call where poll and read would be two,
 * and a cheaper wakeup: about 2 us less per wait on 2-core VMs).  Same
 * results as lpvm_io_wait.
 */
static int
rx_look_pvmd(void *unused)
{
	(void)unused;
	return rx_read(lpvm_pvmd, 0);
}

static int
rx_wait_pvmd(void)
{
	int k = spin_wait(&rx_spin_pvmd, rx_look_pvmd, NULL);

	if (k == 0)
		k = rx_read(lpvm_pvmd, 1);
	if (k < 0) {
		lpvm_disconnect();
		return PvmSysErr;
	}
	return k;
}

struct rx_look {
	int n;                  /* entries of rx_pfd */
	struct lpvm_conn *wout; /* a write waiting for room, or NULL */
	int rings;              /* any ring routes */
	int sockets;            /* any socket that may deliver */
	unsigned looks;
};

/* One look of a spin: the rings for a moment (no system call), and now
 * and then the first n entries of rx_pfd. */
static int
rx_look_poll(void *arg)
{
	struct rx_look *l = arg;
	int i;

	if (l->rings) {
		for (i = 0; i < RX_RING_RELAX; i++) {
			if (rx_look_rings(l->wout))
				return 1;
			spin_relax();
		}
		if (!l->sockets && l->looks++ % RX_RING_POLL_EVERY != 0)
			return 0;
	}
	return poll(rx_pfd, (nfds_t)l->n, 0);
}

/* One look of the memory-only spin: the rings alone. */
static int
rx_look_hot(void *wout)
{
	return rx_look_rings(wout);
}

/* poll(2) the first n entries of rx_pfd; a wait that would block spins
 * first, within budget b, and then asks the rings' writers (and wout's
 * reader) for a wake-up before it sleeps. */
static int
rx_poll(int n, int timeout_ms, struct spin_budget *b, struct lpvm_conn *wout)
{
	struct rx_look l = {n, wout, rx_any_rings(), rx_any_sockets(), 1};
	int k;

	if (timeout_ms != 0 && (k = spin_wait(b, rx_look_poll, &l)) != 0)
		return k;
	if (!l.rings)
		return poll(rx_pfd, (nfds_t)n, timeout_ms);
	if (rx_rings_sleep(wout))
		timeout_ms = 0;
	k = poll(rx_pfd, (nfds_t)n, timeout_ms);
	rx_rings_awake();
	return k < 0 ? k : k + rx_look_rings(wout);
}

/*
 * A held ring route woke: wake-ups, or its peer hung up.  The peer
 * writes to its ring only after its marker went through the pvmd, so a
 * ring it never wrote holds nothing to wait for: close the route (else
 * a peer that died between ack and marker would leave it, and its
 * segment, for good).  Otherwise the marker is on its way; the route
 * opens, is read to its end and closes then.
 */
static void
rx_shm_held_hup(struct lpvm_conn *c)
{
	rx_shm_wakes(c);
	if (c->eof && ring_end_rx_unused(c->shm))
		rx_route_lost(c);
}

/*
 * After a poll: read the ring routes whose socket woke (wake-ups, the
 * hangup) or whose ring has bytes, and see whether wout has room now.
 * Returns what to add to lpvm_io_wait's count.
 */
static int
rx_poll_rings(int n, struct lpvm_conn *wout, int *writable)
{
	struct lpvm_conn *c;
	int i, k, got = 0;

	for (i = 0; i < n; i++) {
		c = rx_pconn[i];
		if (c == NULL || c->shm == NULL || c->fd < 0 ||
		    rx_pfd[i].revents == 0)
			continue;
		if (c == lpvm_pvmd)
			rx_shm_wakes(c); /* read last, by rx_shm_drain */
		else if (lpvm_conn_rx_held(c))
			rx_shm_held_hup(c);
		else if ((k = rx_read_shm(c, 1)) >= 0)
			got += k;
		else {
			rx_route_lost(c);
			got++;
		}
	}
	return got + rx_rings_input(wout, writable);
}

/* Read the rings that have bytes, and see whether wout has room now.
 * What to add to lpvm_io_wait's count. */
static int
rx_rings_input(struct lpvm_conn *wout, int *writable)
{
	int got = rx_shm_drain();

	if (wout != NULL && wout->shm != NULL &&
	    (wout->fd < 0 || wout->eof || ring_end_tx_room(wout->shm))) {
		*writable = 1;
		got++;
	}
	return got;
}

/*
 * With ring routes and no socket that may deliver, a wait first spins on
 * the rings alone (spin_hot), before the poll set is even built: what
 * the spin finds is read from the rings, and no socket is asked (about
 * 150 instructions a message less in a ping-pong, callgrind).  Returns
 * what to add to lpvm_io_wait's count, or 0 if the spin found nothing.
 */
static int
rx_hot_wait(struct lpvm_conn *wout, int *writable)
{
	if (rx_hot_spent) {
		rx_hot_spent = 0;
		return 0;
	}
	if (!rx_any_rings() || rx_any_sockets() ||
	    spin_hot(&rx_spin_hot, rx_look_hot, wout, spin_hot_us(2)) == 0)
		return 0;
	return rx_rings_input(wout, writable);
}

static int
rx_io_wait(int timeout_ms, struct lpvm_conn *wout, int *writable)
{
	int i, n, k, got = 0, lost = 0;
	struct lpvm_conn *c;
	int only_pvmd, stall;

	if (writable != NULL)
		*writable = 0;
	/* Answers to bulk offers and route requests go out before we may
	 * block. */
	if (lpvm_tx_depth == 0) {
		lpvm_bulk_flush();
		lpvm_route_flush();
	}
	only_pvmd = rx_only_pvmd();
	if ((got = lpvm_rx_pending()) > 0)
		timeout_ms = 0;
	else if (timeout_ms < 0 && wout == NULL && only_pvmd)
		return rx_wait_pvmd();
	if (wout != NULL && wout->shm != NULL &&
	    (wout->eof || wout->fd < 0 || ring_end_tx_room(wout->shm))) {
		*writable = 1;
		return got + 1;
	}
	if (timeout_ms != 0)
		spin_window_update(&rx_spin_hot, &rx_spin_poll);
	if (timeout_ms != 0 && (k = rx_hot_wait(wout, writable)) > 0)
		return got + k;
	if ((n = rx_pollset(wout)) < 0)
		return got;
	/* A write on TCP may wait for a peer whose host vanished. */
	stall = wout != NULL && wout->tcp && timeout_ms < 0;
	if (stall)
		timeout_ms = LPVM_ROUTE_STALL_MS;
	if ((k = rx_poll(n, timeout_ms,
	         only_pvmd ? &rx_spin_pvmd : &rx_spin_poll, wout)) <= 0) {
		if (k == 0 && stall)
			lpvm_route_tcp_stalled(wout);
		return got; /* timeout, or EINTR: the caller loops */
	}
	for (i = 0; i < n; i++) {
		if (rx_pfd[i].revents == 0)
			continue;
		if ((c = rx_pconn[i]) == NULL) {
			lpvm_route_accept();
			continue;
		}
		if (c->fd < 0)
			continue; /* closed meanwhile */
		if (c->shm != NULL)
			continue; /* below */
		/* On hangup too: the write then fails instead of waiting. */
		if (c == wout &&
		    (rx_pfd[i].revents & (POLLOUT | POLLHUP | POLLERR))) {
			*writable = 1;
			got++;
		}
		if (!(rx_pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) ||
		    lpvm_conn_rx_held(c))
			continue;
		if ((k = rx_read(c, 0)) >= 0) {
			got += k;
			continue;
		}
		if (c == lpvm_pvmd)
			lost = 1;
		else
			rx_route_lost(c);
		got++;
	}
	if (!lost)
		got += rx_poll_rings(n, wout, writable);
	if (lost) {
		lpvm_disconnect();
		return PvmSysErr;
	}
	return got;
}

/* After input was handled, with no write under way: free the connections
 * that died, send what is owed (lpvm_io_wait, lpvm_pump_for). */
static void
rx_wait_done(void)
{
	if (lpvm_tx_depth == 0 && lpvm_pvmd != NULL) {
		lpvm_conn_reap();
		lpvm_bulk_flush();
		lpvm_route_flush();
	}
}

/*
 * The answers owed to offers and route requests read during the wait go
 * out on every way out of it, not only after a poll that found input: a
 * wait first reads the rings that have bytes (lpvm_rx_pending), and if
 * that delivered an offer and the poll that follows (not waiting then)
 * finds nothing, it returns at once.  The program may then have its
 * message and block outside libpvm (pvm_barrier) while the offerer waits
 * for the answer in its pvm_send: the soak's stall with rings.
 */
int
lpvm_io_wait(int timeout_ms, struct lpvm_conn *wout, int *writable)
{
	int had_pvmd = lpvm_pvmd != NULL;
	int r = rx_io_wait(timeout_ms, wout, writable);

	if (had_pvmd && lpvm_pvmd == NULL && r >= 0) {
		lpvm_disconnect(); /* its rings failed (rx_route_lost) */
		return PvmSysErr;
	}
	if (r >= 0)
		rx_wait_done();
	return r;
}

/* What rx_look_take found (spin_hot ends at anything but RX_TAKE_NONE). */
enum rx_take_result {
	RX_TAKE_NONE,  /* nothing in the rings */
	RX_TAKE_GOT,   /* a message was delivered */
	RX_TAKE_OTHER, /* input only the general path reads */
};

/* Every connection that may deliver is on rings, nothing read waits to
 * be parsed, and no write is under way: rx_take may spin (the
 * conditions of rx_hot_wait, and lpvm_rx_pending's work none). */
static int
rx_take_ok(void)
{
	const struct lpvm_conn *c;
	int rings = 0;

	if (lpvm_tx_depth != 0 || lpvm_pvmd == NULL || lpvm_route_tcp_waiting())
		return 0;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->fd < 0)
			continue;
		if (c->pending)
			return 0;
		if (c->shm != NULL)
			rings = 1;
		else if (!lpvm_conn_rx_held(c))
			return 0;
	}
	return rings;
}

/* One look of rx_take: the first ring with bytes, the routes' before
 * the pvmd's (rx_shm_drain's order); a route's whole one-frame message
 * is taken here, anything else is left to the general path. */
static int
rx_look_take(void *unused)
{
	struct lpvm_conn *c;

	(void)unused;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->shm == NULL || c->fd < 0 || lpvm_conn_rx_held(c) ||
		    !ring_end_rx_ready(c->shm))
			continue;
		if (c == lpvm_pvmd || c->eof || rx_shm_one(c) == 0)
			return RX_TAKE_OTHER;
		return RX_TAKE_GOT;
	}
	return RX_TAKE_NONE;
}

/*
 * A blocking receive's first spin (lpvm_pump_for): rx_hot_wait's spin on
 * the rings alone, which also takes a route's message where it finds
 * one, so that the message reaches the receive without the general
 * wait's walks of every connection before and after.  -1 if it does not
 * apply (rx_take_ok), else what the spin ended with.
 */
static int
rx_take(void)
{
	int r;

	if (!rx_take_ok())
		return -1;
	lpvm_bulk_flush();
	lpvm_route_flush();
	spin_window_update(&rx_spin_hot, &rx_spin_poll);
	r = spin_hot(&rx_spin_hot, rx_look_take, NULL, spin_hot_us(2));
	rx_hot_spent = r == RX_TAKE_NONE;
	return r;
}

int
lpvm_pump_for(int timeout_ms, int (*match)(const struct lpvm_msg *, void *),
    void *arg, struct lpvm_msg **got)
{
	struct lpvm_want want = {match, arg, NULL}, *outer = lpvm_rx_want;
	int r = -1;

	lpvm_rx_want = &want;
	if (timeout_ms != 0) {
		r = rx_take();
		if (r < 0)
			rx_takes.refused++;
		else if (r == RX_TAKE_GOT)
			rx_takes.taken++;
		else
			rx_takes.waited++;
	}
	if (r == RX_TAKE_GOT) {
		/* As lpvm_io_wait and lpvm_pump after input. */
		rx_wait_done();
		lpvm_mhf_run_before(lpvm_mhf_hold ? 0 : LPVM_SEQ_ALL);
		r = lpvm_pvmd != NULL ? 1 : PvmSysErr;
	} else
		r = lpvm_pump(timeout_ms);
	if (r < 0 && want.m != NULL) {
		/* Lost with the pvmd, as the queue's messages are. */
		lpvm_msg_free(want.m);
		want.m = NULL;
	}
	rx_hot_spent = 0;
	lpvm_rx_want = outer;
	*got = want.m;
	return r;
}

void
lpvm_rx_trace_counts(void)
{
	if (rx_takes.taken + rx_takes.waited + rx_takes.refused > 0)
		lpvm_route_trace("blocking receives: %lu taken from a ring, "
		                 "%lu waited on, %lu refused the ring spin",
		    rx_takes.taken, rx_takes.waited, rx_takes.refused);
	memset(&rx_takes, 0, sizeof(rx_takes));
}

int
lpvm_rx_local(
    const struct wire_hdr *h, const struct lpvm_seg *pieces, size_t npieces)
{
	size_t i, len = 0;
	uint8_t *data;

	for (i = 0; i < npieces; i++)
		len += pieces[i].len;
	if ((data = malloc(len > 0 ? len : 1)) == NULL)
		return PvmNoMem;
	for (i = 0, len = 0; i < npieces; i++) {
		memcpy(data + len, pieces[i].ptr, pieces[i].len);
		len += pieces[i].len;
	}
	rx_dispatch(h, data, len, len);
	return 0;
}

/* Process input until a message arrives or timeout_ms passes; run message
 * handlers when that is safe (not in the middle of a write). */
int
lpvm_pump(int timeout_ms)
{
	long long end = 0, left;
	int r;

	if (timeout_ms > 0)
		end = mono_ms() + timeout_ms;
	for (;;) {
		if (lpvm_pvmd == NULL)
			return PvmSysErr;
		r = lpvm_io_wait(timeout_ms, NULL, NULL);
		if (r >= 0 && lpvm_tx_depth == 0)
			lpvm_mhf_run_before(lpvm_mhf_hold ? 0 : LPVM_SEQ_ALL);
		if (r != 0 || timeout_ms == 0)
			return r < 0 ? r : r > 0;
		if (timeout_ms > 0) {
			if ((left = end - mono_ms()) <= 0)
				return 0;
			timeout_ms = (int)left;
		}
	}
}
