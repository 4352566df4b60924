/*
 * check_shmem.c: the pure parts of SHMEM on several hosts: the agent's
 * decoder of requests (shmem/req.c) and oshrun's placement rules
 * (shmem/placement.c), and which CPU a pinned PE gets (shmem/bind.c).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "bind.h"
#include "oshrun.h"
#include "req.h"

#include "unit_main.h"

/* ---- shm_req_check ---- */

static unsigned char local4[4] = {0, 1, 1, 0}; /* PEs 1, 2 are ours */
static const struct shm_req_limits lim4 = {4, local4, 8192, 1 << 20};

static struct shm_req
req(int op, int pe, int region, uint64_t off, uint64_t count)
{
	struct shm_req r;

	memset(&r, 0, sizeof(r));
	r.op = (uint16_t)op;
	r.pe = pe;
	r.region = (uint16_t)region;
	r.off = off;
	r.count = count;
	return r;
}

START_TEST(test_req_good)
{
	struct shm_req r = req(SHM_OP_PUT, 1, SHM_REGION_DATA, 8000, 192);

	ck_assert_ptr_null(shm_req_check(&r, 192, &lim4));
	r = req(SHM_OP_GET, 2, SHM_REGION_HEAP, 0, 1 << 20);
	ck_assert_ptr_null(shm_req_check(&r, 0, &lim4));
	r = req(SHM_OP_AMO, 2, SHM_REGION_HEAP, 64, 0);
	r.width = 8;
	r.amo = SHM_AMO_CSWAP;
	ck_assert_ptr_null(shm_req_check(&r, 0, &lim4));
	r = req(SHM_OP_SLOT, 1, SHM_REGION_HEAP, 12, 0);
	ck_assert_ptr_null(shm_req_check(&r, 0, &lim4));
	r = req(SHM_OP_FLUSH, -7, 99, 0, 0); /* a flush names no memory */
	ck_assert_ptr_null(shm_req_check(&r, 0, &lim4));
	/* 3 elements of 8 bytes, stride 4: bytes 0..(2*4+1)*8 = 72 */
	r = req(SHM_OP_IPUT, 1, SHM_REGION_DATA, 8192 - 72, 3);
	r.width = 8;
	r.stride = 4;
	ck_assert_ptr_null(shm_req_check(&r, 24, &lim4));
	ck_assert_uint_eq(shm_req_span(&r), 72);
}
END_TEST

START_TEST(test_req_outside)
{
	struct shm_req r = req(SHM_OP_PUT, 1, SHM_REGION_DATA, 8001, 192);

	ck_assert_ptr_nonnull(shm_req_check(&r, 192, &lim4));
	r = req(SHM_OP_GET, 1, SHM_REGION_DATA, UINT64_MAX - 3, 8);
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r = req(SHM_OP_GET, 1, SHM_REGION_DATA, 8, UINT64_MAX);
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r = req(SHM_OP_IGET, 1, SHM_REGION_DATA, 0, 3);
	r.width = 8;
	r.stride = 4;
	r.off = 8192 - 71;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.off = 0;
	r.stride = INT64_MAX; /* (count - 1) * stride overflows */
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.stride = 0;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.stride = -1;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.stride = 1;
	r.count = UINT64_MAX / 4;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
}
END_TEST

START_TEST(test_req_who)
{
	struct shm_req r = req(SHM_OP_GET, 0, SHM_REGION_DATA, 0, 8);

	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4)); /* not ours */
	r.pe = 4;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4)); /* no such PE */
	r.pe = -1;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.pe = 1;
	r.region = 3;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.region = 0;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r = req(99, 1, SHM_REGION_DATA, 0, 8);
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
}
END_TEST

START_TEST(test_req_payload_and_atomics)
{
	struct shm_req r = req(SHM_OP_PUT, 1, SHM_REGION_DATA, 0, 16);

	ck_assert_ptr_nonnull(shm_req_check(&r, 15, &lim4));
	r = req(SHM_OP_PUT, 1, SHM_REGION_HEAP, 0, SHM_REQ_CHUNK + 1);
	ck_assert_ptr_nonnull(shm_req_check(&r, SHM_REQ_CHUNK + 1, &lim4));
	r = req(SHM_OP_GET, 1, SHM_REGION_DATA, 0, 16);
	ck_assert_ptr_nonnull(shm_req_check(&r, 1, &lim4));
	r = req(SHM_OP_AMO, 1, SHM_REGION_DATA, 4, 0);
	r.width = 8; /* misaligned */
	r.amo = SHM_AMO_ADD;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.off = 8;
	r.width = 2;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.width = 4;
	r.amo = 0;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r.amo = SHM_AMO_XOR + 1;
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r = req(SHM_OP_SLOT, 1, SHM_REGION_DATA, 2, 0);
	ck_assert_ptr_nonnull(shm_req_check(&r, 0, &lim4));
	r = req(SHM_OP_IPUT, 1, SHM_REGION_DATA, 0, 2);
	r.width = 17;
	r.stride = 1;
	ck_assert_ptr_nonnull(shm_req_check(&r, 34, &lim4));
	r.width = 4;
	ck_assert_ptr_nonnull(shm_req_check(&r, 7, &lim4));
}
END_TEST

