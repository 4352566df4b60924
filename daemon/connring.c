/*
 * connring.c: a task's connection on shared-memory rings.  After
 * TM_RINGS (common/wire.h) the task's frames come through one ring of a
 * segment it made and passed with the request (common/ringend.h; the
 * task is its opener), ours go through the other, and the socket carries
 * only wake-up bytes and the hangup.  Frames are handled exactly as if
 * they had been read from the socket (conn.c): same input buffer, same
 * framing, same back-pressure.
 *
 * Wake-ups: the task writes and, if we said we sleep (rsleep), writes a
 * byte to the socket.  So before the loop blocks it asks every ring it
 * reads for a wake-up and looks once more (conn_rings_sleep); between
 * events, and while it spins, it looks at the rings without a system
 * call (conn_rings_poll).  A task that waits for room in its ring is
 * woken by ring_end_read; we wait for room in ours with wwait, and the
 * task's read wakes us through the socket.
 *
 * A task that dies leaves its ring as it was: what it wrote before is
 * still read and handled, then the connection closes as at the end of a
 * socket.  A ring index that cannot be (common/ring.c) closes the
 * connection.
 */
#include "conn.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

/* The largest ring a task may make us map (it makes 128 KiB ones). */
#define CONN_RING_LIMIT ((size_t)1024 * 1024)
#define CONN_RING_IOV 16   /* evbuffer chains per ring write */
#define CONN_RING_ROUNDS 4 /* reads of one ring per look at most */
#define CONN_RING_WAKES 16 /* reads of wake-up bytes per callback */

struct conn_tailq conn_rings = TAILQ_HEAD_INITIALIZER(conn_rings);

int
conn_ring_attach(struct conn *c)
{
	struct ring_end *e;
	int fd = c->passed_fd;

	c->passed_fd = -1;
	if (fd < 0 || c->ring != NULL || c->state != CONN_TASK) {
		if (fd >= 0)
			close(fd);
		log_warn("t%x: TM_RINGS without a segment, or again",
		    (unsigned)c->tid);
		return 0;
	}
	e = ring_end_attach(fd);
	close(fd);
	if (e == NULL || e->size > CONN_RING_LIMIT) {
		log_warn("t%x: TM_RINGS: not a sealed ring segment we take",
		    (unsigned)c->tid);
		ring_end_free(e);
		return 0;
	}
	c->ring = e;
	c->reading = 1; /* the socket's read event stays added */
	TAILQ_INSERT_TAIL(&conn_rings, c, rentry);
	return 1;
}

void
conn_ring_output(struct conn *c)
{
	if (c->ring != NULL)
		c->sock_out = evbuffer_get_length(c->out);
}

void
conn_ring_drop(struct conn *c)
{
	TAILQ_REMOVE(&conn_rings, c, rentry);
}

/* Empty the socket of wake-up bytes; note the hangup. */
static void
conn_ring_wakes(struct conn *c)
{
	char junk[256];
	ssize_t r;
	int i;

	for (i = 0; i < CONN_RING_WAKES && !c->ring_eof; i++) {
		r = recv(c->fd, junk, sizeof(junk), MSG_DONTWAIT);
		if (r > 0)
			continue;
		if (r == -1 && errno == EINTR)
			continue;
		if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
			c->ring_eof = 1;
			event_del(c->rev); /* would stay readable */
		}
		break;
	}
}

void
conn_ring_socket(struct conn *c)
{
	conn_ring_wakes(c);
	conn_ring_input(c);
	if (!c->dead && c->sock_out == 0 && evbuffer_get_length(c->out) > 0)
		conn_ring_flush(c);
}

void
conn_ring_input(struct conn *c)
{
	struct evbuffer_iovec v;
	size_t want;
	long long k, used;
	int i;

	conn_process(c);
	for (i = 0; i < CONN_RING_ROUNDS; i++) {
		if (c->dead || !c->reading || c->closing || c->parked != NULL)
			return;
		/* Room for what is there, not for a whole chunk: a small
		 * message must not cost a 64 KiB buffer (the soak's pvmd
		 * kept 8 MiB more). */
		if ((used = ring_end_rx_used(c->ring)) < 0) {
			conn_close(c, "impossible ring index");
			return;
		}
		if ((want = conn_read_want(c)) > (size_t)used)
			want = (size_t)used;
		if (want == 0)
			break;
		if (evbuffer_reserve_space(c->in, (ev_ssize_t)want, &v, 1) !=
		    1) {
			conn_close(c, "out of memory reading a ring");
			return;
		}
		if (v.iov_len > want)
			v.iov_len = want;
		k = ring_end_read(c->ring, v.iov_base, v.iov_len, c->fd);
		if (k < 0) {
			conn_close(c, "impossible ring index");
			return;
		}
		if (k == 0)
			break;
		v.iov_len = (size_t)k;
		evbuffer_commit_space(c->in, &v, 1);
		pvmd.nreads++; /* worth spinning for more (pvmd.c) */
		conn_process(c);
	}
	if (!c->dead && c->ring_eof && !c->closing && c->parked == NULL &&
	    !ring_end_rx_ready(c->ring))
		conn_close(c, "end of file");
}

/*
 * Move what fits of c's output into its ring and wake the task if it
 * sleeps.  Bytes moved, or -1 if the ring is broken (c is closed).
 */
static long long
conn_ring_write(struct conn *c)
{
	struct evbuffer_iovec v[CONN_RING_IOV];
	long long k, moved = 0;
	int n;

	while (evbuffer_get_length(c->out) > 0) {
		n = evbuffer_peek(c->out, -1, NULL, v, CONN_RING_IOV);
		if (n > CONN_RING_IOV)
			n = CONN_RING_IOV;
		k = ring_end_writev(
		    c->ring, (const struct iovec *)(void *)v, (size_t)n);
		if (k < 0) {
			conn_close(c, "impossible ring index");
			return -1;
		}
		if (k == 0) {
			/* Full: the task's next read wakes us. */
			if (!ring_end_tx_sleep(c->ring))
				break;
			continue;
		}
		evbuffer_drain(c->out, (size_t)k);
		moved += k;
	}
	if (moved > 0)
		ring_end_wake_reader(c->ring, c->fd);
	return moved;
}

void
conn_ring_flush(struct conn *c)
{
	if (!c->dead && conn_ring_write(c) >= 0)
		conn_written(c);
}

void
conn_ring_halt_flush(struct conn *c)
{
	if (c->sock_out == 0)
		(void)conn_ring_write(c);
}

void
conn_rings_poll(void)
{
	struct conn *c;
	unsigned long before = pvmd.nreads;

	/*
	 * A connection closed here stays allocated until the loop's next
	 * turn (conn.c), and its list links still lead on, so the walk
	 * survives handling frames that close others.
	 */
	TAILQ_FOREACH(c, &conn_rings, rentry) {
		if (!c->dead && c->reading && ring_end_rx_ready(c->ring))
			conn_ring_input(c);
	}
	if (pvmd.nreads != before)
		conn_flush_dirty();
}

int
conn_rings_sleep(void)
{
	struct conn *c;
	int ready = 0;

	TAILQ_FOREACH(c, &conn_rings, rentry) {
		if (!c->dead && c->reading && ring_end_rx_sleep(c->ring))
			ready = 1;
	}
	return ready;
}

void
conn_rings_awake(void)
{
	struct conn *c;

	TAILQ_FOREACH(c, &conn_rings, rentry)
		ring_end_rx_awake(c->ring);
}
