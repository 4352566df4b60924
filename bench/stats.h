/*
 * stats.h: timing and medians shared by the benchmark programs
 * (pingpong, rawsock, reduce, mpi_reduce, copyfloor, ringfloor), so
 * every figure is taken with the same clock and the same statistics.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC in us: one clock for every process on the host. */
static inline double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The 10th and 90th percentiles of the last median() call's data. */
static double p10, p90;

/* Median of v[0..n-1] (sorts v; notes the spread in p10, p90). */
static inline double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	p10 = v[n / 10];
	p90 = v[n - 1 - n / 10];
	return v[n / 2];
}

/*
 * The ping-pong benchmarks (pingpong, rawsock): the median of `reps`
 * round trips trip(peer, buf, size) of `size` bytes, after a warm-up of
 * reps / 10 + 2.
 */
static inline double
median_trip(double (*trip)(int, char *, int), int peer, int size, int reps)
{
	char *buf = calloc(1, (size_t)size);
	double *t = malloc(sizeof(double) * (size_t)reps), m;
	int i;

	for (i = 0; i < reps / 10 + 2; i++)
		trip(peer, buf, size);
	for (i = 0; i < reps; i++)
		t[i] = trip(peer, buf, size);
	m = median(t, reps);
	free(t);
	free(buf);
	return m;
}

/* Their bandwidth figures: sizes, names, and fewer repetitions of 16 MiB. */
static const int bw_sizes[] = {65536, 1 << 20, 16 << 20};
static const char *const bw_names[] = {"bw_64k", "bw_1m", "bw_16m"};
#define BW_NSIZES ((int)(sizeof(bw_sizes) / sizeof(bw_sizes[0])))

static inline int
bw_reps(int size)
{
	return size >= (16 << 20) ? 15 : 60;
}

/* Default repetitions of a reduce: fewer for the big count (ms a call). */
static inline int
default_reps(int count)
{
	if (count >= 1 << 20) {
		return 21;
	}
	if (count >= 1024) {
		return 301;
	}
	return 501;
}

#endif /* BENCH_STATS_H */
