/*
 * route.c: direct routes between tasks (PvmRouteDirect).
 *
 * Every enrolled task listens on a Unix socket, paths_task_sock(dir, tid),
 * in the per-user 0700 directory.  A task whose PvmRoute is PvmRouteDirect
 * opens a one-way route to a peer the first time it sends to it; the
 * peer's own sends keep using the pvmd unless it opens a route too.  A
 * peer on another host is reached over TCP: route_tcp.c gets its address
 * and a cookie through the pvmds first, then the handshake below is the
 * same.  Whatever fails, messages go through the pvmds, silently: as in
 * PVM, PvmRouteDirect is a request, not a promise.
 *
 * Opening keeps each sender's messages in order although the earlier ones
 * went through the pvmd:
 *
 *   A: connect to B's socket, write hello = TC_ROUTE frame (marker m),
 *      then knock: TC_ROUTE(0) through the pvmd, because B may be
 *      waiting in a read on its pvmd socket alone (rx.c) rather than
 *      polling its listening socket; keep sending through the pvmd
 *      meanwhile.
 *   B: accept; on the hello, if B's PvmRoute is PvmDontRoute, close (A
 *      then routes through the pvmd for good).  Otherwise write the same
 *      frame back (ack) and hold the connection: read nothing from it.
 *   A: on the ack, send TC_ROUTE(m) through the pvmd, then use the route.
 *   B: when TC_ROUTE(m) from A arrives through the pvmd, every message A
 *      sent through the pvmd before it has arrived: start reading the
 *      route.
 *
 * Nothing but the hello goes over a route before it is acknowledged, so a
 * refusal loses no data.  A failed connect or a lost route makes A use the
 * pvmd for that peer from then on.
 *
 * Shared memory (shm.c): A's hello carries a sealed memfd of two rings
 * (SCM_RIGHTS); B's ack says in a second word whether B mapped it.  If it
 * did, both sides' frames go through the rings from the ack on, in the
 * same order and under the same holds as they would through the socket,
 * which then carries only wake-ups.  Else the socket carries the frames.
 *
 * When: PvmRouteDirect opens a route to any task, as in PVM; PvmAllowDirect
 * (the default) opens none, also as in PVM, unless $PVM_SHM is "all":
 * then it opens one to every task of our host it sends to, and data
 * between tasks of one host never passes through the pvmd.  That is not
 * the default because a program can see it: pvm_getfds counts the
 * routes, and the diff probes against PVM 3.4.6 (p_misc, p_group) came
 * out different with it.  PvmDontRoute opens none and refuses them.
 */
#define _GNU_SOURCE /* struct ucred, accept4, SOCK_* flags */
#include "pvm3.h"
#include "be.h"
#include "clock.h"
#include "conn.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#define ROUTE_TRIES 8 /* connect attempts per peer (20 ms .. 2.5 s apart) */

static int route_wanted(int dst);
static int route_watched; /* pvm_getfds was called (see shm.c) */

static int32_t route_nextmarker;

/*
 * $PVM_ROUTE_TRACE set: each step of a route (opened, acknowledged, in
 * use, used backwards, marker in, closed) on stderr, for a soak that
 * found a message out of order.
 */
