/*
 * copyfloor: what one copy and two copies of a large body cost on this
 * machine, without any message passing around them.
 *
 * A receiver that takes a body straight into the program's array with
 * process_vm_readv(2) copies once (Open MPI's vader does so for large
 * messages).  libpvm copies the body into the received message with
 * process_vm_readv and the program's pvm_upk* call copies it again into
 * its array: pvm_recv must hand back a whole message before the program
 * says where it wants the bytes (docs/performance.md, "large messages,
 * the two-copy floor").  This program measures both on the same
 * buffers, so the ratio is the best the two-copy path can reach against
 * the one-copy path at each size:
 *
 *   copyfloor [REPS]        (default 20 repetitions per size)
 *
 * The child reads the parent's buffer (the sender's memory, 4 KiB pages
 * as a program's malloc gives) into a staging buffer advised for huge
 * pages (as lpvm_data_alloc does) and, for the second figure, copies the
 * staging buffer into a third one (the program's array).  Every figure is
 * the median over REPS of the time of one transfer, as MB/s (10^6 bytes
 * per second).  Output lines: "size cma_MBps cma_memcpy_MBps ratio".
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats.h"

#define MAX_REPS 1000

/* One transfer of n bytes from the parent at src into stage (and, if
 * target is not NULL, on into target).  Time in us, or -1. */
static double
transfer(pid_t parent, const void *src, uint8_t *stage, uint8_t *target,
    size_t n)
{
	struct iovec local = {stage, n};
	struct iovec remote = {(void *)src, n};
	double t0 = now_us();

	if (process_vm_readv(parent, &local, 1, &remote, 1, 0) != (ssize_t)n)
		return -1;
	if (target != NULL)
		memcpy(target, stage, n);
	return now_us() - t0;
}

/* Measure every size against the parent's buffer src.  0 or 1. */
static int
measure(pid_t parent, const uint8_t *src, size_t max, int reps)
{
	static const size_t sizes[] = {65536, 1 << 20, 4 << 20, 16 << 20};
	double one[MAX_REPS], two[MAX_REPS], m1, m2;
	uint8_t *stage, *target;
	size_t i;
	int r;

	stage = aligned_alloc(2 << 20, max);
	target = malloc(max);
	if (stage == NULL || target == NULL)
		return 1;
	(void)madvise(stage, max, MADV_HUGEPAGE);
	memset(stage, 0, max);
	memset(target, 0, max);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (r = -2; r < reps; r++) { /* two warm-ups */
			double a = transfer(parent, src, stage, NULL, sizes[i]);
			double b = transfer(parent, src, stage, target, sizes[i]);

			if (a < 0 || b < 0) {
				perror("copyfloor: process_vm_readv");
				return 1;
			}
			if (r >= 0) {
				one[r] = a;
				two[r] = b;
			}
		}
		if (memcmp(target, src, sizes[i]) != 0) {
			fprintf(stderr, "copyfloor: the copy differs\n");
			return 1;
		}
		m1 = median(one, reps);
		m2 = median(two, reps);
		printf("%zu %.0f %.0f %.2f\n", sizes[i], sizes[i] / m1,
		    sizes[i] / m2, m1 / m2);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	size_t max = 16 << 20, i;
	int reps = argc > 1 ? atoi(argv[1]) : 20, status;
	uint8_t *src;
	pid_t parent = getpid(), child;

	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "usage: copyfloor [REPS 1-%d]\n", MAX_REPS);
		return 2;
	}
	if ((src = malloc(max)) == NULL)
		return 1;
	for (i = 0; i < max; i++)
		src[i] = (uint8_t)(i * 131 + 7);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		status = measure(parent, src, max, reps);
		fflush(stdout);
		_exit(status);
	}
	/* The child reads our pages while we wait for it. */
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}
