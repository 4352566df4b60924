/*
 * tx.c: output.  A message is cut into frames of lpvm.fragsize body bytes
 * and written with sendmsg straight from the caller's pieces: the iovec
 * alternates headers (kept in a small array here) and slices of the body,
 * up to TX_IOV entries per system call, so the body is never copied in
 * user space and a message of a few frames costs one system call.
 *
 * A route with rings (shm.c) takes the same iovec into its ring instead:
 * one copy in user space, no system call unless the peer sleeps (a
 * frame of up to TX_SMALL bytes is laid out whole first: tx_small_shm).
 *
 * Sockets are non-blocking.  When one is full we wait for it to drain
 * and, in the same poll, read whatever arrives on any socket: two tasks
 * that flood each other keep emptying each other's pipes and never
 * deadlock.  Message handlers do not run during a write (they might send
 * and interleave frames); they run once the write is done.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "pvm3.h"
#include "conn.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#define TX_IOV 256     /* iovec entries per sendmsg */
#define TX_HDRS 64     /* frame headers per sendmsg */
#define TX_FAST_IOV 17 /* one frame of up to 16 pieces (tx_one_frame) */
#define TX_SMALL 256   /* a frame this small goes into a ring in one copy */
#define TX_SMALL_PIECES 4 /* pieces of a message tx_send_small takes */
/*
 * Below this a body to a peer with a ring route goes through the ring,
 * not as a bulk offer: both processes copy at once (the writer into the
 * ring, the reader out of it), where the offer's one copy is the
 * reader's alone and pins the writer's pages first.  InPlace ping-pong
 * over a direct route, MB/s, rings against offers (3 runs each): 1 MiB
 * 7,562-9,231 against 4,629-5,138; 2 MiB 5,569-6,433 against 3,604-
 * 5,194; 4 MiB 3,564-4,406 against 3,689-4,016; 16 MiB 1,472-2,494
 * against 2,673-3,178 (docs/performance.md).
 */
#define TX_RING_BULK_MIN ((size_t)4 * 1024 * 1024)

int lpvm_tx_depth;

/* Walks the body pieces while frames are laid out. */
struct tx_cursor {
	const struct lpvm_seg *p;
	size_t n;
	size_t pi;    /* current piece */
	size_t poff;  /* offset in it */
	size_t total; /* body length */
	size_t given; /* body bytes assigned to frames so far */
	size_t fleft; /* bytes of the current frame not yet in an iovec */
	int started;  /* the first header has been laid out */
	int announce; /* first frame carries the total (WIRE_F_TOTAL) */
	uint8_t prefix[WIRE_TOTAL_LEN];
};

/* Drop the first r bytes of iov[*i..n): they went out. */
static void
tx_advance(struct iovec *iov, size_t n, size_t *i, size_t r)
{
	size_t k;

	for (k = r; k > 0 && *i < n;) {
		if (k >= iov[*i].iov_len) {
			k -= iov[*i].iov_len;
			(*i)++;
		} else {
			iov[*i].iov_base = (char *)iov[*i].iov_base + k;
			iov[*i].iov_len -= k;
			k = 0;
		}
	}
	while (*i < n && iov[*i].iov_len == 0)
		(*i)++;
}

/* Wait, reading meanwhile, until c can take more.  0 or -1. */
static int
tx_wait_room(struct lpvm_conn *c)
{
	int w;

	do {
		if (lpvm_io_wait(-1, c, &w) < 0 || c->fd < 0)
			return -1;
	} while (!w);
	return 0;
}

/* tx_writev on a ring route: copy into the ring, wake the reader if it
 * sleeps, and wait for room when it is full. */
