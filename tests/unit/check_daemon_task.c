/*
 * check_daemon_task.c: the pvmd task table (tid allocation, wrap, skip
 * of live tids, lookups) and the context table.
 */
#include <check.h>
#include <stdlib.h>

#include "pvmd.h"

#include "unit_main.h"

START_TEST(task_sequential)
{
	struct task_table tt;
	struct task *t;
	int i, tid;

	task_table_init(&tt, 1);
	for (i = 1; i <= 5; i++) {
		tid = task_alloc_tid(&tt);
		ck_assert_int_eq(tid, 0x40000 + i);
		ck_assert_ptr_nonnull(task_new(&tt, tid));
	}
	ck_assert_int_eq(tt.count, 5);
	t = task_find(&tt, 0x40003);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->tid, 0x40003);
	ck_assert_str_eq(t->a_out, "");
	task_remove(&tt, t);
	ck_assert_ptr_null(task_find(&tt, 0x40003));
	/* not reused soon: the counter goes on */
	ck_assert_int_eq(task_alloc_tid(&tt), 0x40006);
	ck_assert_int_eq(tt.count, 4);
	while ((t = TAILQ_FIRST(&tt.list)) != NULL)
		task_remove(&tt, t);
	ck_assert_int_eq(tt.count, 0);
}
END_TEST

START_TEST(task_wrap_and_skip)
{
	struct task_table tt;
	struct task *t;

	task_table_init(&tt, 1);
	ck_assert_ptr_nonnull(task_new(&tt, 0x40001));
	ck_assert_ptr_nonnull(task_new(&tt, 0x40002));
	tt.next = TID_LOCAL_MAX - 1;
	ck_assert_int_eq(task_alloc_tid(&tt), tid_make(1, TID_LOCAL_MAX - 1));
	ck_assert_int_eq(task_alloc_tid(&tt), tid_make(1, TID_LOCAL_MAX));
	/* wraps to 1, skips the live 1 and 2 */
	ck_assert_int_eq(task_alloc_tid(&tt), 0x40003);
	while ((t = TAILQ_FIRST(&tt.list)) != NULL)
		task_remove(&tt, t);
}
END_TEST

START_TEST(task_other_host)
{
	struct task_table tt;

	task_table_init(&tt, 3);
	ck_assert_int_eq(task_alloc_tid(&tt), 0xc0001);
}
END_TEST

START_TEST(task_full)
{
	struct task_table *tt = malloc(sizeof(*tt));
	struct task *t;
	int i;

	ck_assert_ptr_nonnull(tt);
	task_table_init(tt, 1);
	for (i = 1; i <= TID_LOCAL_MAX; i++)
		ck_assert_ptr_nonnull(task_new(tt, tid_make(1, i)));
	ck_assert_int_eq(task_alloc_tid(tt), 0);
	task_remove(tt, task_find(tt, tid_make(1, 777)));
	ck_assert_int_eq(task_alloc_tid(tt), tid_make(1, 777));
	while ((t = TAILQ_FIRST(&tt->list)) != NULL)
		task_remove(tt, t);
	free(tt);
}
END_TEST

START_TEST(task_pending)
{
	struct task_table tt;
	struct task *a, *b;

	task_table_init(&tt, 1);
	a = task_new(&tt, task_alloc_tid(&tt));
	b = task_new(&tt, task_alloc_tid(&tt));
	a->pid = 100;
	a->flags = TASK_F_SPAWNED;
	b->pid = 200; /* anonymous: not pending */
	b->flags = TASK_F_CONN;
	ck_assert_ptr_eq(task_find_pending(&tt, 100), a);
	ck_assert_ptr_null(task_find_pending(&tt, 200));
	ck_assert_ptr_null(task_find_pending(&tt, 0));
	a->flags |= TASK_F_CONN;
	ck_assert_ptr_null(task_find_pending(&tt, 100));
	task_remove(&tt, a);
	task_remove(&tt, b);
}
END_TEST

START_TEST(ctx_alloc_free)
{
	struct ctx_table ct;
	int a, b, c;

	ctx_table_init(&ct, 0x40000);
	a = ctx_new(&ct, 0x40001);
	b = ctx_new(&ct, 0x40001);
	c = ctx_new(&ct, 0x40002);
	ck_assert_int_eq(a, 0x40001);
	ck_assert_int_eq(b, 0x40002);
	ck_assert_int_eq(c, 0x40003);
	/* someone else's */
	ck_assert_int_eq(ctx_free(&ct, 0x40002, a), PvmNotFound);
	ck_assert_int_eq(ctx_free(&ct, 0x40001, a), 0);
	ck_assert_int_eq(ctx_free(&ct, 0x40001, a), PvmNotFound);
	ctx_free_owner(&ct, 0x40001);
	ck_assert_int_eq(ctx_free(&ct, 0x40001, b), PvmNotFound);
	ck_assert_int_eq(ctx_free(&ct, 0x40002, c), 0);
	/* never reaches the system contexts */
	ct.next = CTX_COUNTER_MAX - 1;
	ck_assert_int_eq(ctx_new(&ct, 1), 0x40000 | (CTX_COUNTER_MAX - 1));
	ck_assert_int_eq(ctx_new(&ct, 1), 0x40001);
	ck_assert_int_lt(CTX_COUNTER_MAX, SYSCTX_DG - 0x40000);
	ctx_table_fini(&ct);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("daemon-task");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, task_sequential);
	tcase_add_test(tc, task_wrap_and_skip);
	tcase_add_test(tc, task_other_host);
	tcase_add_test(tc, task_full);
	tcase_add_test(tc, task_pending);
	tcase_add_test(tc, ctx_alloc_free);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
