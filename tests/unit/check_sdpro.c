/*
 * check_sdpro.c: the bodies of the resource manager's and the tracer's
 * messages (common/sdpro.c): what PVM 3.4.6 packs decodes, every
 * truncation and every lie is refused, random bytes never crash.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"
#include "sdpro.h"
#include "xdr.h"

#include "unit_main.h"

/* An SM_EXEC body as PVM 3.4.6's RM packs it (with instance, outof). */
static void
exec_body(struct xdr_writer *w, int count, int with_tail)
{
	xdr_writer_init(w);
	xdr_put_int(w, 0x40005);
	xdr_put_str(w, "prog");
	xdr_put_int(w, 0);
	xdr_put_int(w, count);
	xdr_put_int(w, 2);
	xdr_put_str(w, "a");
	xdr_put_str(w, "bb");
	xdr_put_int(w, 0x40001);
	xdr_put_int(w, 7);
	xdr_put_int(w, 8);
	xdr_put_int(w, 0);
	xdr_put_int(w, 0);
	xdr_put_int(w, 0);
	xdr_put_int(w, 1);
	xdr_put_str(w, "PVMCTX=0x5");
	if (with_tail) {
		xdr_put_int(w, 0);
		xdr_put_int(w, 1);
	}
}

START_TEST(exec_decodes)
{
	struct xdr_writer w;
	struct sd_exec e;

	exec_body(&w, 3, 1);
	ck_assert_int_eq(sd_exec_decode(w.data, w.len, &e), 0);
	ck_assert_int_eq(e.ptid, 0x40005);
	ck_assert_str_eq(e.file, "prog");
	ck_assert_int_eq(e.count, 3);
	ck_assert_int_eq(e.nargs, 2);
	ck_assert_str_eq(e.args[1], "bb");
	ck_assert_ptr_null(e.args[2]);
	ck_assert_int_eq(e.outtid, 0x40001);
	ck_assert_int_eq(e.outtag, 8);
	ck_assert_int_eq(e.nenv, 1);
	ck_assert_str_eq(e.env[0], "PVMCTX=0x5");
	ck_assert_int_eq(e.outof, 1);
	sd_exec_free(&e);
	xdr_writer_free(&w);
	/* Without instance and outof (older managers) too. */
	exec_body(&w, 1, 0);
	ck_assert_int_eq(sd_exec_decode(w.data, w.len, &e), 0);
	sd_exec_free(&e);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(exec_refuses)
{
	struct xdr_writer w;
	struct sd_exec e;
	size_t n;

	exec_body(&w, 2, 1);
	for (n = 0; n < w.len; n++) {
		/* Cutting at the optional tail's start is still whole. */
		if (n == w.len - 8)
			continue;
		ck_assert_int_eq(sd_exec_decode(w.data, n, &e), -1);
	}
	xdr_writer_free(&w);
	exec_body(&w, 0, 1);
	ck_assert_int_eq(sd_exec_decode(w.data, w.len, &e), -1);
	xdr_writer_free(&w);
	exec_body(&w, SD_COUNT_MAX + 1, 1);
	ck_assert_int_eq(sd_exec_decode(w.data, w.len, &e), -1);
	xdr_writer_free(&w);
	/* A huge nargs that the body cannot hold. */
	xdr_writer_init(&w);
	xdr_put_int(&w, 1);
	xdr_put_str(&w, "p");
	xdr_put_int(&w, 0);
	xdr_put_int(&w, 1);
	xdr_put_int(&w, 0x7fffffff);
	ck_assert_int_eq(sd_exec_decode(w.data, w.len, &e), -1);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(sched_round_trip)
{
	struct xdr_writer w;
	struct sd_sched s;

	xdr_writer_init(&w);
	sd_sched_encode(&w, 0x40004, 0x40000, "h1", "LINUX64", 1000, 0x408841);
	ck_assert_int_eq(sd_sched_decode(w.data, w.len, &s), 0);
	ck_assert_int_eq(s.old, 0x40004);
	ck_assert_int_eq(s.master.tid, 0x40000);
	ck_assert_str_eq(s.master.name, "h1");
	ck_assert_str_eq(s.master.arch, "LINUX64");
	sd_host_free(&s.master);
	ck_assert_int_eq(sd_sched_decode(w.data, w.len - 4, &s), -1);
	xdr_writer_free(&w);
	xdr_writer_init(&w);
	xdr_put_int(&w, PvmSysErr);
	ck_assert_int_eq(sd_sched_decode(w.data, w.len, &s), PvmSysErr);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(spawn_reply)
{
	struct xdr_writer w;
	int32_t slots[3];

	xdr_writer_init(&w);
	xdr_put_int(&w, 3);
	xdr_put_int(&w, 0x40006);
	xdr_put_int(&w, PvmNoFile);
	xdr_put_int(&w, 0x80007);
	ck_assert_int_eq(sd_spawn_reply_decode(w.data, w.len, 3, slots), 2);
	ck_assert_int_eq(slots[1], PvmNoFile);
	/* A count that is not what was asked, or a short body. */
	ck_assert_int_eq(
	    sd_spawn_reply_decode(w.data, w.len, 2, slots), SD_MALFORMED);
	ck_assert_int_eq(
	    sd_spawn_reply_decode(w.data, w.len - 1, 3, slots), SD_MALFORMED);
	xdr_writer_free(&w);
	xdr_writer_init(&w);
	xdr_put_int(&w, PvmNoHost);
	ck_assert_int_eq(
	    sd_spawn_reply_decode(w.data, w.len, 3, slots), PvmNoHost);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(config_and_tasks)
{
	struct xdr_writer w;
	struct sd_host *h;
	struct sd_task *t;
	int n, na;

	xdr_writer_init(&w);
	xdr_put_int(&w, 1);
	xdr_put_int(&w, 1);
	xdr_put_int(&w, 0x40000);
	xdr_put_str(&w, "h1");
	xdr_put_str(&w, "LINUX64");
	xdr_put_int(&w, 1000);
	xdr_put_int(&w, 1);
	ck_assert_int_eq(sd_config_decode(w.data, w.len, &h, &n, &na), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(h[0].name, "h1");
	sd_hosts_free(h, n);
	ck_assert_int_eq(sd_config_decode(w.data, w.len - 4, &h, &n, &na), -1);
	xdr_writer_free(&w);
	/* A host count the body cannot hold. */
	xdr_writer_init(&w);
	xdr_put_int(&w, 4000);
	xdr_put_int(&w, 1);
	ck_assert_int_eq(sd_config_decode(w.data, w.len, &h, &n, &na), -1);
	xdr_writer_free(&w);

	xdr_writer_init(&w);
	xdr_put_int(&w, 0);
	xdr_put_int(&w, 0x40001);
	xdr_put_int(&w, 0);
	xdr_put_int(&w, 0x40000);
	xdr_put_int(&w, 0x100);
	xdr_put_str(&w, "rm");
	xdr_put_int(&w, 123);
	ck_assert_int_eq(sd_tasks_decode(w.data, w.len, &t, &n), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(t[0].flag, 0x100);
	ck_assert_str_eq(t[0].a_out, "rm");
	sd_tasks_free(t, n);
	ck_assert_int_eq(
	    sd_tasks_decode(w.data, w.len - 4, &t, &n), SD_MALFORMED);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(hostchange)
{
	struct xdr_writer w;
	int32_t codes[2];

	xdr_writer_init(&w);
	xdr_put_int(&w, 2);
	xdr_put_int(&w, 0);
	xdr_put_int(&w, PvmNoHost);
	ck_assert_int_eq(sd_hostchange_decode(w.data, w.len, 0, 2, codes), 2);
	ck_assert_int_eq(codes[1], PvmNoHost);
	ck_assert_int_eq(
	    sd_hostchange_decode(w.data, w.len, 0, 1, codes), SD_MALFORMED);
	xdr_writer_free(&w);
	xdr_writer_init(&w);
	xdr_put_int(&w, 1);
	xdr_put_int(&w, 1);
	xdr_put_int(&w, PvmCantStart);
	xdr_put_str(&w, "h9");
	xdr_put_str(&w, "");
	xdr_put_int(&w, 0);
	xdr_put_int(&w, 0);
	ck_assert_int_eq(sd_hostchange_decode(w.data, w.len, 1, 1, codes), 1);
	ck_assert_int_eq(codes[0], PvmCantStart);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(add_request)
{
	struct xdr_writer w;
	const char **names;
	int count;

	xdr_writer_init(&w);
	xdr_put_int(&w, 2);
	xdr_put_str(&w, "h2");
	xdr_put_str(&w, "h3 sp=5");
	ck_assert_int_eq(sd_add_decode(w.data, w.len, &names, &count), 0);
	ck_assert_int_eq(count, 2);
	ck_assert_str_eq(names[1], "h3 sp=5");
	free(names);
	/* Truncated, trailing bytes, a count that lies, none, too many. */
	ck_assert_int_eq(sd_add_decode(w.data, w.len - 4, &names, &count), -1);
	ck_assert_ptr_null(names);
	xdr_put_int(&w, 0);
	ck_assert_int_eq(sd_add_decode(w.data, w.len, &names, &count), -1);
	memcpy(w.data, "\0\0\0\3", 4);
	ck_assert_int_eq(sd_add_decode(w.data, w.len, &names, &count), -1);
	memcpy(w.data, "\0\0\0\0", 4);
	ck_assert_int_eq(sd_add_decode(w.data, w.len, &names, &count), -1);
	memcpy(w.data, "\x7f\0\0\0", 4);
	ck_assert_int_eq(sd_add_decode(w.data, w.len, &names, &count), -1);
	ck_assert_int_eq(count, 0);
	xdr_writer_free(&w);
}
END_TEST

START_TEST(tracer_round_trip)
{
	struct xdr_writer w;
	struct xdr_reader r;
	struct sd_tracer t, u;
	int regme;

	memset(&t, 0, sizeof(t));
	t.tid = 0x40003;
	t.trcctx = 5;
	t.trctag = 70;
	t.outctx = 5;
	t.outtag = 71;
	memset(t.tmask, '@', SD_TMASK_LEN - 1);
	t.trcopt = 1;
	xdr_writer_init(&w);
	sd_tracer_encode(&w, &t);
	xdr_reader_init(&r, w.data, w.len);
	ck_assert_int_eq(sd_tracer_decode(&r, &u), 0);
	ck_assert_int_eq(memcmp(&t, &u, sizeof(t)), 0);
	/* TM_TRACER: regme, then the same without the tid. */
	memcpy(w.data, "\0\0\0\1", 4);
	ck_assert_int_eq(sd_tracer_req_decode(w.data, w.len, &regme, &u), 0);
	ck_assert_int_eq(regme, 1);
	ck_assert_int_eq(u.outtag, 71);
	ck_assert_int_eq(
	    sd_tracer_req_decode(w.data, w.len - 4, &regme, &u), -1);
	ck_assert_int_eq(sd_tracer_req_decode(w.data, 4, &regme, &u), -1);
	memcpy(w.data, "\0\0\0\0", 4);
	ck_assert_int_eq(sd_tracer_req_decode(w.data, 4, &regme, &u), 0);
	ck_assert_int_eq(regme, 0);
	xdr_writer_free(&w);
}
END_TEST

/* Random bodies into every decoder: no crash, no leak (ASan builds). */
START_TEST(fuzz_all)
{
	uint8_t buf[256];
	struct sd_exec e;
	struct sd_sched s;
	struct sd_host *h;
	struct sd_task *t;
	struct sd_tracer tr;
	struct xdr_reader r;
	const char **names;
	int32_t slots[8];
	int i, n, na, regme;
	size_t k, len;

	srand(7);
	for (i = 0; i < 20000; i++) {
		len = (size_t)rand() % sizeof(buf);
		for (k = 0; k < len; k++)
			buf[k] = (uint8_t)(rand() % 4 == 0
			                       ? rand()
			                       : (k % 4 == 3 ? rand() % 8 : 0));
		if (sd_exec_decode(buf, len, &e) == 0)
			sd_exec_free(&e);
		if (sd_sched_decode(buf, len, &s) == 0)
			sd_host_free(&s.master);
		if (sd_config_decode(buf, len, &h, &n, &na) == 0)
			sd_hosts_free(h, n);
		if (sd_tasks_decode(buf, len, &t, &n) == 0)
			sd_tasks_free(t, n);
		(void)sd_spawn_reply_decode(buf, len, 1 + i % 8, slots);
		(void)sd_hostchange_decode(buf, len, i % 2, 1 + i % 8, slots);
		(void)sd_tracer_req_decode(buf, len, &regme, &tr);
		if (sd_add_decode(buf, len, &names, &n) == 0)
			free(names);
		xdr_reader_init(&r, buf, len);
		(void)sd_tracer_decode(&r, &tr);
	}
}
END_TEST

static Suite *
sdpro_suite(void)
{
	Suite *s = suite_create("sdpro");
	TCase *tc = tcase_create("decode");

	tcase_add_test(tc, exec_decodes);
	tcase_add_test(tc, exec_refuses);
	tcase_add_test(tc, sched_round_trip);
	tcase_add_test(tc, spawn_reply);
	tcase_add_test(tc, config_and_tasks);
	tcase_add_test(tc, hostchange);
	tcase_add_test(tc, add_request);
	tcase_add_test(tc, tracer_round_trip);
	tcase_add_test(tc, fuzz_all);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(sdpro_suite());
}
