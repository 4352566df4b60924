/*
 * check_groups.c: the pure group table of pvmgs (libgpvm/groups.c):
 * join, leave, instance reuse, deletion when empty, freeze, barrier
 * counting with PVM 3.4's rules, and what happens to waiters when a
 * member leaves or dies.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"
#include "groups.h"

#include "unit_main.h"

static struct gt_table t;

static void
setup(void)
{
	gt_init(&t);
}

static void
teardown(void)
{
	gt_fini(&t);
}

/* Leave, ignoring the waiter lists. */
static int
leave(const char *name, int tid, int *deleted)
{
	struct gt_list fb = { 0 }, ff = { 0 };
	int cc, del = 0;

	cc = gt_leave(&t, name, tid, 0, &fb, &ff, &del);
	gt_list_free(&fb);
	gt_list_free(&ff);
	if (deleted != NULL) {
		*deleted = del;
	}
	return cc;
}

START_TEST(join_numbers_and_dup)
{
	struct gt_group *g;

	ck_assert_int_eq(gt_join(&t, "g", 101), 0);
	ck_assert_int_eq(gt_join(&t, "g", 102), 1);
	ck_assert_int_eq(gt_join(&t, "g", 103), 2);
	ck_assert_int_eq(gt_join(&t, "g", 102), PvmDupGroup);
	ck_assert_int_eq(gt_join(&t, "h", 102), 0);
	g = gt_find(&t, "g");
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->nmembers, 3);
	ck_assert_int_eq(g->ninst, 3);
	ck_assert_int_eq(gt_inst(g, 103), 2);
	ck_assert_int_eq(gt_inst(g, 999), -1);
	ck_assert_ptr_null(gt_find(&t, "nope"));
}
END_TEST

START_TEST(leave_reuse_lowest)
{
	struct gt_group *g;
	int i, del;

	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(gt_join(&t, "g", 100 + i), i);
	}
	ck_assert_int_eq(leave("g", 101, &del), 0);
	ck_assert_int_eq(del, 0);
	ck_assert_int_eq(leave("g", 103, NULL), 0);
	g = gt_find(&t, "g");
	ck_assert_int_eq(g->nmembers, 3);
	ck_assert_int_eq(g->ninst, 5);
	ck_assert_int_eq(g->tids[1], -1);
	/* The lowest free instance comes back first. */
	ck_assert_int_eq(gt_join(&t, "g", 200), 1);
	ck_assert_int_eq(gt_join(&t, "g", 201), 3);
	ck_assert_int_eq(gt_join(&t, "g", 202), 5);
	ck_assert_int_eq(leave("g", 202, NULL), 0);
	ck_assert_int_eq(g->ninst, 5); /* trailing hole trimmed */
}
END_TEST

START_TEST(leave_errors_and_delete)
{
	int del;

	ck_assert_int_eq(leave("g", 1, NULL), PvmNoGroup);
	ck_assert_int_eq(gt_join(&t, "g", 1), 0);
	ck_assert_int_eq(leave("g", 2, NULL), PvmNotInGroup);
	ck_assert_int_eq(leave("g", 1, &del), 0);
	ck_assert_int_eq(del, 1);
	ck_assert_ptr_null(gt_find(&t, "g"));
	/* Re-created: numbering starts again at 0. */
	ck_assert_int_eq(gt_join(&t, "g", 5), 0);
}
END_TEST

START_TEST(version_bumps)
{
	struct gt_group *g;
	struct gt_list rel = { 0 };
	uint32_t v;

	gt_join(&t, "g", 1);
	g = gt_find(&t, "g");
	v = g->version;
	gt_join(&t, "g", 2);
	ck_assert_uint_gt(g->version, v);
	v = g->version;
	gt_join(&t, "g", 2); /* duplicate: no change */
	ck_assert_uint_eq(g->version, v);
	gt_join(&t, "g", 3);
	leave("g", 3, NULL);
	ck_assert_uint_eq(g->version, v + 2);
	v = g->version;
	gt_freeze(&t, "g", 1, -1, &rel);
	gt_freeze(&t, "g", 2, -1, &rel);
	ck_assert_uint_eq(g->version, v + 1);
	gt_list_free(&rel);
}
END_TEST