static int
tx_writev_shm(struct lpvm_conn *c, struct iovec *iov, size_t n)
{
	long long r;
	size_t i = 0;

	while (i < n) {
		if (c->fd < 0 || c->shm == NULL || c->eof)
			return -1;
		if ((r = ring_end_writev(c->shm, iov + i, n - i)) < 0)
			return -1;
		if (r > 0) {
			ring_end_wake_reader(c->shm, c->fd);
			tx_advance(iov, n, &i, (size_t)r);
			continue;
		}
		if (tx_wait_room(c) != 0)
			return -1;
	}
	return 0;
}

/* Write iov[0..n) completely.  0, or -1 if the connection failed. */
static int
tx_writev(struct lpvm_conn *c, struct iovec *iov, size_t n)
{
	struct msghdr mh;
	ssize_t r;
	size_t i = 0;

	if (c->shm != NULL)
		return tx_writev_shm(c, iov, n);
	while (i < n) {
		if (c->fd < 0)
			return -1;
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = iov + i;
		mh.msg_iovlen = n - i;
		r = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
			/* Full: read meanwhile until c can take more. */
			if (tx_wait_room(c) != 0)
				return -1;
			continue;
		}
		tx_advance(iov, n, &i, (size_t)r);
	}
	return 0;
}

/*
 * Lay out the next batch of headers and body slices into iov.  Returns
 * the number of entries; *last is set when the message is complete.
 */
static size_t
tx_batch(struct tx_cursor *tc, const struct wire_hdr *h0,
    uint8_t hdrs[][WIRE_HDR_LEN], struct iovec *iov, int *last)
{
	struct wire_hdr h = *h0;
	size_t niov = 0, nh = 0, flen, take;

	*last = 0;
	while (niov < TX_IOV) {
		if (tc->fleft == 0) {
			if (tc->started && tc->given == tc->total) {
				*last = 1;
				break;
			}
			if (nh == TX_HDRS || niov + 2 > TX_IOV)
				break;
			flen = tc->total - tc->given;
			if (flen > (size_t)lpvm.fragsize)
				flen = (size_t)lpvm.fragsize;
			h.flags =
			    (tc->given == 0 ? WIRE_F_SOM : 0) |
			    (tc->given + flen == tc->total ? WIRE_F_EOM : 0);
			h.len = flen;
			if (!tc->started && tc->announce) {
				/* The length rides in the frame's budget. */
				flen -= WIRE_TOTAL_LEN;
				h.flags |= WIRE_F_TOTAL;
			}
			wire_hdr_encode(&h, hdrs[nh]);
			iov[niov].iov_base = hdrs[nh++];
			iov[niov++].iov_len = WIRE_HDR_LEN;
			if (h.flags & WIRE_F_TOTAL) {
				iov[niov].iov_base = tc->prefix;
				iov[niov++].iov_len = WIRE_TOTAL_LEN;
			}
			tc->given += flen;
			tc->fleft = flen;
			tc->started = 1;
			continue;
		}
		while (tc->p[tc->pi].len == tc->poff) {
			tc->pi++;
			tc->poff = 0;
		}
		take = tc->p[tc->pi].len - tc->poff;
		if (take > tc->fleft)
			take = tc->fleft;
		iov[niov].iov_base = (char *)tc->p[tc->pi].ptr + tc->poff;
		iov[niov++].iov_len = take;
		tc->poff += take;
		tc->fleft -= take;
	}
	return niov;
}

/*
 * A small frame for a ring route, laid out whole straight in the ring
 * (ring_end_reserve) and published, or, where the ring wraps, on the
 * stack and put in with one copy; or not at all: 1 if it went, 0 if the
 * ring had no room for it (the caller then writes it as any other,
 * waiting for room), -1 if the ring is broken.  Skips the iovec walk of
 * tx_writev: about 130 of the 480 instructions of lpvm_tx for an 8-byte
 * message (callgrind).
 */