void
lpvm_route_trace(const char *fmt, ...)
{
	static int on = -1;
	va_list ap;

	if (on < 0)
		on = getenv("PVM_ROUTE_TRACE") != NULL;
	if (!on)
		return;
	fprintf(stderr, "libpvm [t%x] route: ", (unsigned)lpvm.mytid);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
/* Refusal records that wait for a retry (a hint: may count too many). */
static int route_nretry;

int
lpvm_route_send(
    struct lpvm_conn *c, int dst, int32_t tag, const uint8_t *body, size_t len)
{
	struct wire_hdr h;
	struct lpvm_seg seg;

	lpvm_hdr_init(&h, dst, tag, SYSCTX_TC, WIRE_ENC_XDR, 0);
	seg.ptr = body;
	seg.len = len;
	return lpvm_tx(c, &h, &seg, 1);
}

/* Write a TC_ROUTE frame carrying marker to dst over c.  0 or -1. */
static int
route_send_marker(struct lpvm_conn *c, int dst, int32_t marker)
{
	uint8_t body[4];

	put32(body, (uint32_t)marker);
	return lpvm_route_send(c, dst, TC_ROUTE, body, sizeof(body));
}

/*
 * The hello on a fresh Unix route: a TC_ROUTE frame with marker, and the
 * segment's fd if there is one (fd >= 0).  0 or -1.
 */
static int
route_send_hello(struct lpvm_conn *c, int dst, int32_t marker, int fd)
{
	uint8_t body[4];
	struct wire_hdr h;

	if (fd < 0)
		return route_send_marker(c, dst, marker);
	lpvm_hdr_init(&h, dst, TC_ROUTE, SYSCTX_TC, WIRE_ENC_XDR, 0);
	put32(body, (uint32_t)marker);
	return lpvm_fd_frame_send(c, &h, body, sizeof(body), fd);
}

/* The acceptor's ack: the marker, then 1 if it took the segment. */
static int
route_send_ack(struct lpvm_conn *c, int dst, int32_t marker, int rings)
{
	uint8_t body[8];

	put32(body, (uint32_t)marker);
	put32(body + 4, rings ? 1u : 0u);
	return lpvm_route_send(c, dst, TC_ROUTE, body, sizeof(body));
}

/*
 * The ack settled it: frames of c go through the rings (used) or the
 * socket.  Whatever else the socket brought so far is wake-ups.
 */
static void
route_settle_rings(struct lpvm_conn *c, int used)
{
	if (used && c->shm_offer != NULL) {
		c->shm = c->shm_offer;
		c->shm_offer = NULL;
		lpvm_conn_gen++;
		c->ibeg = c->iend;
		if (route_watched)
			lpvm_shm_watch(c->shm);
		return;
	}
	ring_end_free(c->shm_offer);
	c->shm_offer = NULL;
}

void
lpvm_route_knock(int dst)
{
	if (lpvm_pvmd != NULL)
		(void)route_send_marker(lpvm_pvmd, dst, 0);
}

int32_t
lpvm_route_newmarker(void)
{
	if (++route_nextmarker <= 0)
		route_nextmarker = 1;
	return route_nextmarker;
}

/* The marker in a TC_ROUTE body (negated: reverse use), 0 if malformed. */
static int32_t
route_get_marker(const uint8_t *body, size_t len)
{
	return len < 4 ? 0 : (int32_t)get32(body);
}

/*
 * Remember that dst has no route for now.  A peer that is not listening
 * yet (a task just spawned connects to its pvmd a little after pvm_spawn
 * returns) is tried again later, with growing pauses, a few times.
 */
static void
route_refuse(int dst, int tries, int again)
{
	struct lpvm_conn *c;

	if ((c = lpvm_conn_new(-1, dst, CONN_REFUSED)) == NULL)
		return;
	c->tries = tries;
	if (again && tries < ROUTE_TRIES) {
		c->retry_ms = mono_ms() + (20LL << tries);
		route_nretry++;
	}
}

/*
 * A message from task src came through the pvmd.  A task sends only once
 * it is enrolled, and it listens from then on: a route to it that failed
 * because it was still starting is worth trying again at once instead of
 * after the pause (still at most ROUTE_TRIES attempts in all).
 */
void
lpvm_route_heard(int src)
{
	struct lpvm_conn *c;

	if (route_nretry == 0 || !route_wanted(src))
		return;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->peer == src && c->state == CONN_REFUSED &&
		    c->retry_ms != 0) {
			c->retry_ms = 1; /* long past: the next send retries */
			return;
		}
	}
}

/* Connect to dst's socket and send the hello; the route is then pending. */
static void
route_open(int dst, int tries)
{
	struct sockaddr_un sun;
	struct lpvm_conn *c;
	int fd, segfd = -1;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	tries++;
	if (paths_task_sock(
	        &lpvm.paths, dst, sun.sun_path, sizeof(sun.sun_path)) != 0) {
		route_refuse(dst, tries, 0);
		return;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1) {
		route_refuse(dst, tries, 1);
		return;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		lpvm_route_trace(
		    "to t%x: connect: %s", (unsigned)dst, strerror(errno));
		close(fd);
		route_refuse(dst, tries, 1);
		return;
	}
	if (!lpvm_peer_uid_ok(fd) ||
	    (c = lpvm_conn_new(fd, dst, CONN_OUT_WAIT)) == NULL) {
		close(fd);
		route_refuse(dst, tries, 0);
		return;
	}
	lpvm_fd_bufs(fd);
	c->marker = lpvm_route_newmarker();
	c->shm_offer = lpvm_shm_create(&segfd);
	if (route_send_hello(c, dst, c->marker, segfd) != 0) {
		if (segfd >= 0)
			close(segfd);
		lpvm_conn_close(c, CONN_REFUSED);
		return;
	}
	if (segfd >= 0)
		close(segfd); /* our mapping keeps the memory */
	lpvm_route_trace("to t%x: hello, marker %d%s", (unsigned)dst,
	    (int)c->marker, c->shm_offer != NULL ? ", rings offered" : "");
	/* Knock: dst may be waiting on its pvmd socket alone (rx.c). */
	lpvm_route_knock(dst);
}

