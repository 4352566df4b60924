/*
 * ringfloor: the hand-over of a small message between two processes on
 * two CPUs through shared memory, without any library around it.
 *
 * libpvm's rings (common/ring.h) keep the producer's index `tail` on a
 * cache line of its own: a reader spins on `tail`, then reads the
 * frame, so a message crosses two cache lines between the CPUs (the
 * frame's and the index's).  Open MPI's fastboxes put a sequence word
 * in the frame's own line, so a message crosses one.  This program
 * measures both hand-overs, a 40-byte header plus 8 bytes of body
 * bounced between two processes bound to CPUs 0 and 1, so that the
 * closing note of issue 16 can say how much of the one-way time of
 * NetPIPE's 1-byte message is the memory's and how much the library's:
 *
 *   ringfloor [ROUNDTRIPS]     (default 1,000,000; 5 runs of each kind)
 *
 * Output lines: "kind one_way_ns" with the median of the runs, kind
 * "index" (as libpvm's rings) or "inline" (a sequence word in the
 * frame).  The spin between looks is one CPU pause, as libpvm's
 * memory-only spin; nothing yields, so the figures mean something only
 * on an otherwise idle pair of CPUs.
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
#include <time.h>
#include <unistd.h>

#include "stats.h"

#define RF_FRAME 48 /* header and body of an 8-byte message */
/* Bytes of data per ring: whole frames, so none wraps (as in libpvm's
 * rings, a frame may straddle two cache lines). */
#define RF_DATA (RF_FRAME * 1365)
#define RF_RUNS 5

struct rf_ring {
	_Atomic uint64_t tail; /* producer's, its own line */
	char pad0[56];
	_Atomic uint64_t head; /* consumer's, its own line */
	char pad1[56];
	uint8_t data[RF_DATA];
};

static int rf_inline; /* 1: sequence word in the frame */

static void
rf_pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s) != 0)
		perror("ringfloor: sched_setaffinity");
}

static void
rf_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Put one frame carrying v at *tail. */
static void
rf_put(struct rf_ring *r, uint64_t *tail, uint64_t v)
{
	uint8_t frame[RF_FRAME] = {0};
	uint8_t *d = r->data + *tail % RF_DATA;

	memcpy(frame + 40, &v, sizeof(v));
	if (rf_inline) {
		/* Body first, then the word the reader waits on. */
		memcpy(d + 8, frame + 8, RF_FRAME - 8);
		atomic_store_explicit((_Atomic uint64_t *)(void *)d,
		    *tail + RF_FRAME, memory_order_release);
	} else {
		memcpy(d, frame, RF_FRAME);
		atomic_store_explicit(
		    &r->tail, *tail + RF_FRAME, memory_order_release);
	}
	*tail += RF_FRAME;
}

/* Wait for the frame at *head and return what it carries. */
static uint64_t
rf_get(struct rf_ring *r, uint64_t *head)
{
	uint8_t *d = r->data + *head % RF_DATA;
	uint64_t v;

	if (rf_inline) {
		while (atomic_load_explicit((_Atomic uint64_t *)(void *)d,
		           memory_order_acquire) != *head + RF_FRAME)
			rf_pause();
	} else {
		while (atomic_load_explicit(&r->tail, memory_order_acquire) ==
		       *head)
			rf_pause();
	}
	memcpy(&v, d + 40, sizeof(v));
	*head += RF_FRAME;
	atomic_store_explicit(&r->head, *head, memory_order_release);
	return v;
}

/* One run: the one-way time in ns, or -1. */
static double
rf_run(long n)
{
	struct rf_ring *r;
	struct timespec a, b;
	uint64_t tail = 0, head = 0;
	pid_t pid;
	long i;
	int st;

	r = mmap(NULL, 2 * sizeof(*r), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return -1;
	memset(r, 0, 2 * sizeof(*r));
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		rf_pin(1);
		for (i = 0; i < n; i++)
			rf_put(&r[1], &tail, rf_get(&r[0], &head) + 1);
		_exit(0);
	}
	rf_pin(0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		rf_put(&r[0], &tail, (uint64_t)i);
		if (rf_get(&r[1], &head) != (uint64_t)i + 1)
			fprintf(stderr, "ringfloor: wrong value\n");
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	waitpid(pid, &st, 0);
	munmap(r, 2 * sizeof(*r));
	return ((double)(b.tv_sec - a.tv_sec) * 1e9 +
	           (double)(b.tv_nsec - a.tv_nsec)) /
	       (double)n / 2;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	double t[RF_RUNS];
	int k, i;

	if (n < 1) {
		fprintf(stderr, "usage: ringfloor [ROUNDTRIPS]\n");
		return 2;
	}
	for (k = 0; k < 2; k++) {
		rf_inline = k;
		for (i = 0; i < RF_RUNS; i++)
			t[i] = rf_run(n);
		printf("%s %.1f\n", k ? "inline" : "index", median(t, RF_RUNS));
	}
	return 0;
}
