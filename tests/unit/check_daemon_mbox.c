/*
 * check_daemon_mbox.c: mailbox semantics of the pvmd (PVM 3.4 rules:
 * locking, MultiInstance, OverWritable, FirstAvail, ReadAndDelete,
 * Persistent, direct indices, owner exit, reset).
 */
#include <check.h>
#include <stdio.h> /* PvmMboxDirectIndex reports on stderr */
#include <stdlib.h>
#include <string.h>

#include "pvmd.h"

#include "unit_main.h"

#define A 0x40001
#define B 0x40002

static struct mbox mb;

static void
setup(void)
{
	mbox_init(&mb);
}

static void
teardown(void)
{
	mbox_fini(&mb);
}

/* Put a message holding `text`. */
static int
put(int tid, const char *name, int index, int flags, const char *text)
{
	struct mbox_msg *m = mbox_msg_new(text, strlen(text), WIRE_ENC_XDR);
	int rc;

	ck_assert_ptr_nonnull(m);
	rc = mbox_put(&mb, tid, name, index, flags, m);
	mbox_msg_unref(m);
	return rc;
}

/* Get and compare the text; returns the index or error. */
static int
get(int tid, const char *name, int index, int flags, const char *want)
{
	struct mbox_msg *m;
	int rc = mbox_get(&mb, tid, name, index, flags, &m);

	if (rc >= 0) {
		ck_assert_ptr_nonnull(m);
		if (want != NULL) {
			ck_assert_uint_eq(m->len, strlen(want));
			ck_assert(memcmp(m->data, want, m->len) == 0);
		}
		mbox_msg_unref(m);
	} else {
		ck_assert_ptr_null(m);
	}
	return rc;
}

/* The first entry of class `name`. */
static struct mbox_entry *
first(const char *name)
{
	struct mbox_class *mc = mbox_class_find(&mb, name);

	ck_assert_ptr_nonnull(mc);
	return TAILQ_FIRST(&mc->entries);
}

/* Number of entries of class `name`. */
static int
nentries(const char *name)
{
	struct mbox_class *mc = mbox_class_find(&mb, name);
	struct mbox_entry *e;
	int n = 0;

	if (mc == NULL)
		return 0;
	TAILQ_FOREACH(e, &mc->entries, entry)
		n++;
	return n;
}

START_TEST(mbox_default_locked)
{
	ck_assert_int_eq(put(A, "k", 0, PvmMboxDefault, "a1"), 0);
	ck_assert_int_eq(put(B, "k", 0, PvmMboxDefault, "b"), PvmDenied);
	ck_assert_int_eq(put(A, "k", 0, PvmMboxDefault, "a2"), 0);
	ck_assert_int_eq(get(B, "k", 0, 0, "a2"), 0);
	ck_assert_int_eq(get(B, "k", 1, 0, NULL), PvmNotFound);
	ck_assert_int_eq(get(B, "nosuch", 0, 0, NULL), PvmNotFound);
	ck_assert_int_eq(mbox_del(&mb, B, "k", 0), PvmDenied);
	ck_assert_int_eq(mbox_del(&mb, A, "k", 0), 0);
	ck_assert_ptr_null(mbox_class_find(&mb, "k"));
	ck_assert_int_eq(mbox_del(&mb, A, "k", 0), PvmNotFound);
}
END_TEST

START_TEST(mbox_multi_instance)
{
	int f = PvmMboxMultiInstance;

	/* pvm_putinfo sends index -1: a new instance each time */
	ck_assert_int_eq(put(A, "m", -1, f, "a0"), 0);
	ck_assert_int_eq(put(A, "m", -1, f, "a1"), 1);
	ck_assert_int_eq(put(B, "m", -1, f, "b2"), 2);
	ck_assert_int_eq(nentries("m"), 3);
	ck_assert_int_eq(mbox_del(&mb, A, "m", 1), 1);
	/* the hole is reused */
	ck_assert_int_eq(put(B, "m", -1, f, "b1"), 1);
	/* an explicit index (pvm_insert) on a taken slot is refused */
	ck_assert_int_eq(put(B, "m", 0, f, "x"), PvmDenied);
	ck_assert_int_eq(put(B, "m", 5, f, "b5"), 5);
	ck_assert_int_eq(get(A, "m", 1, 0, "b1"), 1);
	ck_assert_int_eq(get(A, "m", 3, PvmMboxFirstAvail, "b5"), 5);
	ck_assert_int_eq(get(A, "m", 6, PvmMboxFirstAvail, NULL), PvmNotFound);
	ck_assert_int_eq(put(A, "m", -2, f, "x"), PvmBadParam);
}
END_TEST

