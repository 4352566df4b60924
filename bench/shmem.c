/*
 * shmem: per-call times of a few OpenSHMEM calls.  One source, built
 * with our oshcc (include/shmem.h, libpvmshmem) and with Open MPI's;
 * bench/run-shmem.sh runs both, one after the other, case by case.
 *
 *   shmem -k reduce -c COUNT [-r REPS]  shmem_double_sum_to_all of COUNT
 *   shmem -k barrier [-r REPS]          shmem_barrier_all, back to back
 *   shmem -k lat [-r REPS]              8-byte shmem_putmem + shmem_quiet
 *   shmem -k bw [-r REPS]               1 MiB shmem_putmem + shmem_quiet
 *
 * reduce: every repetition is shmem_barrier_all, then the timed call on
 * the whole job, with pSync and pWrk alternating between two sets (the
 * documented way to call back to back).  Every PE notes when the barrier
 * released it and when its call returned; after the loop PE 0 reads the
 * stamps (all PEs share CLOCK_MONOTONIC: one host).  The time of call i
 * is the last return minus the first release: from the moment the first
 * PE may start until every PE holds the result.  Every PE checks every
 * result (PE p gives p + 1 + i % 7 in element i, exact in doubles).
 * barrier: PE 0's time per call of back-to-back shmem_barrier_all.
 * lat and bw: PE 0 puts to PE 1 (the others wait); one sample is a batch
 * of puts, each followed by shmem_quiet, divided by the batch.
 *
 * Output, one line from PE 0: "KIND NPES COUNT MEDIAN P10 P90 EXTRA":
 * us per call (bw: MB/s, 1 MB = 1e6 bytes); EXTRA is, for reduce, the
 * median release skew of the barrier before the call (part of the
 * figure), else the repetitions.  A wrong result prints "bad" and every
 * PE that saw it exits with status 2.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"

#define MAX_REPS 100000
#define LAT_BATCH 200
#define BW_BYTES (1 << 20)
#define BW_BATCH 4

static long psync[2][SHMEM_REDUCE_SYNC_SIZE];
/* Stamps of each repetition: barrier release and return, in us. */
static double t_in[MAX_REPS], t_out[MAX_REPS];

struct opts {
	const char *kind;
	int count, reps;
};

