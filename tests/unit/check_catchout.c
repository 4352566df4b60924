/*
 * check_catchout.c: pvm_catchout's side in the parent (libpvm/catchout.c
 * alone).  TC_OUTPUT bodies are fed to lpvm_catchout_input as the pvmd
 * would send them, the printed text is read back from a temporary file,
 * and the drain of pvm_exit runs against a fake pvmd: lpvm_pump and
 * pvm_pstat are defined here.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "msg.h"
#include "tid.h"
#include "xdr.h"

#include "unit_main.h"

struct lpvm_state lpvm;

/* ---- the fake task side ---- */

int
lpvm_enrol(void)
{
	return 0;
}

int
lpvm_err(const char *call, int code)
{
	(void)call;
	return code;
}

/* Feed one TC_OUTPUT body: tid, count, then count bytes of text. */
static void
feed(int tid, int count, const char *text)
{
	struct xdr_writer w;
	struct lpvm_msg m;

	memset(&m, 0, sizeof(m));
	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	xdr_put_int(&w, count);
	if (count > 0 && text != NULL) {
		xdr_put_bytes(&w, text, (size_t)count);
	}
	ck_assert(!w.failed);
	m.data = w.data;
	m.len = w.len;
	m.src = TID_LOCAL_PVMD;
	m.ctx = SYSCTX_TC;
	m.tag = TC_OUTPUT;
	lpvm_catchout_input(&m);
	xdr_writer_free(&w);
}

static void
feed_text(int tid, const char *text)
{
	feed(tid, (int)strlen(text), text);
}

/* The fake pvmd: pstat answers PvmNoTask and may deliver EOFs itself. */
static int pstat_calls, pstat_bad, pstat_eof_all;
static int kids[3] = {0x40002, 0x40003, 0x40004};
static int kid_done[3];

static void
eof_kid(int i)
{
	if (!kid_done[i]) {
		kid_done[i] = 1;
		feed(kids[i], 0, NULL);
	}
}

int
pvm_pstat(int tid)
{
	int i;

	pstat_calls++;
	for (i = 0; i < 3 && kids[i] != tid; i++) {
	}
	if (i == 3 || kid_done[i]) {
		pstat_bad++; /* asked about a task whose EOF was handled */
	}
	if (pstat_eof_all) {
		/* The EOFs arrive while we wait for the reply. */
		for (i = 0; i < 3; i++) {
			eof_kid(i);
		}
	}
	return PvmNoTask;
}

int
lpvm_pump(int timeout_ms)
{
	(void)timeout_ms;
	return 0; /* silence: the drain checks who is still there */
}

/* ---- helpers ---- */

static FILE *out;

static void
setup(void)
{
	memset(&lpvm, 0, sizeof(lpvm));
	lpvm.mytid = 0x40001;
	lpvm.fd = 3;
	lpvm.showtids = 1;
	out = tmpfile();
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(pvm_catchout(out), 0);
	pstat_calls = pstat_bad = pstat_eof_all = 0;
	memset(kid_done, 0, sizeof(kid_done));
}

static void
teardown(void)
{
	ctl_catchout_reset();
	fclose(out);
}

/* Everything printed so far. */
static const char *
printed(void)
{
	static char buf[4096];
	size_t n;

	fflush(out);
	rewind(out);
	n = fread(buf, 1, sizeof(buf) - 1, out);
	buf[n] = '\0';
	return buf;
}

/* ---- tests ---- */

START_TEST(test_lines_between_begin_and_eof)
{
	feed(0x40002, -1, NULL);
	feed_text(0x40002, "one\ntw");
	feed_text(0x40002, "o\nthree");
	feed(0x40002, 0, NULL);
	ck_assert_str_eq(printed(), "[t40002] BEGIN\n[t40002] one\n"
	                            "[t40002] two\n[t40002] three\n"
	                            "[t40002] EOF\n");
}
END_TEST

START_TEST(test_no_tids)
{
	lpvm.showtids = 0;
	feed(0x40002, -1, NULL);
	feed_text(0x40002, "plain\n");
	feed(0x40002, 0, NULL);
	ck_assert_str_eq(printed(), "plain\n");
}
END_TEST

/* Bodies that do not parse, or claim more than they hold, are safe. */
START_TEST(test_bad_bodies)
{
	struct lpvm_msg m;
	uint8_t junk[6] = {0, 4, 0, 2, 0, 0};

	memset(&m, 0, sizeof(m));
	m.data = junk;
	m.len = sizeof(junk);
	lpvm_catchout_input(&m); /* too short for tid + count */
	feed(0x40002, -7, NULL); /* count below -1 */
	feed(0x40002, 1000, NULL);  /* 1000 bytes promised, none sent */
	feed_text(0x40002, "x\n");
	ck_assert_str_eq(printed(), "[t40002] x\n");
}
END_TEST

/* pvm_exit waits for every child caught, and ends once all EOFs came. */
START_TEST(test_drain_waits_for_eof)
{
	int i;

	for (i = 0; i < 3; i++) {
		ctl_catchout_expect(kids[i]);
	}
	pstat_eof_all = 1;
	lpvm_catchout_drain();
	ck_assert_int_eq(pstat_bad, 0);
	ck_assert_int_eq(pstat_calls, 1);
	ck_assert_ptr_nonnull(strstr(printed(), "[t40004] EOF\n"));
}
END_TEST

/* Without any EOF, two checks in a row that find the task gone end it. */
START_TEST(test_drain_lost_eof)
{
	int i;

	for (i = 0; i < 3; i++) {
		ctl_catchout_expect(kids[i]);
	}
	lpvm_catchout_drain();
	ck_assert_int_eq(pstat_calls, 6);
	ck_assert_int_eq(pstat_bad, 0);
}
END_TEST

static Suite *
catchout_suite(void)
{
	Suite *s = suite_create("catchout");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lines_between_begin_and_eof);
	tcase_add_test(tc, test_no_tids);
	tcase_add_test(tc, test_bad_bodies);
	tcase_add_test(tc, test_drain_waits_for_eof);
	tcase_add_test(tc, test_drain_lost_eof);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(catchout_suite());
}
