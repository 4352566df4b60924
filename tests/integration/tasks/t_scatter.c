/*
 * t_scatter.c: pvm_scatter end to end, aimed at the shared-memory path
 * (gather_shm.c, gdata.c's own places; on one host it takes calls of up
 * to SHM_CHUNK bytes a member).  The scenario harness is tgroup.h's.
 *
 *   t_scatter scatter SIZE...  1, 1,024 and SHM_CHUNK bytes' worth of
 *                              doubles and of ints, roots moving, in a
 *                              group of each SIZE
 *   t_scatter scatrun N COUNT  60 scatters back to back, the members
 *                              sleeping before the first 20; then
 *                              scatter, reduce and gather rounds with
 *                              one tag
 *   t_scatter scatkill leaf|leave|root COUNT  instance 1 killed (or
 *                              leaving) while the root waits for its
 *                              place, or killed as the root
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcheck.h"
#include "tgroup.h"

/* Element j of member i's slice in call `seed` (exact in a double). */
static double
sc_val(int i, int j, int seed)
{
	return (double)(i * 100003 + j + seed * 7);
}

static void
sc_put(void *p, int dt, size_t k, double v)
{
	if (dt == PVM_INT) {
		((int *)p)[k] = (int)v;
	} else {
		((double *)p)[k] = v;
	}
}

static double
sc_get(const void *p, int dt, size_t k)
{
	return dt == PVM_INT ? (double)((const int *)p)[k]
	                     : ((const double *)p)[k];
}

/*
 * One scatter of count elements of dt (INT or DOUBLE) from root with
 * tag, expected to return want: slice i is sc_val(i, ., seed); every
 * member that got one checks it (the root its own part, always).  The
 * scatter's return code.
 */
static int
sc_call_want(const char *g, int n, int inst, int count, int dt, int root,
    int seed, int tag, char *data, char *result, int want)
{
	size_t es = dt == PVM_INT ? sizeof(int) : sizeof(double);
	int i, j, rc, bad = -1;

	for (i = 0; inst == root && i < n; i++) {
		for (j = 0; j < count; j++) {
			sc_put(data, dt, (size_t)i * count + j,
			    sc_val(i, j, seed));
		}
	}
	memset(result, 0xa5, (size_t)count * es);
	rc = pvm_scatter(result, data, count, dt, tag, (char *)g, root);
	expect(rc == want, "scatter n %d count %d root %d seed %d: rc %d", n,
	    count, root, seed, rc);
	for (j = 0; (rc == 0 || inst == root) && j < count && bad < 0; j++) {
		if (sc_get(result, dt, j) != sc_val(inst, j, seed)) {
			bad = j;
		}
	}
	expect(bad < 0, "scatter n %d count %d root %d seed %d: element %d", n,
	    count, root, seed, bad);
	return rc;
}

/* The same, expected to work. */
static int
sc_call(const char *g, int n, int inst, int count, int dt, int root, int seed,
    int tag, char *data, char *result)
{
	return sc_call_want(
	    g, n, inst, count, dt, root, seed, tag, data, result, 0);
}

/* scatter SIZE...: 1, 1,024 and the limit's count of doubles and of
 * ints, the root moving, in groups of each size. */
static void
mode_scatter(int argc, char **argv, int idx)
{
	int counts[3] = {1, 1024, 0};
	int sizes[16], nsz, s, k, dt, ci, maxn, inst;
	char g[96], *data, *result;

	nsz = group_sizes(argc, argv, sizes, &maxn);
	data = malloc((size_t)maxn * SHM_CHUNK);
	result = malloc(SHM_CHUNK);
	if (data == NULL || result == NULL) {
		tc_fatal("no memory");
	}
	for (s = 0; s < nsz; s++) {
		snprintf(g, sizeof(g), "%s.%d", gname, sizes[s]);
		if (idx < sizes[s]) {
			join(g, sizes[s]);
			inst = pvm_getinst(g, pvm_mytid());
			ci = 0;
			for (dt = 0; dt < 2; dt++) {
				counts[2] = SHM_CHUNK / (dt ? 8 : 4);
				for (k = 0; k < 3; k++, ci++) {
					sc_call(g, sizes[s], inst, counts[k],
					    dt ? PVM_DOUBLE : PVM_INT,
					    (ci * 3 + s) % sizes[s], ci, 22,
					    data, result);
				}
			}
		}
		snprintf(g, sizeof(g),
		    "scatter, %d members: 1, 1024 and the "
		    "limit's count of doubles and of ints",
		    sizes[s]);
		step(g, maxn - 1);
	}
	free(data);
	free(result);
}

/* The sum over n members of sc_val(i, j, seed) (exact in a double). */
static double
sc_sum(int n, int j, int seed)
{
	return 100003.0 * n * (n - 1) / 2 + (double)n * (j + seed * 7);
}

/*
 * scatrun COUNT: 60 scatters back to back from root 0 with one tag,
 * the members sleeping 20 ms before each of the first 20 (the root runs
 * ahead and waits for their places), each slice checked; then 30 rounds
 * of scatter, reduce and gather with that same tag and roots moving, a
 * barrier every third.
 */
