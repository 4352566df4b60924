/*
 * sum_job: a small multi-task job for the README's demo.
 *
 * Started without arguments (or with a worker count) it is the master: it
 * spawns N copies of itself with the argument -w, gives each worker a slice
 * of 1..1000000, collects the partial sums of squares, and checks the total
 * against the closed form.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pvm3.h"

#define TOP 1000000L
#define TAG_WORK 1
#define TAG_SUM 2

/* Worker: receive a range, send back the sum of squares over it. */
static int
worker(int parent)
{
	long lo, hi, i;
	double sum = 0;

	pvm_recv(parent, TAG_WORK);
	pvm_upklong(&lo, 1, 1);
	pvm_upklong(&hi, 1, 1);
	for (i = lo; i <= hi; i++)
		sum += (double)i * (double)i;
	pvm_initsend(PvmDataDefault);
	pvm_pkdouble(&sum, 1, 1);
	pvm_send(parent, TAG_SUM);
	pvm_exit();
	return 0;
}

/* Master: spawn, distribute, collect, check. */
static int
master(const char *self, int n)
{
	static char *wargv[] = {"-w", NULL};
	int tids[64], i, started;
	long lo, hi;
	double part, total = 0, expect;

	started = pvm_spawn((char *)self, wargv, PvmTaskDefault, "", n, tids);
	if (started != n) {
		fprintf(stderr, "sum_job: spawned %d of %d workers\n", started,
		    n);
		pvm_exit();
		return 1;
	}
	printf("master t%x: %d workers spawned\n", pvm_mytid(), n);
	for (i = 0; i < n; i++) {
		lo = 1 + i * (TOP / n);
		hi = (i == n - 1) ? TOP : (i + 1) * (TOP / n);
		pvm_initsend(PvmDataDefault);
		pvm_pklong(&lo, 1, 1);
		pvm_pklong(&hi, 1, 1);
		pvm_send(tids[i], TAG_WORK);
	}
	for (i = 0; i < n; i++) {
		int bufid = pvm_recv(tids[i], TAG_SUM);

		if (bufid < 0)
			break;
		pvm_upkdouble(&part, 1, 1);
		printf("worker t%x: %.0f\n", tids[i], part);
		total += part;
	}
	expect = (double)TOP * (TOP + 1) * (2.0 * TOP + 1) / 6.0;
	printf("sum of squares 1..%ld = %.0f (%s)\n", TOP, total,
	    total == expect ? "correct" : "WRONG");
	pvm_exit();
	return total == expect ? 0 : 1;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;

	if (pvm_mytid() < 0)
		return 1;
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] == 'w')
		return worker(pvm_parent());
	if (n < 1 || n > 64)
		n = 4;
	return master(argv[0], n);
}
