/*
 * idle: enrol, tell the parent (or nobody) we are here, then wait for a
 * message that ends us.  bench/run.sh starts 100 of these to measure the
 * resident size of a pvmd with 100 connected tasks.
 */
#include <stdio.h>

#include "pvm3.h"

int
main(void)
{
	if (pvm_mytid() < 0)
		return 1;
	pvm_recv(-1, 99);
	pvm_exit();
	return 0;
}
