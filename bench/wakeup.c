/*
 * wakeup: the floors under a one-host collective, measured on this
 * machine (docs/performance-reduce.md, "Floors").  Two processes pass a
 * token back and forth through one shared cache line, N round trips
 * each way of waiting:
 *
 *   spin   the waiter polls the line (pause between looks): the
 *          cache-line transfer, when each process has a CPU of its own
 *   yield  the waiter calls sched_yield between looks: what a waiter
 *          that must not hold its CPU pays (spin.h's yielding spin)
 *   futex  the waiter sleeps in FUTEX_WAIT, the other wakes it: a
 *          sleeping process's wake-up
 *
 * and first, yield1: one sched_yield that finds nothing else to run,
 * the price of each look of a yielding spin (the granularity with which
 * such a spin sees a change, however fast the memory).
 *
 * With -p P, P processes pass the token round a ring instead (P > CPUs:
 * the cost of getting every process scheduled once, as a collective
 * over more tasks than CPUs must).  Prints the median one-way time of
 * each way in us.  Nothing of PVM is used.
 *
 *   wakeup [-n N] [-p P]
 */
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WAY_SPIN 0
#define WAY_YIELD 1
#define WAY_FUTEX 2

struct line {
	_Atomic uint32_t turn; /* whose turn: 0 .. P-1, the round in the
	                          upper bits */
	char pad[60];
};

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Wait until l->turn == want, the given way. */
static void
wait_turn(struct line *l, uint32_t want, int way)
{
	uint32_t v;

	while ((v = atomic_load(&l->turn)) != want) {
		if (way == WAY_SPIN) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		} else if (way == WAY_YIELD) {
			sched_yield();
		} else {
			syscall(SYS_futex, (uint32_t *)&l->turn, FUTEX_WAIT, v,
			    NULL, NULL, 0);
		}
	}
}

/* Hand the token on. */
static void
pass(struct line *l, uint32_t next, int way)
{
	atomic_store(&l->turn, next);
	if (way == WAY_FUTEX) {
		syscall(SYS_futex, (uint32_t *)&l->turn, FUTEX_WAKE, INT_MAX,
		    NULL, NULL, 0);
	}
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Process `me` of p: n rounds of the ring; process 0 notes each round's
 * time in t.  Turn value r * p + k means process k holds the token in
 * round r.
 */
static void
ring(struct line *l, int me, int p, int n, int way, double *t)
{
	double t0 = 0;
	int r;

	for (r = 0; r < n; r++) {
		wait_turn(l, (uint32_t)(r * p + me), way);
		if (me == 0) {
			if (r > 0) {
				t[r - 1] = now_us() - t0;
			}
			t0 = now_us();
		}
		pass(l, (uint32_t)(r * p + me + 1), way);
	}
}

/* The median one-way time of a way, over n rounds of p processes. */
static double
measure(int way, int p, int n)
{
	struct line *l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double *t = malloc(sizeof(double) * (size_t)n), m;
	pid_t kids[256];
	int k;

	if (l == MAP_FAILED || t == NULL) {
		exit(1);
	}
	atomic_store(&l->turn, 0);
	for (k = 1; k < p; k++) {
		if ((kids[k] = fork()) == 0) {
			ring(l, k, p, n, way, NULL);
			_exit(0);
		}
	}
	ring(l, 0, p, n, way, t);
	for (k = 1; k < p; k++) {
		waitpid(kids[k], NULL, 0);
	}
	qsort(t, (size_t)n - 1, sizeof(double), cmp);
	m = t[(n - 1) / 2] / p;
	munmap(l, sizeof(*l));
	free(t);
	return m;
}

/*
 * One sched_yield with nothing else to run on this CPU (an idle
 * machine): what every look of a yielding spin costs even when no other
 * process takes the CPU.  The median of 11 blocks of 10,000 calls, in us.
 */
static double
yield_alone(void)
{
	double t[11], t0;
	int b, i;

	for (b = 0; b < 11; b++) {
		t0 = now_us();
		for (i = 0; i < 10000; i++) {
			sched_yield();
		}
		t[b] = (now_us() - t0) / 10000;
	}
	qsort(t, 11, sizeof(double), cmp);
	return t[5];
}

/* The first three fields of /proc/loadavg, with a newline. */
static const char *
loadavg(void)
{
	static char buf[64];
	FILE *f = fopen("/proc/loadavg", "r");
	double a = 0, b = 0, c = 0;

	if (f != NULL && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) {
		snprintf(buf, sizeof(buf), "%.2f %.2f %.2f\n", a, b, c);
	} else {
		snprintf(buf, sizeof(buf), "?\n");
	}
	if (f != NULL) {
		fclose(f);
	}
	return buf;
}

int
main(int argc, char **argv)
{
	static const char *const names[] = { "spin", "yield", "futex" };
	int n = 20001, p = 2, i, way;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			n = atoi(argv[++i]);
		} else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
			p = atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: wakeup [-n N] [-p P]\n");
			return 1;
		}
	}
	if (n < 3 || p < 2 || p > 256) {
		return 1;
	}
	printf("wakeup: %d processes, %ld CPUs, load %s", p,
	    sysconf(_SC_NPROCESSORS_ONLN), loadavg());
	printf("  %-6s %8.2f us a call, nothing else to run (median of 11 "
	       "blocks)\n",
	    "yield1", yield_alone());
	for (way = 0; way < 3; way++) {
		/* Pure spinning with more processes than CPUs only burns
		 * time slices; skip it. */
		if (way == WAY_SPIN && p > sysconf(_SC_NPROCESSORS_ONLN)) {
			printf("  %-6s  (skipped: more processes than CPUs)\n",
			    names[way]);
			continue;
		}
		printf("  %-6s %8.2f us one way (median of %d rounds)\n",
		    names[way], measure(way, p, way == WAY_SPIN ? n : n / 4),
		    way == WAY_SPIN ? n : n / 4);
	}
	return 0;
}
