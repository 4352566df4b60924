/*
 * oversub: ping-pong pairs on a host with more tasks than CPUs.
 *
 *   oversub [-p PAIRS] [-i ITERS] [-d]     the master: spawns 2 PAIRS
 *                                           copies of itself, reports
 *   oversub -w                              one of them (spawned)
 *
 * The master spawns the 2 PAIRS tasks on its own host, sends each the
 * tid table, and every task k ping-pongs ITERS 8-byte messages
 * (PvmDataRaw) with task k ^ 1, the even one first; -d makes every task
 * use PvmRouteDirect (shared-memory rings with PVM_SHM=1).  Each task
 * sends the master its round trips' median and its whole time; the
 * master prints
 *   "oversub PAIRS ITERS MEDIAN_RTT_US SLOWEST_RTT_US WALL_MS"
 * where MEDIAN_RTT is the median over tasks of their median round trip,
 * SLOWEST the largest of those, and WALL the time from the start signal
 * to the last task's end.  bench/mpi_oversub.c measures Open MPI the
 * same way; bench/run-oversub.sh runs both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvm3.h"
#include "stats.h"

#define TAG_TABLE 31
#define TAG_PING 32
#define TAG_DONE 33

static int direct, iters = 2000;

/* One task's ping-pong with peer; its median round trip and total time
 * in us. */
static void
worker_pingpong(int me, int peer, double *med, double *total)
{
	double *rtt = calloc((size_t)iters, sizeof(double)), t0, t1;
	char b[8] = "pingpong";
	int i;

	t0 = now_us();
	for (i = 0; i < iters; i++) {
		double s = now_us();

		if ((me & 1) == 0) {
			pvm_initsend(PvmDataRaw);
			pvm_pkbyte(b, 8, 1);
			pvm_send(peer, TAG_PING);
			pvm_recv(peer, TAG_PING);
		} else {
			pvm_recv(peer, TAG_PING);
			pvm_initsend(PvmDataRaw);
			pvm_pkbyte(b, 8, 1);
			pvm_send(peer, TAG_PING);
		}
		rtt[i] = now_us() - s;
	}
	t1 = now_us();
	*med = median(rtt, iters);
	*total = t1 - t0;
	free(rtt);
}

static int
worker(void)
{
	int parent = pvm_parent(), n, me, *tids;
	double r[3];

	if (direct)
		pvm_setopt(PvmRoute, PvmRouteDirect);
	pvm_recv(parent, TAG_TABLE);
	pvm_upkint(&n, 1, 1);
	pvm_upkint(&me, 1, 1);
	pvm_upkint(&iters, 1, 1);
	tids = calloc((size_t)n, sizeof(int));
	pvm_upkint(tids, n, 1);
	/* The start: everyone has its table; the master sends it last. */
	pvm_recv(parent, TAG_TABLE);
	worker_pingpong(me, tids[me ^ 1], &r[0], &r[1]);
	r[2] = now_us();
	pvm_initsend(PvmDataRaw);
	pvm_pkdouble(r, 3, 1);
	pvm_send(parent, TAG_DONE);
	free(tids);
	pvm_exit();
	return 0;
}

static int
master(int pairs, char *self)
{
	int n = 2 * pairs, k, *tids = calloc((size_t)n, sizeof(int));
	double *med = calloc((size_t)n, sizeof(double)), t0, tend = 0;
	char *argv[] = {"-w", direct ? "-d" : NULL, NULL};

	if (pvm_spawn(self, argv, PvmTaskDefault, "", n, tids) != n) {
		fprintf(stderr, "oversub: spawn failed\n");
		pvm_exit();
		return 1;
	}
	for (k = 0; k < n; k++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&n, 1, 1);
		pvm_pkint(&k, 1, 1);
		pvm_pkint(&iters, 1, 1);
		pvm_pkint(tids, n, 1);
		pvm_send(tids[k], TAG_TABLE);
	}
	sleep(1); /* let every task reach its start wait */
	t0 = now_us();
	pvm_initsend(PvmDataDefault);
	pvm_mcast(tids, n, TAG_TABLE);
	for (k = 0; k < n; k++) {
		double r[3];

		pvm_recv(-1, TAG_DONE);
		pvm_upkdouble(r, 3, 1);
		med[k] = r[0];
		if (r[2] > tend)
			tend = r[2];
	}
	qsort(med, (size_t)n, sizeof(double), cmp_double);
	printf("oversub %d %d %.2f %.2f %.1f\n", pairs, iters, med[n / 2],
	    med[n - 1], (tend - t0) / 1000);
	free(tids);
	free(med);
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	int c, pairs = 8, is_worker = 0;

	while ((c = getopt(argc, argv, "p:i:dw")) != -1) {
		switch (c) {
		case 'p':
			pairs = atoi(optarg);
			break;
		case 'i':
			iters = atoi(optarg);
			break;
		case 'd':
			direct = 1;
			break;
		case 'w':
			is_worker = 1;
			break;
		default:
			fprintf(stderr,
			    "usage: oversub [-p PAIRS] [-i ITERS] [-d]\n");
			return 2;
		}
	}
	if (is_worker)
		return worker();
	if (pairs < 1 || iters < 1)
		return 2;
	return master(pairs, argv[0]);
}
