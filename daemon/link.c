/*
 * link.c: TCP links between pvmds.  Every pvmd listens; each slave dials
 * the master at start-up, and then the slaves that joined before it
 * (mesh.c), so frames between two slaves need not cross the master.
 *
 * Handshake (auth.h has the bodies), before any frame is routed:
 *   dialer   -> acceptor DM_HELLO      claimed host index and name, nonce D
 *   acceptor -> dialer   DM_CHALLENGE  nonce A, MAC_acceptor(D, A, index, name)
 *   dialer   -> acceptor DM_PROOF      MAC_dialer(D, A, index, name)
 * Each side proves it holds the secret, and both nonces are fresh, so a
 * recorded handshake cannot be replayed and a MAC cannot be reflected.
 * The master then checks that it is waiting for that host (vm.c), a
 * slave that it has no direct link to that host yet (mesh.c).  A link
 * that fails is closed and logged; nothing else changes.
 *
 * Liveness: every link carries a DM_PING a quarter of the host timeout
 * after the last one; a link that brings nothing for the whole timeout
 * is closed, which is how a host whose network was cut is noticed.  A
 * pvmd that dies closes its TCP connections, which is noticed at once.
 */
#include "pvmd.h"
#include "auth.h"
#include "clock.h"

#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#define LINK_MAX_PENDING 64 /* unauthenticated links at once */
#define LINK_AUTH_FRAME_MAX 1024 /* conn.c refuses larger ones */
#define LINK_STEP_MS 10000       /* one try of a hoster-started slave's dial */
#define LINK_REDIAL_MS 200       /* its pause before the next try */

struct link_auth {
	uint8_t dnonce[AUTH_NONCE_LEN];
	uint8_t anonce[AUTH_NONCE_LEN];
	int32_t index;
	char name[AUTH_NAME_MAX + 1];
	int stage;                 /* 0: want DM_HELLO, 1: want DM_PROOF */
	uint8_t key[AUTH_KEY_LEN]; /* what the dialer must prove */
	int onetime; /* key is a hoster-started slave's K (addhost.c) */
};

static int link_fd = -1;
static int link_port;
static struct event *link_accept_ev;
static struct event *link_tick_ev;
static int link_npending;

/* ---- the accepting side ---- */

