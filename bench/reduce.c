/*
 * reduce: per-call time of pvm_reduce(PvmSum, PVM_DOUBLE) and of
 * pvm_barrier at the root of a group, one group size per run.  The same
 * source builds against our pvm3.h/libgpvm3/libpvm3 and against PVM
 * 3.4.6's (bench/run-reduce.sh does both, and runs bench/mpi_reduce.c,
 * the same method with Open MPI).
 *
 *   reduce -n N -c COUNT [-r REPS]   N tasks reduce COUNT doubles
 *   reduce -n N -b [-r REPS]         N tasks, back-to-back barriers
 *   reduce -n N -g|-s -c COUNT       pvm_gather / pvm_scatter of COUNT
 *       doubles per member instead of the reduce (root 0; gather: until
 *       the root has every part; scatter: until the last member has
 *       its part, since the root returns once its data is out)
 *   reduce -n N -B -c COUNT          pvm_bcast of COUNT doubles packed
 *       with PvmDataDefault (what most programs use) from the root,
 *       received by every other member with pvm_recv and unpacked; timed
 *       as the scatter, until the last member has unpacked them
 *   -f: freeze the group (pvm_freezegroup) once all have joined
 *   -H HOST,HOST,...: place the N tasks in blocks over these hosts, the
 *       master (run it on the first) counting as one of the first's;
 *       each block is spawned with PvmTaskHost (bench/run-hosts.sh)
 *   -W WARM: WARM untimed repetitions first (default REPS / 10 + 5)
 *
 * The master joins the group first (instance 0, the root), spawns N - 1
 * copies of itself, and all of them run the same schedule: join, barrier,
 * a warm-up (PVM 3.4.6's group server starts slowly and its first calls
 * are slow), then REPS times (barrier; reduce).  The barrier before each
 * call keeps calls from overlapping (PVM 3.4.6's reduce does not
 * synchronize: a non-root member returns as soon as it has sent).
 *
 * Every member notes, per repetition, when the barrier released it; the
 * root also notes when its reduce returned.  After the loop the members
 * send these stamps to the root (plain pvm_send, outside the timed part);
 * all processes run on one machine, so CLOCK_MONOTONIC is one clock (with
 * -H too: bench/run-hosts.sh's hosts are network namespaces of one
 * machine).  The
 * time of call i is root's return - min over members of barrier exit:
 * from the moment the first member may start until the root holds the
 * result.  Timing from the root's own release instead would depend on
 * the order in which the barrier releases the members (a root released
 * last finds the others' data already queued).  The figure is the median.
 * For -b every member calls pvm_barrier REPS times back to back; the
 * figure is the median of the root's calls.
 *
 * Every member holds inst + 1 in each element before every call, so the
 * root must end with N (N + 1) / 2 everywhere; it checks every result
 * (a gather's too) after the timed part, as bench/mpi_reduce.c does.
 * Output, one line: "reduce N COUNT MEDIAN_US REPS P10 P90 SKEW LOOP" or
 * "barrier N MEDIAN_US REPS P10 P90 LAST LOOP" (P10, P90: the 10th and
 * 90th percentiles of the main figure; SKEW: median of last - first
 * barrier exit, the part of the figure the barrier's fan-out
 * contributes; LAST: median of last member's exit - last member's entry,
 * the barrier's latency once everyone has arrived; LOOP: the root's wall
 * time per repetition, from its first timed barrier exit to its last,
 * so a rate of whole repetitions that the order of the releases cannot
 * shift; all in us); a wrong result prints "bad" instead of the median
 * and exits 2.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pvm3.h"
#include "stats.h"

#define TAG_REDUCE 77
#define TAG_TIMES 78 /* the stamps, sent after the timed loop */

/* What one run does; the master passes it to the workers as arguments. */
struct plan {
	int n;      /* group size */
	int count;  /* doubles per reduce; 0 = barrier run */
	int reps;   /* timed repetitions */
	int warm;   /* untimed repetitions first */
	int freeze; /* freeze the group after the joins */
	int op;     /* 'r' reduce, 'g' gather, 's' scatter, 'B' bcast */
	char group[64];
	char *hosts; /* -H: comma-separated hosts to spread over, or NULL */
};

/* Fill data with this member's value. */
static void
fill(double *data, int count, int inst)
{
	int i;

	for (i = 0; i < count; i++) {
		data[i] = inst + 1;
	}
}

