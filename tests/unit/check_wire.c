/*
 * check_wire.c: the frame header codec, the control body codec, tid
 * arithmetic and file names.  All pure code: no sockets.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"
#include "paths.h"
#include "tid.h"
#include "wire.h"
#include "xdr.h"

#include "unit_main.h"

static struct wire_hdr
sample_hdr(void)
{
	struct wire_hdr h = {
		.version = WIRE_VERSION,
		.flags = WIRE_F_SOM | WIRE_F_EOM,
		.len = 12345,
		.dst = 0x40001,
		.src = (int32_t)0x80040000u,
		.tag = -7,
		.ctx = SYSCTX_TM,
		.enc = WIRE_ENC_XDR,
		.wid = 99,
	};
	return h;
}

START_TEST(hdr_round_trip)
{
	struct wire_hdr h = sample_hdr(), g;
	uint8_t buf[WIRE_HDR_LEN];

	wire_hdr_encode(&h, buf);
	ck_assert_int_eq(wire_hdr_decode(buf, sizeof(buf), &g), WIRE_OK);
	ck_assert_uint_eq(g.len, h.len);
	ck_assert_int_eq(g.dst, h.dst);
	ck_assert_int_eq(g.src, h.src);
	ck_assert_int_eq(g.tag, h.tag);
	ck_assert_int_eq(g.ctx, h.ctx);
	ck_assert_int_eq(g.enc, h.enc);
	ck_assert_int_eq(g.wid, h.wid);
	ck_assert_uint_eq(g.flags, h.flags);
	/* big-endian magic on the wire */
	ck_assert_int_eq(buf[0], 'P');
	ck_assert_int_eq(buf[3], '4');
}
END_TEST

START_TEST(hdr_truncated)
{
	struct wire_hdr h = sample_hdr(), g;
	uint8_t buf[WIRE_HDR_LEN];
	size_t n;

	wire_hdr_encode(&h, buf);
	for (n = 0; n < WIRE_HDR_LEN; n++)
		ck_assert_int_eq(wire_hdr_decode(buf, n, &g), WIRE_SHORT);
}
END_TEST

START_TEST(hdr_garbage)
{
	uint8_t buf[WIRE_HDR_LEN];
	struct wire_hdr g;
	unsigned seed = 12345;
	int i, j, ok = 0;

	/* Random bytes essentially never pass the magic check. */
	for (i = 0; i < 10000; i++) {
		for (j = 0; j < WIRE_HDR_LEN; j++) {
			seed = seed * 1103515245u + 12345u;
			buf[j] = (uint8_t)(seed >> 16);
		}
		if (wire_hdr_decode(buf, sizeof(buf), &g) == WIRE_OK)
			ok++;
	}
	ck_assert_int_eq(ok, 0);
}
END_TEST

START_TEST(hdr_bad_fields)
{
	struct wire_hdr h = sample_hdr(), g;
	uint8_t buf[WIRE_HDR_LEN];

	wire_hdr_encode(&h, buf);
	buf[5] = 9; /* version 9 */
	ck_assert_int_eq(wire_hdr_decode(buf, sizeof(buf), &g),
	    WIRE_BADVERSION);

	h.flags = 0x80;
	wire_hdr_encode(&h, buf);
	ck_assert_int_eq(wire_hdr_decode(buf, sizeof(buf), &g), WIRE_BADFLAGS);
}
END_TEST

START_TEST(hdr_oversized)
{
	struct wire_hdr h = sample_hdr(), g;
	uint8_t buf[WIRE_HDR_LEN];

	h.len = (uint64_t)1 << 63;
	wire_hdr_encode(&h, buf);
	ck_assert_int_eq(wire_hdr_decode(buf, sizeof(buf), &g), WIRE_TOOBIG);
	h.len = WIRE_FRAME_MAX + 1;
	wire_hdr_encode(&h, buf);
	ck_assert_int_eq(wire_hdr_decode(buf, sizeof(buf), &g), WIRE_TOOBIG);
	h.len = WIRE_FRAME_MAX;
	wire_hdr_encode(&h, buf);
	ck_assert_int_eq(wire_hdr_decode(buf, sizeof(buf), &g), WIRE_OK);
	h.len = 0;
	wire_hdr_encode(&h, buf);
	ck_assert_int_eq(wire_hdr_decode(buf, sizeof(buf), &g), WIRE_OK);
}
END_TEST