START_TEST(barrier_counting)
{
	struct gt_list rel = { 0 };
	int i;

	for (i = 0; i < 3; i++) {
		gt_join(&t, "g", 10 + i);
	}
	ck_assert_int_eq(gt_barrier(&t, "nope", 10, -1, &rel), PvmNoGroup);
	ck_assert_int_eq(gt_barrier(&t, "g", 99, -1, &rel), PvmNotInGroup);
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 0, &rel), PvmMismatch);
	/* -1 = size now (3); a different count is a mismatch. */
	ck_assert_int_eq(gt_barrier(&t, "g", 10, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 2, &rel), PvmMismatch);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 3, &rel), 0);
	ck_assert_int_eq(rel.n, 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 12, -1, &rel), 1);
	ck_assert_int_eq(rel.n, 3);
	ck_assert_int_eq(rel.tids[0], 10);
	ck_assert_int_eq(rel.tids[2], 12);
	gt_list_free(&rel);
	/* Reset after release: a new barrier may use another count. */
	ck_assert_int_eq(gt_barrier(&t, "g", 12, 2, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 2, &rel), 1);
	ck_assert_int_eq(rel.n, 2);
	gt_list_free(&rel);
	/* A count of 1 releases at once. */
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 1, &rel), 1);
	ck_assert_int_eq(rel.n, 1);
	gt_list_free(&rel);
}
END_TEST

/*
 * A member that arrives again while it waits is refused, and its first
 * arrival still counts once: counted twice, it released the barrier
 * (or completed a freeze) before the others came.  Found by fuzz_pvmgs.
 */
START_TEST(arrive_twice)
{
	struct gt_list rel = { 0 };
	int i;

	for (i = 0; i < 3; i++) {
		gt_join(&t, "g", 10 + i);
	}
	ck_assert_int_eq(gt_barrier(&t, "g", 10, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 10, -1, &rel), PvmBadParam);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 3, &rel), PvmBadParam);
	ck_assert_int_eq(rel.n, 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 12, -1, &rel), 1);
	ck_assert_int_eq(rel.n, 3);
	gt_list_free(&rel);
	ck_assert_int_eq(gt_freeze(&t, "g", 10, 2, &rel), 0);
	ck_assert_int_eq(gt_freeze(&t, "g", 10, 2, &rel), PvmBadParam);
	ck_assert_int_eq(gt_find(&t, "g")->state, GS_DYNAMIC);
	ck_assert_int_eq(gt_freeze(&t, "g", 11, 2, &rel), 1);
	ck_assert_int_eq(rel.n, 2);
	gt_list_free(&rel);
}
END_TEST

START_TEST(barrier_member_dies)
{
	struct gt_list rel = { 0 }, fb = { 0 }, ff = { 0 };
	int del, i;

	for (i = 0; i < 3; i++) {
		gt_join(&t, "g", 10 + i);
	}
	ck_assert_int_eq(gt_barrier(&t, "g", 10, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, -1, &rel), 0);
	/* 12 dies before arriving: 3 can never be reached. */
	ck_assert_int_eq(gt_leave(&t, "g", 12, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(fb.n, 2);
	ck_assert_int_eq(fb.code, PvmNoTask);
	ck_assert_int_eq(ff.n, 0);
	gt_list_free(&fb);
	/* The barrier was reset: the two left can meet with count -1. */
	ck_assert_int_eq(gt_barrier(&t, "g", 10, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, -1, &rel), 1);
	ck_assert_int_eq(rel.n, 2);
	gt_list_free(&rel);
}
END_TEST

/*
 * A member that dies while no barrier is in progress: survivors that
 * then arrive with the old size as count fail at once, instead of
 * waiting for it (t-hosts-reduce's reducekill hung so under valgrind,
 * when the server learnt of the deaths before any survivor arrived).
 * A voluntary leave keeps PVM's wait for a member that may still join.
 */
START_TEST(barrier_after_death_between)
{
	struct gt_list rel = { 0 }, fb = { 0 }, ff = { 0 };
	int del, i;

	for (i = 0; i < 4; i++) {
		gt_join(&t, "g", 10 + i);
	}
	ck_assert_int_eq(gt_leave(&t, "g", 13, 1, &fb, &ff, &del), 0);
	ck_assert_int_eq(fb.n, 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 4, &rel), PvmNoTask);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 4, &rel), PvmNoTask);
	/* The group's size as count (-1) meets. */
	ck_assert_int_eq(gt_barrier(&t, "g", 10, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 12, -1, &rel), 1);
	ck_assert_int_eq(rel.n, 3);
	gt_list_free(&rel);
	/* A leave: a barrier of 3 waits for a member that may join. */
	ck_assert_int_eq(gt_leave(&t, "g", 12, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 3, &rel), 0);
	gt_join(&t, "g", 20);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 3, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 20, 3, &rel), 1);
	ck_assert_int_eq(rel.n, 3);
	gt_list_free(&rel);
	gt_list_free(&fb);
	gt_list_free(&ff);
}
END_TEST