static void
usage(void)
{
	fprintf(stderr, "usage: shmem -k reduce|barrier|lat|bw [-c COUNT] "
	                "[-r REPS]\n");
	exit(1);
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int c;

	o->kind = NULL;
	o->count = 1;
	o->reps = 0;
	while ((c = getopt(argc, argv, "k:c:r:")) != -1) {
		switch (c) {
		case 'k':
			o->kind = optarg;
			break;
		case 'c':
			o->count = atoi(optarg);
			break;
		case 'r':
			o->reps = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (o->kind == NULL || o->count < 1 || o->reps < 0 ||
	    o->reps > MAX_REPS)
		usage();
	if (o->reps == 0)
		o->reps = default_reps(o->count);
}

static void *
sym_alloc(size_t bytes)
{
	void *p = shmem_malloc(bytes);

	if (p == NULL) {
		fprintf(stderr, "shmem: shmem_malloc(%zu) failed\n", bytes);
		shmem_global_exit(1);
	}
	return p;
}

/* 0 if dst holds the sums of every PE's source, else -1. */
static int
check_sum(const double *dst, int count, int npes)
{
	int i;

	for (i = 0; i < count; i++) {
		double want =
		    (double)npes * (npes + 1) / 2 + (double)npes * (i % 7);

		if (dst[i] != want)
			return -1;
	}
	return 0;
}

/* PE 0: the time of each call from every PE's stamps (read with get). */
static void
reduce_report(int reps, int count, int npes)
{
	double *first = malloc(sizeof(double) * (size_t)reps);
	double *last = malloc(sizeof(double) * (size_t)reps);
	double *skew = malloc(sizeof(double) * (size_t)reps);
	double *buf = malloc(sizeof(double) * (size_t)reps), m, lo, hi;
	int pe, i;

	if (!first || !last || !skew || !buf) {
		fprintf(stderr, "shmem: out of memory\n");
		shmem_global_exit(1);
	}
	memcpy(first, t_in, sizeof(double) * (size_t)reps);
	memcpy(skew, t_in, sizeof(double) * (size_t)reps); /* latest release */
	memcpy(last, t_out, sizeof(double) * (size_t)reps);
	for (pe = 1; pe < npes; pe++) {
		shmem_getmem(buf, t_in, sizeof(double) * (size_t)reps, pe);
		for (i = 0; i < reps; i++) {
			if (buf[i] < first[i])
				first[i] = buf[i];
			if (buf[i] > skew[i])
				skew[i] = buf[i];
		}
		shmem_getmem(buf, t_out, sizeof(double) * (size_t)reps, pe);
		for (i = 0; i < reps; i++)
			if (buf[i] > last[i])
				last[i] = buf[i];
	}
	for (i = 0; i < reps; i++) {
		skew[i] -= first[i];
		last[i] -= first[i];
	}
	m = median(last, reps);
	lo = p10;
	hi = p90;
	printf("reduce %d %d %.3f %.3f %.3f %.3f\n", npes, count, m, lo, hi,
	    median(skew, reps));
	free(first);
	free(last);
	free(skew);
	free(buf);
}

static int
run_reduce(const struct opts *o, int me, int npes)
{
	size_t n = (size_t)o->count, nwrk = n / 2 + 1;
	double *src = sym_alloc(n * sizeof(double));
	double *dst = sym_alloc(n * sizeof(double));
	double *wrk[2];
	int warm = o->reps / 10 + 3, i, bad = 0;

	if (nwrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
		nwrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
	wrk[0] = sym_alloc(nwrk * sizeof(double));
	wrk[1] = sym_alloc(nwrk * sizeof(double));
	for (i = 0; i < o->count; i++)
		src[i] = me + 1 + i % 7;
	shmem_barrier_all();
	for (i = -warm; i < o->reps; i++) {
		double t0, t1;

		memset(dst, 0, n * sizeof(double));
		shmem_barrier_all();
		t0 = now_us();
		shmem_double_sum_to_all(
		    dst, src, o->count, 0, 0, npes, wrk[i & 1], psync[i & 1]);
		t1 = now_us();
		if (i >= 0) {
			t_in[i] = t0;
			t_out[i] = t1;
		}
		if (check_sum(dst, o->count, npes) != 0)
			bad = 1;
	}
	shmem_barrier_all();
	if (bad)
		fprintf(stderr, "shmem: PE %d: wrong sum\n", me);
	if (me == 0 && !bad)
		reduce_report(o->reps, o->count, npes);
	else if (me == 0)
		printf("reduce %d %d bad\n", npes, o->count);
	shmem_barrier_all();
	return bad ? 2 : 0;
}

static void
report(const char *kind, int npes, int count, double *t, int reps)
{
	double m = median(t, reps);

	printf("%s %d %d %.3f %.3f %.3f %d\n", kind, npes, count, m, p10, p90,
	    reps);
}

static void
run_barrier(const struct opts *o, int me, int npes)
{
	double *t = malloc(sizeof(double) * (size_t)o->reps);
	int i;

	if (t == NULL)
		shmem_global_exit(1);
	for (i = 0; i < o->reps / 10 + 3; i++)
		shmem_barrier_all();
	for (i = 0; i < o->reps; i++) {
		double t0 = now_us();

		shmem_barrier_all();
		t[i] = now_us() - t0;
	}
	if (me == 0)
		report("barrier", npes, 0, t, o->reps);
	free(t);
}

/* PE 0 times batches of (put of `bytes` to PE 1, quiet). */
static void
run_put(const struct opts *o, int me, int npes, size_t bytes, int batch)
{
	char *dst = sym_alloc(bytes), *src = malloc(bytes);
	double *t = malloc(sizeof(double) * (size_t)o->reps);
	int i, k;

	if (src == NULL || t == NULL || npes < 2) {
		fprintf(stderr, "shmem: needs 2 PEs and memory\n");
		shmem_global_exit(1);
	}
	memset(src, me + 1, bytes);
	shmem_barrier_all();
	if (me == 0) {
		for (i = -(o->reps / 10 + 3); i < o->reps; i++) {
			double t0 = now_us();

			for (k = 0; k < batch; k++) {
				shmem_putmem(dst, src, bytes, 1);
				shmem_quiet();
			}
			if (i >= 0)
				t[i] = (now_us() - t0) / batch;
		}
		if (bytes >= BW_BYTES)
			for (i = 0; i < o->reps; i++)
				t[i] = bytes / t[i]; /* bytes per us = MB/s */
		report(bytes >= BW_BYTES ? "bw" : "lat", npes, (int)bytes, t,
		    o->reps);
	}
	shmem_barrier_all();
	free(src);
	free(t);
}

int
main(int argc, char **argv)
{
	struct opts o;
	int me, npes, rc = 0, i, k;

	parse(argc, argv, &o);
	for (k = 0; k < 2; k++)
		for (i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
			psync[k][i] = SHMEM_SYNC_VALUE;
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	if (strcmp(o.kind, "reduce") == 0)
		rc = run_reduce(&o, me, npes);
	else if (strcmp(o.kind, "barrier") == 0)
		run_barrier(&o, me, npes);
	else if (strcmp(o.kind, "lat") == 0)
		run_put(&o, me, npes, 8, LAT_BATCH);
	else if (strcmp(o.kind, "bw") == 0)
		run_put(&o, me, npes, BW_BYTES, BW_BATCH);
	else
		usage();
	fflush(stdout);
	shmem_finalize();
	return rc;
}
