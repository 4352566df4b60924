/*
 * conn.h: libpvm's sockets (private to transport.c, rx.c, tx.c, route.c,
 * rpc.c, mhf.c).  Other parts of libpvm use the lpvm.h interfaces.
 *
 * A task has one connection to its pvmd and, with direct routing, one
 * connection per direct route: an outgoing one for each peer it sends to
 * directly, an incoming one for each peer that sends to it directly.
 * Routes are one-way; each side opens its own.  A route to a task of
 * our host is a Unix socket; to a task of another host, TCP (route_tcp.c).
 * A route on our host normally carries its frames through a pair of rings
 * in shared memory (shm.c), and its socket only wakes a sleeping peer.
 *
 * Input: every connection has an input buffer; frames are parsed out of it
 * and their bodies appended to a reassembly (struct lpvm_asm) per source,
 * because frames from different sources may interleave on the pvmd
 * connection.  Large frame bodies are read straight into the reassembly.
 */
#ifndef LPVM_CONN_H
#define LPVM_CONN_H

#include "lpvm.h"
#include "ringend.h"

/* A message being reassembled from SOM..EOM frames.  Owner: its conn. */
struct lpvm_asm {
	struct wire_hdr h; /* of the first frame */
	uint8_t *data;     /* malloc'd; passes to the message at EOM */
	size_t len;
	size_t cap;
	struct lpvm_asm *next;
};

enum lpvm_conn_state {
	CONN_PVMD,      /* the connection to our pvmd */
	CONN_OUT_REQ,   /* no socket: TC_ROUTEREQ sent, waiting for the
	                   address (a peer on another host) */
	CONN_OUT_ADDR,  /* no socket: address known, connect owed */
	CONN_OUT_WAIT,  /* route we opened: hello sent, waiting for the ack */
	CONN_OUT_ACKED, /* ack read; marker not yet sent through the pvmd */
	CONN_OUT_OPEN,  /* route in use for sending */
	CONN_IN_HELLO,  /* accepted: waiting for the hello */
	CONN_IN_HOLD,   /* hello answered: waiting for the marker via pvmd */
	CONN_IN_OPEN,   /* delivering the peer's messages */
	CONN_REFUSED,   /* no socket: a route to `peer` failed, use the pvmd */
	CONN_DEAD,      /* closed; unlinked and freed by lpvm_conn_reap */
};

struct lpvm_conn {
	int fd;   /* -1 once closed */
	int peer; /* tid of the peer task; 0 for the pvmd */
	enum lpvm_conn_state state;
	int32_t marker; /* route marker (see route.c) */
	int tcp;        /* a TCP route (another host): no peer credentials */
	int pending;    /* unparsed input that may be parsed now */
	/*
	 * The route carries the other direction too.  Incoming route: we
	 * send to the peer over it.  Outgoing route: the peer does, and we
	 * read it (before that, nothing is read from an open outgoing
	 * route, so the peer's frames wait until its marker came through
	 * the pvmd).
	 */
	int twoway;
	/* CONN_REFUSED: connect attempts so far and when to try again
	 * (monotonic ms; 0 = never: the peer said no). */
	int tries;
	long long retry_ms;
	/* CONN_IN_HELLO over TCP: monotonic ms of the accept (the wait for
	 * the hello is bounded). */
	long long since;
	/* CONN_OUT_ADDR: where to connect (malloc'd). */
	struct wire_routeaddr *addr;
	/*
	 * shm: the route's frames go through this segment's rings (shm.c);
	 * the socket carries wake-up bytes and the hangup.  shm_offer: the
	 * segment offered with the hello (ours, or the opener's as read
	 * with it), until the ack settles whether the rings are used.
	 * eof: the peer hung up; what is left in its ring is still read
	 * (as a socket's buffered bytes are) before the route closes.
	 */
	struct ring_end *shm;
	struct ring_end *shm_offer;
	int eof;