/* The words of a refusal: which request, cut to the buffer. */
START_TEST(test_req_name)
{
	struct shm_req r = req(SHM_OP_PUT, 3, SHM_REGION_HEAP, 0x40, 8);
	char buf[SHM_REFUSED_MAX], tiny[8];

	shm_req_name(&r, buf, sizeof(buf));
	ck_assert_str_eq(
	    buf, "a put (op 1, count 8, width 0) at heap+0x40 of PE 3");
	r.op = 99;
	r.region = 7;
	shm_req_name(&r, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "an unknown request (op 99"));
	ck_assert_ptr_nonnull(strstr(buf, "region?+0x40"));
	r.op = SHM_OP_FLUSH;
	shm_req_name(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "a flush");
	r.op = SHM_OP_GET;
	shm_req_name(&r, tiny, sizeof(tiny));
	ck_assert_str_eq(tiny, "a get (");
}
END_TEST

/* ---- placement ---- */

static struct osh_want w[8];
static char err[256];

START_TEST(test_place_parse)
{
	ck_assert_int_eq(osh_place_parse("h1,h2:3,h3", w, 8, err, sizeof(err)),
	    3);
	ck_assert_str_eq(w[0].name, "h1");
	ck_assert_int_eq(w[0].count, -1);
	ck_assert_str_eq(w[1].name, "h2");
	ck_assert_int_eq(w[1].count, 3);
	ck_assert_int_eq(w[2].count, -1);
	ck_assert_int_eq(osh_place_parse("a:0", w, 8, err, sizeof(err)), 1);
	ck_assert_int_eq(w[0].count, 0);
	ck_assert_int_eq(osh_place_parse("", w, 8, err, sizeof(err)), -1);
	ck_assert_int_eq(osh_place_parse("h1,,h2", w, 8, err, sizeof(err)), -1);
	ck_assert_int_eq(osh_place_parse("h1:", w, 8, err, sizeof(err)), -1);
	ck_assert_int_eq(osh_place_parse(":2", w, 8, err, sizeof(err)), -1);
	ck_assert_int_eq(osh_place_parse("h1:x", w, 8, err, sizeof(err)), -1);
	ck_assert_int_eq(osh_place_parse("h1:-1", w, 8, err, sizeof(err)), -1);
	ck_assert_int_eq(osh_place_parse("h1:4097", w, 8, err, sizeof(err)), -1);
	ck_assert_int_eq(osh_place_parse("a,b,c", w, 2, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "more than 2"));
}
END_TEST

START_TEST(test_place_blocks)
{
	int first[8], count[8];

	/* 8 over 3 free hosts: 3, 3, 2 */
	osh_place_parse("a,b,c", w, 8, err, sizeof(err));
	ck_assert_int_eq(osh_place_blocks(8, w, 3, first, count, err,
	                     sizeof(err)), 0);
	ck_assert_int_eq(count[0], 3);
	ck_assert_int_eq(count[1], 3);
	ck_assert_int_eq(count[2], 2);
	ck_assert_int_eq(first[2], 6);
	/* fixed counts first, the rest shared: b gets 5, a and c 1 and 0 */
	osh_place_parse("a,b:5,c", w, 8, err, sizeof(err));
	ck_assert_int_eq(osh_place_blocks(6, w, 3, first, count, err,
	                     sizeof(err)), 0);
	ck_assert_int_eq(count[0], 1);
	ck_assert_int_eq(count[1], 5);
	ck_assert_int_eq(count[2], 0);
	ck_assert_int_eq(first[1], 1);
	/* counts that do not add up */
	osh_place_parse("a:1,b:2", w, 8, err, sizeof(err));
	ck_assert_int_eq(osh_place_blocks(4, w, 2, first, count, err,
	                     sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "add up to 3, not -np 4"));
	osh_place_parse("a:5,b", w, 8, err, sizeof(err));
	ck_assert_int_eq(osh_place_blocks(4, w, 2, first, count, err,
	                     sizeof(err)), -1);
}
END_TEST

/* The nth CPU of a set with holes: 1, 3, 4 and 63. */
START_TEST(test_bind_nth)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	ck_assert_int_eq(osh_bind_nth(&set, 0), -1);
	CPU_SET(1, &set);
	CPU_SET(3, &set);
	CPU_SET(4, &set);
	CPU_SET(63, &set);
	ck_assert_int_eq(osh_bind_nth(&set, 0), 1);
	ck_assert_int_eq(osh_bind_nth(&set, 1), 3);
	ck_assert_int_eq(osh_bind_nth(&set, 2), 4);
	ck_assert_int_eq(osh_bind_nth(&set, 3), 63);
	ck_assert_int_eq(osh_bind_nth(&set, 4), -1);
	ck_assert_int_eq(osh_bind_nth(&set, -1), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("shmem");
	TCase *t = tcase_create("req");

	tcase_add_test(t, test_req_good);
	tcase_add_test(t, test_req_outside);
	tcase_add_test(t, test_req_who);
	tcase_add_test(t, test_req_payload_and_atomics);
	tcase_add_test(t, test_req_name);
	suite_add_tcase(s, t);
	t = tcase_create("placement");
	tcase_add_test(t, test_place_parse);
	tcase_add_test(t, test_place_blocks);
	suite_add_tcase(s, t);
	t = tcase_create("bind");
	tcase_add_test(t, test_bind_nth);
	suite_add_tcase(s, t);
	return unit_run(s);
}
