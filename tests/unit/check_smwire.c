/*
 * check_smwire.c: the pure codecs of daemon/smwire.c: SM_TASKX and
 * SM_STHOSTACK bodies from a tasker or hoster (which may be hostile),
 * and the slave's result line.  Every decoder reads a heap copy of
 * exactly n bytes, so a sanitizer build sees any read past the end.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"
#include "smwire.h"
#include "xdr.h"

#include "unit_main.h"

/* Decode SM_STHOSTACK from a heap copy of w's bytes. */
static int
dec_ack(const struct xdr_writer *w, size_t n, struct sm_ack *v, int max)
{
	uint8_t *b = malloc(n + 1);
	int rc;

	ck_assert_ptr_nonnull(b);
	memcpy(b, w->data, n);
	rc = sm_sthostack_decode(b, n, v, max);
	free(b);
	return rc;
}

START_TEST(taskx_lengths)
{
	struct xdr_writer w;
	struct sm_taskx x;
	uint8_t *b;
	int i;

	xdr_writer_init(&w);
	for (i = 0; i < 6; i++)
		xdr_put_int(&w, i == 0 ? 0x40003 : i == 1 ? 256 : i);
	b = malloc(w.len);
	memcpy(b, w.data, w.len);
	ck_assert_int_eq(sm_taskx_decode(b, w.len, &x), 0);
	ck_assert_int_eq(x.tid, 0x40003);
	ck_assert_int_eq(x.status, 256);
	ck_assert_int_eq(x.usec[3], 5);
	for (i = 0; i < SM_TASKX_LEN; i++)
		ck_assert_int_eq(sm_taskx_decode(b, (size_t)i, &x), -1);
	ck_assert_int_eq(sm_taskx_decode(NULL, 24, &x), -1);
	free(b);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(ack_both_forms)
{
	struct xdr_writer w;
	struct sm_ack v[4];

	/* PVM 3.4.6: a count first */
	xdr_writer_init(&w);
	xdr_put_int(&w, 2);
	xdr_put_int(&w, 0x80000);
	xdr_put_str(&w, "PvmCantStart");
	xdr_put_int(&w, 0xc0000);
	xdr_put_str(&w, "x");
	ck_assert_int_eq(dec_ack(&w, w.len, v, 4), 2);
	xdr_writer_free(&w);
	/* the man page: the count implied */
	xdr_writer_init(&w);
	xdr_put_int(&w, 0x80000);
	xdr_put_str(&w, "PvmDupHost");
	ck_assert_int_eq(dec_ack(&w, w.len, v, 4), 1);
	/* (results point into the body: decode w's own bytes to read one) */
	ck_assert_int_eq(sm_sthostack_decode(w.data, w.len, v, 4), 1);
	ck_assert_int_eq(v[0].tid, 0x80000);
	ck_assert_str_eq(v[0].result, "PvmDupHost");
	/* cut anywhere: never an answer past the end */
	for (size_t n = 1; n < w.len; n++)
		ck_assert_int_eq(dec_ack(&w, n, v, 4), -1);
	xdr_writer_free(&w);
	/* an empty answer, a count over max, a lying count */
	xdr_writer_init(&w);
	xdr_put_int(&w, 0);
	ck_assert_int_eq(dec_ack(&w, w.len, v, 4), 0);
	xdr_writer_free(&w);
	xdr_writer_init(&w);
	xdr_put_int(&w, 5);
	for (int i = 0; i < 5; i++) {
		xdr_put_int(&w, i);
		xdr_put_str(&w, "r");
	}
	ck_assert_int_eq(dec_ack(&w, w.len, v, 4), -1);
	xdr_writer_free(&w);
	xdr_writer_init(&w);
	xdr_put_int(&w, 3);
	xdr_put_int(&w, 1);
	xdr_put_str(&w, "r");
	xdr_put_bytes(&w, "xyz", 3);
	ck_assert_int_eq(dec_ack(&w, w.len, v, 4), -1);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(result_lines)
{
	uint8_t key[SM_KEY_LEN], got[SM_KEY_LEN];
	char line[SM_KEYLINE_LEN + 4];
	size_t i;

	for (i = 0; i < SM_KEY_LEN; i++)
		key[i] = (uint8_t)(i * 37 + 5);
	sm_keyline(key, line);
	ck_assert_uint_eq(strlen(line), SM_KEYLINE_LEN);
	ck_assert_int_eq(sm_result_parse(line, got), 0);
	ck_assert_mem_eq(got, key, SM_KEY_LEN);
	strcat(line, "\r\n");
	memset(got, 0, sizeof(got));
	ck_assert_int_eq(sm_result_parse(line, got), 0);
	ck_assert_mem_eq(got, key, SM_KEY_LEN);
	/* one digit short, a bad digit, another word: not a key */
	line[SM_KEYLINE_LEN - 1] = '\0';
	ck_assert_int_eq(sm_result_parse(line, got), PvmCantStart);
	sm_keyline(key, line);
	line[20] = 'g';
	ck_assert_int_eq(sm_result_parse(line, got), PvmCantStart);
	ck_assert_int_eq(sm_result_parse("pvm4-kez 00", got), PvmCantStart);
	ck_assert_int_eq(sm_result_parse("PvmDupHost", got), PvmDupHost);
	ck_assert_int_eq(sm_result_parse("PvmDSysErr\n", got), PvmDSysErr);
	ck_assert_int_eq(sm_result_parse("PvmDupHostX", got), PvmCantStart);
	ck_assert_int_eq(sm_result_parse("", got), PvmCantStart);
	ck_assert_int_eq(sm_result_parse(NULL, got), PvmCantStart);
	ck_assert_int_eq(
	    sm_result_parse("pvmd: already running", got), PvmCantStart);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("smwire");
	TCase *tc = tcase_create("codecs");

	tcase_add_test(tc, taskx_lengths);
	tcase_add_test(tc, ack_both_forms);
	tcase_add_test(tc, result_lines);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