	uint8_t *ibuf; /* input buffer, LPVM_IBUF bytes */
	size_t ibeg;   /* first unparsed byte */
	size_t iend;   /* end of the data read */

	int inframe;          /* inside a frame body */
	struct wire_hdr fh;   /* header of that frame */
	size_t left;          /* body bytes of it still to come */
	struct lpvm_asm *cur; /* the reassembly they go to */
	struct lpvm_asm *asms;

	struct lpvm_conn *next;
};

/* Input of c must stay in the socket for now (see route.c). */
static inline int
lpvm_conn_rx_held(const struct lpvm_conn *c)
{
	return c->state == CONN_IN_HOLD ||
	       ((c->state == CONN_OUT_ACKED || c->state == CONN_OUT_OPEN) &&
	           !c->twoway);
}

/* Bytes read into c's input buffer wait to be parsed. */
static inline int
lpvm_conn_buffered(const struct lpvm_conn *c)
{
	return c->ibuf != NULL && c->ibeg < c->iend;
}

/* Messages read from c are delivered (not route handshake frames). */
static inline int
lpvm_conn_delivers(const struct lpvm_conn *c)
{
	return c->state == CONN_PVMD || c->state == CONN_IN_OPEN ||
	       (c->state == CONN_OUT_OPEN && c->twoway);
}

#define LPVM_IBUF (256 * 1024)
/* Largest message we reassemble; a bigger one is a protocol error. */
#define LPVM_MSG_MAX ((size_t)2047 * 1024 * 1024)

extern struct lpvm_conn *lpvm_conns; /* every connection, newest first */
/*
 * Bumped by every change that could change which connection is the route
 * to a task: a connection made, closed or freed, or its state, socket,
 * rings or direction (twoway) set.  lpvm_route_get trusts the answer it
 * gave last only while this has not moved.
 */
extern unsigned lpvm_conn_gen;
extern struct lpvm_conn *lpvm_pvmd;  /* the pvmd connection, or NULL */
extern int lpvm_tx_depth; /* > 0 while a frame write is in progress */
/*
 * Work owed at the next point where no write is under way, a bit per
 * kind, set where the work arises: answers to bulk offers (bulk.c),
 * route answers and connects (route_tcp.c), connections to free
 * (transport.c).  The checks on every wait and after every send then
 * cost a load while nothing is owed, not three calls (about 50
 * instructions a message, callgrind).
 */
#define LPVM_OWED_BULK 1u
#define LPVM_OWED_ROUTE 2u
#define LPVM_OWED_REAP 4u
extern unsigned lpvm_owed;

/* ---- transport.c ---- */

/* A connection for socket fd (already non-blocking). NULL if no memory. */
struct lpvm_conn *lpvm_conn_new(int fd, int peer, enum lpvm_conn_state st);
/* Close the socket and drop partial input; the conn becomes `st` (DEAD,
 * or REFUSED to remember that this peer has no route). */
void lpvm_conn_close(struct lpvm_conn *c, enum lpvm_conn_state st);
/* Unlink and free DEAD connections (never while parsing). */
void lpvm_conn_reap_owed(void);
static inline void
lpvm_conn_reap(void)
{
	if (lpvm_owed & LPVM_OWED_REAP)
		lpvm_conn_reap_owed();
}
/* Close-on-exec, large socket buffers, non-blocking unless nonblock is 0
 * (the pvmd connection: rx.c may wait in a blocking read on it; every
 * other read and write on it passes MSG_DONTWAIT).  0 or -1. */
int lpvm_fd_setup(int fd, int nonblock);
/* Large socket buffers alone: for a socket made with SOCK_NONBLOCK |
 * SOCK_CLOEXEC (lpvm_fd_setup would set those again). */
void lpvm_fd_bufs(int fd);
/* True if the peer of Unix socket fd runs under our uid. */
int lpvm_peer_uid_ok(int fd);
/* The pid of Unix socket fd's peer (when it connected), or -1. */
pid_t lpvm_peer_pid(int fd);