/* At the root: whether every element holds n (n + 1) / 2. */
static int
check(const double *data, int count, int n)
{
	double want = (double)n * (n + 1) / 2;
	int i;

	for (i = 0; i < count; i++) {
		if (data[i] != want) {
			return 0;
		}
	}
	return 1;
}

/*
 * Per-repetition timestamps of this member (us, CLOCK_MONOTONIC, which is
 * one clock for every process on the host).  Reduce runs: a = the exit
 * from the separating barrier, b = the return of pvm_reduce.  Barrier
 * runs: a = entry into pvm_barrier, b = exit from it.
 */
struct stamps {
	double *a;
	double *b;
};

/* The gather's or scatter's n * count buffer (the root's result or
 * data); every member's part holds its inst + 1. */
static double *big;

/* Whether every part of big holds its member's inst + 1. */
static int
check_parts(const struct plan *p)
{
	size_t j, nel = (size_t)p->n * (size_t)p->count;

	for (j = 0; j < nel; j++) {
		if (big[j] != (double)(j / (size_t)p->count + 1)) {
			return 0;
		}
	}
	return 1;
}

/* pvm_bcast from the root; the others receive and unpack, and check that
 * they got the root's values (1). */
static int
call_bcast(const struct plan *p, double *data, int inst, int *ok)
{
	int cc;

	if (inst == 0) {
		if (pvm_initsend(PvmDataDefault) < 0 ||
		    pvm_pkdouble(data, p->count, 1) < 0) {
			return -1;
		}
		cc = pvm_bcast((char *)p->group, TAG_REDUCE);
	} else if ((cc = pvm_recv(-1, TAG_REDUCE)) >= 0) {
		cc = pvm_upkdouble(data, p->count, 1);
		*ok = data[0] == 1 && data[p->count - 1] == 1;
	}
	return cc < 0 ? -1 : 0;
}

/* The timed call: -1 on an error; *ok 0 if a member's data shows at once
 * that it is wrong (its first and last element: bcast, scatter). */
static int
call_op(const struct plan *p, double *data, int inst, int *ok)
{
	int cc;

	*ok = 1;
	if (p->op == 'B') {
		return call_bcast(p, data, inst, ok);
	}
	if (p->op == 'g') {
		cc = pvm_gather(big, data, p->count, PVM_DOUBLE, TAG_REDUCE,
		    (char *)p->group, 0);
	} else if (p->op == 's') {
		cc = pvm_scatter(data, big, p->count, PVM_DOUBLE, TAG_REDUCE,
		    (char *)p->group, 0);
		*ok = data[0] == inst + 1 && data[p->count - 1] == inst + 1;
	} else {
		cc = pvm_reduce(PvmSum, data, p->count, PVM_DOUBLE, TAG_REDUCE,
		    (char *)p->group, 0);
	}
	return cc < 0 ? -1 : 0;
}

/* After the timed call: whether the root's whole result is right (the
 * reduce's sums, the gather's parts).  Outside the timed part, as in
 * bench/mpi_reduce.c: reading 65,536 doubles takes tens of us. */
static int
check_after(const struct plan *p, const double *data, int inst)
{
	if (inst != 0 || p->op == 'B' || p->op == 's') {
		return 1;
	}
	return p->op == 'g' ? check_parts(p) : check(data, p->count, p->n);
}

/* One reduce (gather, scatter) call, preceded by the separating
 * barrier; records the stamps of repetition i (i < 0: warm-up); 0, -1 on
 * an error, -2 on a wrong result. */
static int
one_reduce(
    const struct plan *p, double *data, int inst, struct stamps *s, int i)
{
	double t0, t1;
	int cc, ok;

	fill(data, p->count,
	    p->op == 's' || (p->op == 'B' && inst != 0) ? -1 : inst);
	if (p->op == 'g' && inst == 0) {
		memset(big, 0, sizeof(double) * (size_t)p->n * p->count);
	}
	if (pvm_barrier((char *)p->group, p->n) < 0) {
		return -1;
	}
	t0 = now_us();
	cc = call_op(p, data, inst, &ok);
	t1 = now_us();
	if (cc < 0) {
		return -1;
	}
	if (!ok || !check_after(p, data, inst)) {
		return -2;
	}
	if (i >= 0) {
		s->a[i] = t0;
		s->b[i] = t1;
	}
	return 0;
}

