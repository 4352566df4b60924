/*
 * check_gseg.c: the shared-memory barrier segment (libgpvm/gseg.c):
 * counting and release, count -1, PvmMismatch and the other refusals,
 * withdrawal and failure when a member leaves or dies, and real
 * processes meeting at a few hundred barriers through the futex.
 */
#include <check.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvm3.h"
#include "gseg.h"

#include "unit_main.h"

static struct gseg *seg;
static char dir[] = "/tmp/check_gseg.XXXXXX";
static char path[256];

/* A segment as pvmgs makes it, in a private directory. */
static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(gseg_path(dir, 0x1234, path, sizeof(path)), 0);
	seg = gseg_create(path);
	ck_assert_ptr_nonnull(seg);
}

static void
teardown(void)
{
	gseg_unmap(seg);
	unlink(path);
	rmdir(dir);
	strcpy(dir, "/tmp/check_gseg.XXXXXX");
}

START_TEST(file_map_and_refuse)
{
	struct gseg *m;
	char bad[300];
	FILE *f;

	ck_assert_ptr_nonnull(strstr(path, "/g00001234"));
	gseg_publish(seg, 3, GS_DYNAMIC, 7);
	m = gseg_map(path);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(atomic_load(&m->nmembers), 3);
	ck_assert_uint_eq(atomic_load(&m->version), 7);
	gseg_unmap(m);
	/* Missing file, wrong size: refused. */
	snprintf(bad, sizeof(bad), "%s/nosuch", dir);
	ck_assert_ptr_null(gseg_map(bad));
	snprintf(bad, sizeof(bad), "%s/short", dir);
	f = fopen(bad, "w");
	fputs("not a segment", f);
	fclose(f);
	ck_assert_ptr_null(gseg_map(bad));
	unlink(bad);
}
END_TEST

/* The VmFlags of the mapping that starts at p (/proc/self/smaps), or "". */
static const char *
vmflags_of(const void *p)
{
	static char flags[512];
	char line[512];
	unsigned long start, end, want = (unsigned long)p;
	int here = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	flags[0] = '\0';
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			here = start == want;
		} else if (here && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(flags, sizeof(flags), "%s", line + 8);
			break;
		}
	}
	if (f != NULL) {
		fclose(f);
	}
	return flags;
}

/* Both mappings ask for no readahead ("rr", MADV_RANDOM): on a disk file
 * system every fault would read ahead, and pvm_lvgroup took 100 ms. */
START_TEST(mapped_without_readahead)
{
	struct gseg *m = gseg_map(path);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(strstr(vmflags_of(seg), " rr"));
	ck_assert_ptr_nonnull(strstr(vmflags_of(m), " rr"));
	gseg_unmap(m);
}
END_TEST

START_TEST(count_and_release)
{
	uint32_t g0, g1, g2;

	gseg_publish(seg, 3, GS_DYNAMIC, 1);
	ck_assert_int_eq(gseg_arrive(seg, 0, 3, &g0), 0);
	ck_assert_int_eq(gseg_ended(seg, 0, g0), 0);
	ck_assert_int_eq(gseg_arrive(seg, 2, 3, &g1), 0);
	ck_assert_uint_eq(g0, g1);
	ck_assert_int_eq(gseg_arrive(seg, 1, 3, &g2), 1);
	ck_assert_int_eq(gseg_ended(seg, 0, g0), 1);
	ck_assert_int_eq(gseg_ended(seg, 2, g0), 1);
	/* The next generation starts empty, and count 1 passes alone. */
	ck_assert_int_eq(gseg_arrive(seg, 0, 1, &g1), 1);
	ck_assert_uint_eq(g1, g0 + 1);
	ck_assert_int_eq(GSEG_COUNT(atomic_load(&seg->sync)), 0);
}
END_TEST

START_TEST(minus_one_and_refusals)
{
	uint32_t g;

	gseg_publish(seg, 2, GS_DYNAMIC, 1);
	ck_assert_int_eq(gseg_arrive(seg, 0, -1, &g), 0);
	/* Fixed at 2: another count is a mismatch and is not counted. */
	ck_assert_int_eq(gseg_arrive(seg, 1, 3, &g), PvmMismatch);
	ck_assert_int_eq(GSEG_ARRIVED(atomic_load(&seg->sync)), 1);
	ck_assert_int_eq(gseg_arrive(seg, 1, 2, &g), 1);
	ck_assert_int_eq(gseg_arrive(seg, 0, GSEG_SLOTS + 1, &g), PvmBadParam);
	ck_assert_int_eq(gseg_arrive(seg, -1, 2, &g), PvmNoInst);
	ck_assert_int_eq(gseg_arrive(seg, GSEG_SLOTS, 2, &g), PvmNoInst);
	gseg_publish(seg, 1, GS_DEAD, 2);
	ck_assert_int_eq(gseg_arrive(seg, 0, 1, &g), PvmNoGroup);
}
END_TEST

