/*
 * bcastfloor: a barrier and a one-word broadcast between N processes
 * through shared memory, without any library around them, timed as
 * bench/reduce.c times pvm_bcast: from the first process's release by
 * the barrier until the last receiver has the word.
 *
 * With more processes than CPUs (4 on this project's 2-vCPU machines)
 * that time is mostly the scheduler's: a receiver sees the word only
 * once it gets a turn.  This program gives the floor of a design under
 * the closing notes of issue 12, and lets the wait policies be compared
 * alone:
 *
 *   bcastfloor [-n N] [-r REPS] [-w yield|hot|pause]
 *
 *   yield  every look at memory is followed by sched_yield (libgpvm's
 *          barrier and libpvm's receive wait when the tasks outnumber
 *          the CPUs; Open MPI's progress loop when oversubscribed)
 *   hot    the broadcast's receivers first look for up to 10 us with a
 *          CPU pause and no system call, then as yield (libpvm's
 *          pvm_recv spins so on a 2-CPU host whatever the task count)
 *   pause  a pause between looks, never a system call (a CPU each)
 *
 * The barrier is one counter and a generation word (as libgpvm's
 * segment barrier); the word and its sequence number share one cache
 * line.  Default N 4, REPS 20,000 after REPS / 10 warm-up rounds.  One
 * output line: "bcastfloor N WAIT median p10 p90 skew" in us, skew the
 * median release skew of the barrier (last minus first release), as in
 * reduce's last column.  Nothing is bound to a CPU.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats.h"

#define BF_MAXN 64
#define BF_HOT_US 10.0

enum bf_wait { BF_YIELD, BF_HOT, BF_PAUSE };
static const char *bf_wait_names[] = {"yield", "hot", "pause"};

struct bf_shared {
	_Atomic uint32_t arrived; /* the barrier's count, its own line */
	char pad0[60];
	_Atomic uint32_t gen; /* the barrier's generation, its own line */
	char pad1[60];
	_Atomic uint64_t seq; /* the broadcast: sequence and word, */
	double word;          /* one line */
	char pad2[48];
};

static enum bf_wait bf_wait = BF_YIELD;
static int bf_n = 4;

static void
bf_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Between two looks of a wait that may not hold the CPU (hot: only
 * once its 10 us from t0 are over). */
static void
bf_between(int hot, double t0)
{
	if (bf_wait == BF_PAUSE || (hot && now_us() - t0 < BF_HOT_US))
		bf_relax();
	else
		sched_yield();
}

static void
bf_barrier(struct bf_shared *s)
{
	uint32_t gen = atomic_load(&s->gen);

	if (atomic_fetch_add(&s->arrived, 1) + 1 == (uint32_t)bf_n) {
		atomic_store(&s->arrived, 0);
		atomic_store(&s->gen, gen + 1);
		return;
	}
	while (atomic_load(&s->gen) == gen)
		bf_between(0, 0);
}

static double
bf_receive(struct bf_shared *s, uint64_t seq)
{
	double t0 = now_us();
	int hot = bf_wait == BF_HOT;

	while (atomic_load_explicit(&s->seq, memory_order_acquire) != seq)
		bf_between(hot, t0);
	return s->word;
}

/* Member `me`'s rounds; rel and got are its rows of stamps. */
static void
bf_member(struct bf_shared *s, int me, int reps, double *rel, double *got)
{
	volatile double sink = 0;
	int i;

	for (i = 0; i < reps; i++) {
		bf_barrier(s);
		rel[i] = now_us();
		if (me == 0) {
			s->word = i;
			atomic_store_explicit(
			    &s->seq, (uint64_t)i + 1, memory_order_release);
		} else
			sink = bf_receive(s, (uint64_t)i + 1);
		got[i] = now_us();
	}
	(void)sink;
}

/* The wait policy called name (bf_wait_names), or -1. */
static int
bf_wait_named(const char *name)
{
	int w;

	for (w = BF_YIELD; w <= BF_PAUSE; w++)
		if (strcmp(name, bf_wait_names[w]) == 0)
			return w;
	return -1;
}

static int
bf_options(int argc, char **argv, int *reps)
{
	int i, w;

	for (i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "-n") == 0)
			bf_n = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "-r") == 0)
			*reps = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "-w") == 0 &&
		         (w = bf_wait_named(argv[i + 1])) >= 0)
			bf_wait = (enum bf_wait)w;
		else
			return -1;
	}
	if (i != argc || bf_n < 2 || bf_n > BF_MAXN || *reps < 1)
		return -1;
	return 0;
}

/* Median of the rounds' times (first release to last receipt), and of
 * their release skews in *skew; p10 and p90 are left the times'. */
static double
bf_figures(
    const double *rel, const double *got, int reps, int skip, double *skew)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	double *k = malloc(sizeof(double) * (size_t)reps), first, last, done;
	double m;
	int i, p;

	if (t == NULL || k == NULL)
		exit(1);
	for (i = 0; i < reps; i++) {
		first = last = rel[skip + i];
		done = 0;
		for (p = 0; p < bf_n; p++) {
			const double *r = rel + (size_t)p * (reps + skip);
			const double *g = got + (size_t)p * (reps + skip);

			first = r[skip + i] < first ? r[skip + i] : first;
			last = r[skip + i] > last ? r[skip + i] : last;
			if (p > 0 && g[skip + i] > done)
				done = g[skip + i];
		}
		t[i] = done - first;
		k[i] = last - first;
	}
	*skew = median(k, reps);
	m = median(t, reps);
	free(t);
	free(k);
	return m;
}

int
main(int argc, char **argv)
{
	int reps = 20000, skip, total, p;
	struct bf_shared *s;
	double *rel, *got, m, skew;
	size_t stamps;

	if (bf_options(argc, argv, &reps) < 0) {
		fprintf(stderr, "usage: bcastfloor [-n N] [-r REPS] "
		                "[-w yield|hot|pause]\n");
		return 2;
	}
	skip = reps / 10;
	total = reps + skip;
	stamps = sizeof(double) * (size_t)bf_n * (size_t)total;
	s = mmap(NULL, sizeof(*s) + 2 * stamps, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED) {
		perror("bcastfloor: mmap");
		return 1;
	}
	rel = (double *)(void *)(s + 1);
	got = rel + (size_t)bf_n * total;
	for (p = 1; p < bf_n; p++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("bcastfloor: fork");
			return 1;
		}
		if (pid == 0) {
			bf_member(s, p, total, rel + (size_t)p * total,
			    got + (size_t)p * total);
			_exit(0);
		}
	}
	bf_member(s, 0, total, rel, got);
	while (wait(NULL) > 0)
		;
	m = bf_figures(rel, got, reps, skip, &skew);
	printf("bcastfloor %d %s %.2f %.2f %.2f %.2f\n", bf_n,
	    bf_wait_names[bf_wait], m, p10, p90, skew);
	return 0;
}