START_TEST(tag_names)
{
	ck_assert_str_eq(wire_tag_name(TM_SPAWN), "spawn");
	ck_assert_str_eq(wire_tag_name(TC_OUTPUT), "output");
	ck_assert_str_eq(wire_tag_name(TC_ROUTEADDR), "route-addr");
	ck_assert_ptr_null(wire_tag_name(5));
	ck_assert_int_eq(wire_tm_index(TM_CONNECT), 1);
	ck_assert_int_eq(wire_tm_index(TM_RINGS), WIRE_TM_COUNT);
	ck_assert_int_eq(wire_tm_index(TC_OUTPUT), 0);
	ck_assert_int_eq(wire_tm_index(DM_HELLO), 0);
	ck_assert_int_eq(wire_dm_index(DM_HELLO), 1);
	ck_assert_int_eq(wire_dm_index(DM_SCHED), WIRE_DM_COUNT);
	ck_assert_int_eq(wire_dm_index(TM_CONNECT), 0);
	ck_assert_int_eq(wire_dm_index((int32_t)(WIRE_DM_BASE | 999)), 0);
	ck_assert_str_eq(wire_tag_name(DM_WELCOME), "welcome");
	ck_assert_int_eq(wire_tm_index((int32_t)(WIRE_TM_BASE | 999)), 0);
	ck_assert_int_lt(TM_CONNECT, 0);
}
END_TEST

/* A two-piece bulk offer of 30 bytes, encoded into out. */
static size_t
bulk_sample(uint8_t *out)
{
	struct wire_bulk b = { 7, 8, 1, 9, 1234, 0x1122334455667788ull,
		0xabcdef, 30, 2, NULL };
	uint64_t addr[2] = { 0x1000, 0x2000 }, len[2] = { 10, 20 };

	wire_bulk_encode(&b, addr, len, out);
	return wire_bulk_len(2);
}

START_TEST(bulk_round_trip)
{
	uint8_t buf[128], ack[WIRE_BULKACK_LEN];
	struct wire_bulk b;
	uint64_t addr, len, cookie;
	int32_t st;
	size_t n = bulk_sample(buf);

	ck_assert_uint_eq(n, WIRE_BULK_FIXED + 2 * WIRE_BULK_SEGLEN);
	ck_assert_int_eq(wire_bulk_decode(buf, n, 1000, &b), 0);
	ck_assert_int_eq(b.tag, 7);
	ck_assert_int_eq(b.ctx, 8);
	ck_assert_int_eq(b.enc, 1);
	ck_assert_int_eq(b.wid, 9);
	ck_assert_uint_eq(b.pid, 1234);
	ck_assert(b.cookie == 0x1122334455667788ull);
	ck_assert(b.ticket == 0xabcdef);
	ck_assert(b.total == 30);
	ck_assert_uint_eq(b.nseg, 2);
	wire_bulk_seg(&b, 1, &addr, &len);
	ck_assert(addr == 0x2000 && len == 20);
	wire_bulkack_encode(b.cookie, PvmDenied, ack);
	ck_assert_int_eq(wire_bulkack_decode(ack, sizeof(ack), &cookie, &st),
	    0);
	ck_assert(cookie == b.cookie);
	ck_assert_int_eq(st, PvmDenied);
	ck_assert_int_eq(wire_bulkack_decode(ack, sizeof(ack) - 1, &cookie,
	    &st), -1);
}
END_TEST