/*
 * Write one small frame (h's fields; flags and len set here) with body and fd
 * attached (SCM_RIGHTS) to c's socket, which must hold no unwritten
 * output: it goes in one call or not at all.  0 or -1.
 */
#define LPVM_FD_FRAME_MAX 64
int lpvm_fd_frame_send(struct lpvm_conn *c, const struct wire_hdr *h,
    const void *body, size_t len, int fd);

/* ---- rx.c: input ---- */

/*
 * Wait up to timeout_ms (-1 forever) until input is readable (then read
 * and parse it) or, if wout is set, until wout is writable.  Returns a
 * positive number if a complete message was processed or wout became
 * writable, 0 on timeout, PvmSysErr if the pvmd connection died.
 */
int lpvm_io_wait(int timeout_ms, struct lpvm_conn *wout, int *writable);
/*
 * Send the answers owed to bulk offers and route requests (bulk.c,
 * route_tcp.c) if no write is in progress.  lpvm_io_wait holds them back
 * while a write is (they are frames of their own), so the end of every
 * outermost write calls this too: the program may next find its message
 * queued and block outside libpvm (a barrier in shared memory), while
 * the peer waits for the answer in its pvm_send.
 */
void lpvm_tx_owed(void);

/*
 * bulk.c.  lpvm_bulk_send: offer a large message to a task on this host
 * instead of writing it (total: body bytes); 1 = delivered (or dropped
 * for a gone task), 0 = not offered or not taken (send it the ordinary
 * way), < 0 = PvmSysErr/PvmNoMem.  lpvm_bulk_input: an offer arrived
 * (rx.c): 0 with the message's header and body (owned by the caller) to
 * deliver in its place, or -1 (nothing to deliver); either way an
 * answer is owed and goes out at the next lpvm_bulk_flush, which the
 * input paths call when no write is in progress.  lpvm_bulk_answer: a
 * TC_BULKACK body.
 */
int lpvm_bulk_send(
    const struct wire_hdr *h, const struct lpvm_seg *p, size_t n, size_t total);
int lpvm_bulk_input(const struct wire_hdr *h, uint8_t *data, size_t len,
    struct wire_hdr *out, uint8_t **body, size_t *bodylen);
void lpvm_bulk_answer(const uint8_t *data, size_t len);
void lpvm_bulk_flush_owed(void);
static inline void
lpvm_bulk_flush(void)
{
	if (lpvm_owed & LPVM_OWED_BULK)
		lpvm_bulk_flush_owed();
}
/*
 * Lend m's body (pieces p, all inside m->data) to an offer and return
 * without waiting, when the peer has taken an offer before: 1 = offered,
 * 0 = not (send it another way), < 0 = error.  lpvm_bulk_drain waits
 * until every lent offer is answered or its receiver is gone (pvm_exit).
 */
int lpvm_bulk_lend(const struct wire_hdr *h, struct lpvm_msg *m,
    const struct lpvm_seg *p, size_t n, size_t total);
void lpvm_bulk_drain(void);
/* Deliver a message to ourselves (a copy of the pieces). 0 or PvmNoMem. */
int lpvm_rx_local(
    const struct wire_hdr *h, const struct lpvm_seg *pieces, size_t npieces);
/* Read once from c without waiting and parse.  Messages delivered, or
 * -1 if the connection failed (the caller closes it). */
int lpvm_rx_conn(struct lpvm_conn *c);
/* Parse input already buffered on connections marked pending. */
int lpvm_rx_pending(void);
/* $PVM_ROUTE_TRACE: how the blocking receives since the last call began
 * (taken straight from a ring, waited on, or refused that way), then
 * count from zero; lpvm_disconnect calls it. */