/* The reduce schedule, the same on every member; fills s. */
static int
run_reduce(const struct plan *p, int inst, struct stamps *s)
{
	double *data = malloc(sizeof(double) * (size_t)p->count);
	size_t j, nel = (size_t)p->n * (size_t)p->count;
	int i, cc = -1;

	if (data == NULL) {
		return -1;
	}
	if (p->op != 'r' && (big = malloc(sizeof(double) * nel)) == NULL) {
		free(data);
		return -1;
	}
	for (j = 0; p->op == 's' && j < nel; j++) {
		big[j] = (double)(j / (size_t)p->count + 1);
	}
	for (i = 0; i < p->warm + p->reps; i++) {
		if ((cc = one_reduce(p, data, inst, s, i - p->warm)) < 0) {
			break;
		}
	}
	free(data);
	free(big);
	big = NULL;
	return cc;
}

/* Back-to-back barriers, the same on every member; fills s. */
static int
run_barrier(const struct plan *p, struct stamps *s)
{
	double t0;
	int i;

	for (i = 0; i < p->warm + p->reps; i++) {
		t0 = now_us();
		if (pvm_barrier((char *)p->group, p->n) < 0) {
			return -1;
		}
		if (i >= p->warm) {
			s->a[i - p->warm] = t0;
			s->b[i - p->warm] = now_us();
		}
	}
	return 0;
}

/*
 * After the timed loop: every other member sends its stamps to the root
 * (its parent, the master), which keeps them in all[inst].  An ordinary
 * send/receive with its own tag, outside the timed region.
 */