/*
 * A barrier that failed because a member died fails at once for the
 * survivors that arrive later with the same count (they would wait for
 * the dead for ever); a join that makes the count reachable again ends
 * that.
 */
START_TEST(barrier_late_after_death)
{
	struct gt_list rel = { 0 }, fb = { 0 }, ff = { 0 };
	int del, i;

	for (i = 0; i < 4; i++) {
		gt_join(&t, "g", 10 + i);
	}
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 4, &rel), 0);
	ck_assert_int_eq(gt_leave(&t, "g", 13, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(fb.n, 1);
	ck_assert_int_eq(fb.code, PvmNoTask);
	gt_list_free(&fb);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 4, &rel), PvmNoTask);
	ck_assert_int_eq(gt_barrier(&t, "g", 12, 4, &rel), PvmNoTask);
	/* Another count is a new barrier. */
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 3, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 12, 3, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 3, &rel), 1);
	gt_list_free(&rel);
	/* Once a new member joins, 4 can be reached again. */
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 4, &rel), 0);
	ck_assert_int_eq(gt_leave(&t, "g", 12, 0, &fb, &ff, &del), 0);
	gt_list_free(&fb);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 4, &rel), PvmNoTask);
	gt_join(&t, "g", 20);
	gt_join(&t, "g", 21);
	ck_assert_int_eq(gt_barrier(&t, "g", 11, 4, &rel), 0);
	gt_list_free(&rel);
}
END_TEST

