/*
 * check_place.c: pvm_spawn's placement over hosts and the merge of the
 * hosts' answers (libpvm/place.c alone, pure).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "pvm3.h"
#include "place.h"
#include "tid.h"

#include "unit_main.h"

/* Four hosts, two architectures, host 3 ("c") is ours. */
static struct pvmhostinfo four[] = {
    {0x40000, (char *)"a", (char *)"LINUX64", 1000, 0},
    {0x80000, (char *)"b.example.org", (char *)"LINUX64", 1000, 0},
    {0xc0000, (char *)"c", (char *)"ARM64", 1000, 0},
    {0x100000, (char *)"D", (char *)"ARM64", 1000, 0},
};

static struct place_share share[8];
static int next4; /* the cursor after plan4 */

/* A request on `four` from host index 2 ("c", also known as "cee"). */
static struct place_req
req4(int flag, const char *where, int ntask, int start)
{
	struct place_req r = {.flag = flag,
	    .where = where,
	    .ntask = ntask,
	    .self = 2,
	    .selfname = "cee.lab",
	    .start = start};

	return r;
}

/* Plan on `four`; the number of shares. */
static int
plan4(int flag, const char *where, int ntask, int start)
{
	struct place_req r = req4(flag, where, ntask, start);

	memset(share, 0xff, sizeof(share));
	return place_plan(four, 4, &r, share, &next4);
}

/* Assert share k is (host, count). */
static void
is_share(int k, int host, int count)
{
	ck_assert_int_eq(share[k].host, host);
	ck_assert_int_eq(share[k].count, count);
}

START_TEST(test_default_one_host)
{
	struct place_req r = {.flag = 0,
	    .where = NULL,
	    .ntask = 5,
	    .self = 0,
	    .selfname = NULL,
	    .start = -1};

	int next = -1;

	ck_assert_int_eq(place_plan(four, 1, &r, share, &next), 1);
	is_share(0, 0, 5);
	ck_assert_int_eq(next, 0);
}
END_TEST

/* Spread: from the host after ours, in table order, wrapping; task i
 * to the floor(i * 4 / 10)th host; each host one block. */
START_TEST(test_default_spread)
{
	ck_assert_int_eq(plan4(0, NULL, 10, -1), 4);
	is_share(0, 3, 3);
	is_share(1, 0, 2);
	is_share(2, 1, 3);
	is_share(3, 2, 2);
	ck_assert_int_eq(next4, 3);
}
END_TEST

/* Fewer tasks than hosts: from the cursor on, one each; the cursor moves
 * past them, so one-task spawns in a row go round the machine. */
START_TEST(test_default_cursor)
{
	int start = -1, k, seen[4] = {0};

	ck_assert_int_eq(plan4(0, "", 2, 3), 2);
	is_share(0, 3, 1);
	is_share(1, 0, 1);
	ck_assert_int_eq(next4, 1);
	for (k = 0; k < 4; k++) {
		ck_assert_int_eq(plan4(0, NULL, 1, start), 1);
		seen[share[0].host]++;
		start = next4;
	}
	for (k = 0; k < 4; k++) {
		ck_assert_int_eq(seen[k], 1);
	}
	/* A cursor out of range starts at the host after ours. */
	ck_assert_int_eq(plan4(0, NULL, 1, 9), 1);
	is_share(0, 3, 1);
}
END_TEST

/* A working directory alone does not name a host. */
START_TEST(test_default_workdir_only)
{
	ck_assert_int_eq(plan4(0, ":/tmp", 4, -1), 4);
	ck_assert_int_eq(plan4(PvmHostCompl, "c", 4, -1), 4);
}
END_TEST

START_TEST(test_host_by_name)
{
	static const struct {
		const char *where;
		int host;
	} cases[] = {
	    {"a", 0},
	    {"A", 0},
	    {"b.example.org", 1},
	    {"b", 1},
	    {"B.Example.Org:/tmp", 1},
	    {"d", 3},
	    {"d.lab", 3},
	    {"c", 2},
	    {".", 2},
	    {"cee.lab", 2},
	    {"cee", 2},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(plan4(PvmTaskHost, cases[i].where, 3, 0) == 1,
		    "where %s", cases[i].where ? cases[i].where : "NULL");
		ck_assert_msg(
		    share[0].host == cases[i].host && share[0].count == 3,
		    "where %s: host %d",
		    cases[i].where ? cases[i].where : "NULL", share[0].host);
	}
}
END_TEST