static int
gather(const struct plan *p, int inst, struct stamps *s, struct stamps *all)
{
	int i, who;

	if (inst != 0) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&inst, 1, 1);
		pvm_pkdouble(s->a, p->reps, 1);
		pvm_pkdouble(s->b, p->reps, 1);
		return pvm_send(pvm_parent(), TAG_TIMES) < 0 ? -1 : 0;
	}
	all[0] = *s;
	for (i = 1; i < p->n; i++) {
		if (pvm_recv(-1, TAG_TIMES) < 0 || pvm_upkint(&who, 1, 1) < 0 ||
		    who < 1 || who >= p->n || all[who].a != NULL) {
			return -1;
		}
		all[who].a = malloc(sizeof(double) * (size_t)p->reps);
		all[who].b = malloc(sizeof(double) * (size_t)p->reps);
		if (all[who].a == NULL || all[who].b == NULL ||
		    pvm_upkdouble(all[who].a, p->reps, 1) < 0 ||
		    pvm_upkdouble(all[who].b, p->reps, 1) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The extra figure of the last figures() call: median us of the release
 * skew (reduce) or of last-in to last-out (barrier); loop: the root's
 * wall time per repetition of the timed loop (its separating barrier
 * and the call, or one barrier), a throughput figure that no skew of
 * the barrier's release can shift. */
static double extra, loop;

/*
 * At the root, from every member's stamps: the median per-call time.
 * Reduce: root's return - the first member's barrier exit (from the
 * moment the first member may start until the root has the result);
 * extra: last - first barrier exit.  Barrier: the root's own
 * back-to-back call; extra: last exit - last entry.
 */
static double
figures(const struct plan *p, const struct stamps *all)
{
	double *t = malloc(sizeof(double) * (size_t)p->reps);
	double *x = malloc(sizeof(double) * (size_t)p->reps);
	double lo, hi, in, m = -1;
	int i, j, spread;

	if (t == NULL || x == NULL) {
		goto out;
	}
	for (i = 0; i < p->reps; i++) {
		lo = hi = all[0].a[i];
		in = all[0].b[i];
		for (j = 1; j < p->n; j++) {
			lo = all[j].a[i] < lo ? all[j].a[i] : lo;
			hi = all[j].a[i] > hi ? all[j].a[i] : hi;
			in = all[j].b[i] > in ? all[j].b[i] : in;
		}
		if (p->count > 0) {
			/* A scatter (bcast) ends when the last member has
			 * its part. */
			spread = p->op == 's' || p->op == 'B';
			t[i] = (spread ? in : all[0].b[i]) - lo;
			x[i] = hi - lo;
		} else {
			t[i] = all[0].b[i] - all[0].a[i];
			x[i] = in - hi;
		}
	}
	extra = median(x, p->reps);
	loop = 0;
	if (p->reps > 1) {
		loop = (all[0].a[p->reps - 1] - all[0].a[0]) / (p->reps - 1);
	}
	m = median(t, p->reps);
out:
	free(x);
	free(t);
	return m;
}

/* The timed run and the gathering; at the root, the median (or -1, -2). */
static double
measure(const struct plan *p, int inst)
{
	struct stamps s, *all = NULL;
	double m = -1;
	int cc, i;

	s.a = malloc(sizeof(double) * (size_t)p->reps);
	s.b = malloc(sizeof(double) * (size_t)p->reps);
	if (s.a == NULL || s.b == NULL ||
	    (inst == 0 && (all = calloc((size_t)p->n, sizeof(*all))) == NULL)) {
		goto out;
	}
	cc = p->count > 0 ? run_reduce(p, inst, &s) : run_barrier(p, &s);
	if (cc == -1 || gather(p, inst, &s, all) < 0) {
		goto out;
	}
	m = cc == -2 ? -2 : inst == 0 ? figures(p, all) : 0;
out:
	for (i = 1; all != NULL && i < p->n; i++) {
		free(all[i].a);
		free(all[i].b);
	}
	free(all);
	free(s.b);
	free(s.a);
	return m;
}

/* Join, meet, run the plan, meet again, leave.  Root: the median. */
static double
member(const struct plan *p, int inst)
{
	double m;

	if (pvm_barrier((char *)p->group, p->n) < 0) {
		return -1;
	}
	/* Frozen, PVM 3.4.6 caches the membership instead of asking its
	 * server on every reduce; ours caches it either way. */
	if (p->freeze && pvm_freezegroup((char *)p->group, p->n) < 0) {
		return -1;
	}
	m = measure(p, inst);
	/* Nobody leaves while another member may still need it (a wrong
	 * result at the root still lets the others finish). */
	if (m != -1 && pvm_barrier((char *)p->group, p->n) < 0 && m >= 0) {
		m = -1;
	}
	pvm_lvgroup((char *)p->group);
	return m;
}

/* A spawned copy: argv = -w group n count reps warm freeze+op. */
static int
worker(char **argv)
{
	struct plan p;
	int inst;

	snprintf(p.group, sizeof(p.group), "%s", argv[2]);
	p.n = atoi(argv[3]);
	p.count = atoi(argv[4]);
	p.reps = atoi(argv[5]);
	p.warm = atoi(argv[6]);
	p.freeze = atoi(argv[7]) % 2;
	p.op = atoi(argv[7]) / 2;
	if ((inst = pvm_joingroup(p.group)) < 0) {
		pvm_exit();
		return 1;
	}
	member(&p, inst);
	pvm_exit();
	return 0;
}

/*
 * With -H: spawn the workers in blocks, task j (the master is j = 0) on
 * host j * nhosts / n, each block with PvmTaskHost.  The number spawned.
 */
static int
spawn_placed(const struct plan *p, const char *self, char **args, int *tids)
{
	char hosts[1024], *host, *save = NULL;
	int nh = 1, h, j, cnt, got = 0, cc;
	const char *c;

	for (c = p->hosts; *c != '\0'; c++) {
		nh += *c == ',';
	}
	snprintf(hosts, sizeof(hosts), "%s", p->hosts);
	for (h = 0, host = strtok_r(hosts, ",", &save); host != NULL;
	     h++, host = strtok_r(NULL, ",", &save)) {
		for (cnt = 0, j = 1; j < p->n; j++) {
			cnt += j * nh / p->n == h;
		}
		if (cnt == 0) {
			continue;
		}
		cc = pvm_spawn((char *)self, args, PvmTaskHost, host, cnt,
		    tids + got);
		if (cc != cnt) {
			fprintf(stderr, "reduce: spawned %d of %d on %s\n",
			    cc < 0 ? 0 : cc, cnt, host);
			return cc < 0 ? got : got + cc;
		}
		got += cc;
	}
	return got;
}

/* Spawn the n - 1 workers by the master's absolute path. */
static int
spawn_workers(const struct plan *p, const char *self)
{
	char sn[16], sc[16], sr[16], sw[16], sf[16];
	char *args[] = {"-w", (char *)p->group, sn, sc, sr, sw, sf, NULL};
	int *tids, got;

	if (p->n < 2) {
		return 0;
	}
	snprintf(sn, sizeof(sn), "%d", p->n);
	snprintf(sc, sizeof(sc), "%d", p->count);
	snprintf(sr, sizeof(sr), "%d", p->reps);
	snprintf(sw, sizeof(sw), "%d", p->warm);
	snprintf(sf, sizeof(sf), "%d", p->op * 2 + (p->freeze != 0));
	if ((tids = malloc(sizeof(int) * (size_t)p->n)) == NULL) {
		return -1;
	}
	if (p->hosts != NULL) {
		got = spawn_placed(p, self, args, tids);
	} else {
		got = pvm_spawn(
		    (char *)self, args, PvmTaskDefault, "", p->n - 1, tids);
	}
	free(tids);
	if (got != p->n - 1) {
		fprintf(stderr, "reduce: spawned %d of %d\n", got, p->n - 1);
		return -1;
	}
	return 0;
}

/* Parse the master's options into p; 0 or -1 (usage). */
static int
parse(int argc, char **argv, struct plan *p)
{
	int i, barrier = 0;

	memset(p, 0, sizeof(*p));
	p->reps = -1;
	p->warm = -1;
	p->op = 'r';
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			p->n = atoi(argv[++i]);
		} else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
			p->count = atoi(argv[++i]);
		} else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			p->reps = atoi(argv[++i]);
		} else if (strcmp(argv[i], "-b") == 0) {
			barrier = 1;
		} else if (strcmp(argv[i], "-f") == 0) {
			p->freeze = 1;
		} else if (strcmp(argv[i], "-g") == 0) {
			p->op = 'g';
		} else if (strcmp(argv[i], "-s") == 0) {
			p->op = 's';
		} else if (strcmp(argv[i], "-B") == 0) {
			p->op = 'B';
		} else if (strcmp(argv[i], "-H") == 0 && i + 1 < argc) {
			p->hosts = argv[++i];
		} else if (strcmp(argv[i], "-W") == 0 && i + 1 < argc) {
			p->warm = atoi(argv[++i]);
		} else {
			return -1;
		}
	}
	if (p->n < 1 || (barrier ? p->count != 0 : p->count < 1)) {
		return -1;
	}
	if (p->reps < 1) {
		p->reps = barrier ? 501 : default_reps(p->count);
	}
	if (p->warm < 0) {
		p->warm = p->reps / 10 + 5;
	}
	snprintf(p->group, sizeof(p->group), "breduce.%d", (int)getpid());
	return 0;
}

