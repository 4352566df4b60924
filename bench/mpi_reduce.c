/*
 * mpi_reduce: the anchor for bench/reduce.c, measured the same way with
 * MPI.  Per-call time of MPI_Reduce(MPI_SUM, MPI_DOUBLE) at the root
 * (rank 0) and of MPI_Barrier, one communicator size per run:
 *
 *   mpirun -np N mpi_reduce -c COUNT [-r REPS]
 *   mpirun -np N mpi_reduce -b [-r REPS]
 *   mpirun -np N mpi_reduce -g|-s -c COUNT [-r REPS]   MPI_Gather or
 *       MPI_Scatter of COUNT doubles a rank, root 0, timed as
 *       bench/reduce.c's -g and -s
 *   mpirun -np N mpi_reduce -B -c COUNT [-r REPS]   MPI_Bcast of COUNT
 *       doubles from rank 0, timed as bench/reduce.c's -B
 *
 * Same schedule, method and output as bench/reduce.c: a warm-up, then
 * REPS times (barrier; reduce); every rank notes its barrier exit and the
 * root its reduce return (CLOCK_MONOTONIC, one clock on one host); after
 * the loop MPI_Gather brings the stamps to the root, and call i takes
 * root's return - min over ranks of barrier exit; the figure is the
 * median.  The root reduces in place (MPI_IN_PLACE), as pvm_reduce does;
 * every rank holds rank + 1 before each call and the root checks for
 * N (N + 1) / 2 (and a gather's parts) after the timed part.  For -b,
 * REPS back-to-back barriers, the median of the root's calls.
 * Output: "reduce N COUNT MEDIAN_US REPS P10 P90 SKEW LOOP" or
 * "barrier N MEDIAN_US REPS P10 P90 LAST LOOP" (see bench/reduce.c).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "stats.h"

/* 'r' reduce, 'g' gather, 's' scatter, 'B' bcast; the n * count buffer of the
 * last two (the root's result or data: part i holds i + 1). */
static int op = 'r';
static double *big;

/* The timed call: the reduce, gather, scatter or bcast of count
 * doubles; 0, or -2 if a member's first or last element shows it wrong
 * (scatter, bcast). */
