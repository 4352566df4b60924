/*
 * pecheck.h: checks for SHMEM test programs, where every PE checks and
 * only one line per group of checks should reach the log.
 *
 * Each PE counts its own failures and prints a "FAIL: PE n: ..." line for
 * the first few.  pc_group() then adds every PE's count into PE 0 (an
 * atomic add) and, after a barrier, PE 0 prints one "PASS: what" or
 * "FAIL: what" line for the whole job; lib.sh's run_checks counts those.
 * Header-only, so each test program stays one .c file.
 */
#ifndef PECHECK_H
#define PECHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shmem.h"

#define PC_UNUSED __attribute__((unused))
#define PC_MAX_FAIL_LINES 10 /* per PE and group: enough to debug */

static int pc_group_fails; /* this PE's failures in this group */
static int pc_group_lines; /* FAIL lines printed in this group */
static int pc_total_fails; /* this PE's failures in the whole run */
static int pc_job_fails;   /* symmetric: the sum, kept on PE 0 */
static int pc_groups, pc_failed_groups;

/* Start the PE: init, line-buffered stdout. */
static PC_UNUSED void
pc_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	shmem_init();
}

/* One failure of this PE, with a line for the first few. */
static PC_UNUSED __attribute__((format(printf, 1, 2))) void
pc_fail(const char *fmt, ...)
{
	va_list ap;
	char line[512];

	pc_group_fails++;
	pc_total_fails++;
	if (pc_group_lines++ >= PC_MAX_FAIL_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	printf("FAIL: PE %d: %s\n", shmem_my_pe(), line);
}

/* A condition that must hold on this PE. */
#define PC_EXPECT(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond))                                                   \
			pc_fail(__VA_ARGS__);                                  \
	} while (0)

/* Integer equality on this PE, naming both values when they differ. */
static PC_UNUSED __attribute__((format(printf, 3, 4))) void
pc_eq(long got, long want, const char *fmt, ...)
{
	va_list ap;
	char what[400];

	if (got == want)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pc_fail("%s: got %ld, want %ld", what, got, want);
}

/*
 * End a group of checks: a collective over all PEs.  PE 0 prints one
 * line for the job; every PE returns the job's failure count.
 */
static PC_UNUSED __attribute__((format(printf, 1, 2))) int
pc_group(const char *fmt, ...)
{
	static int result; /* symmetric: PE 0 hands the sum out */
	va_list ap;
	char what[400];
	int n;

	shmem_barrier_all(); /* pc_job_fails is read below: all cleared */
	if (pc_group_fails > 0)
		shmem_int_atomic_add(&pc_job_fails, pc_group_fails, 0);
	shmem_barrier_all();
	if (shmem_my_pe() == 0) {
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		if (pc_job_fails == 0)
			printf("PASS: %s\n", what);
		else
			printf("FAIL: %s (%d failures over all PEs)\n", what,
			    pc_job_fails);
		result = pc_job_fails;
		pc_job_fails = 0;
	}
	shmem_barrier_all();
	n = shmem_int_g(&result, 0);
	pc_groups++;
	pc_failed_groups += n > 0;
	pc_group_fails = 0;
	pc_group_lines = 0;
	shmem_barrier_all(); /* nobody reads result after this */
	return n;
}

/* Finalize; the exit status is 0 only if this PE saw no failure. */
static PC_UNUSED int
pc_done(void)
{
	if (shmem_my_pe() == 0)
		printf("(%d groups of checks, %d failed)\n", pc_groups,
		    pc_failed_groups);
	shmem_finalize();
	return pc_total_fails == 0 && pc_failed_groups == 0 ? 0 : 1;
}

/* Monotonic time in seconds. */
static PC_UNUSED double
pc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif /* PECHECK_H */