/* The first word of the output line. */
static const char *
opname(const struct plan *p)
{
	return p->op == 'g'   ? "gather"
	       : p->op == 's' ? "scatter"
	       : p->op == 'B' ? "bcast"
	                      : "reduce";
}

int
main(int argc, char **argv)
{
	char self[PATH_MAX];
	struct plan p;
	double m;
	int inst;

	if (argc == 8 && strcmp(argv[1], "-w") == 0) {
		return worker(argv);
	}
	if (parse(argc, argv, &p) < 0) {
		fprintf(stderr,
		    "usage: reduce -n N (-c COUNT [-g|-s|-B] | -b) [-f] "
		    "[-r REPS] [-W WARM] [-H HOST,...]\n");
		return 1;
	}
	if (realpath(argv[0], self) == NULL || pvm_mytid() < 0) {
		return 1;
	}
	if ((inst = pvm_joingroup(p.group)) != 0) {
		fprintf(stderr, "reduce: joined as instance %d\n", inst);
		pvm_exit();
		return 1;
	}
	if (spawn_workers(&p, self) < 0) {
		pvm_exit();
		return 1;
	}
	m = member(&p, inst);
	pvm_exit();
	if (m == -2) {
		printf("%s %d %d bad %d\n", opname(&p), p.n, p.count, p.reps);
		return 2;
	}
	if (m < 0) {
		fprintf(stderr, "reduce: a group call failed\n");
		return 1;
	}
	if (p.count > 0) {
		printf("%s %d %d %.2f %d %.2f %.2f %.2f %.2f\n", opname(&p),
		    p.n, p.count, m, p.reps, p10, p90, extra, loop);
	} else {
		printf("barrier %d %.2f %d %.2f %.2f %.2f %.2f\n", p.n, m,
		    p.reps, p10, p90, extra, loop);
	}
	return 0;
}