void lpvm_rx_trace_counts(void);
/*
 * What a waiting receive wants (lpvm_pump_for): rx_dispatch hands it the
 * first message match accepts, in m, instead of queueing it.  NULL while
 * no receive waits, and while a message handler runs (mhf.c), so that
 * what a handler calls finds every message where it always was.
 */
struct lpvm_want {
	int (*match)(const struct lpvm_msg *, void *);
	void *arg;
	struct lpvm_msg *m;
};
extern struct lpvm_want *lpvm_rx_want;

/* ---- tx.c: output ---- */

/* A header from us to dst (flags and len are the writer's). */
void lpvm_hdr_init(
    struct wire_hdr *h, int dst, int tag, int ctx, int enc, int wid);
/* Write one message (header fields from h; len, flags computed) to c,
 * cut into frames of lpvm.fragsize.  0, or -1 if the connection failed. */
int lpvm_tx(struct lpvm_conn *c, const struct wire_hdr *h,
    const struct lpvm_seg *pieces, size_t npieces);

/* ---- route.c: direct routes ---- */

/* The open direct route to dst, or NULL to send through the pvmd; starts
 * opening a route when PvmRouteDirect asks for one. */
struct lpvm_conn *lpvm_route_get(int dst);
/* The open route to dst that lpvm_route_get last gave, or NULL; no
 * lookup, nothing opened. */
struct lpvm_conn *lpvm_route_cached(int dst);
/* A complete message from a direct conn that is not open (hello or ack). */
void lpvm_route_frame(struct lpvm_conn *c, const struct wire_hdr *h,
    const uint8_t *body, size_t len);
/* A message from task src came through the pvmd: a route to it that
 * failed while it was starting may be tried again now. */
void lpvm_route_heard(int src);
/* A TC_ROUTE message that came through the pvmd. */
void lpvm_route_marker(int src, const uint8_t *body, size_t len);
/* Accept pending connections on the listening socket. */
void lpvm_route_accept(void);
/* Create the listening socket (after enrolment).  0 or -1. */
int lpvm_route_listen(void);
/* Close routes and the listener (pvm_exit, pvmd lost). */
void lpvm_route_closeall(void);
/* A new route marker (> 0). */
int32_t lpvm_route_newmarker(void);
/* Knock: TC_ROUTE(0) to dst through the pvmd, which makes it accept on
 * its listening sockets (it may be waiting on its pvmd socket alone). */
