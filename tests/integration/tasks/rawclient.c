/*
 * rawclient.c: a client that speaks the frame format of common/wire.h by
 * hand, to feed the pvmd bad input.  No libpvm.
 *
 *   rawclient MODE SOCKPATH
 *
 * Modes (each expects the pvmd to drop the connection):
 *   garbage       64 KiB of pseudo-random bytes
 *   cutbody       a TM_CONNECT header announcing 100 body bytes, 10
 *                 bytes, then EOF
 *   huge          a header announcing a 2^63-byte body, then a little
 *   silent        connect and say nothing
 *   badfirst      a well-formed first frame that is not TM_CONNECT
 *   connect-garbage  a proper TM_CONNECT, then garbage
 *   rings-index   TM_RINGS with a good segment, then a tail index that
 *                 cannot be (ahead of the head by more than the ring)
 *   rings-garbage TM_RINGS with a good segment, then garbage in the ring
 *   rings-huge    TM_RINGS with a good segment, then a header in the
 *                 ring announcing a 2^63-byte body
 * and one that expects a proper answer:
 *   connect       TM_CONNECT; prints the status and tid of the reply
 * and ones that expect the pvmd to answer 0 and keep the connection:
 *   rings-unsealed  TM_RINGS with a memfd that is not sealed
 *   rings-none      TM_RINGS with no descriptor
 *
 * Output: one line "RESULT <mode> closed <seconds>" / "RESULT <mode>
 * open" / "RESULT connect status <s> tid <t>" / "RESULT ... refused".
 * Exit status: 0 when the pvmd behaved as the mode expects, 1 when not,
 * 2 when the test itself could not run (e.g. connect() failed).
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fdpass.h"
#include "ringend.h"
#include "tid.h"
#include "wire.h"
#include "xdr.h"

#define CLOSE_WAIT 10.0 /* seconds the pvmd gets to drop us */

static int hdr_src; /* our tid once connected: frames must carry it */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Connect to the Unix socket at path; the fd or -1. */
static int
dial(const char *path)
{
	struct sockaddr_un sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		return -1;
	}
	strcpy(sa.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0) {
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "rawclient: connect %s: %s\n", path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Write all n bytes; 0, or -1 if the peer went away. */
static int
put(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	ssize_t w;

	while (n > 0) {
		w = write(fd, b, n);
		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w <= 0) {
			return -1;
		}
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Header bytes of one frame. */
static void
header(uint8_t *out, uint64_t len, int32_t tag, int32_t ctx)
{
	struct wire_hdr h;

	memset(&h, 0, sizeof(h));
	h.version = WIRE_VERSION;
	h.flags = WIRE_F_ALL;
	h.len = len;
	h.dst = TID_LOCAL_PVMD;
	h.src = hdr_src;
	h.tag = tag;
	h.ctx = ctx;
	h.enc = WIRE_ENC_XDR;
	h.wid = 1;
	wire_hdr_encode(&h, out);
}

/* Send a TM_CONNECT request frame; 0 or -1. */
static int
send_connect(int fd)
{
	struct xdr_writer w;
	uint8_t hdr[WIRE_HDR_LEN];
	int cc;

	xdr_writer_init(&w);
	xdr_put_int(&w, WIRE_VERSION);
	xdr_put_int(&w, (int32_t)getpid());
	xdr_put_int(&w, 0);
	xdr_put_str(&w, "rawclient");
	header(hdr, w.len, TM_CONNECT, SYSCTX_TM);
	cc = put(fd, hdr, sizeof(hdr)) < 0 || put(fd, w.data, w.len) < 0;
	xdr_writer_free(&w);
	return cc ? -1 : 0;
}

/*
 * Read and discard until EOF or error, at most secs seconds; the time it
 * took, or -1 if the connection was still open at the end.
 */
static double
wait_closed(int fd, double secs)
{
	double t0 = now(), left;
	struct pollfd p;
	char buf[4096];
	ssize_t r;

	for (;;) {
		left = secs - (now() - t0);
		if (left <= 0) {
			return -1;
		}
		p.fd = fd;
		p.events = POLLIN;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -1;
		}
		if (p.revents == 0) {
			continue;
		}
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			return now() - t0;
		}
	}
}

/*
 * Read one frame's header and body (up to 64 KiB) within secs.
 * Returns the body length, or -1 on EOF / error / time-out.
 */