/* Log where a link comes from (numeric address). */
static void
link_log_peer(int s, const struct sockaddr_storage *ss, socklen_t sl)
{
	char addr[INET6_ADDRSTRLEN + 8], port[16];

	if (getnameinfo((const struct sockaddr *)ss, sl, addr, sizeof(addr),
	        port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		snprintf(addr, sizeof(addr), "?");
	log_info("link from %s port %s (fd %d)", addr, port, s);
}

/* A would-be slave connected. */
static void
link_accept_cb(evutil_socket_t fd, short what, void *arg)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct link_auth *a;
	struct conn *c;
	int s;

	(void)what;
	(void)arg;
	s = accept4(
	    fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (s < 0)
		return;
	if (link_npending >= LINK_MAX_PENDING || pvmd.halting) {
		log_warn("link refused: %s",
		    pvmd.halting ? "halting" : "too many handshakes under way");
		close(s);
		return;
	}
	if ((a = calloc(1, sizeof(*a))) == NULL ||
	    (c = conn_link_accepted(s)) == NULL) {
		free(a);
		log_warn("out of memory accepting a link");
		return;
	}
	*conn_link_auth(c) = a;
	link_npending++;
	link_log_peer(s, &ss, sl);
}

/* A bound listening socket of this family, or -1. */
static int
link_bind_one(const struct sockaddr *sa, socklen_t len)
{
	int s, off = 0, one = 1;

	s = socket(
	    sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	/* One IPv6 socket takes IPv4 too (mapped addresses). */
	if (sa->sa_family == AF_INET6)
		(void)setsockopt(
		    s, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	(void)setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, sa, len) != 0) {
		close(s);
		return -1;
	}
	return s;
}

/* Bind the listening socket: IPv6 and IPv4 both if we can. */
static int
link_bind(int port)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	int s;

	memset(&s6, 0, sizeof(s6));
	s6.sin6_family = AF_INET6;
	s6.sin6_addr = in6addr_any;
	s6.sin6_port = htons((uint16_t)port);
	if ((s = link_bind_one((struct sockaddr *)&s6, sizeof(s6))) >= 0)
		return s;
	memset(&s4, 0, sizeof(s4));
	s4.sin_family = AF_INET;
	s4.sin_addr.s_addr = htonl(INADDR_ANY);
	s4.sin_port = htons((uint16_t)port);
	return link_bind_one((struct sockaddr *)&s4, sizeof(s4));
}

/* Listen for other pvmds (the master: $PVMD_PORT, else any free port). */
int
link_listen(int *port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	const char *env = pvmd.master ? getenv("PVMD_PORT") : NULL;
	int want = env != NULL ? atoi(env) : 0;

	if (link_fd >= 0) {
		*port = link_port;
		return 0;
	}
	if (want < 0 || want > 65535)
		want = 0;
	if ((link_fd = link_bind(want)) < 0 || listen(link_fd, 64) != 0 ||
	    getsockname(link_fd, (struct sockaddr *)&ss, &sl) != 0) {
		log_warn("cannot listen for hosts: %s", strerror(errno));
		goto fail;
	}
	link_port = ntohs(ss.ss_family == AF_INET6
	                      ? ((struct sockaddr_in6 *)&ss)->sin6_port
	                      : ((struct sockaddr_in *)&ss)->sin_port);
	link_accept_ev = event_new(
	    pvmd.base, link_fd, EV_READ | EV_PERSIST, link_accept_cb, NULL);
	if (link_accept_ev == NULL || event_add(link_accept_ev, NULL) != 0)
		goto fail;
	log_info(
	    "listening for hosts on %s port %d", host_self()->name, link_port);
	*port = link_port;
	return 0;
fail:
	if (link_fd >= 0)
		close(link_fd);
	link_fd = -1;
	return -1;
}

/* Send one handshake frame on c. */
static void
link_auth_send(struct conn *c, int tag, const uint8_t *body, size_t len)
{
	conn_send(
	    c, pvmd.mytid, 0, tag, SYSCTX_TM, 0, WIRE_ENC_NATIVE, body, len);
}

/*
 * The key the dialer must prove: the machine's secret, or on the master
 * the one-time key K of a host a hoster started.  A dialer whose K has
 * not come back through the hoster yet is closed before any challenge;
 * it dials again (link_dial_onetime).  0, or -1 (c closed).
 */
static int
link_pick_key(struct conn *c, struct link_auth *a)
{
	int rc = 0;

	if (pvmd.master)
		rc = addhost_link_key(a->index, a->name, a->key);
	if (rc < 0) {
		conn_close(c, "refused for now: its one-time key has not "
		              "come through the hoster yet");
		return -1;
	}
	a->onetime = rc == 1;
	if (!a->onetime)
		memcpy(a->key, pvmd.key, AUTH_KEY_LEN);
	return 0;
}

/* A slave that proved its one-time key gets the machine's secret. */
static void
link_send_seal(struct conn *c, struct link_auth *a)
{
	uint8_t box[AUTH_SEAL_LEN];

	auth_seal(a->key, a->dnonce, a->anonce, pvmd.key, box);
	link_auth_send(c, DM_SEAL, box, sizeof(box));
	addhost_link_key_used(a->index);
	log_info("host %d (\"%s\") proved its one-time key: the secret "
	         "sent to it sealed",
	    (int)a->index, a->name);
}

/* DM_HELLO: answer with our nonce and our proof. */
static void
link_on_hello(
    struct conn *c, struct link_auth *a, const uint8_t *body, size_t len)
{
	struct auth_hello hello;
	struct auth_challenge ch;
	uint8_t out[AUTH_MAC_LEN + AUTH_NONCE_LEN + 16];
	size_t n;

	if (auth_hello_decode(body, len, &hello) != 0) {
		conn_close(c, "refused: malformed hello");
		return;
	}
	memcpy(a->dnonce, hello.nonce, AUTH_NONCE_LEN);
	a->index = hello.index;
	snprintf(a->name, sizeof(a->name), "%s", hello.name);
	if (link_pick_key(c, a) != 0)
		return;
	auth_nonce_new(a->anonce);
	memcpy(ch.nonce, a->anonce, AUTH_NONCE_LEN);
	auth_mac(a->key, AUTH_ACCEPTOR, a->dnonce, a->anonce, a->index, a->name,
	    ch.mac);
	if ((n = auth_challenge_encode(&ch, out, sizeof(out))) == 0) {
		conn_close(c, "refused: cannot encode the challenge");
		return;
	}
	link_auth_send(c, DM_CHALLENGE, out, n);
	a->stage = 1;
}

/* DM_PROOF: the slave holds the secret, or the link goes. */
static void
link_on_proof(
    struct conn *c, struct link_auth *a, const uint8_t *body, size_t len)
{
	struct auth_proof pr;

	if (auth_proof_decode(body, len, &pr) != 0) {
		conn_close(c, "refused: malformed proof");
		return;
	}
	if (auth_check(a->key, AUTH_DIALER, a->dnonce, a->anonce, a->index,
	        a->name, pr.mac) != 0) {
		log_warn("link from \"%s\" (host %d) refused: wrong %s",
		    a->name, (int)a->index,
		    a->onetime ? "one-time key" : "secret");
		conn_close(c, "refused: authentication failed");
		return;
	}
	if (pvmd.master ? vm_link_authenticated(c, a->index, a->name) != 0
	                : mesh_accepted(a->index) != 0) {
		conn_close(c, "refused: no such host expected");
		return;
	}
	if (a->onetime)
		link_send_seal(c, a);
	link_npending--;
	*conn_link_auth(c) = NULL;
	conn_link_up(c, (int)a->index);
	if (!pvmd.master)
		mesh_link_up(c, (int)a->index, 0);
	link_auth_free(a);
}

/* A frame on a link that has not proved itself. */
void
link_auth_frame(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len)
{
	struct link_auth *a = *conn_link_auth(c);

	if (a == NULL || !pvmd.have_key) {
		conn_close(c, "refused: not expecting hosts");
		return;
	}
	if (a->stage == 0 && h->tag == DM_HELLO)
		link_on_hello(c, a, body, len);
	else if (a->stage == 1 && h->tag == DM_PROOF)
		link_on_proof(c, a, body, len);
	else
		conn_close(c, "refused: unexpected handshake frame");
}

void
link_auth_free(void *auth)
{
	if (auth != NULL)
		auth_wipe(auth, sizeof(struct link_auth));
	free(auth);
}

/* A link closed, before or after it proved itself. */
void
link_closed(struct conn *c)
{
	void **ap = conn_link_auth(c);
	struct link_auth *a;

	if (*ap != NULL) {
		a = *ap;
		log_warn("link from \"%s\" (host %d) refused: the handshake "
		         "did not complete",
		    a->stage > 0 ? a->name : "?",
		    a->stage > 0 ? (int)a->index : 0);
		link_auth_free(a);
		*ap = NULL;
		link_npending--;
		return;
	}
	vm_link_lost(c);
}

/* ---- the dialing side: a blocking handshake, bounded in time ---- */

/* Write (out) or read exactly len bytes within ms, or -1. */
static int
link_io_all(int s, uint8_t *buf, size_t len, int out, int ms)
{
	struct pollfd pfd = {s, out ? POLLOUT : POLLIN, 0};
	ssize_t n;

	while (len > 0) {
		if (poll(&pfd, 1, ms) <= 0)
			return -1;
		n = out ? write(s, buf, len) : read(s, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One handshake frame each way. */
static int
link_put_frame(
    int s, int src, int tag, const uint8_t *body, size_t len, int ms)
{
	uint8_t buf[WIRE_HDR_LEN + LINK_AUTH_FRAME_MAX];
	struct wire_hdr h;

	memset(&h, 0, sizeof(h));
	h.version = WIRE_VERSION;
	h.flags = WIRE_F_ALL;
	h.len = len;
	h.dst = tid_pvmd(TID_MASTER_HOST);
	h.src = src;
	h.tag = tag;
	h.ctx = SYSCTX_TM;
	h.enc = WIRE_ENC_NATIVE;
	wire_hdr_encode(&h, buf);
	memcpy(buf + WIRE_HDR_LEN, body, len);
	return link_io_all(s, buf, WIRE_HDR_LEN + len, 1, ms);
}

static int
link_get_frame(int s, int tag, uint8_t *body, size_t cap, size_t *len, int ms)
{
	uint8_t raw[WIRE_HDR_LEN];
	struct wire_hdr h;

	if (link_io_all(s, raw, sizeof(raw), 0, ms) != 0 ||
	    wire_hdr_decode(raw, sizeof(raw), &h) != WIRE_OK || h.tag != tag ||
	    h.len > cap || link_io_all(s, body, (size_t)h.len, 0, ms) != 0)
		return -1;
	*len = (size_t)h.len;
	return 0;
}

/* Connect the non-blocking socket s within ms; 0 or -1 (errno set). */
static int
link_connect_one(int s, const struct addrinfo *ai, int ms)
{
	struct pollfd pfd = {s, POLLOUT, 0};
	socklen_t sl = sizeof(int);
	int e = 0;

	if (connect(s, ai->ai_addr, ai->ai_addrlen) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -1;
	if (poll(&pfd, 1, ms) <= 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	if (getsockopt(s, SOL_SOCKET, SO_ERROR, &e, &sl) != 0 || e != 0) {
		errno = e != 0 ? e : errno;
		return -1;
	}
	return 0;
}

/* A connected non-blocking TCP socket to "host:port" or "[v6]:port". */
static int
link_connect(const char *addr, int ms, char *err, size_t errlen)
{
	struct addrinfo hints, *res, *ai;
	char host[300], *port;
	int s = -1, rc;

	snprintf(host, sizeof(host), "%s", addr);
	if ((port = strrchr(host, ':')) == NULL) {
		snprintf(err, errlen, "bad pvmd address %s", addr);
		return -1;
	}
	*port++ = '\0';
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(err, errlen, "%s: %s", host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		s = socket(ai->ai_family,
		    SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (s >= 0 && link_connect_one(s, ai, ms) == 0)
			break;
		snprintf(err, errlen, "connect to %s port %s: %s", host, port,
		    strerror(errno));
		if (s >= 0)
			close(s);
		s = -1;
	}
	freeaddrinfo(res);
	return s; /* TCP_NODELAY: conn_link_open */
}

/*
 * The dialer's half of the handshake on the connected socket s, proving
 * key; the nonces into dn and an.  0, or -1 with the reason in err;
 * *early is set when the acceptor closed before its challenge.
 */
static int
link_handshake(int s, int index, const char *name, const uint8_t *key, int ms,
    uint8_t *dn, uint8_t *an, char *err, size_t errlen, int *early)
{
	uint8_t buf[LINK_AUTH_FRAME_MAX];
	struct auth_hello hello;
	struct auth_challenge ch;
	struct auth_proof pr;
	size_t n;
	int src = tid_pvmd(index);

	*early = 0;
	memset(&hello, 0, sizeof(hello));
	hello.version = AUTH_VERSION;
	hello.index = index;
	auth_nonce_new(hello.nonce);
	snprintf(hello.name, sizeof(hello.name), "%s", name);
	if ((n = auth_hello_encode(&hello, buf, sizeof(buf))) == 0 ||
	    link_put_frame(s, src, DM_HELLO, buf, n, ms) != 0 ||
	    link_get_frame(s, DM_CHALLENGE, buf, sizeof(buf), &n, ms) != 0 ||
	    auth_challenge_decode(buf, n, &ch) != 0) {
		snprintf(err, errlen,
		    "authentication with the pvmd failed: it closed the link");
		*early = 1;
		return -1;
	}
	if (auth_check(key, AUTH_ACCEPTOR, hello.nonce, ch.nonce, index,
	        hello.name, ch.mac) != 0) {
		snprintf(err, errlen,
		    "authentication failed: the pvmd does not know our %s",
		    key == pvmd.key ? "secret" : "one-time key");
		return -1;
	}
	auth_mac(
	    key, AUTH_DIALER, hello.nonce, ch.nonce, index, hello.name, pr.mac);
	if ((n = auth_proof_encode(&pr, buf, sizeof(buf))) == 0 ||
	    link_put_frame(s, src, DM_PROOF, buf, n, ms) != 0) {
		snprintf(err, errlen,
		    "authentication with the pvmd failed: "
		    "%s",
		    strerror(errno));
		return -1;
	}
	memcpy(dn, hello.nonce, AUTH_NONCE_LEN);
	memcpy(an, ch.nonce, AUTH_NONCE_LEN);
	return 0;
}

/* Dial a pvmd and prove ourselves (see the top). */
int
link_dial(const char *addr, int index, const char *name, const uint8_t *key,
    int ms, char *err, size_t errlen)
{
	uint8_t dn[AUTH_NONCE_LEN], an[AUTH_NONCE_LEN];
	int s, early;

	if ((s = link_connect(addr, ms, err, errlen)) < 0)
		return -1;
	if (link_handshake(
	        s, index, name, key, ms, dn, an, err, errlen, &early) != 0) {
		close(s);
		return -1;
	}
	return s;
}

/*
 * A slave a hoster started: dial the master and prove the one-time key
 * k, again every LINK_REDIAL_MS while the master closes the link before
 * its challenge (k has not come back through the hoster yet), for ms
 * at most; then take the machine's secret from DM_SEAL.
 */
int
link_dial_onetime(const char *addr, int index, const char *name,
    const uint8_t *k, int ms, uint8_t *secret, char *err, size_t errlen)
{
	uint8_t dn[AUTH_NONCE_LEN], an[AUTH_NONCE_LEN], box[AUTH_SEAL_LEN + 1];
	long long end = mono_us() + (long long)ms * 1000;
	int s = -1, early = 1, step = ms < LINK_STEP_MS ? ms : LINK_STEP_MS;
	size_t n;

	while (early && mono_us() < end) {
		if ((s = link_connect(addr, step, err, errlen)) < 0)
			return -1;
		if (link_handshake(s, index, name, k, step, dn, an, err, errlen,
		        &early) == 0)
			break;
		close(s);
		s = -1;
		if (early)
			poll(NULL, 0, LINK_REDIAL_MS);
	}
	if (s < 0)
		return -1;
	if (link_get_frame(s, DM_SEAL, box, sizeof(box), &n, step) != 0 ||
	    auth_unseal(k, dn, an, box, n, secret) != 0) {
		snprintf(err, errlen, "no sealed secret from the master");
		close(s);
		return -1;
	}
	return s;
}

/* ---- both sides ---- */

/* A whole control message from a link: DM_* here, TM_* to ctl.c. */
void
link_ctl_dispatch(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len)
{
	if (wire_dm_index(h->tag) != 0)
		vm_dm_dispatch(c, h, body, len);
	else if (h->tag == TC_OUTPUT && h->ctx == SYSCTX_TC && pvmd.master)
		output_remote_log(h->src, body, len);
	else
		ctl_dispatch_remote(c, h, body, len);
}

/* Ping one link, or close it if it has been silent too long. */
static void
link_check(struct conn *c, long long now)
{
	long long quiet = now - conn_last_rx(c);
	char why[80];

	if (quiet > (long long)pvmd.host_timeout * 1000000) {
		snprintf(why, sizeof(why),
		    "nothing heard for %d s: host failed", pvmd.host_timeout);
		conn_close(c, why);
		return;
	}
	conn_send(c, pvmd.mytid, tid_pvmd(conn_link_host(c)), DM_PING,
	    SYSCTX_TM, 0, WIRE_ENC_XDR, NULL, 0);
}

/* Every quarter of the host timeout: ping and check every link. */
static void
link_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	long long now = mono_us();
	struct host *hp;
	int i;

	(void)fd;
	(void)what;
	(void)arg;
	/* On a slave, hosts without a direct link share the master's:
	 * check each link once, under its own host. */
	for (i = 1; i <= TID_HOST_MAX; i++) {
		if ((hp = host_get(i)) != NULL && hp->link != NULL &&
		    conn_usable(hp->link) && conn_link_host(hp->link) == i)
			link_check(hp->link, now);
	}
}

/* Start the liveness timer. */
int
link_timer_start(void)
{
	long long us = (long long)pvmd.host_timeout * 1000000 / 4;
	struct timeval tv = {
	    (time_t)(us / 1000000), (suseconds_t)(us % 1000000)};

	if (link_tick_ev != NULL)
		return 0;
	link_tick_ev = event_new(pvmd.base, -1, EV_PERSIST, link_tick_cb, NULL);
	if (link_tick_ev == NULL || event_add(link_tick_ev, &tv) != 0)
		return -1;
	return 0;
}