/* Every malformed offer is refused; none is read past its end. */
START_TEST(bulk_malformed)
{
	uint8_t buf[128];
	struct wire_bulk b;
	size_t n = bulk_sample(buf), k;

	for (k = 0; k < n; k++) {
		ck_assert_int_eq(wire_bulk_decode(buf, k, 1000, &b), -1);
	}
	ck_assert_int_eq(wire_bulk_decode(buf, n + 1, 1000, &b), -1);
	/* Over the caller's limit. */
	ck_assert_int_eq(wire_bulk_decode(buf, n, 29, &b), -1);
	/* Pieces that do not add up to the total. */
	buf[36 + 7] = 31;
	ck_assert_int_eq(wire_bulk_decode(buf, n, 1000, &b), -1);
	buf[36 + 7] = 30;
	/* A piece length that would overflow the sum. */
	memset(buf + WIRE_BULK_FIXED + 8, 0xff, 8);
	ck_assert_int_eq(wire_bulk_decode(buf, n, UINT64_MAX, &b), -1);
	/* An absurd piece count. */
	bulk_sample(buf);
	memset(buf + 44, 0xff, 4);
	ck_assert_int_eq(wire_bulk_decode(buf, n, 1000, &b), -1);
}
END_TEST

/* Input of fuzz round `round`: an odd round is sample's base bytes with
 * one of them replaced, an even one up to max - 1 random bytes.  On the
 * heap, exactly *n bytes (a sanitizer sees any read past the end). */
static uint8_t *
fuzz_input(int round, const uint8_t *sample, size_t base, int max,
    size_t *n)
{
	uint8_t *buf;
	size_t k;

	*n = round % 2 ? base : (size_t)(rand() % max);
	buf = malloc(*n ? *n : 1);
	ck_assert_ptr_nonnull(buf);
	for (k = 0; k < *n; k++)
		buf[k] = round % 2 ? sample[k] : (uint8_t)rand();
	if (round % 2 && *n > 0)
		buf[rand() % *n] = (uint8_t)rand();
	return buf;
}

/* Random and mutated offers: the decoder only ever says yes to an offer
 * whose pieces add up, and reads nothing past the bytes it is given
 * (tools/sanitize.sh runs this under AddressSanitizer). */
START_TEST(bulk_fuzz)
{
	uint8_t sample[128], *buf;
	struct wire_bulk b;
	uint64_t addr, len, sum;
	size_t n, base = bulk_sample(sample);
	uint32_t i;
	int round;

	srand(12345);
	for (round = 0; round < 20000; round++) {
		buf = fuzz_input(round, sample, base, 200, &n);
		if (wire_bulk_decode(buf, n, 1u << 20, &b) == 0) {
			ck_assert_uint_eq(n, wire_bulk_len(b.nseg));
			ck_assert(b.total <= (1u << 20));
			for (i = 0, sum = 0; i < b.nseg; i++) {
				wire_bulk_seg(&b, i, &addr, &len);
				sum += len;
			}
			ck_assert(sum == b.total);
		}
		free(buf);
	}
}
END_TEST

/* A granted TC_ROUTEADDR for host "h2", encoded into out. */
static size_t
routeaddr_sample(uint8_t *out)
{
	struct wire_routeaddr a;
	int i;

	memset(&a, 0, sizeof(a));
	a.marker = 42;
	strcpy(a.host, "h2");
	a.port = 40001;
	for (i = 0; i < WIRE_ROUTE_COOKIE; i++)
		a.cookie[i] = (uint8_t)(0xa0 + i);
	return wire_routeaddr_encode(&a, out);
}

