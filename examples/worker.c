/*
 * worker.c: a worker of master.c.  It receives its share of the
 * intervals from its parent, adds up 4/(1+x*x) at their midpoints,
 * scaled by the interval's width, and sends the sum back.
 */
#include <stdio.h>

#include <pvm3.h>

#define TAG_WORK 10
#define TAG_RESULT 11

int
main(void)
{
	int parent, idx, first, count, steps, k;
	double h, x, sum = 0.0;

	pvm_mytid();
	parent = pvm_parent();
	if (parent < 0) {
		fprintf(stderr, "worker: start me through master\n");
		pvm_exit();
		return 1;
	}

	pvm_recv(parent, TAG_WORK);
	pvm_upkint(&idx, 1, 1);
	pvm_upkint(&first, 1, 1);
	pvm_upkint(&count, 1, 1);
	pvm_upkint(&steps, 1, 1);

	h = 1.0 / steps;
	for (k = first; k < first + count; k++) {
		x = (k + 0.5) * h;
		sum += 4.0 / (1.0 + x * x);
	}
	sum *= h;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&idx, 1, 1);
	pvm_pkdouble(&sum, 1, 1);
	pvm_send(parent, TAG_RESULT);

	pvm_exit();
	return 0;
}