START_TEST(gone_withdraws)
{
	uint32_t g, g2;

	gseg_publish(seg, 4, GS_DYNAMIC, 1);
	ck_assert_int_eq(gseg_arrive(seg, 0, 3, &g), 0);
	ck_assert_int_eq(gseg_arrive(seg, 1, 3, &g), 0);
	/* Instance 1 dies: still 3 members for a count of 3, so it is only
	 * withdrawn; instance 0 keeps waiting. */
	gseg_publish(seg, 3, GS_DYNAMIC, 2);
	ck_assert_int_eq(gseg_member_gone(seg, 1, 4), 0);
	ck_assert_int_eq(GSEG_ARRIVED(atomic_load(&seg->sync)), 1);
	ck_assert_int_eq(gseg_ended(seg, 0, g), 0);
	ck_assert_int_eq(gseg_arrive(seg, 2, 3, &g2), 0);
	ck_assert_int_eq(gseg_arrive(seg, 3, 3, &g2), 1);
	ck_assert_int_eq(gseg_ended(seg, 0, g), 1);
	/* A lone arrival withdrawn ends the count: a new one may differ. */
	ck_assert_int_eq(gseg_arrive(seg, 0, 2, &g), 0);
	ck_assert_int_eq(gseg_member_gone(seg, 0, 4), 0);
	ck_assert_int_eq(GSEG_COUNT(atomic_load(&seg->sync)), 0);
	ck_assert_int_eq(gseg_arrive(seg, 2, 3, &g), 0);
}
END_TEST

START_TEST(gone_fails_waiters)
{
	uint32_t g;

	gseg_publish(seg, 4, GS_DYNAMIC, 1);
	ck_assert_int_eq(gseg_arrive(seg, 0, -1, &g), 0);
	ck_assert_int_eq(gseg_arrive(seg, 2, -1, &g), 0);
	/* A member that had not arrived dies: 3 left for a count of 4. */
	gseg_publish(seg, 3, GS_DYNAMIC, 2);
	ck_assert_int_eq(gseg_member_gone(seg, 3, 4), 2);
	ck_assert_int_eq(gseg_ended(seg, 0, g), PvmNoTask);
	ck_assert_int_eq(gseg_ended(seg, 2, g), PvmNoTask);
	/* The next barrier is clean. */
	ck_assert_int_eq(gseg_arrive(seg, 0, -1, &g), 0);
	ck_assert_int_eq(gseg_arrive(seg, 1, -1, &g), 0);
	ck_assert_int_eq(gseg_arrive(seg, 2, -1, &g), 1);
	ck_assert_int_eq(gseg_ended(seg, 0, g), 1);
	/* Nothing in progress: a departure changes nothing. */
	gseg_publish(seg, 2, GS_DYNAMIC, 3);
	ck_assert_int_eq(gseg_member_gone(seg, 1, 3), 0);
	ck_assert_int_eq(GSEG_COUNT(atomic_load(&seg->sync)), 0);
}
END_TEST

START_TEST(gone_waiter_and_dead_group)
{
	uint32_t g;

	/* A waiter that dies is not among those failed. */
	gseg_publish(seg, 3, GS_FROZEN, 1);
	ck_assert_int_eq(gseg_arrive(seg, 0, -1, &g), 0);
	ck_assert_int_eq(gseg_arrive(seg, 1, -1, &g), 0);
	/* A frozen group that loses a member is dead: PvmNoGroup. */
	gseg_publish(seg, 2, GS_DEAD, 2);
	ck_assert_int_eq(gseg_member_gone(seg, 1, 3), 1);
	ck_assert_int_eq(gseg_ended(seg, 0, g), PvmNoGroup);
	ck_assert_int_eq(gseg_arrive(seg, 0, -1, &g), PvmNoGroup);
}
END_TEST

/*
 * Processes meeting at barriers: nobody may pass before all arrived.  The
 * last arrival wakes only when someone sleeps (gseg.h): a lost wake-up
 * would leave a sleeper there for SLEEP_MS, past the children's alarm,
 * so it fails the test instead of slowing it down.
 */
#define NPROC 6
#define ROUNDS 300
#define SLEEP_MS 120000 /* > the alarm */

static int
child(struct gseg *s, _Atomic int *cnt, int inst)
{
	uint32_t gen;
	int k, cc;

	for (k = 0; k < ROUNDS; k++) {
		atomic_fetch_add(&cnt[k], 1);
		if ((cc = gseg_arrive(s, inst, -1, &gen)) < 0) {
			return 2;
		}
		while (cc == 0 && (cc = gseg_ended(s, inst, gen)) == 0) {
			gseg_sleep(s, gen, SLEEP_MS);
		}
		if (cc != 1 || atomic_load(&cnt[k]) != NPROC) {
			return 1;
		}
	}
	return 0;
}

START_TEST(processes_meet)
{
	_Atomic int *cnt;
	pid_t pid[NPROC];
	int i, st, bad = 0;

	cnt = mmap(NULL, ROUNDS * sizeof(*cnt), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(cnt, MAP_FAILED);
	gseg_publish(seg, NPROC, GS_DYNAMIC, 1);
	for (i = 0; i < NPROC; i++) {
		if ((pid[i] = fork()) == 0) {
			alarm(60);
			_exit(child(seg, cnt, i));
		}
		ck_assert_int_gt(pid[i], 0);
	}
	for (i = 0; i < NPROC; i++) {
		ck_assert_int_eq(waitpid(pid[i], &st, 0), pid[i]);
		bad += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(GSEG_GEN(atomic_load(&seg->sync)), 1 + ROUNDS);
	ck_assert_uint_eq(atomic_load(&seg->sleepers), 0);
	munmap(cnt, ROUNDS * sizeof(*cnt));
}
END_TEST

static Suite *
gseg_suite(void)
{
	Suite *s = suite_create("gseg");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, file_map_and_refuse);
	tcase_add_test(tc, mapped_without_readahead);
	tcase_add_test(tc, count_and_release);
	tcase_add_test(tc, minus_one_and_refusals);
	tcase_add_test(tc, gone_withdraws);
	tcase_add_test(tc, gone_fails_waiters);
	tcase_add_test(tc, gone_waiter_and_dead_group);
	tcase_add_test(tc, processes_meet);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(gseg_suite());
}