START_TEST(test_host_unknown)
{
	ck_assert_int_eq(plan4(PvmTaskHost, "e", 3, -1), 0);
	ck_assert_int_eq(plan4(PvmTaskHost, "b.other.org", 3, -1), 0);
	ck_assert_int_eq(plan4(PvmTaskHost, "ab", 3, -1), 0);
	/* As PVM 3.4.6: "", NULL, a directory alone and "localhost" name no
	 * host (only "." and the host's names mean ours). */
	ck_assert_int_eq(plan4(PvmTaskHost, "", 3, -1), 0);
	ck_assert_int_eq(plan4(PvmTaskHost, NULL, 3, -1), 0);
	ck_assert_int_eq(plan4(PvmTaskHost, ":/w", 3, -1), 0);
	ck_assert_int_eq(plan4(PvmTaskHost, "localhost", 3, -1), 0);
	/* ... so their complement is every host. */
	ck_assert_int_eq(plan4(PvmTaskHost | PvmHostCompl, "", 4, -1), 4);
	/* PvmTaskHost wins over PvmTaskArch, as in the pvmd. */
	ck_assert_int_eq(plan4(PvmTaskHost | PvmTaskArch, "ARM64", 3, -1), 0);
}
END_TEST

/* A full name match beats an earlier short-name match. */
START_TEST(test_host_full_name_first)
{
	struct pvmhostinfo h[] = {
	    {0x40000, (char *)"n1.x", (char *)"A", 1, 0},
	    {0x80000, (char *)"n1", (char *)"A", 1, 0},
	};
	struct place_req r = {.flag = PvmTaskHost,
	    .where = "n1",
	    .ntask = 1,
	    .self = 0,
	    .selfname = NULL,
	    .start = -1};

	ck_assert_int_eq(place_plan(h, 2, &r, share, NULL), 1);
	is_share(0, 1, 1);
	r.where = "n1.x";
	ck_assert_int_eq(place_plan(h, 2, &r, share, NULL), 1);
	is_share(0, 0, 1);
}
END_TEST

/* Every host but the named one, spread from the cursor. */
START_TEST(test_host_compl)
{
	ck_assert_int_eq(plan4(PvmTaskHost | PvmHostCompl, "a", 7, -1), 3);
	is_share(0, 3, 3);
	is_share(1, 1, 2);
	is_share(2, 2, 2);
	ck_assert_int_eq(plan4(PvmTaskHost | PvmHostCompl, ".", 2, 0), 2);
	is_share(0, 0, 1);
	is_share(1, 1, 1);
	/* An unknown name excludes nothing. */
	ck_assert_int_eq(plan4(PvmTaskHost | PvmHostCompl, "zz", 4, 0), 4);
}
END_TEST

START_TEST(test_compl_of_only_host)
{
	struct place_req r = {.flag = PvmTaskHost | PvmHostCompl,
	    .where = ".",
	    .ntask = 2,
	    .self = 0,
	    .selfname = NULL,
	    .start = -1};

	ck_assert_int_eq(place_plan(four, 1, &r, share, NULL), 0);
}
END_TEST

START_TEST(test_arch)
{
	ck_assert_int_eq(plan4(PvmTaskArch, "LINUX64", 5, -1), 2);
	is_share(0, 0, 3);
	is_share(1, 1, 2);
	ck_assert_int_eq(plan4(PvmTaskArch, "arm64:/tmp", 3, 3), 2);
	is_share(0, 3, 2);
	is_share(1, 2, 1);
	ck_assert_int_eq(plan4(PvmTaskArch, "SPARC", 3, -1), 0);
	ck_assert_int_eq(plan4(PvmTaskArch, "ARM", 3, -1), 0);
	ck_assert_int_eq(plan4(PvmTaskArch | PvmHostCompl, "ARM64", 4, -1), 2);
	is_share(0, 0, 2);
	is_share(1, 1, 2);
}
END_TEST

/* Whatever the table and request, the counts add up to ntask, each host
 * appears once, and only hosts that qualify appear. */
START_TEST(test_counts_add_up)
{
	static const int flags[] = {0, PvmTaskArch, PvmTaskArch | PvmHostCompl,
	    PvmTaskHost | PvmHostCompl};
	int nhost, ntask, start, f, k, n, sum, seen;

	for (nhost = 1; nhost <= 4; nhost++) {
		for (ntask = 1; ntask <= 13; ntask++) {
			for (start = -1; start <= nhost; start++) {
				for (f = 0; f < 4; f++) {
					struct place_req r = req4(
					    flags[f], "ARM64", ntask, start);

					r.self = nhost - 1;
					n = place_plan(four, nhost, &r, share, NULL);
					for (k = sum = seen = 0; k < n; k++) {
						ck_assert_int_gt(
						    share[k].count, 0);
						ck_assert(!(
						    seen & 1 << share[k].host));
						seen |= 1 << share[k].host;
						sum += share[k].count;
					}
					ck_assert(n == 0 || sum == ntask);
				}
			}
		}
	}
}
END_TEST

/*
 * What PVM 3.4.6 did, seen by tests/diff/h_place.c from a task on h1 of
 * h1..h4 (one cursor through the whole sequence): each line is one
 * pvm_spawn, the hosts of its tids in order.
 */