START_TEST(mbox_overwritable)
{
	ck_assert_int_eq(put(A, "o", 0, PvmMboxOverWritable, "a"), 0);
	ck_assert_int_eq(put(B, "o", 0, PvmMboxDefault, "b"), 0);
	/* now B owns it, locked */
	ck_assert_int_eq(put(A, "o", 0, PvmMboxDefault, "a"), PvmDenied);
	ck_assert_int_eq(put(B, "o", 0, PvmMboxOverWritable, "b2"), 0);
	ck_assert_int_eq(mbox_del(&mb, A, "o", 0), 0);
}
END_TEST

START_TEST(mbox_read_and_delete)
{
	ck_assert_int_eq(put(A, "r", 0, 0, "x"), 0);
	ck_assert_int_eq(get(B, "r", 0, PvmMboxReadAndDelete, NULL), PvmDenied);
	ck_assert_int_eq(nentries("r"), 1);
	ck_assert_int_eq(get(A, "r", 0, PvmMboxReadAndDelete, "x"), 0);
	ck_assert_int_eq(nentries("r"), 0);
	ck_assert_int_eq(get(A, "r", 0, 0, NULL), PvmNotFound);
}
END_TEST

START_TEST(mbox_direct_index)
{
	int f = PvmMboxDirectIndex(9);

	ck_assert_int_eq(put(A, "d", -1, f, "nine"), 9);
	ck_assert_int_eq(get(B, "d", 9, 0, "nine"), 9);
	ck_assert_int_eq(get(B, "d", 0, 0, NULL), PvmNotFound);
	/* an explicit index wins over the flags */
	ck_assert_int_eq(put(A, "d", 2, f, "two"), 2);
	/* the flags are kept as given, as PVM lists them */
	ck_assert_int_eq(first("d")->flags, f);
}
END_TEST

START_TEST(mbox_owner_exit)
{
	ck_assert_int_eq(put(A, "x", 0, 0, "gone"), 0);
	ck_assert_int_eq(put(A, "p", 0, PvmMboxPersistent, "stays"), 0);
	ck_assert_int_eq(put(B, "x", 1, 0, "b"), 1);
	mbox_tidy(&mb, A);
	ck_assert_int_eq(get(B, "x", 0, 0, NULL), PvmNotFound);
	ck_assert_int_eq(get(B, "x", 1, 0, "b"), 1);
	ck_assert_int_eq(get(B, "p", 0, 0, "stays"), 0);
	ck_assert_int_eq(first("p")->owner, 0);
	/* an orphaned locked entry cannot be replaced by others */
	ck_assert_int_eq(put(B, "p", 0, 0, "b"), PvmDenied);
}
END_TEST

START_TEST(mbox_reset_keeps)
{
	static const char *const keep[] = { MBOX_CLASS_NORESET,
		MBOX_CLASS_PVMGS };

	ck_assert_int_eq(put(A, MBOX_CLASS_NORESET, 0, PvmMboxMultiInstance,
	    ""), 0);
	ck_assert_int_eq(put(B, MBOX_CLASS_PVMGS, 0, 0, "gs"), 0);
	ck_assert_int_eq(put(B, "user", 0, PvmMboxPersistent, "u"), 0);
	ck_assert(mbox_is_noreset(&mb, A));
	ck_assert(!mbox_is_noreset(&mb, B));
	mbox_reset(&mb, keep, 2);
	ck_assert_ptr_null(mbox_class_find(&mb, "user"));
	ck_assert_int_eq(nentries(MBOX_CLASS_PVMGS), 1);
	ck_assert(mbox_is_noreset(&mb, A));
}
END_TEST

START_TEST(mbox_waiters)
{
	struct mbox_waiter *w;

	ck_assert_int_eq(mbox_wait_add(&mb, A, 7, "w", 0, PvmMboxWaitForInfo),
	    0);
	ck_assert_int_eq(mbox_wait_add(&mb, B, 8, "w", 0, PvmMboxWaitForInfo),
	    0);
	mbox_wait_drop(&mb, A);
	w = TAILQ_FIRST(&mb.waiters);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(w->tid, B);
	ck_assert_int_eq(w->wid, 8);
	ck_assert_ptr_null(TAILQ_NEXT(w, entry));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("daemon-mbox");
	TCase *tc = tcase_create("mbox");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, mbox_default_locked);
	tcase_add_test(tc, mbox_multi_instance);
	tcase_add_test(tc, mbox_overwritable);
	tcase_add_test(tc, mbox_read_and_delete);
	tcase_add_test(tc, mbox_direct_index);
	tcase_add_test(tc, mbox_owner_exit);
	tcase_add_test(tc, mbox_reset_keeps);
	tcase_add_test(tc, mbox_waiters);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