START_TEST(barrier_survives_if_reachable)
{
	struct gt_list rel = { 0 }, fb = { 0 }, ff = { 0 };
	int del, i;

	for (i = 0; i < 4; i++) {
		gt_join(&t, "g", 10 + i);
	}
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 2, &rel), 0);
	ck_assert_int_eq(gt_leave(&t, "g", 13, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(fb.n, 0); /* 11 or 12 can still come */
	ck_assert_int_eq(gt_barrier(&t, "g", 12, 2, &rel), 1);
	ck_assert_int_eq(rel.n, 2);
	gt_list_free(&rel);
	/* A waiter that dies is withdrawn: 2 of 2 are no longer possible. */
	ck_assert_int_eq(gt_barrier(&t, "g", 10, 3, &rel), 0);
	ck_assert_int_eq(gt_leave(&t, "g", 10, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(fb.n, 0); /* nobody waits any more */
	ck_assert_int_eq(gt_barrier(&t, "g", 11, -1, &rel), 0);
	ck_assert_int_eq(gt_barrier(&t, "g", 12, -1, &rel), 1);
	gt_list_free(&rel);
}
END_TEST

START_TEST(freeze_rules)
{
	struct gt_list rel = { 0 }, fb = { 0 }, ff = { 0 };
	struct gt_group *g;
	int del;

	gt_join(&t, "g", 1);
	gt_join(&t, "g", 2);
	g = gt_find(&t, "g");
	ck_assert_int_eq(gt_freeze(&t, "g", 3, -1, &rel), PvmNotInGroup);
	ck_assert_int_eq(gt_freeze(&t, "g", 1, -1, &rel), 0);
	ck_assert_int_eq(g->state, GS_DYNAMIC);
	ck_assert_int_eq(gt_freeze(&t, "g", 2, 3, &rel), PvmMismatch);
	ck_assert_int_eq(gt_freeze(&t, "g", 2, 2, &rel), 1);
	ck_assert_int_eq(rel.n, 2);
	gt_list_free(&rel);
	ck_assert_int_eq(g->state, GS_FROZEN);
	ck_assert_int_eq(gt_freeze(&t, "g", 1, -1, &rel), PvmDupGroup);
	/* PVM 3.4 answers a join of a static group with PvmNotInGroup. */
	ck_assert_int_eq(gt_join(&t, "g", 3), PvmNotInGroup);
	/* Barriers still work on a frozen group. */
	ck_assert_int_eq(gt_barrier(&t, "g", 1, -1, &rel), 0);
	/* A leave kills it: the waiter is failed with PvmNoGroup. */
	ck_assert_int_eq(gt_leave(&t, "g", 2, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(del, 0);
	ck_assert_int_eq(g->state, GS_DEAD);
	ck_assert_int_eq(fb.n, 1);
	ck_assert_int_eq(fb.code, PvmNoGroup);
	gt_list_free(&fb);
	ck_assert_int_eq(gt_barrier(&t, "g", 1, -1, &rel), PvmNoGroup);
	ck_assert_int_eq(gt_leave(&t, "g", 1, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(del, 1);
}
END_TEST

START_TEST(freeze_waiter_dies)
{
	struct gt_list rel = { 0 }, fb = { 0 }, ff = { 0 };
	int del;

	gt_join(&t, "g", 1);
	gt_join(&t, "g", 2);
	gt_join(&t, "g", 3);
	ck_assert_int_eq(gt_freeze(&t, "g", 1, -1, &rel), 0);
	ck_assert_int_eq(gt_leave(&t, "g", 3, 0, &fb, &ff, &del), 0);
	ck_assert_int_eq(ff.n, 1);
	ck_assert_int_eq(ff.tids[0], 1);
	ck_assert_int_eq(ff.code, PvmNoTask);
	gt_list_free(&ff);
	gt_list_free(&fb);
}
END_TEST

START_TEST(many_groups_and_first_with)
{
	char name[64];
	int i, del;
	struct gt_group *g;

	for (i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "g%d", i);
		ck_assert_int_eq(gt_join(&t, name, 7), 0);
		ck_assert_int_eq(gt_join(&t, name, 8), 1);
	}
	i = 0;
	while ((g = gt_first_with(&t, 7)) != NULL) {
		snprintf(name, sizeof(name), "%s", g->name);
		ck_assert_int_eq(leave(name, 7, &del), 0);
		ck_assert_int_eq(del, 0);
		i++;
	}
	ck_assert_int_eq(i, 50);
	ck_assert_ptr_null(gt_first_with(&t, 7));
	ck_assert_int_eq(gt_inst(gt_find(&t, "g3"), 8), 1);
}
END_TEST

/* Names have no length limit, as in PVM 3.4; a prefix is another name. */
START_TEST(long_name)
{
	static char name[100001];

	memset(name, 'x', sizeof(name) - 1);
	ck_assert_int_eq(gt_join(&t, name, 1), 0);
	ck_assert_int_eq(gt_join(&t, name, 2), 1);
	ck_assert_str_eq(gt_find(&t, name)->name, name);
	name[sizeof(name) - 2] = '\0';
	ck_assert_ptr_null(gt_find(&t, name));
	ck_assert_int_eq(gt_join(&t, name, 1), 0);
}
END_TEST

static Suite *
groups_suite(void)
{
	Suite *s = suite_create("groups");
	TCase *tc = tcase_create("table");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, join_numbers_and_dup);
	tcase_add_test(tc, leave_reuse_lowest);
	tcase_add_test(tc, leave_errors_and_delete);
	tcase_add_test(tc, version_bumps);
	tcase_add_test(tc, barrier_counting);
	tcase_add_test(tc, arrive_twice);
	tcase_add_test(tc, barrier_member_dies);
	tcase_add_test(tc, barrier_late_after_death);
	tcase_add_test(tc, barrier_after_death_between);
	tcase_add_test(tc, barrier_survives_if_reachable);
	tcase_add_test(tc, freeze_rules);
	tcase_add_test(tc, freeze_waiter_dies);
	tcase_add_test(tc, many_groups_and_first_with);
	tcase_add_test(tc, long_name);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(groups_suite());
}
