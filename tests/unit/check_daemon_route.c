/*
 * check_daemon_route.c: the pvmd routing decision for every kind of
 * destination, seen from host 1 and from another host index.
 */
#include <check.h>
#include <stdlib.h>

#include "pvmd.h"

#include "unit_main.h"

#define ME 1

START_TEST(route_local_task)
{
	int host = -1;

	ck_assert_int_eq(route_decide(0x40001, 0x40002, ME, &host), ROUTE_TASK);
	ck_assert_int_eq(host, 0);
	ck_assert_int_eq(route_decide(tid_make(ME, TID_LOCAL_MAX), 0x40002,
	    ME, &host), ROUTE_TASK);
	/* to yourself */
	ck_assert_int_eq(route_decide(0x40002, 0x40002, ME, &host), ROUTE_TASK);
}
END_TEST

START_TEST(route_this_pvmd)
{
	int host = -1;

	ck_assert_int_eq(route_decide(TID_LOCAL_PVMD, 0x40001, ME, &host),
	    ROUTE_PVMD);
	ck_assert_int_eq(route_decide(tid_pvmd(ME), 0x40001, ME, &host),
	    ROUTE_PVMD);
	ck_assert_int_eq((unsigned)tid_pvmd(ME), 0x80040000u);
	/* before the handshake the source is 0 */
	ck_assert_int_eq(route_decide(TID_LOCAL_PVMD, 0, ME, &host),
	    ROUTE_PVMD);
}
END_TEST

START_TEST(route_peer)
{
	int host = -1;

	ck_assert_int_eq(route_decide(tid_make(2, 5), 0x40001, ME, &host),
	    ROUTE_PEER);
	ck_assert_int_eq(host, 2);
	ck_assert_int_eq(route_decide(tid_pvmd(7), 0x40001, ME, &host),
	    ROUTE_PEER);
	ck_assert_int_eq(host, 7);
	ck_assert_int_eq(route_decide(tid_make(TID_HOST_MAX, 1), 0x40001, ME,
	    &host), ROUTE_PEER);
	ck_assert_int_eq(host, TID_HOST_MAX);
	/* seen from host 2, host 1's tasks are peers and its own are local */
	ck_assert_int_eq(route_decide(0x40001, 0x80001, 2, &host), ROUTE_PEER);
	ck_assert_int_eq(host, 1);
	ck_assert_int_eq(route_decide(0x80001, 0x40001, 2, &host), ROUTE_TASK);
	ck_assert_int_eq(route_decide(tid_pvmd(2), 0x40001, 2, &host),
	    ROUTE_PVMD);
}
END_TEST

START_TEST(route_mcast)
{
	int host = -1;
	int me = 0x40003;

	ck_assert_int_eq(route_decide((int)(TID_MCAST_BIT | (unsigned)me), me,
	    ME, &host), ROUTE_MCAST);
	/* someone else's multicast address */
	ck_assert_int_eq(route_decide((int)(TID_MCAST_BIT | 0x40004u), me, ME,
	    &host), ROUTE_DROP);
	/* multicast from a sender that is not a task */
	ck_assert_int_eq(route_decide((int)TID_MCAST_BIT, 0, ME, &host),
	    ROUTE_DROP);
	/* both S and G bits */
	ck_assert_int_eq(route_decide((int)(TID_MCAST_BIT | TID_PVMD_BIT |
	    (unsigned)me), me, ME, &host), ROUTE_DROP);
}
END_TEST

START_TEST(route_drop)
{
	int host = -1;

	ck_assert_int_eq(route_decide(0, 0x40001, ME, &host), ROUTE_DROP);
	/* host part only (hi_tid): not an address */
	ck_assert_int_eq(route_decide(0x40000, 0x40001, ME, &host), ROUTE_DROP);
	/* host 0 task */
	ck_assert_int_eq(route_decide(0x1, 0x40001, ME, &host), ROUTE_DROP);
	/* pvmd bit with a local part */
	ck_assert_int_eq(route_decide((int)(TID_PVMD_BIT | 0x40001u), 0x40001,
	    ME, &host), ROUTE_DROP);
	ck_assert_int_eq(route_decide(-1, 0x40001, ME, &host), ROUTE_DROP);
}
END_TEST

START_TEST(route_names)
{
	ck_assert_str_eq(route_kind_str(ROUTE_TASK), "task");
	ck_assert_str_eq(route_kind_str(ROUTE_MCAST), "mcast");
	ck_assert_str_eq(route_kind_str(ROUTE_DROP), "drop");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("daemon-route");
	TCase *tc = tcase_create("decide");

	tcase_add_test(tc, route_local_task);
	tcase_add_test(tc, route_this_pvmd);
	tcase_add_test(tc, route_peer);
	tcase_add_test(tc, route_mcast);
	tcase_add_test(tc, route_drop);
	tcase_add_test(tc, route_names);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
