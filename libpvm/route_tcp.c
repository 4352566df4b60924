/*
 * route_tcp.c: direct routes to tasks of other hosts, over TCP.
 *
 * A peer's Unix socket is out of reach on another host, and a TCP port is
 * open to the whole network: so the opener asks first, through the pvmds,
 * whose links are authenticated (docs/security.md), and the answer carries
 * a one-time cookie that only the asker learns:
 *
 *   A: TC_ROUTEREQ(m) to B through the pvmds (CONN_OUT_REQ); A keeps
 *      sending through the pvmds meanwhile.
 *   B: with PvmDontRoute, TC_ROUTEADDR(m, port 0): a refusal.  Else it
 *      listens on TCP (once, lazily), makes a random cookie for (A, m),
 *      keeps it ROUTE_TICKET_MS and answers TC_ROUTEADDR(m, its host
 *      name, port, cookie) through the pvmds.
 *   A: port 0: through the pvmds for good.  Else it connects (waiting at
 *      most ROUTE_CONNECT_MS), writes the hello, TC_ROUTE(m, cookie),
 *      and knocks through the pvmds (CONN_OUT_WAIT).
 *   B: accepts, and takes the hello only from A, for m, with that cookie,
 *      once.  From there on route.c's handshake (the ack, then the marker
 *      through the pvmds before any data) is the one of a single host, so
 *      order and refusal work the same way.
 *
 * Answers and connections wait for lpvm_route_flush, at a moment when no
 * write is in progress: they write to the pvmd connection, which may be
 * in the middle of a message.
 *
 * State is bounded: at most ROUTE_TICKETS cookies, each for
 * ROUTE_TICKET_MS.  Connections are accepted only while a cookie is out,
 * and at most ROUTE_HELLO_MAX at a time may wait for their hello, each for
 * at most ROUTE_HELLO_MS; rx.c lets a connection that has not said hello
 * send nothing but one small frame.
 */
#define _GNU_SOURCE /* accept4, SOCK_* flags */
#include "pvm3.h"
#include "clock.h"
#include "conn.h"
#include "ctl.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define ROUTE_TICKETS 64      /* cookies out at once */
#define ROUTE_TICKET_MS 30000 /* life of a cookie */
#define ROUTE_CONNECT_MS 2000 /* longest wait for a connect */
#define ROUTE_HELLO_MAX 16    /* accepted, hello not yet read */
#define ROUTE_HELLO_MS 10000  /* their longest wait for it */

enum ticket_state {
	TICKET_FREE,
	TICKET_GRANT,  /* answer owed: an address and this cookie */
	TICKET_REFUSE, /* answer owed: port 0 */
	TICKET_ISSUED, /* answered; the cookie may be used once */
};

struct route_ticket {
	enum ticket_state state;
	int peer;
	int32_t marker;
	long long expires; /* monotonic ms (TICKET_ISSUED) */
	uint8_t cookie[WIRE_ROUTE_COOKIE];
};

int lpvm_tcp_listenfd = -1;
static int tcp_port;
static struct route_ticket tickets[ROUTE_TICKETS];

/* Free the tickets whose time is over; the number still out. */
static int
ticket_purge(long long now)
{
	int i, n = 0;

	for (i = 0; i < ROUTE_TICKETS; i++) {
		if (tickets[i].state != TICKET_ISSUED)
			continue;
		if (now >= tickets[i].expires)
			tickets[i].state = TICKET_FREE;
		else
			n++;
	}
	return n;
}

/*
 * A slot for a new ticket: a free one, else the issued one that expires
 * first (its holder's hello then fails, and it keeps the pvmds).  NULL if
 * every slot holds an answer still owed.
 */
static struct route_ticket *
ticket_slot(void)
{
	struct route_ticket *t, *old = NULL;
	int i;

	for (i = 0; i < ROUTE_TICKETS; i++) {
		t = &tickets[i];
		if (t->state == TICKET_FREE)
			return t;
		if (t->state == TICKET_ISSUED &&
		    (old == NULL || t->expires < old->expires))
			old = t;
	}
	return old;
}