START_TEST(test_pvm346_sequence)
{
	static const struct {
		int flag, ntask;
		const char *hosts;
	} seq[] = {
	    {0, 1, "2"}, {0, 2, "34"}, {0, 3, "123"}, {0, 4, "4123"},
	    {0, 5, "44123"}, {0, 6, "441223"}, {0, 7, "4411223"},
	    {PvmTaskArch, 1, "4"}, {PvmTaskArch, 2, "12"},
	    {PvmTaskArch, 3, "341"}, {PvmTaskArch, 4, "2341"},
	    {PvmTaskHost | PvmHostCompl, 1, "2"},
	    {PvmTaskHost | PvmHostCompl, 2, "34"},
	    {PvmTaskHost | PvmHostCompl, 3, "234"},
	    {PvmTaskHost | PvmHostCompl, 4, "2234"}, {0, 1, "2"},
	    {0, 2, "34"}, {0, 3, "123"},
	};
	struct pvmhostinfo h[4] = {
	    {0x40000, (char *)"h1", (char *)"LINUX64", 1000, 0},
	    {0x80000, (char *)"h2", (char *)"LINUX64", 1000, 0},
	    {0xc0000, (char *)"h3", (char *)"LINUX64", 1000, 0},
	    {0x100000, (char *)"h4", (char *)"LINUX64", 1000, 0},
	};
	int cursor = -1, next, n, k, j;
	size_t i;

	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		struct place_req r = {.flag = seq[i].flag,
		    .where = seq[i].flag & PvmTaskArch ? "LINUX64" : "h1",
		    .ntask = seq[i].ntask,
		    .self = 0,
		    .selfname = "h1",
		    .start = cursor};
		char got[16];
		size_t len = 0;

		n = place_plan(h, 4, &r, share, &next);
		for (k = 0; k < n; k++)
			for (j = 0; j < share[k].count && len < 15; j++)
				got[len++] = (char)('1' + share[k].host);
		got[len] = '\0';
		ck_assert_msg(strcmp(got, seq[i].hosts) == 0,
		    "spawn %zu: hosts %s, PVM 3.4.6 %s", i, got,
		    seq[i].hosts);
		cursor = next;
	}
}
END_TEST

START_TEST(test_workdir)
{
	ck_assert_str_eq(place_workdir("a:/tmp"), "/tmp");
	ck_assert_str_eq(place_workdir(":/x"), "/x");
	ck_assert_str_eq(place_workdir("a:b:c"), "b:c");
	ck_assert_ptr_null(place_workdir("a:"));
	ck_assert_ptr_null(place_workdir("a"));
	ck_assert_ptr_null(place_workdir(NULL));
}
END_TEST

/* The slots of three hosts' answers: tids first, then the errors, each
 * in slot order, as pvm_spawn has always returned them. */
START_TEST(test_merge)
{
	int slots[] = {0x40001, PvmNoFile, 0x80001, 0x80002, PvmHostFail,
	    PvmHostFail, 0xc0007, PvmNoMem};
	int want[] = {0x40001, 0x80001, 0x80002, 0xc0007, PvmNoFile,
	    PvmHostFail, PvmHostFail, PvmNoMem};
	int out[8], i;

	ck_assert_int_eq(place_merge(slots, 8, out), 4);
	for (i = 0; i < 8; i++) {
		ck_assert_int_eq(out[i], want[i]);
	}
}
END_TEST

START_TEST(test_merge_all_or_none)
{
	int tids[] = {0x40003, 0x40001, 0x40002};
	int errs[] = {PvmNoHost, PvmNoHost};
	int out[3];

	ck_assert_int_eq(place_merge(tids, 3, out), 3);
	ck_assert_int_eq(out[0], 0x40003);
	ck_assert_int_eq(out[2], 0x40002);
	ck_assert_int_eq(place_merge(errs, 2, out), 0);
	ck_assert_int_eq(out[0], PvmNoHost);
	ck_assert_int_eq(out[1], PvmNoHost);
}
END_TEST

static Suite *
place_suite(void)
{
	Suite *s = suite_create("place");
	TCase *tc = tcase_create("plan");
	TCase *tm = tcase_create("merge");

	tcase_add_test(tc, test_default_one_host);
	tcase_add_test(tc, test_default_spread);
	tcase_add_test(tc, test_default_cursor);
	tcase_add_test(tc, test_default_workdir_only);
	tcase_add_test(tc, test_host_by_name);
	tcase_add_test(tc, test_host_unknown);
	tcase_add_test(tc, test_host_full_name_first);
	tcase_add_test(tc, test_host_compl);
	tcase_add_test(tc, test_compl_of_only_host);
	tcase_add_test(tc, test_arch);
	tcase_add_test(tc, test_counts_add_up);
	tcase_add_test(tc, test_pvm346_sequence);
	tcase_add_test(tc, test_workdir);
	suite_add_tcase(s, tc);
	tcase_add_test(tm, test_merge);
	tcase_add_test(tm, test_merge_all_or_none);
	suite_add_tcase(s, tm);
	return s;
}

int
main(void)
{
	return unit_run(place_suite());
}