static long
read_frame(int fd, struct wire_hdr *h, uint8_t *body, size_t max, double secs)
{
	uint8_t hb[WIRE_HDR_LEN];
	size_t got = 0, need = WIRE_HDR_LEN;
	uint8_t *dst = hb;
	double t0 = now();
	struct pollfd p;
	ssize_t r;
	int phase = 0;

	for (;;) {
		while (got < need) {
			p.fd = fd;
			p.events = POLLIN;
			if (now() - t0 > secs || poll(&p, 1, 100) < 0) {
				return -1;
			}
			if (p.revents == 0) {
				continue;
			}
			r = read(fd, dst + got, need - got);
			if (r <= 0) {
				return -1;
			}
			got += (size_t)r;
		}
		if (phase == 1) {
			return (long)need;
		}
		if (wire_hdr_decode(hb, WIRE_HDR_LEN, h) != WIRE_OK ||
		    h->len > max) {
			return -1;
		}
		phase = 1;
		dst = body;
		got = 0;
		need = (size_t)h->len;
		if (need == 0) {
			return 0;
		}
	}
}

/* Expect the pvmd to drop us within CLOSE_WAIT seconds. */
static int
expect_closed(const char *mode, int fd)
{
	double dt = wait_closed(fd, CLOSE_WAIT);

	if (dt < 0) {
		printf("RESULT %s open after %.0f s\n", mode, CLOSE_WAIT);
		return 1;
	}
	printf("RESULT %s closed %.3f\n", mode, dt);
	return 0;
}

/* The TM_CONNECT handshake; prints status and tid; 0 if accepted. */
static int
do_connect(int fd, int *tidp)
{
	static uint8_t body[65536];
	struct wire_hdr h;
	struct xdr_reader r;
	int32_t status = -999, tid = 0;
	long n;

	if (send_connect(fd) < 0) {
		printf("RESULT connect refused (write failed)\n");
		return 1;
	}
	n = read_frame(fd, &h, body, sizeof(body), 10);
	if (n < 0) {
		printf("RESULT connect refused (no reply, connection %s)\n",
		    wait_closed(fd, 0.1) >= 0 ? "closed" : "silent");
		return 1;
	}
	xdr_reader_init(&r, body, (size_t)n);
	xdr_get_int(&r, &status);
	xdr_get_int(&r, &tid);
	printf("RESULT connect status %d tid 0x%x tag 0x%x\n", status,
	    (unsigned)tid, (unsigned)h.tag);
	*tidp = tid;
	hdr_src = tid;
	return status == 0 && tid > 0 && h.tag == TM_CONNECT ? 0 : 1;
}

/*
 * Send TM_RINGS (after do_connect) with segfd attached (-1: none) and
 * read the reply from the socket: its int, or -1 if none came.
 */
static int
send_rings(int fd, int segfd)
{
	static uint8_t body[65536];
	uint8_t hdr[WIRE_HDR_LEN];
	struct wire_hdr h;
	struct iovec iov;
	struct xdr_reader r;
	int32_t v = -1;
	ssize_t n;

	header(hdr, 0, TM_RINGS, SYSCTX_TM);
	iov.iov_base = hdr;
	iov.iov_len = sizeof(hdr);
	if (segfd >= 0) {
		n = fdpass_send(fd, &iov, 1, 0, segfd);
	} else {
		n = put(fd, hdr, sizeof(hdr)) == 0 ? (ssize_t)sizeof(hdr) : -1;
	}
	if (n != (ssize_t)sizeof(hdr)) {
		return -1;
	}
	if (read_frame(fd, &h, body, sizeof(body), 10) < 4) {
		return -1;
	}
	xdr_reader_init(&r, body, 4);
	xdr_get_int(&r, &v);
	return h.tag == TM_RINGS ? v : -1;
}

/* A memfd of a ring segment's size and header, but not sealed. */
static int
unsealed_segment(void)
{
	size_t size = 64 * 1024, len = ring_seg_len(size);
	struct ring_seg seg;
	int fd = memfd_create("rawclient", 0);

	if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
		return -1;
	}
	memset(&seg, 0, sizeof(seg));
	seg.magic = RING_MAGIC;
	seg.version = RING_VERSION;
	seg.size = (uint32_t)size;
	if (pwrite(fd, &seg, sizeof(seg), 0) != (ssize_t)sizeof(seg)) {
		return -1;
	}
	return fd;
}