START_TEST(route_round_trip)
{
	uint8_t buf[WIRE_ROUTEADDR_MAX], cookie[WIRE_ROUTE_COOKIE];
	struct wire_routeaddr a, b;
	int32_t marker;
	size_t n = routeaddr_sample(buf);

	/* marker, "h2" (length 3, 4 bytes with NUL), port, cookie */
	ck_assert_uint_eq(n, 4 + 4 + 4 + 4 + WIRE_ROUTE_COOKIE);
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), 0);
	ck_assert_int_eq(a.marker, 42);
	ck_assert_str_eq(a.host, "h2");
	ck_assert_int_eq(a.port, 40001);
	ck_assert_uint_eq(a.cookie[15], 0xaf);
	/* The longest host name fits in WIRE_ROUTEADDR_MAX exactly. */
	memset(b.host, 'x', WIRE_ROUTE_HOSTMAX);
	b.host[WIRE_ROUTE_HOSTMAX] = '\0';
	b.marker = 1;
	b.port = 65535;
	memset(b.cookie, 7, sizeof(b.cookie));
	n = wire_routeaddr_encode(&b, buf);
	ck_assert_uint_eq(n, WIRE_ROUTEADDR_MAX);
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), 0);
	ck_assert_uint_eq(strlen(a.host), WIRE_ROUTE_HOSTMAX);
	/* A refusal: port 0, empty host. */
	b.host[0] = '\0';
	b.port = 0;
	n = wire_routeaddr_encode(&b, buf);
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), 0);
	ck_assert_int_eq(a.port, 0);
	/* Out of range on encoding. */
	b.port = 65536;
	ck_assert_uint_eq(wire_routeaddr_encode(&b, buf), 0);
	b.port = 1;
	b.marker = 0;
	ck_assert_uint_eq(wire_routeaddr_encode(&b, buf), 0);
	/* Request and hello. */
	wire_routereq_encode(9, buf);
	ck_assert_int_eq(wire_routereq_decode(buf, 4, &marker), 0);
	ck_assert_int_eq(marker, 9);
	ck_assert_int_eq(wire_routereq_decode(buf, 3, &marker), -1);
	ck_assert_int_eq(wire_routereq_decode(buf, 5, &marker), -1);
	wire_routereq_encode(-9, buf);
	ck_assert_int_eq(wire_routereq_decode(buf, 4, &marker), -1);
	wire_routehello_encode(77, a.cookie, buf);
	ck_assert_int_eq(wire_routehello_decode(buf, WIRE_ROUTEHELLO_LEN,
	    &marker, cookie), 0);
	ck_assert_int_eq(marker, 77);
	ck_assert_mem_eq(cookie, a.cookie, WIRE_ROUTE_COOKIE);
	ck_assert_int_eq(wire_routehello_decode(buf, 4, &marker, cookie), -1);
	ck_assert_int_eq(wire_routehello_decode(buf, WIRE_ROUTEHELLO_LEN + 1,
	    &marker, cookie), -1);
	wire_routehello_encode(0, a.cookie, buf);
	ck_assert_int_eq(wire_routehello_decode(buf, WIRE_ROUTEHELLO_LEN,
	    &marker, cookie), -1);
}
END_TEST

/* Truncated, extended and corrupted answers are refused. */
START_TEST(route_malformed)
{
	static const uint32_t lens[] = { 0, 2, 4, 5, 257, 0x7fffffff,
		0xffffffff };
	uint8_t buf[WIRE_ROUTEADDR_MAX + 8], keep[WIRE_ROUTEADDR_MAX];
	struct wire_routeaddr a;
	size_t n = routeaddr_sample(buf), k;

	memcpy(keep, buf, n);
	for (k = 0; k < n; k++)
		ck_assert_int_eq(wire_routeaddr_decode(buf, k, &a), -1);
	buf[n] = 0;
	ck_assert_int_eq(wire_routeaddr_decode(buf, n + 1, &a), -1);
	ck_assert_int_eq(wire_routeaddr_decode(buf, n + 4, &a), -1);
	/* Marker 0 or negative. */
	memset(buf, 0, 4);
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	buf[0] = 0x80;
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	/* String length 0, too long, past the end, absurd. */
	for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		memcpy(buf, keep, n);
		buf[4] = (uint8_t)(lens[k] >> 24);
		buf[5] = (uint8_t)(lens[k] >> 16);
		buf[6] = (uint8_t)(lens[k] >> 8);
		buf[7] = (uint8_t)lens[k];
		ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	}
	/* No NUL, a NUL inside, junk in the padding. */
	memcpy(buf, keep, n);
	buf[10] = 'x';
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	memcpy(buf, keep, n);
	buf[9] = 0;
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	memcpy(buf, keep, n);
	buf[11] = 1;
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	/* Port out of range; a port without a host. */
	memcpy(buf, keep, n);
	buf[12] = 0x00;
	buf[13] = 0x01;
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	memcpy(buf, keep, n);
	buf[12] = 0xff;
	ck_assert_int_eq(wire_routeaddr_decode(buf, n, &a), -1);
	memset(buf, 0, sizeof(buf));
	buf[3] = 1;                /* marker 1 */
	buf[7] = 1;                /* "" */
	buf[15] = 80;              /* port 80 */
	ck_assert_int_eq(wire_routeaddr_decode(buf, 4 + 8 + 4 + 16, &a), -1);
	buf[15] = 0;               /* refused: fine */
	ck_assert_int_eq(wire_routeaddr_decode(buf, 4 + 8 + 4 + 16, &a), 0);
}
END_TEST