/* Equal cookies, in time that does not depend on where they differ. */
static int
cookie_equal(const uint8_t *a, const uint8_t *b)
{
	volatile uint8_t d = 0;
	int i;

	for (i = 0; i < WIRE_ROUTE_COOKIE; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

static void
tcp_nodelay(int fd)
{
	int one = 1;

	/* Small messages go at once: a route is for latency too. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* A listening socket of family bound to "any", ephemeral port; or -1. */
static int
tcp_bind_any(int family)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	int fd, off = 0, rc;

	fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -1;
	/* Buffers set before listen: accepted sockets inherit them, and
	 * the window scale is chosen at the handshake. */
	lpvm_fd_bufs(fd);
	if (family == AF_INET6) {
		/* One socket for IPv6 and IPv4 peers. */
		(void)setsockopt(
		    fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
		memset(&s6, 0, sizeof(s6));
		s6.sin6_family = AF_INET6;
		s6.sin6_addr = in6addr_any;
		rc = bind(fd, (struct sockaddr *)&s6, sizeof(s6));
	} else {
		memset(&s4, 0, sizeof(s4));
		s4.sin_family = AF_INET;
		s4.sin_addr.s_addr = htonl(INADDR_ANY);
		rc = bind(fd, (struct sockaddr *)&s4, sizeof(s4));
	}
	if (rc == -1 || listen(fd, 64) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Open the TCP listener if it is not open yet.  0 or -1. */
static int
tcp_listen(void)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd;

	if (lpvm_tcp_listenfd >= 0)
		return 0;
	if ((fd = tcp_bind_any(AF_INET6)) == -1 &&
	    (fd = tcp_bind_any(AF_INET)) == -1)
		return -1;
	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1) {
		close(fd);
		return -1;
	}
	if (ss.ss_family == AF_INET6)
		tcp_port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	else
		tcp_port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	lpvm_tcp_listenfd = fd;
	return 0;
}

void
lpvm_route_tcp_request(int dst)
{
	uint8_t body[WIRE_ROUTEREQ_LEN];
	struct lpvm_conn *c;
	int rc;

	if (lpvm_pvmd == NULL ||
	    (c = lpvm_conn_new(-1, dst, CONN_OUT_REQ)) == NULL)
		return;
	c->marker = lpvm_route_newmarker();
	wire_routereq_encode(c->marker, body);
	rc = lpvm_route_send(lpvm_pvmd, dst, TC_ROUTEREQ, body, sizeof(body));
	/* A write that fails may have closed everything: c is DEAD then. */
	if (rc != 0 && c->state == CONN_OUT_REQ) {
		c->state = CONN_REFUSED;
		lpvm_conn_gen++;
	}
}

void
lpvm_route_req_input(int src, const uint8_t *body, size_t len)
{
	struct route_ticket *t;
	int32_t marker;

	if (wire_routereq_decode(body, len, &marker) != 0 || !tid_is_task(src))
		return;
	(void)ticket_purge(mono_ms());
	if ((t = ticket_slot()) == NULL)
		return; /* the asker keeps using the pvmds */
	t->peer = src;
	t->marker = marker;
	t->state = TICKET_REFUSE;
	if (lpvm.route != PvmDontRoute && lpvm.hostname[0] != '\0' &&
	    tid_host(src) != tid_host(lpvm.mytid) && tcp_listen() == 0 &&
	    getrandom(t->cookie, sizeof(t->cookie), 0) ==
	        (ssize_t)sizeof(t->cookie))
		t->state = TICKET_GRANT;
	lpvm_owed |= LPVM_OWED_ROUTE;
}

/* Send the answer t owes through the pvmd. */
static void
ticket_answer(struct route_ticket *t)
{
	struct wire_routeaddr a;
	uint8_t body[WIRE_ROUTEADDR_MAX];
	size_t n;
	int peer = t->peer;

	memset(&a, 0, sizeof(a));
	a.marker = t->marker;
	if (t->state == TICKET_GRANT) {
		snprintf(a.host, sizeof(a.host), "%s", lpvm.hostname);
		a.port = tcp_port;
		memcpy(a.cookie, t->cookie, sizeof(a.cookie));
		t->state = TICKET_ISSUED;
		t->expires = mono_ms() + ROUTE_TICKET_MS;
	} else
		t->state = TICKET_FREE;
	/* The write may read input meanwhile, and change the tickets:
	 * t is not used after it. */
	if ((n = wire_routeaddr_encode(&a, body)) > 0)
		(void)lpvm_route_send(lpvm_pvmd, peer, TC_ROUTEADDR, body, n);
}

void
lpvm_route_addr_input(int src, const uint8_t *body, size_t len)
{
	struct wire_routeaddr a;
	struct lpvm_conn *c;

	if (wire_routeaddr_decode(body, len, &a) != 0)
		return;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->peer == src && c->state == CONN_OUT_REQ &&
		    c->marker == a.marker)
			break;
	}
	if (c == NULL)
		return; /* not asked, or given up since */
	lpvm_conn_gen++;
	if (a.port == 0 || (c->addr = malloc(sizeof(*c->addr))) == NULL) {
		c->state = CONN_REFUSED; /* for good: retry_ms is 0 */
		return;
	}
	*c->addr = a;
	c->state = CONN_OUT_ADDR;
	lpvm_owed |= LPVM_OWED_ROUTE;
}

/* Connect to one address within the deadline: the socket, or -1. */
static int
tcp_try(const struct addrinfo *ai, long long end)
{
	struct pollfd p;
	socklen_t len = sizeof(int);
	long long left;
	int fd, err = -1, k = 0;

	fd = socket(
	    ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -1;
	lpvm_fd_bufs(fd); /* before the handshake */
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno == EINPROGRESS) {
		p.fd = fd;
		p.events = POLLOUT;
		do {
			left = end - mono_ms();
			k = left > 0 ? poll(&p, 1, (int)left) : 0;
		} while (k == -1 && errno == EINTR);
		if (k == 1)
			(void)getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
	}
	if (err == 0)
		return fd;
	close(fd);
	return -1;
}

/* Connect to host:port, each of its addresses in turn, all within
 * ROUTE_CONNECT_MS.  The socket, or -1. */
static int
tcp_dial(const char *host, int port)
{
	struct addrinfo hints, *res, *ai;
	long long end = mono_ms() + ROUTE_CONNECT_MS;
	char serv[16];
	int fd = -1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(serv, sizeof(serv), "%d", port);
	if (getaddrinfo(host, serv, &hints, &res) != 0)
		return -1;
	for (ai = res; ai != NULL && fd == -1 && mono_ms() < end;
	     ai = ai->ai_next)
		fd = tcp_try(ai, end);
	freeaddrinfo(res);
	return fd;
}

void
lpvm_route_tcp_connect(struct lpvm_conn *c)
{
	uint8_t hello[WIRE_ROUTEHELLO_LEN];
	struct wire_routeaddr *a = c->addr;
	int fd;

	c->addr = NULL;
	c->state = CONN_REFUSED; /* until it works; then never retried */
	lpvm_conn_gen++;
	if (a == NULL || (fd = tcp_dial(a->host, a->port)) == -1) {
		free(a);
		return;
	}
	tcp_nodelay(fd);
	c->fd = fd;
	c->tcp = 1;
	c->state = CONN_OUT_WAIT;
	wire_routehello_encode(c->marker, a->cookie, hello);
	free(a);
	if (lpvm_route_send(c, c->peer, TC_ROUTE, hello, sizeof(hello)) != 0) {
		if (c->state != CONN_DEAD)
			lpvm_conn_close(c, CONN_REFUSED);
		return;
	}
	lpvm_route_knock(c->peer);
}

int
lpvm_route_tcp_hello(const struct wire_hdr *h, const uint8_t *body, size_t len)
{
	uint8_t cookie[WIRE_ROUTE_COOKIE];
	struct route_ticket *t;
	int32_t marker;
	int i;

	if (wire_routehello_decode(body, len, &marker, cookie) != 0 ||
	    tid_host(h->src) == tid_host(lpvm.mytid))
		return 0;
	(void)ticket_purge(mono_ms());
	for (i = 0; i < ROUTE_TICKETS; i++) {
		t = &tickets[i];
		if (t->state == TICKET_ISSUED && t->peer == h->src &&
		    t->marker == marker && cookie_equal(t->cookie, cookie)) {
			memset(t, 0, sizeof(*t)); /* used: TICKET_FREE */
			return 1;
		}
	}
	return 0;
}

/*
 * May one more connection wait for its hello?  Only while a cookie is
 * out, and only a few at a time: the port is open to the network.  Those
 * that waited too long are closed here.
 */
static int
tcp_welcome(void)
{
	long long now = mono_ms();
	struct lpvm_conn *c;
	int n = 0;

	if (lpvm.route == PvmDontRoute || ticket_purge(now) == 0)
		return 0;
	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->state != CONN_IN_HELLO || !c->tcp || c->fd < 0)
			continue;
		if (now - c->since > ROUTE_HELLO_MS)
			lpvm_conn_close(c, CONN_DEAD);
		else
			n++;
	}
	return n < ROUTE_HELLO_MAX;
}

