/*
 * t_place.c: task program of t-place.sh, the pvmd's binding of its tasks
 * to CPUs (daemon/place.c).
 *
 *   t_place bind    from 2 to as many tasks as CPUs: each bound to a CPU
 *                   of its own; the group server does not count and is
 *                   not bound; one task more: all let go; back to 2:
 *                   bound again; a task that bound itself keeps its own
 *   t_place none    (pvmd started with PVM_BIND=none) nobody is bound
 *
 * Spawned copies ("child", "child-self") wait for a message and exit.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#include <sched.h>

#include "tcheck.h"

#define TAG_GO 90
#define MAXT 64

static cpu_set_t full; /* our mask before we enrolled: the pvmd's too */

/* The highest CPU of the full mask (where "child-self" binds itself). */
static int
last_cpu(void)
{
	int cpu;

	for (cpu = CPU_SETSIZE - 1; !CPU_ISSET(cpu, &full); cpu--) {
	}
	return cpu;
}

/* The CPU pid is bound to alone, -1 for the full mask, -2 otherwise. */
static int
bound_cpu(int pid)
{
	cpu_set_t m;
	int cpu;

	if (sched_getaffinity(pid, sizeof(m), &m) != 0) {
		return -3;
	}
	if (CPU_EQUAL(&m, &full)) {
		return -1;
	}
	if (CPU_COUNT(&m) != 1) {
		return -2;
	}
	for (cpu = 0; !CPU_ISSET(cpu, &m); cpu++) {
	}
	return cpu;
}

/* The pid of task tid, or 0. */
static int
pid_of(int tid)
{
	struct pvmtaskinfo *ti;
	int n;

	if (pvm_tasks(tid, &n, &ti) < 0 || n != 1) {
		return 0;
	}
	return ti[0].ti_pid;
}

/* The pid of the group server on our host, or 0. */
static int
pvmgs_pid(void)
{
	struct pvmtaskinfo *ti;
	int n, i;

	if (pvm_tasks(0, &n, &ti) < 0) {
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (strstr(ti[i].ti_a_out, "pvmgs") != NULL) {
			return ti[i].ti_pid;
		}
	}
	return 0;
}

/* Whether every pid is bound to a CPU of its own, none shared. */
static int
all_apart(const int *pids, int n)
{
	int cpu[MAXT], i, j;

	for (i = 0; i < n; i++) {
		if ((cpu[i] = bound_cpu(pids[i])) < 0) {
			return 0;
		}
		for (j = 0; j < i; j++) {
			if (cpu[j] == cpu[i]) {
				return 0;
			}
		}
	}
	return 1;
}

/* Whether every pid has the full mask. */
static int
all_free(const int *pids, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (bound_cpu(pids[i]) != -1) {
			return 0;
		}
	}
	return 1;
}

/* Poll want(pids, n) for up to secs; its last answer. */
static int
settle(int (*want)(const int *, int), const int *pids, int n, double secs)
{
	double end = tc_now() + secs;

	while (!want(pids, n) && tc_now() < end) {
		tc_sleep(0.02);
	}
	return want(pids, n);
}

/* Spawn n copies in role; their tids and pids. */
static int
spawn(const char *role, int n, int *tids, int *pids)
{
	char *args[] = {(char *)role, NULL};
	int i, got = tc_spawn_self(args, n, tids);

	for (i = 0; i < got; i++) {
		pids[i] = pid_of(tids[i]);
		tc_check(pids[i] > 0, "pid of spawned t%x", (unsigned)tids[i]);
	}
	return got;
}

/* Tell the copies to exit and wait until they are gone. */
static void
dismiss(const int *tids, int n)
{
	int i, k;

	pvm_initsend(PvmDataDefault);
	for (i = 0; i < n; i++) {
		pvm_send(tids[i], TAG_GO);
	}
	for (k = 0; k < 500; k++) {
		for (i = 0; i < n && pvm_pstat(tids[i]) != PvmOk; i++) {
		}
		if (i == n) {
			return;
		}
		tc_sleep(0.02);
	}
}