/* 10,000 random and mutated answers: whatever the decoder accepts
 * re-encodes to the same bytes, and it reads nothing past its input
 * (tools/sanitize.sh runs this under AddressSanitizer). */
START_TEST(route_fuzz)
{
	uint8_t sample[WIRE_ROUTEADDR_MAX], *buf, out[WIRE_ROUTEADDR_MAX];
	struct wire_routeaddr a;
	uint8_t cookie[WIRE_ROUTE_COOKIE];
	size_t n, base = routeaddr_sample(sample);
	int32_t marker;
	int round, ok = 0;

	srand(4242);
	for (round = 0; round < 10000; round++) {
		buf = fuzz_input(round, sample, base, 300, &n);
		if (wire_routeaddr_decode(buf, n, &a) == 0) {
			ok++;
			ck_assert(a.marker > 0 && a.port >= 0 &&
			    a.port <= 65535);
			ck_assert_uint_le(strlen(a.host), WIRE_ROUTE_HOSTMAX);
			ck_assert_uint_eq(wire_routeaddr_encode(&a, out), n);
			ck_assert_mem_eq(out, buf, n);
		}
		if (wire_routereq_decode(buf, n, &marker) == 0)
			ck_assert(n == 4 && marker > 0);
		if (wire_routehello_decode(buf, n, &marker, cookie) == 0)
			ck_assert(n == WIRE_ROUTEHELLO_LEN && marker > 0);
		free(buf);
	}
	ck_assert_int_gt(ok, 0); /* the mutations keep some valid */
}
END_TEST

