/*
 * sum_job: the README's demo, a multi-task pvm_reduce.
 *
 * Started as "sum_job [N]" it joins the group "sum_job", spawns N-1
 * copies of itself (arguments -w N) which join too.  Each task sums the squares
 * of its slice of 1..1000000 in a long, and pvm_reduce(PvmSum, PVM_LONG)
 * brings the total to instance 0, which checks it against n(n+1)(2n+1)/6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"

#define TOP 1000000L
#define GROUP "sum_job"
#define TAG_SUM 7

/* Sum of squares over this task's slice of 1..TOP. */
static long
slice_sum(int inst, int n)
{
	long lo = 1 + inst * (TOP / n), hi = (inst + 1) * (TOP / n), i, s = 0;

	if (inst == n - 1)
		hi = TOP;
	for (i = lo; i <= hi; i++)
		s += i * i;
	return s;
}

int
main(int argc, char **argv)
{
	char nbuf[16], *wargv[] = {"-w", nbuf, NULL};
	int worker = argc > 2 && strcmp(argv[1], "-w") == 0;
	int n, inst, rc, started;
	long sum, expect = TOP * (TOP + 1) * (2 * TOP + 1) / 6;

	setvbuf(stdout, NULL, _IOLBF, 0);
	n = atoi(argv[worker ? 2 : 1] ? argv[worker ? 2 : 1] : "4");
	if (n < 1 || n > 64)
		n = 4;
	if (pvm_mytid() < 0)
		return 1;
	/* The master joins first, so it is instance 0, the root. */
	inst = pvm_joingroup(GROUP);
	if (!worker && n > 1) {
		snprintf(nbuf, sizeof(nbuf), "%d", n);
		started = pvm_spawn(argv[0], wargv, PvmTaskDefault, "", n - 1,
		    NULL);
		if (started != n - 1) {
			fprintf(stderr, "sum_job: started %d of %d workers\n",
			    started, n - 1);
			pvm_exit();
			return 1;
		}
	}
	/* Wait until all n have joined: the barrier counts n arrivals. */
	pvm_barrier(GROUP, n);
	sum = slice_sum(inst, n);
	printf("t%x: instance %d of %d, partial sum %ld\n", pvm_mytid(), inst,
	    n, sum);
	rc = pvm_reduce(PvmSum, &sum, 1, PVM_LONG, TAG_SUM, GROUP, 0);
	if (rc == 0 && inst == 0)
		printf("sum of squares 1..%ld = %ld (%s)\n", TOP, sum,
		    sum == expect ? "correct" : "WRONG");
	/* Nobody leaves before the reduce is over everywhere. */
	pvm_barrier(GROUP, n);
	pvm_lvgroup(GROUP);
	pvm_exit();
	return rc == 0 && (inst != 0 || sum == expect) ? 0 : 1;
}
