/*
 * mpi_oversub: bench/oversub.c's measure with MPI.
 *
 *   mpirun -np 2P mpi_oversub [-i ITERS]
 *
 * Rank k ping-pongs ITERS 8-byte messages with rank k ^ 1 (MPI_Send and
 * MPI_Recv of 8 MPI_BYTEs), the even one first, after one MPI_Barrier;
 * rank 0 gathers each rank's median round trip and end time and prints
 * "oversub P ITERS MEDIAN_RTT_US SLOWEST_RTT_US WALL_MS" as oversub.c
 * does (the wall time runs from rank 0's barrier exit).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "stats.h"

int
main(int argc, char **argv)
{
	int rank, n, i, c, iters = 2000;
	char b[8] = "pingpong";
	double *rtt, mine[2], *all = NULL, t0, tend = 0;

	MPI_Init(&argc, &argv);
	while ((c = getopt(argc, argv, "i:")) != -1)
		if (c == 'i')
			iters = atoi(optarg);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (n % 2 != 0 || iters < 1) {
		if (rank == 0)
			fprintf(stderr, "mpi_oversub: an even rank count\n");
		MPI_Finalize();
		return 2;
	}
	rtt = calloc((size_t)iters, sizeof(double));
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = now_us();
	for (i = 0; i < iters; i++) {
		double s = now_us();

		if ((rank & 1) == 0) {
			MPI_Send(b, 8, MPI_BYTE, rank ^ 1, 1, MPI_COMM_WORLD);
			MPI_Recv(b, 8, MPI_BYTE, rank ^ 1, 1, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(b, 8, MPI_BYTE, rank ^ 1, 1, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE);
			MPI_Send(b, 8, MPI_BYTE, rank ^ 1, 1, MPI_COMM_WORLD);
		}
		rtt[i] = now_us() - s;
	}
	mine[1] = now_us();
	mine[0] = median(rtt, iters);
	if (rank == 0)
		all = calloc(2 * (size_t)n, sizeof(double));
	MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		double *med = calloc((size_t)n, sizeof(double));

		for (i = 0; i < n; i++) {
			med[i] = all[2 * i];
			if (all[2 * i + 1] > tend)
				tend = all[2 * i + 1];
		}
		qsort(med, (size_t)n, sizeof(double), cmp_double);
		printf("oversub %d %d %.2f %.2f %.1f\n", n / 2, iters,
		    med[n / 2], med[n - 1], (tend - t0) / 1000);
		free(med);
		free(all);
	}
	free(rtt);
	MPI_Finalize();
	return 0;
}