START_TEST(xdr_round_trip)
{
	struct xdr_writer w;
	struct xdr_reader r;
	int32_t v;
	const char *s;
	size_t n;
	static const char longstr[] = "a string of some length, 37 bytes..";

	xdr_writer_init(&w);
	ck_assert_int_eq(xdr_put_int(&w, -1), 0);
	ck_assert_int_eq(xdr_put_str(&w, ""), 0);
	ck_assert_int_eq(xdr_put_str(&w, "abc"), 0);
	ck_assert_int_eq(xdr_put_str(&w, longstr), 0);
	ck_assert_int_eq(xdr_put_str(&w, NULL), 0);
	ck_assert_int_eq(xdr_put_int(&w, INT32_MIN), 0);
	ck_assert_int_eq(xdr_put_bytes(&w, "xyz", 3), 0);
	ck_assert_uint_eq(w.len % 4, 3);

	xdr_reader_init(&r, w.data, w.len);
	ck_assert_int_eq(xdr_get_int(&r, &v), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_str_eq(xdr_get_str(&r), "");
	ck_assert_str_eq(xdr_get_str(&r), "abc");
	ck_assert_str_eq(xdr_get_str(&r), longstr);
	ck_assert_str_eq(xdr_get_str(&r), "");
	ck_assert_int_eq(xdr_get_int(&r, &v), 0);
	ck_assert_int_eq(v, INT32_MIN);
	ck_assert_int_eq(memcmp(xdr_rest(&r, &n), "xyz", 3), 0);
	ck_assert_uint_eq(n, 3);
	s = xdr_get_str(&r); /* 3 bytes left: too short */
	ck_assert_ptr_null(s);
	ck_assert_int_eq(r.failed, 1);
	ck_assert_int_eq(xdr_get_int(&r, &v), -1); /* sticky */
	xdr_writer_free(&w);
}
END_TEST

START_TEST(xdr_truncated_every_length)
{
	struct xdr_writer w;
	struct xdr_reader r;
	size_t cut;
	int32_t v;

	xdr_writer_init(&w);
	xdr_put_int(&w, 7);
	xdr_put_str(&w, "hello world");
	for (cut = 0; cut < w.len; cut++) {
		xdr_reader_init(&r, w.data, cut);
		if (xdr_get_int(&r, &v) == 0)
			ck_assert_ptr_null(xdr_get_str(&r));
		ck_assert_int_eq(r.failed, 1);
	}
	xdr_writer_free(&w);
}
END_TEST

START_TEST(xdr_bad_strings)
{
	uint8_t buf[16];
	struct xdr_reader r;
	size_t n;

	/* Length 0 */
	memset(buf, 0, sizeof(buf));
	xdr_reader_init(&r, buf, sizeof(buf));
	ck_assert_ptr_null(xdr_get_str(&r));

	/* Huge length */
	buf[0] = 0x7f;
	xdr_reader_init(&r, buf, sizeof(buf));
	ck_assert_ptr_null(xdr_get_str(&r));

	/* Negative length */
	buf[0] = 0xff;
	xdr_reader_init(&r, buf, sizeof(buf));
	ck_assert_ptr_null(xdr_get_str(&r));

	/* Not NUL terminated */
	memset(buf, 'x', sizeof(buf));
	buf[0] = buf[1] = buf[2] = 0;
	buf[3] = 4;
	xdr_reader_init(&r, buf, 8);
	ck_assert_ptr_null(xdr_get_str(&r));

	/* Embedded NUL */
	buf[4] = 'a';
	buf[5] = 0;
	buf[6] = 'b';
	buf[7] = 0;
	xdr_reader_init(&r, buf, 8);
	ck_assert_ptr_null(xdr_get_str(&r));

	/* NULL memory is an empty reader */
	xdr_reader_init(&r, NULL, 100);
	ck_assert_uint_eq(xdr_left(&r), 0);
	/* whose rest is NULL, not NULL + 0 (undefined; found by fuzz_xdr) */
	ck_assert_ptr_null(xdr_rest(&r, &n));
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(xdr_fuzz_reader)
{
	uint8_t buf[64];
	struct xdr_reader r;
	unsigned seed = 777;
	int32_t v;
	int i, j;

	/* Whatever the bytes, reading never runs past the end. */
	for (i = 0; i < 20000; i++) {
		size_t n = (size_t)(i % 64);

		for (j = 0; j < 64; j++) {
			seed = seed * 1103515245u + 12345u;
			buf[j] = (uint8_t)(seed >> 16);
			if (j % 4 == 0 && (seed & 0x100))
				buf[j] = 0;
		}
		xdr_reader_init(&r, buf, n);
		while (!r.failed) {
			if (seed & 1)
				xdr_get_int(&r, &v);
			else
				xdr_get_str(&r);
			seed = seed * 1103515245u + 12345u;
		}
		ck_assert_uint_le(r.off, n);
	}
}
END_TEST

START_TEST(tid_layout)
{
	int t = tid_make(1, 1);

	ck_assert_int_eq(t, 0x40001);
	ck_assert_int_eq(tid_host(t), 1);
	ck_assert_int_eq(tid_local(t), 1);
	ck_assert_int_eq(tid_hostpart(t), 0x40000);
	ck_assert(tid_is_task(t));
	ck_assert(!tid_is_pvmd(t));
	ck_assert_int_eq(tid_pvmd(1), (int)0x80040000u);
	ck_assert(tid_is_pvmd(tid_pvmd(1)));
	ck_assert(tid_is_pvmd(TID_LOCAL_PVMD));
	ck_assert(!tid_is_task(tid_pvmd(1)));
	ck_assert(!tid_is_task(0));
	ck_assert(!tid_is_task(-1));
	ck_assert(!tid_is_task(0x40000)); /* local part 0 */
	ck_assert(!tid_is_task(0x1));     /* host 0 */
	ck_assert(tid_is_mcast((int)(TID_MCAST_BIT | 0x40001)));
	ck_assert(!tid_is_task((int)(TID_MCAST_BIT | 0x40001)));
}
END_TEST

START_TEST(tid_edges)
{
	int t = tid_make(TID_HOST_MAX, TID_LOCAL_MAX);

	ck_assert_int_eq(tid_host(t), TID_HOST_MAX);
	ck_assert_int_eq(tid_local(t), TID_LOCAL_MAX);
	ck_assert(tid_is_task(t));
	ck_assert_int_gt(t, 0); /* every task tid is positive */
	ck_assert_int_eq(tid_host(tid_pvmd(TID_HOST_MAX)), TID_HOST_MAX);
	/* the local part never spills into the host part */
	ck_assert_int_eq(tid_host(tid_make(3, TID_LOCAL_MAX + 1)), 3);
}
END_TEST

START_TEST(paths_names)
{
	struct pvm_paths p;
	char buf[64];

	ck_assert_int_eq(paths_make(&p, "/x", 1000, NULL), 0);
	ck_assert_str_eq(p.dir, "/x/pvm-1000");
	ck_assert_str_eq(p.sock, "/x/pvm-1000/sock");
	ck_assert_str_eq(p.log, "/x/pvm-1000.log");
	ck_assert_int_eq(paths_make(&p, "", 0, "vm2"), 0);
	ck_assert_str_eq(p.dir, "/tmp/pvm-0-vm2");
	ck_assert_int_eq(paths_make(&p, "/x", 0, "a/b"), -1);
	ck_assert_int_eq(paths_task_sock(&p, 0x40001, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/tmp/pvm-0-vm2/t40001");
	ck_assert_int_eq(paths_task_sock(&p, 0x40001, buf, 8), -1);
}
END_TEST

START_TEST(paths_too_long)
{
	struct pvm_paths p;
	char *tmp = malloc(PATHS_MAX + 10);

	memset(tmp, 'a', PATHS_MAX + 9);
	tmp[0] = '/';
	tmp[PATHS_MAX + 9] = '\0';
	ck_assert_int_eq(paths_make(&p, tmp, 1, NULL), -1);
	free(tmp);
}
END_TEST

static Suite *
wire_suite(void)
{
	Suite *s = suite_create("wire");
	TCase *tc;

	tc = tcase_create("header");
	tcase_add_test(tc, hdr_round_trip);
	tcase_add_test(tc, hdr_truncated);
	tcase_add_test(tc, hdr_garbage);
	tcase_add_test(tc, hdr_bad_fields);
	tcase_add_test(tc, hdr_oversized);
	tcase_add_test(tc, tag_names);
	tcase_add_test(tc, bulk_round_trip);
	tcase_add_test(tc, bulk_malformed);
	tcase_add_test(tc, bulk_fuzz);
	tcase_add_test(tc, route_round_trip);
	tcase_add_test(tc, route_malformed);
	tcase_add_test(tc, route_fuzz);
	suite_add_tcase(s, tc);

	tc = tcase_create("xdr");
	tcase_add_test(tc, xdr_round_trip);
	tcase_add_test(tc, xdr_truncated_every_length);
	tcase_add_test(tc, xdr_bad_strings);
	tcase_add_test(tc, xdr_fuzz_reader);
	suite_add_tcase(s, tc);

	tc = tcase_create("tid");
	tcase_add_test(tc, tid_layout);
	tcase_add_test(tc, tid_edges);
	suite_add_tcase(s, tc);

	tc = tcase_create("paths");
	tcase_add_test(tc, paths_names);
	tcase_add_test(tc, paths_too_long);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(wire_suite());
}