/* The ack came: tell the peer through the pvmd, then use the route. */
static struct lpvm_conn *
route_activate(struct lpvm_conn *c)
{
	if (lpvm_pvmd == NULL ||
	    route_send_marker(lpvm_pvmd, c->peer, c->marker) != 0)
		return NULL;
	c->state = CONN_OUT_OPEN;
	lpvm_conn_gen++;
	lpvm_route_trace("to t%x: in use (marker %d sent)", (unsigned)c->peer,
	    (int)c->marker);
	return c;
}

/*
 * Start sending over an incoming route from the peer: tell it through the
 * pvmd first (negated marker), so it reads our direct frames only after
 * everything we sent it through the pvmd.
 */
static struct lpvm_conn *
route_reverse(struct lpvm_conn *c)
{
	if (lpvm_pvmd == NULL ||
	    route_send_marker(lpvm_pvmd, c->peer, -c->marker) != 0)
		return NULL;
	c->twoway = 1;
	lpvm_conn_gen++;
	lpvm_route_trace("to t%x: its route used backwards (marker %d sent)",
	    (unsigned)c->peer, (int)-c->marker);
	return c;
}

/* Our outgoing route to dst (asked for, pending or open), if any;
 * *refused: the record of a failed attempt. */
static struct lpvm_conn *
route_find_out(int dst, struct lpvm_conn **refused)
{
	struct lpvm_conn *c;

	*refused = NULL;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->peer != dst)
			continue;
		if (c->state == CONN_REFUSED)
			*refused = c;
		else if (c->state == CONN_OUT_REQ ||
		         c->state == CONN_OUT_ADDR ||
		         c->state == CONN_OUT_WAIT ||
		         c->state == CONN_OUT_ACKED ||
		         c->state == CONN_OUT_OPEN)
			return c;
	}
	return NULL;
}

/* dst's open route to us, if any. */
static struct lpvm_conn *
route_find_in(int dst)
{
	struct lpvm_conn *c;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->peer == dst && c->state == CONN_IN_OPEN && c->fd >= 0)
			return c;
	}
	return NULL;
}

/* Our route c to its peer, not refused: the route to send on, or NULL
 * (not ready: the pvmd then) after moving it on a step if it can. */
static struct lpvm_conn *
route_progress(struct lpvm_conn *c)
{
	switch (c->state) {
	case CONN_OUT_OPEN:
		return c;
	case CONN_OUT_ACKED:
		return route_activate(c);
	case CONN_OUT_REQ:
		return NULL; /* the address has not come yet */
	case CONN_OUT_ADDR:
		/* It writes to the pvmd: not inside another write. */
		if (lpvm_tx_depth == 0)
			lpvm_route_tcp_connect(c);
		return NULL;
	default:
		/* Pending: look for the ack without waiting. */
		if (lpvm_rx_conn(c) < 0)
			lpvm_conn_close(c, CONN_REFUSED);
		if (c->state == CONN_OUT_ACKED)
			return route_activate(c);
		return NULL;
	}
}

/* Whether a send to dst should open a route (see the head comment). */
static int
route_wanted(int dst)
{
	if (dst == lpvm.mytid || lpvm.route == PvmDontRoute)
		return 0;
	if (lpvm.route == PvmRouteDirect)
		return 1;
	return tid_host(dst) == tid_host(lpvm.mytid) && lpvm_shm_default();
}

/*
 * The open route lpvm_route_get found for a task, kept until a connection
 * changes (lpvm_conn_gen): a message to the same task, the common case,
 * then costs no walk of the connections (about 50 instructions).  Routes
 * still opening are not kept: each send moves them on.
 */
static struct lpvm_conn *route_last;
static int route_last_dst;
static unsigned route_last_gen;

static struct lpvm_conn *
route_keep(int dst, struct lpvm_conn *c)
{
	if (c != NULL && c->fd >= 0 &&
	    (c->state == CONN_OUT_OPEN ||
	        (c->state == CONN_IN_OPEN && c->twoway))) {
		route_last = c;
		route_last_dst = dst;
		route_last_gen = lpvm_conn_gen;
	}
	return c;
}

/*
 * One peer, one path: once frames go over a route they keep using it, so
 * a peer never gets our messages over two unordered paths.  Our own
 * route is preferred; the peer's route is used backwards only when we
 * have none of our own.
 */