static int
tx_small_shm(struct lpvm_conn *c, const struct wire_hdr *h,
    const struct lpvm_seg *pieces, size_t npieces, size_t total)
{
	uint8_t buf[TX_SMALL], *f;
	size_t i, at = WIRE_HDR_LEN;
	long long r;

	if (c->fd < 0 || c->eof)
		return -1;
	if ((f = ring_end_reserve(c->shm, WIRE_HDR_LEN + total)) == NULL)
		f = buf;
	wire_hdr_encode(h, f);
	for (i = 0; i < npieces; i++) {
		if (pieces[i].len == 0)
			continue;
		memcpy(f + at, pieces[i].ptr, pieces[i].len);
		at += pieces[i].len;
	}
	if (f != buf)
		ring_end_commit(c->shm, WIRE_HDR_LEN + total);
	else if ((r = ring_end_write(c->shm, buf, WIRE_HDR_LEN + total)) <= 0)
		return r < 0 ? -1 : 0;
	ring_end_wake_reader(c->shm, c->fd);
	return 1;
}

/* tx_one_frame's write through the iovec (a socket, a full ring, a
 * larger frame); out of line, so that a small frame for a ring does not
 * set up its arrays. */
static int __attribute__((noinline))
tx_one_frame_iov(struct lpvm_conn *c, const struct wire_hdr *h,
    const struct lpvm_seg *pieces, size_t npieces)
{
	uint8_t hdr[WIRE_HDR_LEN];
	struct iovec iov[TX_FAST_IOV];
	size_t i, n = 1;
	int rc;

	wire_hdr_encode(h, hdr);
	iov[0].iov_base = hdr;
	iov[0].iov_len = WIRE_HDR_LEN;
	for (i = 0; i < npieces; i++) {
		if (pieces[i].len == 0)
			continue;
		iov[n].iov_base = (void *)pieces[i].ptr;
		iov[n++].iov_len = pieces[i].len;
	}
	lpvm_tx_depth++;
	rc = tx_writev(c, iov, n);
	lpvm_tx_depth--;
	if (rc == 0)
		lpvm_tx_owed();
	return rc;
}

/*
 * A message that fits one frame, as most do: its header (flags and len
 * set by the caller) and pieces in one write, without laying out a
 * cursor (80 of the 555 instructions lpvm_tx took for an 8-byte
 * message, callgrind).  The frame is the one tx_batch makes.
 */
static int
tx_one_frame(struct lpvm_conn *c, const struct wire_hdr *h,
    const struct lpvm_seg *pieces, size_t npieces, size_t total)
{
	int rc;

	if (c->shm != NULL && total <= TX_SMALL - WIRE_HDR_LEN &&
	    (rc = tx_small_shm(c, h, pieces, npieces, total)) != 0) {
		if (rc < 0)
			return -1;
		lpvm_tx_owed();
		return 0;
	}
	return tx_one_frame_iov(c, h, pieces, npieces);
}

/*
 * A message of several frames (or of many pieces): cut by the cursor.
 * Out of line, so that a message of one frame does not pay for this
 * frame's arrays (their set-up and canary: about 100 of the 470
 * instructions of lpvm_tx for an 8-byte message, callgrind).
 */
static int __attribute__((noinline))
tx_frames(struct lpvm_conn *c, const struct wire_hdr *h,
    const struct lpvm_seg *pieces, size_t npieces, size_t n)
{
	uint8_t hdrs[TX_HDRS][WIRE_HDR_LEN];
	struct iovec iov[TX_IOV];
	struct tx_cursor tc;
	int last = 0, rc = 0;

	memset(&tc, 0, sizeof(tc));
	tc.p = pieces;
	tc.n = npieces;
	tc.total = n;
	/* Tell a task the size of a message of several frames (wire.h). */
	if (tc.total > (size_t)lpvm.fragsize &&
	    (tid_is_task(h->dst) || tid_is_mcast(h->dst)) &&
	    lpvm.fragsize > 2 * WIRE_TOTAL_LEN) {
		tc.announce = 1;
		wire_total_encode(tc.total, tc.prefix);
	}
	lpvm_tx_depth++;
	while (!last && rc == 0) {
		n = tx_batch(&tc, h, hdrs, iov, &last);
		if (n > 0)
			rc = tx_writev(c, iov, n);
	}
	lpvm_tx_depth--;
	if (rc == 0)
		lpvm_tx_owed();
	return rc;
}

