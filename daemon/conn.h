/*
 * conn.h: a pvmd connection (a task's, or a link to another pvmd), shared
 * by conn.c (sockets, framing, back-pressure) and connring.c (the same
 * connection on shared-memory rings).  The rest of the daemon sees only
 * the functions in pvmd.h.
 */
#ifndef PVMD_CONN_H
#define PVMD_CONN_H

#include "pvmd.h"
#include "ringend.h"

#include <sys/queue.h>

#define CONN_READ_HIGH (WIRE_HDR_LEN + WIRE_FRAME_MAX)
#define CONN_READ_CHUNK (64 * 1024) /* bytes asked for by a plain read */

enum conn_state {
	CONN_HELLO, /* waiting for TM_CONNECT */
	CONN_TASK,  /* bound to a task tid */
	CONN_AUTH,  /* a pvmd link proving itself (link.c) */
	CONN_LINK,  /* an authenticated pvmd link */
};

/*
 * A control message for this pvmd from one source, being reassembled.
 * A task's connection has one source; frames of different sources
 * interleave on a link, so a link has one per source.
 */
struct ctl_reasm {
	int src;
	struct wire_hdr h; /* of its first frame */
	struct evbuffer *buf;
};

struct conn {
	TAILQ_ENTRY(conn) entry; /* conn_live or conn_dead */
	struct evbuffer *in;
	struct evbuffer *out;
	struct event *rev; /* readable (persistent; added while reading) */
	struct event *wev; /* writable (armed while output is left over) */
	int reading;       /* rev is added (with rings: the ring is read) */
	size_t need;       /* bytes of input the current frame needs */
	int dirty;         /* on conn_dirty: output to write */
	TAILQ_ENTRY(conn) dentry;
	int fd;
	enum conn_state state;
	int tid; /* the task's tid once connected (kept after TM_EXIT) */
	pid_t pid; /* from SO_PEERCRED */
	int dead;    /* closed; freed on the next loop turn */
	int closing; /* close once the output is written */
	struct task *task;   /* NULL before TM_CONNECT and after TM_EXIT */
	struct event *timer; /* handshake / flush timeout */
	struct event *kick;  /* run conn_process on the next loop turn */
	/* Control messages being reassembled. */
	struct ctl_reasm *rs;
	int nrs;
	size_t rsbytes;
	/* TM_MCAST list for the next message to our multicast address. */
	int *mcast;
	int nmcast;
	/* Back-pressure: the waiter list this sender is parked on. */
	struct conn_list *parked;
	TAILQ_ENTRY(conn) wentry;
	TAILQ_HEAD(conn_list, conn) waiters; /* senders parked on us */
	/* Links to other pvmds (CONN_AUTH, CONN_LINK); tid is the peer
	 * pvmd's once the handshake is done. */
	void *auth;         /* handshake state, owned by link.c */
	long long last_rx;  /* links: mono_us() of the last read with data */
	int held; /* a direct link not read until its peer's mark (mesh.c) */
	int refusal; /* a Pvm* error to answer TM_CONNECT with, or 0 */
	/*
	 * A task's connection on rings (TM_RINGS, connring.c): frames go
	 * through ring, and the socket carries wake-up bytes and the
	 * hangup (ring_eof: seen; what is left in the ring is still read).
	 * passed_fd: a segment that came with the socket's input, until
	 * TM_RINGS takes it (-1: none).  sock_out: bytes at the head of
	 * out that still go to the socket (queued before the TM_RINGS
	 * reply, and the reply itself).
	 */
	struct ring_end *ring;
	TAILQ_ENTRY(conn) rentry; /* conn_rings */
	int ring_eof;
	int passed_fd;
	size_t sock_out;
};

TAILQ_HEAD(conn_tailq, conn);
extern struct conn_tailq conn_rings; /* connections on rings */

/* ---- conn.c ---- */

/* Handle every complete frame in c's input, until blocked or closed. */
void conn_process(struct conn *c);
/* Bytes the next read of c's input should ask for (0: none now). */
size_t conn_read_want(const struct conn *c);
/* Write what every connection queued since the last call (the loop
 * does this after each callback; connring.c after reading rings). */
void conn_flush_dirty(void);
/* Resume every sender parked on list l. */
void conn_wake_list(struct conn_list *l);
/* After a write of c's output: resume the senders parked on c below the
 * low-water mark, and close c if it was to close once written. */
void conn_written(struct conn *c);
/* Close with a formatted reason. */
void conn_closef(struct conn *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- connring.c ---- */

/* The socket of c, on rings, woke: wake-ups or the hangup. */
void conn_ring_socket(struct conn *c);
/* Write what c has queued into its ring, as far as it takes it. */
void conn_ring_flush(struct conn *c);
/* Read c's ring into its input and handle it, while c reads. */
void conn_ring_input(struct conn *c);
/* A connection on rings is closed: off the list (unmapped when freed). */
void conn_ring_drop(struct conn *c);
/* Halt: one attempt to write what c has queued, nothing else. */
void conn_ring_halt_flush(struct conn *c);

#endif /* PVMD_CONN_H */