static void
mode_scatrun(int count)
{
	static double data[MAXMEM * 8192], res[MAXMEM * 8192];
	int c, j, rc, bad, n = nmem, root;

	for (c = 0; c < 60; c++) {
		if (myinst != 0 && c < 20) {
			usleep(20000);
		}
		sc_call(gname, n, myinst, count, PVM_DOUBLE, 0, c, 23,
		    (char *)data, (char *)res);
	}
	step("60 scatters back to back, slow members: each slice in order",
	    nmem - 1);
	for (c = 0; c < 30; c++) {
		root = c % n;
		if (sc_call(gname, n, myinst, count, PVM_DOUBLE, root, 100 + c,
		        23, (char *)data, (char *)res) != 0) {
			continue;
		}
		memcpy(data, res, (size_t)count * sizeof(double));
		rc = pvm_reduce(
		    PvmSum, res, count, PVM_DOUBLE, 23, gname, (c + 1) % n);
		expect(rc == 0, "round %d: reduce rc %d", c, rc);
		for (j = 0, bad = -1;
		     myinst == (c + 1) % n && j < count && bad < 0; j++) {
			bad = res[j] == sc_sum(n, j, 100 + c) ? -1 : j;
		}
		expect(bad < 0, "round %d: reduce element %d", c, bad);
		rc = pvm_gather(
		    res, data, count, PVM_DOUBLE, 23, gname, (c + 2) % n);
		expect(rc == 0, "round %d: gather rc %d", c, rc);
		for (j = 0, bad = -1;
		     myinst == (c + 2) % n && j < n * count && bad < 0; j++) {
			bad = res[j] == sc_val(j / count, j % count, 100 + c)
			          ? -1
			          : j;
		}
		expect(bad < 0, "round %d: gather element %d", c, bad);
		if (c % 3 == 2) {
			expect(
			    pvm_barrier(gname, n) == 0, "round %d: barrier", c);
		}
	}
	step("scatter, reduce, gather with one tag, roots moving", nmem - 1);
}

/*
 * scatkill leaf|leave|root COUNT: instance 1 is SIGKILLed (leave: it
 * leaves the group, and exits 3 s later) 1.5 s in.  leaf, leave: root 0
 * scatters twice; instance 1 never takes its first slice, so the root's
 * second call waits for its place and must end with PvmNoTask
 * (PvmMismatch when it left); the other members get both slices.  root:
 * instance 1 is the root and dies before scattering: every member's
 * wait ends with PvmNoTask.  Bounded in time in every case.
 */
static void
mode_scatkill(const char *how, int count)
{
	static double data[4 * 8192], res[8192];
	int rc, k, root = strcmp(how, "root") == 0 ? 1 : 0;
	int leave = strcmp(how, "leave") == 0;
	double t0 = tc_now();

	if (myinst == 1) {
		usleep(1500000);
		if (!leave) {
			raise(SIGKILL);
		}
		pvm_lvgroup(gname);
		usleep(3000000);
		pvm_exit();
		exit(0);
	}
	for (k = 0; root == 0 && k < 2; k++) {
		sc_call_want(gname, nmem, myinst, count, PVM_DOUBLE, 0, k, 25,
		    (char *)data, (char *)res,
		    myinst == 0 && k == 1 ? (leave ? PvmMismatch : PvmNoTask)
		                          : 0);
	}
	if (root == 1) {
		rc = pvm_scatter(res, data, count, PVM_DOUBLE, 25, gname, 1);
		expect(rc == PvmNoTask, "inst %d rc %d, want PvmNoTask", myinst,
		    rc);
	}
	expect(
	    tc_now() - t0 < 10, "inst %d waited %.1f s", myinst, tc_now() - t0);
	if (myinst == 0) {
		tc_info("scatkill %s: inst 0 done after %.3f s", how,
		    tc_now() - t0);
	}
	step(root    ? "scatter root killed: every member gets PvmNoTask"
	     : leave ? "member left while the root waits for its place: "
	               "PvmMismatch at the root, the others get their slices"
	             : "member killed while the root waits for its place: "
	               "PvmNoTask at the root, the others get their slices",
	    nmem - 2);
}

int
main(int argc, char **argv)
{
	const char *arg1, *arg2;
	int n = 0, idx;

	if (argc < 3) {
		fprintf(stderr, "usage: t_scatter MODE ARGS\n");
		return 2;
	}
	mode = argv[1];
	is_driver = !(argc >= 4 && strcmp(argv[2], "member") == 0);
	tc_init("t_scatter");
	if (strcmp(mode, "scatkill") == 0) {
		n = 4;
	} else if (strcmp(mode, "scatrun") == 0) {
		n = atoi(argv[is_driver ? 2 : 4]);
	} else if (strcmp(mode, "scatter") == 0) {
		for (idx = is_driver ? 2 : 4; idx < argc; idx++) {
			n = atoi(argv[idx]) > n ? atoi(argv[idx]) : n;
		}
	}
	if (n < 1 || n > MAXMEM) {
		fprintf(stderr, "t_scatter: unknown mode or size\n");
		return 2;
	}
	idx = setup(n, argc, argv);
	/* The scenario's own arguments, on the driver and the members. */
	arg1 = argc > (is_driver ? 2 : 4) ? argv[is_driver ? 2 : 4] : NULL;
	arg2 = argc > (is_driver ? 3 : 5) ? argv[is_driver ? 3 : 5] : NULL;
	if (strcmp(mode, "scatter") == 0) {
		mode_scatter(argc, argv, idx);
	} else if (strcmp(mode, "scatrun") == 0) {
		mode_scatrun(arg2 != NULL ? atoi(arg2) : 1);
	} else {
		mode_scatkill(arg1 != NULL ? arg1 : "leaf",
		    arg2 != NULL ? atoi(arg2) : 1);
	}
	/* Nobody leaves before all are done (scatkill lost a member). */
	if (strcmp(mode, "scatkill") != 0 && pvm_barrier(gname, nmem) < 0) {
		printf("FAIL: final barrier\n");
	}
	if (!is_driver) {
		pvm_exit();
		return 0;
	}
	return tc_done();
}