static struct lpvm_conn *__attribute__((noinline))
route_get_slow(int dst)
{
	struct lpvm_conn *c, *in, *refused;
	int tries = 0;

	in = route_find_in(dst);
	if (in != NULL && in->twoway)
		return route_keep(dst, in);
	if ((c = route_find_out(dst, &refused)) != NULL)
		return route_keep(dst, route_progress(c));
	if (in != NULL && lpvm.route != PvmDontRoute)
		return route_reverse(in);
	if (!route_wanted(dst))
		return NULL;
	if (tid_host(dst) != tid_host(lpvm.mytid)) {
		/* Asked once: a refusal or a failure is for good. */
		if (refused == NULL)
			lpvm_route_tcp_request(dst);
		return NULL;
	}
	if (refused != NULL) {
		if (refused->retry_ms == 0 || mono_ms() < refused->retry_ms)
			return NULL;
		tries = refused->tries;
		refused->state = CONN_DEAD; /* reaped later */
		lpvm_conn_gen++;
		lpvm_owed |= LPVM_OWED_REAP;
		if (route_nretry > 0)
			route_nretry--;
	}
	route_open(dst, tries);
	return NULL;
}

/* The open route to dst last used, or NULL: no lookup, no side effect. */
struct lpvm_conn *
lpvm_route_cached(int dst)
{
	if (route_last != NULL && route_last_dst == dst &&
	    route_last_gen == lpvm_conn_gen)
		return route_last;
	return NULL;
}

/* The cached route, else the way above: small, so that it can be inlined
 * into every send (the prologue of the whole was most of the 30
 * instructions it took a send, callgrind). */
struct lpvm_conn *
lpvm_route_get(int dst)
{
	struct lpvm_conn *c = lpvm_route_cached(dst);

	return c != NULL ? c : route_get_slow(dst);
}

/* Close other incoming routes from peer (it opened a new one). */
static void
route_drop_old_in(struct lpvm_conn *keep, int peer)
{
	struct lpvm_conn *c;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c != keep && c->peer == peer && c->fd >= 0 &&
		    (c->state == CONN_IN_HOLD || c->state == CONN_IN_OPEN))
			lpvm_conn_close(c, CONN_DEAD);
	}
}

/*
 * May the hello h open a route to us on c?  A Unix socket is from our
 * host (its peer credentials were checked at accept); a TCP connection
 * must bring the cookie we gave that task (route_tcp.c).
 */
static int
route_hello_ok(const struct lpvm_conn *c, const struct wire_hdr *h,
    const uint8_t *body, size_t len)
{
	if (h->tag != TC_ROUTE || h->ctx != SYSCTX_TC ||
	    lpvm.route == PvmDontRoute || !tid_is_task(h->src))
		return 0;
	if (c->tcp)
		return lpvm_route_tcp_hello(h, body, len);
	return route_get_marker(body, len) > 0 &&
	       tid_host(h->src) == tid_host(lpvm.mytid);
}

void
lpvm_route_frame(struct lpvm_conn *c, const struct wire_hdr *h,
    const uint8_t *body, size_t len)
{
	int32_t marker = route_get_marker(body, len);
	int ok = h->tag == TC_ROUTE && h->ctx == SYSCTX_TC && marker > 0;

	if (c->state == CONN_IN_HELLO) {
		if (!route_hello_ok(c, h, body, len)) {
			lpvm_conn_close(c, CONN_DEAD);
			return;
		}
		route_drop_old_in(c, h->src);
		c->peer = h->src;
		c->marker = marker;
		if (route_send_ack(c, h->src, marker, c->shm_offer != NULL) !=
		    0) {
			lpvm_conn_close(c, CONN_DEAD);
			return;
		}
		route_settle_rings(c, 1);
		c->state = CONN_IN_HOLD;
		lpvm_conn_gen++;
		lpvm_route_trace("from t%x: hello, marker %d, acknowledged%s",
		    (unsigned)c->peer, (int)marker,
		    c->shm != NULL ? " (rings)" : "");
		return;
	}
	if (c->state == CONN_OUT_WAIT && ok && marker == c->marker &&
	    h->src == c->peer) {
		route_settle_rings(c, len >= 8 && get32(body + 4) == 1);
		c->state = CONN_OUT_ACKED;
		lpvm_conn_gen++;
		lpvm_route_trace("to t%x: acknowledged%s", (unsigned)c->peer,
		    c->shm != NULL ? " (rings)" : "");
		return;
	}
	lpvm_conn_close(
	    c, c->state == CONN_OUT_WAIT ? CONN_REFUSED : CONN_DEAD);
}