/* Fill p with n pseudo-random bytes that never start with our magic. */
static void
noise(uint8_t *p, size_t n)
{
	uint32_t x = 0x12345678u;
	size_t i;

	for (i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		p[i] = (uint8_t)(x >> 24);
	}
	p[0] = 'G';
}

/*
 * The rings modes: connect and pass a segment, then check the refusal,
 * or break the ring as the mode says (the pvmd must drop us).
 */
static int
rings_mode(const char *mode, int fd)
{
	static uint8_t junk[4096];
	struct ring_end *e = NULL;
	uint8_t hdr[WIRE_HDR_LEN];
	struct iovec iov;
	int tid = 0, segfd = -1, v;

	if (do_connect(fd, &tid) != 0) {
		return 1;
	}
	if (strcmp(mode, "rings-unsealed") == 0) {
		segfd = unsealed_segment();
	} else if (strcmp(mode, "rings-none") != 0) {
		e = ring_end_create("rawclient", 64 * 1024, &segfd);
	}
	if (strcmp(mode, "rings-none") != 0 && segfd < 0) {
		printf("RESULT %s cannot make a segment\n", mode);
		return 2;
	}
	v = send_rings(fd, segfd);
	if (e == NULL) {
		/* Refused, and the connection stays. */
		printf("RESULT %s reply %d\n", mode, v);
		return v == 0 && wait_closed(fd, 0.5) < 0 ? 0 : 1;
	}
	if (v != 1) {
		printf("RESULT %s reply %d (rings not taken)\n", mode, v);
		return 1;
	}
	if (strcmp(mode, "rings-index") == 0) {
		atomic_store(&e->tx->tail, (uint64_t)e->size * 3);
	} else if (strcmp(mode, "rings-huge") == 0) {
		header(hdr, (uint64_t)1 << 63, TM_CONFIG, SYSCTX_TM);
		iov.iov_base = hdr;
		iov.iov_len = sizeof(hdr);
		(void)ring_end_writev(e, &iov, 1);
	} else {
		noise(junk, sizeof(junk));
		iov.iov_base = junk;
		iov.iov_len = sizeof(junk);
		(void)ring_end_writev(e, &iov, 1);
	}
	(void)put(fd, "w", 1); /* a wake-up, in case the pvmd sleeps */
	return expect_closed(mode, fd);
}

int
main(int argc, char **argv)
{
	static uint8_t junk[65536];
	uint8_t hdr[WIRE_HDR_LEN];
	const char *mode;
	int fd, tid = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (argc != 3) {
		fprintf(stderr, "usage: rawclient MODE SOCKPATH\n");
		return 2;
	}
	mode = argv[1];
	if ((fd = dial(argv[2])) < 0) {
		printf("RESULT %s cannot connect: %s\n", mode, strerror(errno));
		return 2;
	}
	if (strcmp(mode, "garbage") == 0) {
		noise(junk, sizeof(junk));
		(void)put(fd, junk, sizeof(junk));
		return expect_closed(mode, fd);
	}
	if (strcmp(mode, "cutbody") == 0) {
		header(hdr, 100, TM_CONNECT, SYSCTX_TM);
		(void)put(fd, hdr, sizeof(hdr));
		(void)put(fd, "0123456789", 10);
		shutdown(fd, SHUT_WR);
		return expect_closed(mode, fd);
	}
	if (strcmp(mode, "huge") == 0) {
		header(hdr, (uint64_t)1 << 63, TM_CONNECT, SYSCTX_TM);
		(void)put(fd, hdr, sizeof(hdr));
		noise(junk, 4096);
		(void)put(fd, junk, 4096);
		return expect_closed(mode, fd);
	}
	if (strcmp(mode, "silent") == 0) {
		return expect_closed(mode, fd);
	}
	if (strcmp(mode, "badfirst") == 0) {
		header(hdr, 0, TM_CONFIG, SYSCTX_TM);
		(void)put(fd, hdr, sizeof(hdr));
		return expect_closed(mode, fd);
	}
	if (strcmp(mode, "connect-garbage") == 0) {
		if (do_connect(fd, &tid) != 0) {
			return 1;
		}
		noise(junk, sizeof(junk));
		(void)put(fd, junk, sizeof(junk));
		return expect_closed(mode, fd);
	}
	if (strncmp(mode, "rings-", 6) == 0) {
		return rings_mode(mode, fd);
	}
	if (strcmp(mode, "connect") == 0) {
		return do_connect(fd, &tid);
	}
	fprintf(stderr, "rawclient: unknown mode %s\n", mode);
	return 2;
}
