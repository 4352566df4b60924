/*
 * check_ring.c: the pure ring codec of common/ring.h: sizes, the segment
 * header check, index checks at every edge (including 64-bit wrap), and
 * copies that wrap at the end of the data; plus a byte stream pushed
 * through one ring in random pieces, compared at the other end; and the
 * two ends of a real segment (ringend.h): a small write goes in whole or
 * not at all, a reader peeks at any offset of what is there and then
 * takes it, across the end of the data, and a broken peer index is an
 * error, not a copy.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"
#include "ringend.h"
#include "unit_main.h"

#include <stdatomic.h>
#include <unistd.h>

START_TEST(test_sizes)
{
	ck_assert(ring_size_ok(RING_MIN));
	ck_assert(ring_size_ok(RING_MAX));
	ck_assert(ring_size_ok(128 * 1024));
	ck_assert(!ring_size_ok(RING_MIN / 2));
	ck_assert(!ring_size_ok(RING_MAX * 2));
	ck_assert(!ring_size_ok(3 * 4096));
	ck_assert(!ring_size_ok(0));
	ck_assert_uint_eq(ring_seg_len(4096), RING_DATA_OFF + 8192);
	/* Both control blocks lie before the data. */
	ck_assert_uint_le((size_t)((char *)ring_ctl_at(NULL, 1) - (char *)0) +
	                      sizeof(struct ring_ctl),
	    RING_DATA_OFF);
}
END_TEST

START_TEST(test_seg_check)
{
	struct ring_seg s;
	size_t len = ring_seg_len(8192);

	memset(&s, 0, sizeof(s));
	s.magic = RING_MAGIC;
	s.version = RING_VERSION;
	s.size = 8192;
	ck_assert_uint_eq(ring_seg_check(&s, len), 8192);
	/* The mapping must be exactly what the size says. */
	ck_assert_uint_eq(ring_seg_check(&s, len - 1), 0);
	ck_assert_uint_eq(ring_seg_check(&s, len + 4096), 0);
	ck_assert_uint_eq(ring_seg_check(&s, 100), 0);
	ck_assert_uint_eq(ring_seg_check(NULL, len), 0);
	s.size = 8191;
	ck_assert_uint_eq(ring_seg_check(&s, len), 0);
	s.size = 0x80000000u;
	ck_assert_uint_eq(ring_seg_check(&s, ring_seg_len(0x80000000u)), 0);
	s.size = 8192;
	s.version = RING_VERSION + 1;
	ck_assert_uint_eq(ring_seg_check(&s, len), 0);
	s.version = RING_VERSION;
	s.magic ^= 1;
	ck_assert_uint_eq(ring_seg_check(&s, len), 0);
}
END_TEST

START_TEST(test_used)
{
	const uint64_t big = UINT64_MAX - 10;

	ck_assert_int_eq(ring_used(0, 0, 4096), 0);
	ck_assert_int_eq(ring_used(0, 4096, 4096), 4096);
	ck_assert_int_eq(ring_used(100, 4196, 4096), 4096);
	ck_assert_int_eq(ring_used(0, 4097, 4096), -1);
	ck_assert_int_eq(ring_used(5, 4, 4096), -1);
	ck_assert_int_eq(ring_used(0, UINT64_MAX, 4096), -1);
	/* Near the end of the 64-bit count (never reached in practice,
	 * but a peer may write such values): still exact. */
	ck_assert_int_eq(ring_used(big, big + 10, 4096), 10);
	ck_assert_int_eq(ring_used(big, 3, 4096), -1);
}
END_TEST

START_TEST(test_read_write_limits)
{
	ck_assert_int_eq(ring_readable(0, 10, 4096, 100), 10);
	ck_assert_int_eq(ring_readable(0, 10, 4096, 4), 4);
	ck_assert_int_eq(ring_readable(0, 0, 4096, 4), 0);
	ck_assert_int_eq(ring_readable(0, 5000, 4096, 4), -1);
	ck_assert_int_eq(ring_readable(9, 8, 4096, 4), -1);
	ck_assert_int_eq(ring_writable(0, 0, 4096, 10000), 4096);
	ck_assert_int_eq(ring_writable(0, 4000, 4096, 10000), 96);
	ck_assert_int_eq(ring_writable(0, 4096, 4096, 1), 0);
	ck_assert_int_eq(ring_writable(0, 4097, 4096, 1), -1);
	ck_assert_int_eq(ring_writable(UINT64_MAX, 0, 4096, 1), -1);
}
END_TEST

