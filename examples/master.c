/*
 * master.c: the master of a master/worker job.
 *
 * It computes pi as the integral of 4/(1+x*x) over [0,1] with the
 * midpoint rule on STEPS intervals.  It starts NW copies of worker
 * (default 4), sends each one a share of the intervals, and adds up
 * the partial sums they send back, in worker order, so the result is
 * the same in every run.
 *
 *   ./master [NW]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#define STEPS 1000000
#define MAXW 32
#define TAG_WORK 10
#define TAG_RESULT 11

int
main(int argc, char **argv)
{
	int tids[MAXW], nw = 4, steps = STEPS, started, i, first, count, idx,
	    bytes, tag, from;
	double part[MAXW], pi = 0.0;

	/* Line by line, also when stdout is a pipe (spawn -> in the console). */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		nw = atoi(argv[1]);
	if (nw < 1 || nw > MAXW) {
		fprintf(stderr, "usage: master [1..%d]\n", MAXW);
		return 2;
	}
	if (pvm_mytid() < 0)
		return 1;

	started = pvm_spawn("worker", NULL, PvmTaskDefault, "", nw, tids);
	if (started < nw) {
		printf("master: started %d of %d workers\n",
		    started < 0 ? 0 : started, nw);
		for (i = 0; i < started; i++)
			pvm_kill(tids[i]);
		pvm_exit();
		return 1;
	}
	printf("master: t%x started %d workers\n", pvm_mytid(), nw);

	/* Worker i gets intervals first .. first+count-1. */
	for (i = 0; i < nw; i++) {
		first = i * (STEPS / nw);
		count = i == nw - 1 ? STEPS - first : STEPS / nw;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_pkint(&first, 1, 1);
		pvm_pkint(&count, 1, 1);
		pvm_pkint(&steps, 1, 1);
		pvm_send(tids[i], TAG_WORK);
	}

	/* Results come in any order; pvm_bufinfo tells who sent each. */
	for (i = 0; i < nw; i++) {
		int buf = pvm_recv(-1, TAG_RESULT);

		pvm_bufinfo(buf, &bytes, &tag, &from);
		pvm_upkint(&idx, 1, 1);
		if (idx < 0 || idx >= nw) {
			printf("master: bad worker number %d from t%x\n", idx,
			    from);
			pvm_exit();
			return 1;
		}
		pvm_upkdouble(&part[idx], 1, 1);
		printf("master: worker %d (t%x) sent %.15f\n", idx, from,
		    part[idx]);
	}
	for (i = 0; i < nw; i++)
		pi += part[i];
	printf("master: pi is about %.15f, error %.1e\n", pi,
	    fabs(pi - 3.14159265358979323846));

	pvm_exit();
	return 0;
}