static int
timed_call(double *data, int count, int rank)
{
	if (op == 'B') {
		MPI_Bcast(data, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		return data[0] == 1 && data[count - 1] == 1 ? 0 : -2;
	}
	if (op == 'g') {
		MPI_Gather(data, count, MPI_DOUBLE, big, count, MPI_DOUBLE, 0,
		    MPI_COMM_WORLD);
		return 0;
	}
	if (op == 's') {
		MPI_Scatter(big, count, MPI_DOUBLE, data, count, MPI_DOUBLE, 0,
		    MPI_COMM_WORLD);
		return data[0] == rank + 1 && data[count - 1] == rank + 1 ? 0
		                                                          : -2;
	}
	MPI_Reduce(rank == 0 ? MPI_IN_PLACE : data, rank == 0 ? data : NULL,
	    count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	return 0;
}

/* After the timed call, at the root: the reduce's sums or the gather's
 * parts, as bench/reduce.c checks them; 0, or -2 if wrong. */
static int
root_check(const double *data, int count, int rank, int n)
{
	double want = (double)n * (n + 1) / 2;
	size_t j, nel = (size_t)n * (size_t)count;

	for (j = 0; rank == 0 && op == 'r' && j < (size_t)count; j++) {
		if (data[j] != want) {
			return -2;
		}
	}
	for (j = 0; rank == 0 && op == 'g' && j < nel; j++) {
		if (big[j] != (double)(j / (size_t)count + 1)) {
			return -2;
		}
	}
	return 0;
}

/* One barrier-separated call; notes repetition i's barrier exit and
 * the call's return in a[i], b[i] (i < 0: warm-up); -2 if wrong, else 0. */
static int
one_reduce(
    double *data, int count, int rank, int n, double *a, double *b, int i)
{
	double t0, t1;
	int j, cc;

	for (j = 0; j < count; j++) {
		data[j] = op == 's' || (op == 'B' && rank != 0) ? 0 : rank + 1;
	}
	if (op == 'g' && rank == 0) {
		memset(big, 0, sizeof(double) * (size_t)n * count);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = now_us();
	cc = timed_call(data, count, rank);
	t1 = now_us();
	if (i >= 0) {
		a[i] = t0;
		b[i] = t1;
	}
	return cc < 0 ? cc : root_check(data, count, rank, n);
}

/* The reduce schedule on every rank; 0, or -2 on a wrong result. */
static int
run_reduce(int count, int reps, int warm, int rank, int n, double *a, double *b)
{
	double *data = malloc(sizeof(double) * (size_t)count);
	size_t j, nel = (size_t)n * (size_t)count;
	int i, bad = 0;

	if (data == NULL ||
	    (op != 'r' && (big = malloc(sizeof(double) * nel)) == NULL)) {
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (j = 0; op == 's' && j < nel; j++) {
		big[j] = (double)(j / (size_t)count + 1);
	}
	for (i = 0; i < warm + reps; i++) {
		if (one_reduce(data, count, rank, n, a, b, i - warm) == -2) {
			bad = 1;
		}
	}
	free(data);
	free(big);
	return bad ? -2 : 0;
}

/* Back-to-back barriers; notes each call's entry and exit. */
static void
run_barrier(int reps, int warm, double *a, double *b)
{
	double t0;
	int i;

	for (i = 0; i < warm + reps; i++) {
		t0 = now_us();
		MPI_Barrier(MPI_COMM_WORLD);
		if (i >= warm) {
			a[i - warm] = t0;
			b[i - warm] = now_us();
		}
	}
}

/* The extra and loop figures of figures(), as in bench/reduce.c. */
static double extra, loop;

/*
 * At the root, from every rank's stamps (all_a, all_b: rank-major): the
 * median per-call time, exactly as bench/reduce.c computes it.
 */
static double
figures(int reduce, int reps, int n, const double *all_a, const double *all_b)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	double *x = malloc(sizeof(double) * (size_t)reps);
	double lo, hi, in, m;
	int i, j;

	if (t == NULL || x == NULL) {
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (i = 0; i < reps; i++) {
		lo = hi = all_a[i];
		in = all_b[i];
		for (j = 1; j < n; j++) {
			double aj = all_a[(size_t)j * reps + i];
			double bj = all_b[(size_t)j * reps + i];

			lo = aj < lo ? aj : lo;
			hi = aj > hi ? aj : hi;
			in = bj > in ? bj : in;
		}
		if (reduce) {
			/* A scatter (bcast) ends when the last rank has its
			 * part. */
			t[i] = (op == 's' || op == 'B' ? in : all_b[i]) - lo;
			x[i] = hi - lo;
		} else {
			t[i] = all_b[i] - all_a[i];
			x[i] = in - hi;
		}
	}
	extra = median(x, reps);
	loop = reps > 1 ? (all_a[reps - 1] - all_a[0]) / (reps - 1) : 0;
	m = median(t, reps);
	free(x);
	free(t);
	return m;
}

/* The first word of the output line. */
static const char *
opname(void)
{
	return op == 'g'   ? "gather"
	       : op == 's' ? "scatter"
	       : op == 'B' ? "bcast"
	                   : "reduce";
}

int
main(int argc, char **argv)
{
	int count = 0, reps = -1, barrier = 0, bad = 0, rank, n, i;
	double m, *a, *b, *all_a = NULL, *all_b = NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
			count = atoi(argv[++i]);
		} else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			reps = atoi(argv[++i]);
		} else if (strcmp(argv[i], "-b") == 0) {
			barrier = 1;
		} else if (strcmp(argv[i], "-g") == 0) {
			op = 'g';
		} else if (strcmp(argv[i], "-s") == 0) {
			op = 's';
		} else if (strcmp(argv[i], "-B") == 0) {
			op = 'B';
		}
	}
	if (barrier ? count != 0 : count < 1) {
		if (rank == 0) {
			fprintf(stderr, "usage: mpi_reduce (-c COUNT | -b) "
			                "[-r REPS]\n");
		}
		MPI_Finalize();
		return 1;
	}
	if (reps < 1) {
		reps = barrier ? 501 : default_reps(count);
	}
	a = malloc(sizeof(double) * (size_t)reps);
	b = malloc(sizeof(double) * (size_t)reps);
	if (rank == 0) {
		all_a = malloc(sizeof(double) * (size_t)reps * (size_t)n);
		all_b = malloc(sizeof(double) * (size_t)reps * (size_t)n);
	}
	if (a == NULL || b == NULL ||
	    (rank == 0 && (all_a == NULL || all_b == NULL))) {
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (barrier) {
		run_barrier(reps, reps / 10 + 5, a, b);
	} else {
		bad = run_reduce(count, reps, reps / 10 + 5, rank, n, a, b);
	}
	/* The stamps go to the root after the timed loop. */
	MPI_Gather(
	    a, reps, MPI_DOUBLE, all_a, reps, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Gather(
	    b, reps, MPI_DOUBLE, all_b, reps, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	free(b);
	free(a);
	if (rank != 0) {
		return 0;
	}
	if (bad == -2) {
		printf("%s %d %d bad %d\n", opname(), n, count, reps);
		return 2;
	}
	m = figures(!barrier, reps, n, all_a, all_b);
	if (barrier) {
		printf("barrier %d %.2f %d %.2f %.2f %.2f %.2f\n", n, m, reps,
		    p10, p90, extra, loop);
	} else {
		printf("%s %d %d %.2f %d %.2f %.2f %.2f %.2f\n", opname(), n,
		    count, m, reps, p10, p90, extra, loop);
	}
	free(all_b);
	free(all_a);
	return 0;
}