/* lpvm_tx of a message whose body is total bytes. */
static int
tx_write(struct lpvm_conn *c, const struct wire_hdr *h0,
    const struct lpvm_seg *pieces, size_t npieces, size_t total)
{
	struct wire_hdr h;

	if (lpvm.fragsize <= 0)
		lpvm.fragsize = WIRE_FRAG_DEFAULT;
	if (total > (size_t)lpvm.fragsize || npieces >= TX_FAST_IOV)
		return tx_frames(c, h0, pieces, npieces, total);
	h = *h0;
	h.flags = WIRE_F_SOM | WIRE_F_EOM;
	h.len = total;
	return tx_one_frame(c, &h, pieces, npieces, total);
}

int
lpvm_tx(struct lpvm_conn *c, const struct wire_hdr *h,
    const struct lpvm_seg *pieces, size_t npieces)
{
	size_t i, n;

	for (i = 0, n = 0; i < npieces; i++)
		n += pieces[i].len;
	return tx_write(c, h, pieces, npieces, n);
}

void
lpvm_tx_owed(void)
{
	/* Only between frames: an answer is a frame to the pvmd. */
	if (lpvm_tx_depth == 0) {
		lpvm_bulk_flush();
		lpvm_route_flush();
	}
}

void
lpvm_hdr_init(struct wire_hdr *h, int dst, int tag, int ctx, int enc, int wid)
{
	memset(h, 0, sizeof(*h));
	h->version = WIRE_VERSION;
	h->dst = dst;
	h->src = lpvm.mytid;
	h->tag = tag;
	h->ctx = ctx;
	h->enc = enc;
	h->wid = wid;
}

/*
 * Do we and the peer at the other end of c run on CPUs of our own, apart?
 * The pvmd binds each task to a CPU of its own while the host has no
 * more tasks than CPUs (daemon/place.c).  Two tasks that share a CPU are
 * better off with an offer: the reader then copies alone, where a ring
 * switches between them at every ring's worth (1 MiB, both tasks on
 * CPU 0, MB/s: offers 4,755-5,884, rings 2,834-3,833).
 */
static int
tx_cpus_apart(const struct lpvm_conn *c)
{
	pid_t peer = lpvm_peer_pid(c->fd);
	cpu_set_t mine, theirs;

	if (peer < 0 || sched_getaffinity(0, sizeof(mine), &mine) != 0 ||
	    sched_getaffinity(peer, sizeof(theirs), &theirs) != 0 ||
	    CPU_COUNT(&mine) != 1 || CPU_COUNT(&theirs) != 1)
		return 0;
	CPU_AND(&mine, &mine, &theirs);
	return CPU_COUNT(&mine) == 0;
}

/* Does a body of total bytes to dst go through its ring route rather
 * than as a bulk offer (TX_RING_BULK_MIN)? */
static int
tx_ring_takes(int dst, size_t total)
{
	struct lpvm_conn *c;

	if (total >= TX_RING_BULK_MIN || !tid_is_task(dst))
		return 0;
	c = lpvm_route_get(dst);
	return c != NULL && c->shm != NULL && c->fd >= 0 && tx_cpus_apart(c);
}

/*
 * Send a message: to ourselves, as a bulk offer (a large body to a task
 * on this host, bulk.c: lent when m, the buffer the pieces lie in, can
 * lend them; else waited for; to a peer with a ring route only from
 * TX_RING_BULK_MIN on), or written to the route or the pvmd.
 */
