/*
 * check_spin.c: the adaptive spin budget of common/spin.h: full after a
 * hit, halved by each miss down to blocking at once, and one full probe
 * spin every SPIN_PROBE_EVERY waits once it is at zero, and in the
 * shared window on the clock if the budget has one; and spin_wait,
 * which spends it.
 */
#include <check.h>

#include "spin.h"
#include "unit_main.h"

START_TEST(test_hits_keep_the_budget)
{
	struct spin_budget b = SPIN_BUDGET_INIT(20);
	int i;

	for (i = 0; i < 100; i++) {
		ck_assert_int_eq(spin_budget_next(&b), 20);
		spin_budget_update(&b, 1);
	}
}
END_TEST

START_TEST(test_misses_halve_to_zero)
{
	struct spin_budget b = SPIN_BUDGET_INIT(20);
	const int want[] = {20, 10, 5, 2, 1};
	int i;

	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(spin_budget_next(&b), want[i]);
		spin_budget_update(&b, 0);
	}
	ck_assert_int_eq(spin_budget_next(&b), 0);
}
END_TEST

START_TEST(test_probe_and_recover)
{
	struct spin_budget b = SPIN_BUDGET_INIT(20);
	int i, spins = 0;

	while (spin_budget_next(&b) > 0) {
		spin_budget_update(&b, 0);
	}
	/* One wait has blocked; one full probe in every SPIN_PROBE_EVERY. */
	for (i = 1; i < 10 * SPIN_PROBE_EVERY; i++) {
		if (spin_budget_next(&b) > 0) {
			spins++;
			spin_budget_update(&b, 0);
			while (spin_budget_next(&b) > 0) {
				spin_budget_update(&b, 0);
			}
		}
	}
	ck_assert_int_ge(spins, 8);
	ck_assert_int_le(spins, 10);
	/* A probe that hits restores the full budget. */
	for (i = 0; i < SPIN_PROBE_EVERY && spin_budget_next(&b) == 0; i++) {
	}
	spin_budget_update(&b, 1);
	ck_assert_int_eq(spin_budget_next(&b), 20);
}
END_TEST

START_TEST(test_window_open)
{
	long long base = 1000LL * SPIN_PERIOD_US, t;
	int open = 0;

	ck_assert(spin_window_open(base));
	ck_assert(spin_window_open(base + SPIN_WINDOW_US - 1));
	ck_assert(!spin_window_open(base + SPIN_WINDOW_US));
	ck_assert(!spin_window_open(base + SPIN_PERIOD_US - 1));
	ck_assert(spin_window_open(base + SPIN_PERIOD_US));
	for (t = base; t < base + SPIN_PERIOD_US; t++) {
		open += spin_window_open(t);
	}
	ck_assert_int_eq(open, SPIN_WINDOW_US);
}
END_TEST

/* At zero, a windowed budget spins in full in the window, else not;
 * a budget without the window never does; the probe count goes on. */
START_TEST(test_window_budget)
{
	struct spin_budget w = SPIN_BUDGET_INIT(20), p = SPIN_BUDGET_INIT(20);
	long long in = 7LL * SPIN_PERIOD_US + 1, out = in + SPIN_WINDOW_US;

	w.window = 1;
	w.us = p.us = 0;
	ck_assert_int_eq(spin_budget_at(&w, out), 0);
	ck_assert_int_eq(spin_budget_at(&w, in), 20);
	ck_assert_int_eq(spin_budget_at(&p, in), 0);
	ck_assert_int_eq(spin_budget_at(&p, out), 0);
	ck_assert_uint_eq(w.idle, 2);
	/* A windowed spin that hits restores the budget for every wait. */
	spin_budget_update(&w, 1);
	ck_assert_int_eq(spin_budget_at(&w, out), 20);
	/* One that misses leaves it at zero. */
	w.us = 0;
	spin_budget_update(&w, 0);
	ck_assert_int_eq(spin_budget_at(&w, out), 0);
}
END_TEST

/* A look that succeeds at its n-th call (never if n is 0). */
static int
look_at(void *arg)
{
	int *n = arg;

	return *n > 0 && --*n == 0;
}

/*
 * The budget of test_spin_wait, us.  Its hit needs three looks, with a
 * sched_yield between two: long enough that a loaded machine does not
 * run out the time first (2 ms did once, under the sanitizers, in CI).
 */
#define WAIT_US 500000

START_TEST(test_spin_wait)
{
	struct spin_budget b = SPIN_BUDGET_INIT(WAIT_US);
	int n = 3;

	/* Hit: returns the look's result and keeps the full budget. */
	ck_assert_int_eq(spin_wait(&b, look_at, &n), 1);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(spin_budget_next(&b), WAIT_US);
	/* Miss: looks until the time is out, then halves the budget. */
	ck_assert_int_eq(spin_wait(&b, look_at, &n), 0);
	ck_assert_int_eq(spin_budget_next(&b), WAIT_US / 2);
	/* A budget at zero: no look at all. */
	b.us = 0;
	n = 1;
	ck_assert_int_eq(spin_wait(&b, look_at, &n), 0);
	ck_assert_int_eq(n, 1);
}
END_TEST

static Suite *
spin_suite(void)
{
	Suite *s = suite_create("spin");
	TCase *tc = tcase_create("budget");

	tcase_add_test(tc, test_hits_keep_the_budget);
	tcase_add_test(tc, test_misses_halve_to_zero);
	tcase_add_test(tc, test_probe_and_recover);
	tcase_add_test(tc, test_spin_wait);
	tcase_add_test(tc, test_window_open);
	tcase_add_test(tc, test_window_budget);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(spin_suite());
}