void
lpvm_route_marker(int src, const uint8_t *body, size_t len)
{
	int32_t marker = route_get_marker(body, len);
	struct lpvm_conn *c;

	if (marker == 0) {
		/* A knock: src connected to one of our listening sockets. */
		lpvm_route_accept();
		return;
	}
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->peer != src || c->fd < 0)
			continue;
		if (marker > 0 && c->state == CONN_IN_HOLD &&
		    c->marker == marker) {
			/* Its route to us opens. */
			c->state = CONN_IN_OPEN;
			/* Input may already be buffered.  Only then: a mark
			 * with nothing to parse stays, since a ring's short
			 * read never parses, and keeps every blocking receive
			 * off the ring spin (rx_take_ok). */
			c->pending = lpvm_conn_buffered(c);
			lpvm_conn_gen++;
			lpvm_route_trace("from t%x: marker %d in, reading it",
			    (unsigned)src, (int)marker);
			return;
		}
		if (marker < 0 && c->state == CONN_OUT_OPEN &&
		    c->marker == -marker) {
			/* It starts answering over our route. */
			c->twoway = 1;
			lpvm_conn_gen++;
			c->pending = lpvm_conn_buffered(c);
			lpvm_route_trace("to t%x: marker %d in, reading it "
			                 "backwards",
			    (unsigned)src, (int)marker);
			return;
		}
	}
}

/* Accept on the Unix listener: tasks of our user on our host. */
static void
route_accept_unix(void)
{
	struct lpvm_conn *c;
	int fd;

	for (;;) {
		fd = accept4(
		    lpvm.listenfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd == -1) {
			if (errno == EINTR)
				continue;
			return; /* EAGAIN, or out of descriptors: later */
		}
		if (lpvm.route == PvmDontRoute || !lpvm_peer_uid_ok(fd) ||
		    (c = lpvm_conn_new(fd, 0, CONN_IN_HELLO)) == NULL) {
			close(fd);
			continue;
		}
		lpvm_fd_bufs(fd);
	}
}

void
lpvm_route_accept(void)
{
	if (lpvm.listenfd >= 0)
		route_accept_unix();
	if (lpvm_tcp_listenfd >= 0)
		lpvm_route_tcp_accept();
}

int
lpvm_route_listen(void)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (lpvm.listenfd >= 0 || lpvm.paths.dir[0] == '\0' ||
	    paths_task_sock(&lpvm.paths, lpvm.mytid, sun.sun_path,
	        sizeof(sun.sun_path)) != 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1)
		return -1;
	(void)unlink(sun.sun_path); /* a stale one from a dead task */
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(fd, 64) == -1) {
		close(fd);
		return -1;
	}
	lpvm.listenfd = fd;
	snprintf(lpvm.listenpath, sizeof(lpvm.listenpath), "%s", sun.sun_path);
	return 0;
}

void
lpvm_route_closeall(void)
{
	struct lpvm_conn *c;

	route_nretry = 0;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c != lpvm_pvmd && c->state != CONN_DEAD)
			lpvm_conn_close(c, CONN_DEAD);
	}
	if (lpvm.listenfd >= 0) {
		close(lpvm.listenfd);
		lpvm.listenfd = -1;
		(void)unlink(lpvm.listenpath);
		lpvm.listenpath[0] = '\0';
	}
	lpvm_route_tcp_reset();
}

/* The pvmd socket first, then the direct routes, Unix or TCP (PVM's
 * getfds).  The listening sockets are not listed: a task that connects
 * to one knocks through the pvmd too. */
int
pvm_getfds(int **fds)
{
	static int *v;
	static size_t cap;
	struct lpvm_conn *c;
	size_t n = 1;
	int rc, *p, unannounced = 0;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_getfds", rc);
	for (c = lpvm_conns; c != NULL; c = c->next)
		n++;
	if (n > cap) {
		if ((p = realloc(v, n * sizeof(*v))) == NULL)
			return lpvm_err("pvm_getfds", PvmNoMem);
		v = p;
		cap = n;
	}
	n = 0;
	v[n++] = lpvm.fd;
	route_watched = 1;
	lpvm_shm_watch(NULL);
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->shm != NULL && lpvm_shm_watch(c->shm))
			unannounced = 1;
		if (c != lpvm_pvmd && c->fd >= 0)
			v[n++] = c->fd;
	}
	/* What a ring got before its first watch made no socket readable:
	 * read it now, as PVM reads what its sockets hold in any call (the
	 * caller's pvm_nrecv finds it).  Later calls read nothing: every
	 * write since has made the socket readable. */
	if (unannounced)
		(void)lpvm_pump(0);
	if (fds != NULL)
		*fds = v;
	return (int)n;
}
