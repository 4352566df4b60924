/*
 * reduce.c: a group of N tasks combines its results with pvm_reduce.
 *
 * The first task joins the group "reduce_example" (so it is instance 0),
 * asks for its children's output (pvm_catchout), and starts N-1 copies
 * of this program (default N = 4) with the arguments "-m N".  Every
 * member then sums k, k*k and k*k*k over its share of k = 1..TOP, and
 * pvm_reduce adds the members' three sums up at instance 0.  A second
 * pvm_reduce, with PvmMax, finds the highest instance number, so the
 * root can see that every member took part.  The sums are whole numbers
 * below 2^53, exact in a double.
 *
 *   ./reduce [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#define GROUP "reduce_example"
#define TOP 1000
#define MAXN 64
#define TAG_SUM 20
#define TAG_MAX 21

int
main(int argc, char **argv)
{
	char host[128], nstr[16], *args[] = {"-m", nstr, NULL};
	int member = argc > 2 && strcmp(argv[1], "-m") == 0;
	int n = 4, inst, top, lo, hi, k, started, ok;
	double s[3] = {0.0, 0.0, 0.0}, t = TOP, want[3];

	if (argc > 1)
		n = atoi(argv[member ? 2 : 1]);
	if (n < 1 || n > MAXN) {
		fprintf(stderr, "usage: reduce [1..%d]\n", MAXN);
		return 2;
	}
	if (pvm_mytid() < 0)
		return 1;
	if (!member)
		pvm_catchout(stdout);

	inst = pvm_joingroup(GROUP);
	if (inst < 0) {
		pvm_exit();
		return 1;
	}
	if (!member && n > 1) {
		snprintf(nstr, sizeof(nstr), "%d", n);
		started = pvm_spawn("reduce", args, PvmTaskDefault, "", n - 1,
		    NULL);
		if (started != n - 1) {
			printf("reduce: started %d of %d members\n",
			    started < 0 ? 0 : started, n - 1);
			pvm_lvgroup(GROUP);
			pvm_exit();
			return 1;
		}
	}
	/* Wait until all n have joined. */
	pvm_barrier(GROUP, n);

	lo = 1 + inst * (TOP / n);
	hi = inst == n - 1 ? TOP : (inst + 1) * (TOP / n);
	for (k = lo; k <= hi; k++) {
		s[0] += k;
		s[1] += (double)k * k;
		s[2] += (double)k * k * k;
	}
	if (gethostname(host, sizeof(host)) != 0)
		strcpy(host, "?");
	host[sizeof(host) - 1] = '\0';
	printf("member %d of %d on %s: k = %d..%d\n", inst, n, host, lo, hi);
	fflush(stdout);

	pvm_reduce(PvmSum, s, 3, PVM_DOUBLE, TAG_SUM, GROUP, 0);
	top = inst;
	pvm_reduce(PvmMax, &top, 1, PVM_INT, TAG_MAX, GROUP, 0);

	ok = 1;
	if (inst == 0) {
		want[0] = t * (t + 1) / 2;
		want[1] = t * (t + 1) * (2 * t + 1) / 6;
		want[2] = want[0] * want[0];
		printf("sum of k     = %.0f (expected %.0f)\n", s[0], want[0]);
		printf("sum of k^2   = %.0f (expected %.0f)\n", s[1], want[1]);
		printf("sum of k^3   = %.0f (expected %.0f)\n", s[2], want[2]);
		printf("highest instance = %d (expected %d)\n", top, n - 1);
		ok = s[0] == want[0] && s[1] == want[1] && s[2] == want[2] &&
		    top == n - 1;
		printf("reduce: %s\n", ok ? "all correct" : "WRONG");
	}

	/* Leave only when every member is done with the reduces. */
	pvm_barrier(GROUP, n);
	pvm_lvgroup(GROUP);
	pvm_exit();
	return ok ? 0 : 1;
}