void lpvm_route_knock(int dst);
/* With $PVM_ROUTE_TRACE: a line about a route on stderr. */
void lpvm_route_trace(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* Send a one-frame task-control message (tag, body) to dst over c. */
int lpvm_route_send(
    struct lpvm_conn *c, int dst, int32_t tag, const uint8_t *body, size_t len);

/* ---- route_tcp.c: direct routes to tasks of other hosts ---- */

extern int lpvm_tcp_listenfd; /* TCP listening socket, -1 until needed */

/* Ask dst (another host) for a route through the pvmds (CONN_OUT_REQ). */
void lpvm_route_tcp_request(int dst);
/* TC_ROUTEREQ and TC_ROUTEADDR from task src (through the pvmds). */
void lpvm_route_req_input(int src, const uint8_t *body, size_t len);
void lpvm_route_addr_input(int src, const uint8_t *body, size_t len);
/* CONN_OUT_ADDR: connect, send the hello and knock (bounded wait). */
void lpvm_route_tcp_connect(struct lpvm_conn *c);
/* A hello from task h->src on an accepted TCP connection: 1 if its
 * cookie is the one we gave that task for that marker (used up), else 0. */
int lpvm_route_tcp_hello(
    const struct wire_hdr *h, const uint8_t *body, size_t len);
/* Accept pending connections on the TCP listener. */
void lpvm_route_tcp_accept(void);
/* Send the answers we owe and make the connections owed, when no write
 * is in progress (the input paths call it, like lpvm_bulk_flush). */
void lpvm_route_flush_owed(void);
static inline void
lpvm_route_flush(void)
{
	if (lpvm_owed & LPVM_OWED_ROUTE)
		lpvm_route_flush_owed();
}
/* A write on TCP route c has waited LPVM_ROUTE_STALL_MS: drop the route
 * if its peer is gone (a host that vanished never resets the connection,
 * and TCP would retry for many minutes).  rx.c calls it only after a
 * poll that long found nothing: at most one question to the pvmds per
 * LPVM_ROUTE_STALL_MS. */
#define LPVM_ROUTE_STALL_MS 1000
void lpvm_route_tcp_stalled(struct lpvm_conn *c);
/* True while a cookie we gave is unused: a connection may come, and the
 * listener must be polled (its knock may overtake it). */
int lpvm_route_tcp_waiting(void);
/* Forget tickets, close the TCP listener (pvm_exit, pvmd lost). */
void lpvm_route_tcp_reset(void);

/* ---- shm.c: when to use shared-memory rings (common/ringend.h) ---- */

/* Rings are used (not $PVM_SHM=0); and for PvmAllowDirect ("all"). */
int lpvm_shm_enabled(void);
int lpvm_shm_default(void);
/* From now on, every write to s's ring (and to every ring made later)
 * makes the socket readable, for pvm_getfds (s may be NULL).  True if
 * s was not watched yet and its ring holds bytes, which no wake-up will
 * announce. */
int lpvm_shm_watch(struct ring_end *s);
/* The opener's segment of a route, or of the connection to the pvmd,
 * mapped; *fd to pass to the peer (the caller closes it once sent).
 * NULL if disabled or on failure. */
struct ring_end *lpvm_shm_create(int *fd);
struct ring_end *lpvm_shm_create_pvmd(int *fd);
/* Map a segment passed by an opener, if rings are on and it is a sealed
 * one of the right shape.  NULL if not (the route then stays on its
 * socket). */
struct ring_end *lpvm_shm_attach(int fd);
/* ring_end_rx_sleep and ring_end_rx_awake, unless pvm_getfds asked
 * for every wake-up (then the flag stays as lpvm_shm_watch set it). */
int lpvm_shm_rx_sleep(struct ring_end *s);
void lpvm_shm_rx_awake(struct ring_end *s);

/* ---- rpc.c ---- */

/* lpvm_rpc (lpvm.h) of a request to our own pvmd with an empty body and
 * fd attached (lpvm_fd_frame_send). */
int lpvm_rpc_fd(int tag, int fd, uint8_t **rep, size_t *replen);

/* A reply (ctx SYSCTX_TM) arrived; takes ownership of data. */
void lpvm_rpc_input(int wid, uint8_t *data, size_t len);
/* Drop stored replies (disconnect). */
void lpvm_rpc_reset(void);

/* ---- mhf.c: message handlers ---- */

/* If a handler wants m, keep it for lpvm_mhf_run and return 1. */
int lpvm_mhf_take(struct lpvm_msg *m);
/*
 * Run the handlers of the messages taken so far that arrived before
 * message number limit (LPVM_SEQ_ALL: all), and libgpvm's in any case.
 */
#define LPVM_SEQ_ALL (~0ULL)
extern size_t lpvm_mhf_npend; /* messages waiting for their handler */
void lpvm_mhf_run_owed(unsigned long long limit);
static inline void
lpvm_mhf_run_before(unsigned long long limit)
{
	if (lpvm_mhf_npend != 0)
		lpvm_mhf_run_owed(limit);
}
/* While set, lpvm_pump runs only libgpvm's handlers: a receive decides
 * which others run once it knows the message it returns (recv.c). */
extern int lpvm_mhf_hold;
/* Whether any message handler is installed (pvm_send then runs the
 * handlers of messages waiting, as PVM 3.4.6 does). */
int lpvm_mhf_any(void);
/* Drop pending handler messages (pvm_exit). */
void lpvm_mhf_reset(void);

#endif /* LPVM_CONN_H */