void
lpvm_route_tcp_accept(void)
{
	struct lpvm_conn *c;
	int fd;

	while (lpvm_tcp_listenfd >= 0) {
		fd = accept4(lpvm_tcp_listenfd, NULL, NULL,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd == -1) {
			if (errno == EINTR)
				continue;
			return; /* EAGAIN, or out of descriptors: later */
		}
		/* No peer credentials over TCP: the hello's cookie decides.
		 * The buffers are the listener's (tcp_bind_any). */
		if (!tcp_welcome() ||
		    (c = lpvm_conn_new(fd, 0, CONN_IN_HELLO)) == NULL) {
			close(fd);
			continue;
		}
		tcp_nodelay(fd);
		c->tcp = 1;
		c->since = mono_ms();
	}
}

void
lpvm_route_flush_owed(void)
{
	struct lpvm_conn *c;
	int i;

	/* Nothing goes out as t0: a request can come with our enrolment. */
	if (lpvm_tx_depth != 0 || lpvm.mytid <= 0)
		return;
	lpvm_owed &= ~LPVM_OWED_ROUTE;
	for (i = 0; i < ROUTE_TICKETS && lpvm_pvmd != NULL; i++) {
		if (tickets[i].state == TICKET_GRANT ||
		    tickets[i].state == TICKET_REFUSE)
			ticket_answer(&tickets[i]);
	}
	for (c = lpvm_conns; c != NULL && lpvm_pvmd != NULL; c = c->next) {
		if (c->state == CONN_OUT_ADDR)
			lpvm_route_tcp_connect(c);
	}
}

void
lpvm_route_tcp_stalled(struct lpvm_conn *c)
{
	/* Only the outermost write: the question goes to the pvmd, which
	 * must not be in the middle of a message of ours. */
	if (c->fd < 0 || lpvm_tx_depth != 1)
		return;
	/* Asking reads input: c may be lost meanwhile. */
	if (ctl_pstat(c->peer) == PvmNoTask && c->fd >= 0)
		lpvm_conn_close(c, CONN_REFUSED);
}

int
lpvm_route_tcp_waiting(void)
{
	return lpvm_tcp_listenfd >= 0 && ticket_purge(mono_ms()) > 0;
}

void
lpvm_route_tcp_reset(void)
{
	memset(tickets, 0, sizeof(tickets));
	lpvm_owed &= ~LPVM_OWED_ROUTE;
	if (lpvm_tcp_listenfd >= 0) {
		close(lpvm_tcp_listenfd);
		lpvm_tcp_listenfd = -1;
	}
}