/* 2 tasks, then the group server, then one task too many, then 2 again. */
static int
run_bind(void)
{
	int ncpus = CPU_COUNT(&full), pids[MAXT], tids[MAXT], n, gs, ok;

	pids[0] = getpid();
	if (spawn("child", 1, tids + 1, pids + 1) != 1) {
		tc_fatal("spawn of 1 child");
	}
	ok = settle(all_apart, pids, 2, 5);
	tc_check(ok, "2 tasks: each bound to a CPU of its own (%d, %d)",
	    bound_cpu(pids[0]), bound_cpu(pids[1]));
	tc_eq(pvm_joingroup("P"), 0, "join group P (starts pvmgs)");
	gs = pvmgs_pid();
	tc_check(gs > 0, "pvmgs runs (pid %d)", gs);
	tc_sleep(0.3);
	tc_eq(bound_cpu(gs), -1, "pvmgs is not bound");
	tc_check(all_apart(pids, 2), "the 2 tasks stay bound beside pvmgs");
	pvm_lvgroup("P");
	if (ncpus + 1 > MAXT) {
		tc_info("%d CPUs: more than this test spawns; the case of one "
		        "task more than CPUs is left out",
		    ncpus);
		dismiss(tids + 1, 1);
		return 0;
	}
	n = spawn("child", ncpus - 1, tids + 2, pids + 2);
	tc_eq(n, ncpus - 1, "spawned %d more", ncpus - 1);
	tc_check(settle(all_free, pids, n + 2, 5),
	    "%d tasks on %d CPUs: none bound", n + 2, ncpus);
	dismiss(tids + 2, n);
	ok = settle(all_apart, pids, 2, 5);
	tc_check(ok, "back to 2 tasks: bound again (%d, %d)",
	    bound_cpu(pids[0]), bound_cpu(pids[1]));
	dismiss(tids + 1, 1);
	return 0;
}

/* A child that binds itself before it enrols keeps its own binding. */
static int
run_selfbound(void)
{
	int pids[2], tids[2], last = last_cpu(), ok;

	pids[0] = getpid();
	if (spawn("child-self", 1, tids + 1, pids + 1) != 1) {
		tc_fatal("spawn of the self-binding child");
	}
	ok = settle(all_apart, pids, 1, 5);
	tc_check(ok, "we are bound (%d)", bound_cpu(pids[0]));
	tc_sleep(0.3);
	tc_eq(bound_cpu(pids[1]), last,
	    "the child that bound itself to CPU %d kept it", last);
	dismiss(tids + 1, 1);
	return 0;
}

/* PVM_BIND=none: 2 tasks, nobody bound. */
static int
run_none(void)
{
	int pids[2], tids[2];

	pids[0] = getpid();
	if (spawn("child", 1, tids + 1, pids + 1) != 1) {
		tc_fatal("spawn of 1 child");
	}
	tc_sleep(0.5);
	tc_check(all_free(pids, 2), "PVM_BIND=none: neither of 2 is bound");
	dismiss(tids + 1, 1);
	return 0;
}

/* A spawned copy: wait for the word, then exit. */
static int
child(int self_bind)
{
	cpu_set_t one;

	if (self_bind) {
		CPU_ZERO(&one);
		CPU_SET(last_cpu(), &one);
		sched_setaffinity(0, sizeof(one), &one);
	}
	if (pvm_mytid() > 0) {
		tc_trecv(pvm_parent(), TAG_GO, 60);
	}
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	tc_init("t_place");
	if (sched_getaffinity(0, sizeof(full), &full) != 0) {
		tc_fatal("sched_getaffinity");
	}
	if (strcmp(mode, "child") == 0 || strcmp(mode, "child-self") == 0) {
		return child(strcmp(mode, "child-self") == 0);
	}
	if (pvm_mytid() < 0) {
		tc_fatal("pvm_mytid");
	}
	if (strcmp(mode, "bind") == 0) {
		run_bind();
	} else if (strcmp(mode, "self") == 0) {
		run_selfbound();
	} else if (strcmp(mode, "none") == 0) {
		run_none();
	} else {
		tc_fatal("usage: t_place bind|self|none");
	}
	pvm_exit();
	return tc_done();
}