START_TEST(test_copies_wrap)
{
	uint8_t data[4096], in[100], out[100];
	size_t i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i + 1);
	memset(data, 0, sizeof(data));
	/* 100 bytes from offset 4046: 50 at the end, 50 at the start. */
	ring_put(data, sizeof(data), 3 * 4096 + 4046, in, sizeof(in));
	ck_assert_int_eq(data[4046], 1);
	ck_assert_int_eq(data[4095], 50);
	ck_assert_int_eq(data[0], 51);
	ck_assert_int_eq(data[49], 100);
	ck_assert_int_eq(data[50], 0);
	ring_get(data, sizeof(data), 4046, out, sizeof(out));
	ck_assert_mem_eq(in, out, sizeof(in));
}
END_TEST

/* Producer and consumer in one thread, random pieces, checked bytes. */
START_TEST(test_stream)
{
	enum { SIZE = 4096, TOTAL = 1 << 20 };
	static uint8_t data[SIZE], piece[SIZE];
	uint64_t head = 0, tail = 0, wrote = 0, read = 0;
	unsigned seed = 7;
	long long used;
	size_t n, i;

	while (read < TOTAL) {
		used = ring_used(head, tail, SIZE);
		ck_assert(used >= 0);
		n = (size_t)rand_r(&seed) % (SIZE - (size_t)used + 1);
		for (i = 0; i < n; i++)
			piece[i] = (uint8_t)((wrote + i) * 131 >> 3);
		ring_put(data, SIZE, tail, piece, n);
		tail += n;
		wrote += n;
		used = ring_used(head, tail, SIZE);
		ck_assert(used >= 0);
		n = (size_t)rand_r(&seed) % ((size_t)used + 1);
		ring_get(data, SIZE, head, piece, n);
		/* One assertion per piece: a million ck_assert calls took
		 * longer than Check's timeout under the sanitizers. */
		for (i = 0; i < n; i++)
			if (piece[i] != (uint8_t)((read + i) * 131 >> 3))
				break;
		ck_assert_msg(i == n, "byte %llu wrong",
		    (unsigned long long)(read + i));
		head += n;
		read += n;
	}
}
END_TEST

/* A segment of 4 KiB rings: the opener end *w, the acceptor end *r. */
static void
ends_open(struct ring_end **w, struct ring_end **r)
{
	int fd;

	*w = ring_end_create("check_ring", RING_MIN, &fd);
	ck_assert_ptr_nonnull(*w);
	*r = ring_end_attach(fd);
	ck_assert_ptr_nonnull(*r);
	close(fd);
}

/* ring_end_write: all or nothing; ring_end_peek/skip: look, then take. */
START_TEST(test_end_write_peek)
{
	struct ring_end *w, *r;
	uint8_t in[300], out[300];
	size_t i, sent = 0;

	ends_open(&w, &r);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	ck_assert_int_eq(ring_end_peek(r, 0, out, 1), 0); /* empty */
	ck_assert_int_eq(ring_end_write(w, in, 40), 40);
	ck_assert(ring_end_rx_ready(r));
	/* Not all there: nothing copied, nothing taken. */
	ck_assert_int_eq(ring_end_peek(r, 0, out, 41), 0);
	ck_assert_int_eq(ring_end_peek(r, 32, out, 9), 0);
	ck_assert_int_eq(ring_end_peek(r, 32, out, 8), 8);
	ck_assert_mem_eq(out, in + 32, 8);
	ck_assert_int_eq(ring_end_peek(r, 0, out, 40), 40);
	ck_assert_mem_eq(out, in, 40);
	ring_end_skip(r, 40, -1);
	ck_assert(!ring_end_rx_ready(r));
	/* Fill: 300-byte writes until one does not fit, which leaves the
	 * ring as it was. */
	while (ring_end_write(w, in, sizeof(in)) == (long long)sizeof(in))
		sent += sizeof(in);
	ck_assert_uint_eq(sent, RING_MIN / sizeof(in) * sizeof(in));
	ck_assert_int_eq(ring_end_rx_used(r), (long long)sent);
	/* Take them back, each across its offsets; the last ones wrap. */
	for (; sent > 0; sent -= sizeof(in)) {
		ck_assert_int_eq(ring_end_peek(r, 100, out, 200), 200);
		ck_assert_mem_eq(out, in + 100, 200);
		ck_assert_int_eq(ring_end_peek(r, 0, out, 300), 300);
		ck_assert_mem_eq(out, in, 300);
		ring_end_skip(r, sizeof(in), -1);
		/* Room again: a write that wraps the data's end. */
		if (sent == 2 * sizeof(in))
			ck_assert_int_eq(ring_end_write(w, in, 100), 100);
	}
	ck_assert_int_eq(ring_end_peek(r, 0, out, 100), 100);
	ck_assert_mem_eq(out, in, 100);
	ring_end_skip(r, 100, -1);
	ck_assert(!ring_end_rx_ready(r));
	ring_end_free(w);
	ring_end_free(r);
}
END_TEST