static int
tx_send(int dst, int tag, int ctx, int wid, int wire_enc,
    const struct lpvm_seg *pieces, size_t npieces, struct lpvm_msg *m)
{
	struct wire_hdr h;
	struct lpvm_conn *c;
	size_t i, total;
	int rc = 0;

	if (lpvm_pvmd == NULL)
		return PvmSysErr;
	lpvm_hdr_init(&h, dst, tag, ctx, wire_enc, wid);
	if (dst == lpvm.mytid && dst > 0)
		return lpvm_rx_local(&h, pieces, npieces);
	for (i = 0, total = 0; i < npieces; i++)
		total += pieces[i].len;
	if (total >= LPVM_BULK_MIN && !tx_ring_takes(dst, total)) {
		if (m != NULL)
			rc = lpvm_bulk_lend(&h, m, pieces, npieces, total);
		if (rc == 0)
			rc = lpvm_bulk_send(&h, pieces, npieces, total);
		if (rc != 0)
			return rc < 0 ? rc : 0;
	}
	if (tid_is_task(dst) && (c = lpvm_route_get(dst)) != NULL) {
		/* A failed route means the peer is gone: nothing to do. */
		if (tx_write(c, &h, pieces, npieces, total) != 0 && c->fd >= 0)
			lpvm_conn_close(c, CONN_REFUSED);
		return lpvm_pvmd != NULL ? 0 : PvmSysErr;
	}
	if (tx_write(lpvm_pvmd, &h, pieces, npieces, total) != 0) {
		if (lpvm_pvmd != NULL)
			lpvm_disconnect();
		return PvmSysErr;
	}
	return 0;
}

int
lpvm_send_pieces(int dst, int tag, int ctx, int wid, int wire_enc,
    const struct lpvm_seg *pieces, size_t npieces)
{
	return tx_send(dst, tag, ctx, wid, wire_enc, pieces, npieces, NULL);
}

/*
 * The short way of a message of a few small pieces to another task over
 * the ring route last used (lpvm_route_cached: no lookup, no route
 * opened): the frame straight into the ring (tx_small_shm), without
 * tx_send's cases, about 100 of pvm_send's 452 instructions for a 1-byte
 * InPlace message (callgrind).  A cached route is always another task's,
 * and any closed connection (the pvmd's too) empties the cache, so the
 * cache answers tx_send's first questions.  1 if it went, 0 if the
 * general way must take it (another route or none, a larger body, no
 * room in the ring, a broken ring: tx_send then finds out and closes it).
 */
static int
tx_send_small(int dst, int tag, int ctx, const struct lpvm_msg *m)
{
	struct lpvm_seg p[TX_SMALL_PIECES];
	struct wire_hdr h;
	struct lpvm_conn *c;
	size_t i, n, total = 0;

	if ((c = lpvm_route_cached(dst)) == NULL || c->shm == NULL ||
	    (n = lpvm_msg_pieces(m, p, TX_SMALL_PIECES)) > TX_SMALL_PIECES)
		return 0;
	for (i = 0; i < n; i++)
		total += p[i].len;
	if (total > TX_SMALL - WIRE_HDR_LEN || total > (size_t)lpvm.fragsize)
		return 0;
	lpvm_hdr_init(&h, dst, tag, ctx, lpvm_msg_wire_enc(m), m->wid);
	h.flags = WIRE_F_SOM | WIRE_F_EOM;
	h.len = total;
	if (tx_small_shm(c, &h, p, n, total) <= 0)
		return 0;
	lpvm_tx_owed();
	return 1;
}

int
lpvm_send_msg(int dst, int tag, int ctx, struct lpvm_msg *m)
{
	struct lpvm_seg local[16], *p = local;
	size_t n;
	int rc;

	if (tx_send_small(dst, tag, ctx, m))
		return 0;
	n = lpvm_msg_pieces(m, local, 16);
	if (n > 16) {
		if ((p = calloc(n, sizeof(*p))) == NULL)
			return PvmNoMem;
		n = lpvm_msg_pieces(m, p, n);
	}
	rc = tx_send(dst, tag, ctx, m->wid, lpvm_msg_wire_enc(m), p, n, m);
	if (p != local)
		free(p);
	return rc;
}