/*
 * ring_end_reserve/commit: bytes written in place are not seen until
 * committed, and only as many as committed; no run across the wrap or
 * past the room.  ring_end_peek_some copies what is there, at most max.
 */
START_TEST(test_end_reserve_peek_some)
{
	struct ring_end *w, *r;
	uint8_t in[300], out[300], *p;
	size_t i, sent = 0;

	ends_open(&w, &r);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 5 + 3);
	ck_assert_int_eq(ring_end_peek_some(r, out, sizeof(out)), 0);
	p = ring_end_reserve(w, 256);
	ck_assert_ptr_nonnull(p);
	memcpy(p, in, 100);
	ck_assert(!ring_end_rx_ready(r)); /* nothing published yet */
	ring_end_commit(w, 60);
	ck_assert_int_eq(ring_end_rx_used(r), 60);
	ck_assert_int_eq(ring_end_peek_some(r, out, sizeof(out)), 60);
	ck_assert_mem_eq(out, in, 60);
	ck_assert_int_eq(ring_end_peek_some(r, out, 10), 10);
	sent = 60;
	/* Up to the end of the data, nothing read: the room ends there. */
	while (sent + 300 <= RING_MIN) {
		ck_assert_int_eq(ring_end_write(w, in, 300), 300);
		sent += 300;
	}
	ck_assert_ptr_null(ring_end_reserve(w, RING_MIN - sent + 1));
	ck_assert_ptr_nonnull(ring_end_reserve(w, RING_MIN - sent));
	ring_end_commit(w, RING_MIN - sent);
	ck_assert_int_eq(ring_end_rx_used(r), RING_MIN);
	ck_assert_ptr_null(ring_end_reserve(w, 1)); /* full */
	/* The reader takes 60: room for 60 from the data's start. */
	ring_end_skip(r, 60, -1);
	ck_assert_ptr_null(ring_end_reserve(w, 61));
	p = ring_end_reserve(w, 60);
	ck_assert_ptr_eq(p, ring_data_at(w->base, w->size, 0));
	ring_end_free(w);
	ring_end_free(r);
}
END_TEST

/* A tail the peer cannot have written: an error, and no copy. */
START_TEST(test_end_broken_index)
{
	struct ring_end *w, *r;
	uint8_t out[16];

	ends_open(&w, &r);
	memset(out, 0x5a, sizeof(out));
	/* The opener's tail, as the acceptor reads it, beyond the size. */
	atomic_store(&ring_ctl_at(r->base, 0)->tail, RING_MIN + 1);
	ck_assert_int_eq(ring_end_peek(r, 0, out, 8), -1);
	ck_assert_int_eq(ring_end_peek_some(r, out, 8), -1);
	ck_assert_int_eq(out[0], 0x5a);
	/* And a head the reader cannot have reached, for the writer: it
	 * loads the head again only when the one it saw leaves too little
	 * room, so fill the ring first. */
	while (ring_end_write(w, out, 8) == 8)
		;
	atomic_store(&ring_ctl_at(w->base, 0)->head, 12345);
	ck_assert_int_eq(ring_end_write(w, out, 8), -1);
	ring_end_free(w);
	ring_end_free(r);
}
END_TEST

static Suite *
ring_suite(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_seg_check);
	tcase_add_test(tc, test_used);
	tcase_add_test(tc, test_read_write_limits);
	tcase_add_test(tc, test_copies_wrap);
	tcase_add_test(tc, test_stream);
	suite_add_tcase(s, tc);
	tc = tcase_create("ends");
	tcase_add_test(tc, test_end_write_peek);
	tcase_add_test(tc, test_end_reserve_peek_some);
	tcase_add_test(tc, test_end_broken_index);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(ring_suite());
}
