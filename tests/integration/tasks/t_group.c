/*
 * t_group.c: task program of the t-group-*.sh tests (libgpvm3 membership,
 * barrier, bcast, gather, scatter, freezegroup, failures).
 *
 *   t_group basic          join/leave/instances/gsize/gettid/getinst and
 *                          their error codes, with spawned joiners
 *   t_group first G [DIR]  join group G, print the server tid, exit; with
 *                          the VM's DIR: one barrier segment per group
 *   t_group second G       the server of a previous program is found
 *                          again (same tid, still one pvmgs)
 *   t_group race G N       one of N programs started at once, before any
 *                          server runs: one server, distinct instances
 *   t_group coll N         N members: barrier (-1, mismatch), bcast (and
 *                          a train of them, in order, over routes),
 *                          gather, scatter, freezegroup
 *   t_group killserver     the server dies while a member waits in a
 *                          barrier: PvmSysErr in bounded time; a new
 *                          server starts on the next call
 *   t_group killmember     a member is SIGKILLed while others wait in a
 *                          barrier, a gather and a scatter: PvmNoTask
 *
 * Spawned copies run the child roles (argv[1] = "child-..."); they report
 * to the parent, which prints every check.
 */
#include <dirent.h>
#include <signal.h>

#include "tcheck.h"
#include "tgetfds.h"

#define TAG_REPORT 77
#define TAG_GO 78
#define TAG_READY 79
#define TAG_BCAST 80
#define TAG_GATHER 81
#define TAG_SCATTER 82
#define TAG_INFO 83
#define TAG_TRAIN 84
#define TRAIN 20

/* ---- child side: checks are collected and sent to the parent ---- */

static char ch_fails[4096];
static int ch_nchecks;

/* A check in a child: remembered, reported at the end. */
static void
ch_eq(long got, long want, const char *what)
{
	size_t n = strlen(ch_fails);

	ch_nchecks++;
	if (got != want && n < sizeof(ch_fails) - 200) {
		snprintf(ch_fails + n, sizeof(ch_fails) - n,
		    "%s%s: got %ld want %ld", n ? "; " : "", what, got, want);
	}
}

/* Send the report: int inst, int nchecks, str failures. */
static void
ch_report(int inst)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&inst, 1, 1);
	pvm_pkint(&ch_nchecks, 1, 1);
	pvm_pkstr(ch_fails);
	pvm_send(pvm_parent(), TAG_REPORT);
}

/* Parent: receive one child report within secs and turn it into a check. */
static void
get_report(const char *what, double secs)
{
	char fails[4096];
	int b, inst = -1, n = 0, src = 0;

	if ((b = tc_trecv(-1, TAG_REPORT, secs)) == 0) {
		tc_check(0, "%s: report from a child within %.0f s", what, secs);
		return;
	}
	pvm_upkint(&inst, 1, 1);
	pvm_upkint(&n, 1, 1);
	pvm_upkstr(fails);
	pvm_bufinfo(b, NULL, NULL, &src);
	tc_check(fails[0] == '\0' && n > 0,
	    "%s: child t%x (inst %d) passed its %d checks%s%s", what,
	    (unsigned)src, inst, n, fails[0] ? ": " : "", fails);
}

/* Wait for an int message with tag from anyone; the value, or -999. */
static int
wait_int(int tag, double secs, int *src)
{
	int v = -999;

	if (tc_recv_ints(-1, tag, &v, 1, secs) <= 0) {
		return -999;
	}
	if (src != NULL) {
		pvm_bufinfo(pvm_getrbuf(), NULL, NULL, src);
	}
	return v;
}

/* Spawn n children running role with extra args. */
static int
spawn_role(const char *role, const char *a1, const char *a2, int n,
    int *tids)
{
	char *args[4] = { (char *)role, (char *)a1, (char *)a2, NULL };

	if (a1 == NULL) {
		args[1] = NULL;
	}
	return tc_spawn_self(args, n, tids);
}

/* Poll f(group) until it returns want or secs pass; the last value. */
static int
poll_gsize(const char *g, int want, double secs)
{
	double end = tc_now() + secs;
	int v;

	while ((v = pvm_gsize((char *)g)) != want && tc_now() < end) {
		tc_sleep(0.01);
	}
	return v;
}

/* ---- basic ---- */

/* Child "joiner": join A, report inst, then obey "leave"/"exit". */
static int
child_joiner(void)
{
	int inst, cmd = 0;

	inst = pvm_joingroup("A");
	tc_send_ints(pvm_parent(), TAG_READY, &inst, 1);
	while (tc_recv_ints(pvm_parent(), TAG_GO, &cmd, 1, 60) > 0) {
		if (cmd == 1) {
			cmd = pvm_lvgroup("A");
			tc_send_ints(pvm_parent(), TAG_READY, &cmd, 1);
		} else {
			break;
		}
	}
	pvm_exit();
	return 0;
}

static int
run_basic(void)
{
	int me = pvm_mytid(), tids[4], inst[4], i, v, src, cmd, idx;
	int byinst[8];

	tc_eq(pvm_joingroup(NULL), PvmNullGroup, "joingroup(NULL)");
	tc_eq(pvm_joingroup(""), PvmNullGroup, "joingroup(\"\")");
	tc_eq(pvm_lvgroup(NULL), PvmNullGroup, "lvgroup(NULL)");
	tc_eq(pvm_gsize(NULL), PvmNullGroup, "gsize(NULL)");
	tc_eq(pvm_gsize("nosuch"), PvmNoGroup, "gsize(no group)");
	tc_eq(pvm_lvgroup("nosuch"), PvmNoGroup, "lvgroup(no group)");
	tc_eq(pvm_getinst("nosuch", me), PvmNoGroup, "getinst(no group)");
	tc_eq(pvm_gettid("nosuch", 0), PvmNoGroup, "gettid(no group)");
	tc_eq(pvm_barrier("nosuch", -1), PvmNoGroup, "barrier(no group)");
	tc_eq(pvm_joingroup("A"), 0, "first join gets instance 0");
	tc_eq(pvm_joingroup("A"), PvmDupGroup, "second join of A");
	tc_eq(pvm_joingroup("B"), 0, "join of another group B");
	tc_eq(pvm_gsize("A"), 1, "gsize(A) alone");
	tc_eq(pvm_getinst("A", me), 0, "getinst(A, me)");
	tc_eq(pvm_gettid("A", 0), me, "gettid(A, 0)");
	tc_eq(pvm_gettid("A", 1), PvmNoInst, "gettid(A, 1)");
	tc_eq(pvm_gettid("A", -1), PvmNoInst, "gettid(A, -1)");
	tc_eq(pvm_getinst("A", me + 1), PvmNotInGroup,
	    "getinst(A, other tid)");
	tc_eq(pvm_barrier("A", 0), PvmMismatch, "barrier count 0 (PVM 3.4)");
	tc_eq(pvm_barrier("A", 1), 0, "barrier count 1 alone");
	tc_eq(pvm_barrier("A", -1), 0, "barrier count -1 alone");
	tc_eq(pvm_freezegroup("A", 0), PvmMismatch,
	    "freezegroup size 0 (PVM 3.4)");

	if (spawn_role("child-joiner", NULL, NULL, 3, tids) != 3) {
		tc_fatal("spawn of 3 joiners");
	}
	for (i = 0; i < 8; i++) {
		byinst[i] = 0;
	}
	for (i = 0; i < 3; i++) {
		v = wait_int(TAG_READY, 30, &src);
		idx = tc_index(tids, 3, src);
		tc_check(v >= 1 && v <= 3 && idx >= 0,
		    "joiner t%x got instance %d (1..3)", (unsigned)src, v);
		if (v >= 1 && v <= 3 && idx >= 0) {
			byinst[v] = src;
			inst[idx] = v;
		}
	}
	tc_eq(poll_gsize("A", 4, 10), 4, "gsize(A) after 3 joins");
	for (i = 1; i <= 3; i++) {
		tc_eq(pvm_gettid("A", i), byinst[i], "gettid(A, %d)", i);
		tc_eq(pvm_getinst("A", byinst[i]), i, "getinst(A, t%x)",
		    (unsigned)byinst[i]);
	}
	tc_eq(pvm_gsize("B"), 1, "gsize(B) unchanged");

	/* Instance 2 leaves; its number is the next one given out. */
	cmd = 1;
	tc_send_ints(byinst[2], TAG_GO, &cmd, 1);
	tc_eq(wait_int(TAG_READY, 30, NULL), 0, "lvgroup(A) by instance 2");
	tc_eq(poll_gsize("A", 3, 10), 3, "gsize(A) after a leave");
	tc_eq(pvm_gettid("A", 2), PvmNoInst, "gettid(A, 2) after its leave");
	tc_eq(pvm_getinst("A", byinst[2]), PvmNotInGroup,
	    "getinst of the leaver");
	if (spawn_role("child-joiner", NULL, NULL, 1, &tids[3]) != 1) {
		tc_fatal("spawn of a 4th joiner");
	}
	tc_eq(wait_int(TAG_READY, 30, NULL), 2,
	    "new joiner reuses the lowest free instance 2");
	tc_eq(poll_gsize("A", 4, 10), 4, "gsize(A) back to 4");

	/* Instance 1 exits without leaving: the server drops it. */
	cmd = 2;
	tc_send_ints(byinst[1], TAG_GO, &cmd, 1);
	tc_eq(poll_gsize("A", 3, 10), 3, "gsize(A) after a member exits");
	tc_eq(pvm_gettid("A", 1), PvmNoInst, "gettid(A, 1) after its exit");

	/* Everyone leaves: the group is deleted, numbering restarts. */
	for (i = 0; i < 4; i++) {
		if (i < 3 && inst[i] == 1) {
			continue;
		}
		tc_send_ints(tids[i], TAG_GO, &cmd, 1);
	}
	tc_eq(pvm_lvgroup("A"), 0, "lvgroup(A) by instance 0");
	tc_eq(pvm_lvgroup("A") < 0, 1, "second lvgroup(A) fails");
	tc_eq(poll_gsize("A", PvmNoGroup, 10), PvmNoGroup,
	    "A is deleted once empty");
	tc_eq(pvm_joingroup("A"), 0, "A re-created: instance 0 again");
	tc_eq(pvm_lvgroup("A"), 0, "lvgroup(A)");
	tc_eq(pvm_lvgroup("B"), 0, "lvgroup(B)");
	tc_eq(getfds_calls, 0, "pvm_getfds calls by libgpvm3 (none)");
	return tc_done();
}

/* ---- server found again ---- */

/* The server tid from the mailbox, or 0. */
static int
mbox_server(void)
{
	int b, tid = 0;

	b = pvm_recvinfo("pvmgs", 0, PvmMboxDefault);
	if (b > 0) {
		pvm_upkint(&tid, 1, 1);
	}
	return tid;
}

/* Number of tasks whose program name ends in "pvmgs". */
static int
count_servers(void)
{
	struct pvmtaskinfo *ti;
	int n = 0, i, k = 0;
	size_t len;

	if (pvm_tasks(0, &n, &ti) < 0) {
		return -1;
	}
	for (i = 0; i < n; i++) {
		len = strlen(ti[i].ti_a_out);
		if (len >= 5 && strcmp(ti[i].ti_a_out + len - 5, "pvmgs") == 0) {
			k++;
		}
	}
	return k;
}

/* Barrier segments (g<8 hex digits>) in the virtual machine's dir. */
static int
count_segments(const char *dir)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL) {
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		n += de->d_name[0] == 'g' && strlen(de->d_name) == 9;
	}
	closedir(d);
	return n;
}

static int
run_first(const char *g, const char *dir)
{
	int s;

	tc_eq(pvm_joingroup((char *)g), 0, "join %s", g);
	if (dir != NULL) {
		tc_eq(count_segments(dir), 1, "one barrier segment in %s", dir);
		tc_eq(pvm_joingroup("G-other"), 0, "join G-other");
		tc_eq(count_segments(dir), 2, "a segment per group");
		tc_eq(pvm_lvgroup("G-other"), 0, "leave G-other (deleted)");
		tc_eq(count_segments(dir), 1, "its segment removed with it");
	}
	s = mbox_server();
	tc_check(s > 0, "server registered in mailbox \"pvmgs\" (t%x)",
	    (unsigned)s);
	tc_eq(count_servers(), 1, "one pvmgs task");
	printf("SERVER %x\n", (unsigned)s);
	return tc_done();
}

static int
run_second(const char *g, const char *was)
{
	int before = mbox_server(), want = (int)strtol(was, NULL, 16);

	tc_eq(before, want, "server of the first program still registered");
	tc_eq(pvm_gsize((char *)g), PvmNoGroup,
	    "the first program's group went with it");
	tc_eq(pvm_joingroup((char *)g), 0, "join %s", g);
	tc_eq(mbox_server(), want, "same server after the join");
	tc_eq(count_servers(), 1, "still one pvmgs task");
	return tc_done();
}

/* Started n times at once from the shell, with no server running: one
 * server wins, every instance is distinct and below n. */
static int
run_race(const char *g, int n)
{
	int inst;

	inst = pvm_joingroup((char *)g);
	tc_check(inst >= 0 && inst < n, "racing join: instance %d of %d",
	    inst, n);
	tc_eq(pvm_barrier((char *)g, n), 0, "barrier of the %d racers", n);
	tc_eq(count_servers(), 1, "one pvmgs after the race");
	tc_eq(pvm_gsize((char *)g), n, "gsize after the race");
	tc_eq(pvm_barrier((char *)g, n), 0, "barrier before leaving");
	return tc_done();
}

/* ---- collectives ---- */

/*
 * Every member bcasts TRAIN numbered messages.  The first copies go
 * through the pvmd while pvm_bcast's routes open, the rest over them:
 * each sender's copies must still come in order, and the routes must be
 * there afterwards (pvm_getfds lists more than the pvmd's socket).
 */
static void
coll_bcast_train(int n, int inst)
{
	int next[64] = {0}, w[2], i, k, bad = 0, *fds;

	for (k = 0; k < TRAIN; k++) {
		w[0] = inst;
		w[1] = k;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(w, 2, 1);
		ch_eq(pvm_bcast("C", TAG_TRAIN), n > 1 ? 0 : PvmNoInst,
		    "pvm_bcast of the train");
	}
	for (i = 0; i < (n - 1) * TRAIN; i++) {
		if (tc_trecv(-1, TAG_TRAIN, 20) == 0) {
			break;
		}
		pvm_upkint(w, 2, 1);
		if (w[0] < 0 || w[0] >= 64 || w[1] != next[w[0]]++) {
			bad++;
		}
	}
	ch_eq(i, (n - 1) * TRAIN, "train copies received");
	ch_eq(bad, 0, "train copies out of order");
	ch_eq(pvm_barrier("C", -1), 0, "barrier(C, -1) after the train");
	if (n > 1) {
		ch_eq(pvm_getfds(&fds) > 1, 1, "pvm_bcast opened routes");
	}
}

/* One member's part of "coll": checks on every member. */
static int
coll_member(int n, int joined, int *insts_out)
{
	int me = pvm_mytid(), inst, i, k, b, v, cc, seen[64];
	int gdata[5], *gres = NULL, sres[5], *sdata = NULL;
	double dd[3], *dres = NULL;

	inst = joined >= 0 ? joined : pvm_joingroup("C");
	*insts_out = inst;
	ch_eq(inst >= 0 && inst < n, 1, "joined C with instance < n");
	/* Explicit count while others may still join. */
	ch_eq(pvm_barrier("C", n), 0, "barrier(C, n)");
	ch_eq(pvm_gsize("C"), n, "gsize(C) after the barrier");
	ch_eq(pvm_gettid("C", inst), me, "gettid(C, my inst)");
	ch_eq(pvm_barrier("C", -1), 0, "barrier(C, -1)");

	/* Mismatch: instance 0 waits for 2, instance 1 tries 5 first. */
	/* The others keep out of it (one barrier per group at a time). */
	if (inst == 0 && n >= 2) {
		tc_send_ints(pvm_gettid("C", 1), TAG_INFO, &inst, 1);
		ch_eq(pvm_barrier("C", 2), 0, "barrier(C, 2) by instance 0");
		for (i = 2; i < n; i++) {
			tc_send_ints(pvm_gettid("C", i), TAG_INFO, &inst, 1);
		}
	} else if (inst >= 2) {
		ch_eq(tc_recv_ints(-1, TAG_INFO, &v, 1, 30) > 0, 1,
		    "note from instance 0");
	} else if (inst == 1) {
		ch_eq(tc_recv_ints(-1, TAG_INFO, &v, 1, 30) > 0, 1,
		    "note from instance 0");
		tc_sleep(0.5);
		ch_eq(pvm_barrier("C", 5), PvmMismatch,
		    "barrier(C, 5) against a barrier of 2");
		ch_eq(pvm_barrier("C", 2), 0, "barrier(C, 2) by instance 1");
	}
	ch_eq(pvm_barrier("C", -1), 0, "barrier(C, -1) after mismatch");

	/* bcast: n - 1 copies, none to the sender. */
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&inst, 1, 1);
	cc = pvm_bcast("C", TAG_BCAST);
	ch_eq(cc, n > 1 ? 0 : PvmNoInst, "pvm_bcast");
	for (i = 0; i < 64; i++) {
		seen[i] = 0;
	}
	for (i = 0; i < n - 1; i++) {
		if ((b = tc_trecv(-1, TAG_BCAST, 20)) == 0) {
			break;
		}
		v = -1;
		pvm_upkint(&v, 1, 1);
		if (v >= 0 && v < 64) {
			seen[v]++;
		}
	}
	ch_eq(i, n - 1, "bcast copies received");
	for (i = 0; i < n && i < 64; i++) {
		ch_eq(seen[i], i == inst ? 0 : 1, "copies from one instance");
	}
	ch_eq(pvm_barrier("C", -1), 0, "barrier(C, -1) after bcast");
	ch_eq(tc_trecv(-1, TAG_BCAST, 0.2) == 0, 1, "no extra bcast copy");
	coll_bcast_train(n, inst);

	/* gather to the last instance: ints, then doubles to instance 0. */
	for (k = 0; k < 5; k++) {
		gdata[k] = inst * 100 + k;
	}
	if (inst == n - 1) {
		gres = calloc((size_t)n * 5, sizeof(*gres));
	}
	cc = pvm_gather(gres, gdata, 5, PVM_INT, TAG_GATHER, "C", n - 1);
	ch_eq(cc, 0, "pvm_gather PVM_INT");
	if (gres != NULL) {
		for (i = 0; i < n * 5; i++) {
			ch_eq(gres[i], (i / 5) * 100 + i % 5, "gathered int");
		}
		free(gres);
	}
	for (k = 0; k < 3; k++) {
		dd[k] = inst + k / 4.0;
	}
	if (inst == 0) {
		dres = calloc((size_t)n * 3, sizeof(*dres));
	}
	cc = pvm_gather(dres, dd, 3, PVM_DOUBLE, TAG_GATHER, "C", 0);
	ch_eq(cc, 0, "pvm_gather PVM_DOUBLE");
	if (dres != NULL) {
		for (i = 0; i < n * 3; i++) {
			ch_eq(dres[i] == (i / 3) + (i % 3) / 4.0, 1,
			    "gathered double");
		}
		free(dres);
	}

	/* scatter from instance 0. */
	if (inst == 0) {
		sdata = malloc((size_t)n * 5 * sizeof(*sdata));
		for (i = 0; i < n * 5; i++) {
			sdata[i] = (i / 5) * 1000 + i % 5;
		}
	}
	cc = pvm_scatter(sres, sdata, 5, PVM_INT, TAG_SCATTER, "C", 0);
	ch_eq(cc, 0, "pvm_scatter");
	for (k = 0; k < 5; k++) {
		ch_eq(sres[k], inst * 1000 + k, "scattered int");
	}
	free(sdata);
	ch_eq(pvm_gather(NULL, gdata, 0, PVM_INT, 1, "C", 0), PvmBadParam,
	    "gather count 0");
	ch_eq(pvm_gather(NULL, gdata, 1, PVM_STR, 1, "C", 0), PvmBadParam,
	    "gather PVM_STR");
	ch_eq(pvm_gather(gdata, gdata, 1, PVM_INT, 1, "C", n), PvmNoInst,
	    "gather to a missing root");
	ch_eq(pvm_gather(gdata, gdata, 1, PVM_INT, 1, "nosuch", 0),
	    PvmNoGroup, "gather on no group");

	/* freeze: everyone gets n; then the view is fixed. */
	ch_eq(pvm_freezegroup("C", -1), n, "freezegroup(C, -1)");
	ch_eq(pvm_freezegroup("C", -1), PvmDupGroup, "second freezegroup");
	ch_eq(pvm_gsize("C"), n, "gsize(C) frozen");
	ch_eq(pvm_gettid("C", inst), me, "gettid(C) frozen");
	ch_eq(pvm_barrier("C", -1), 0, "barrier on the frozen group");
	return inst;
}

static int
child_coll(int n)
{
	int inst = -1;

	coll_member(n, -1, &inst);
	ch_report(inst);
	/* Stay a member until the parent has checked the frozen group. */
	tc_recv_ints(pvm_parent(), TAG_GO, &inst, 1, 60);
	pvm_exit();
	return 0;
}

static int
run_coll(int n)
{
	int tids[64], i, inst = -1, nt, go = 1;
	char arg[16];

	snprintf(arg, sizeof(arg), "%d", n);
	inst = pvm_joingroup("C");
	tc_eq(inst, 0, "parent is instance 0 of C");
	nt = n - 1;
	if (nt > 0 && spawn_role("child-coll", arg, NULL, nt, tids) != nt) {
		tc_fatal("spawn of %d members", nt);
	}
	coll_member(n, inst, &inst);
	tc_check(ch_fails[0] == '\0', "parent (inst %d): %d checks%s%s", inst,
	    ch_nchecks, ch_fails[0] ? ": " : "", ch_fails);
	for (i = 0; i < nt; i++) {
		get_report("coll", 60);
	}
	tc_eq(pvm_joingroup("C"), PvmDupGroup, "join of frozen C by member");
	for (i = 0; i < nt; i++) {
		tc_send_ints(tids[i], TAG_GO, &go, 1);
	}
	return tc_done();
}

/* ---- failures ---- */

/* Child: join g, tell the parent, wait for "go", then do op. */
static int
child_fail(const char *g, const char *op)
{
	int inst, cc = 1, v, buf[4] = { 0 };
	double t0;

	inst = pvm_joingroup((char *)g);
	tc_send_ints(pvm_parent(), TAG_READY, &inst, 1);
	tc_recv_ints(pvm_parent(), TAG_GO, &v, 1, 60);
	tc_send_ints(pvm_parent(), TAG_READY, &inst, 1);
	t0 = tc_now();
	if (strcmp(op, "barrier") == 0) {
		cc = pvm_barrier((char *)g, -1);
	} else if (strcmp(op, "scatter") == 0) {
		cc = pvm_scatter(buf, buf, 1, PVM_INT, 5, (char *)g, 0);
	} else if (strcmp(op, "sleep") == 0) {
		tc_sleep(60);
	} else if (strcmp(op, "die") == 0) {
		/* Die in the middle of the others' collective, without leaving
		 * the group.  The parent waits 0.5 s after our second READY,
		 * then enters the gather at once, so by 2 s it is waiting. */
		tc_sleep(2.0);
		raise(SIGKILL);
	} else if (strcmp(op, "gather") == 0) {
		cc = pvm_gather(buf, &inst, 1, PVM_INT, 5, (char *)g, 0);
	}
	v = (int)((tc_now() - t0) * 1000);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&inst, 1, 1);
	pvm_pkint(&cc, 1, 1);
	pvm_pkint(&v, 1, 1);
	pvm_send(pvm_parent(), TAG_REPORT);
	tc_recv_ints(pvm_parent(), TAG_GO, &v, 1, 60);
	pvm_exit();
	return 0;
}

/* Parent: get a child's (inst, cc, ms) report. */
static int
fail_report(int *cc, int *ms, double secs)
{
	int inst = -1;

	*cc = 1;
	*ms = -1;
	if (tc_trecv(-1, TAG_REPORT, secs) == 0) {
		return -1;
	}
	pvm_upkint(&inst, 1, 1);
	pvm_upkint(cc, 1, 1);
	pvm_upkint(ms, 1, 1);
	return inst;
}

/* Spawn n children in role op on g; wait until they joined and went. */
static int
fail_start(const char *g, const char *op, int n, int *tids)
{
	int i, v = 1;

	if (spawn_role("child-fail", g, op, n, tids) != n) {
		tc_fatal("spawn of %d children", n);
	}
	for (i = 0; i < n; i++) {
		wait_int(TAG_READY, 30, NULL);
	}
	for (i = 0; i < n; i++) {
		tc_send_ints(tids[i], TAG_GO, &v, 1);
	}
	for (i = 0; i < n; i++) {
		wait_int(TAG_READY, 30, NULL);
	}
	/* Let their requests reach the server. */
	tc_sleep(0.5);
	return 0;
}

static int
run_killserver(void)
{
	int tids[1], s, s2, cc, ms;
	double t0;

	tc_eq(pvm_joingroup("K"), 0, "join K");
	s = mbox_server();
	fail_start("K", "barrier", 1, tids);
	tc_eq(pvm_sendsig(s, SIGKILL), 0, "SIGKILL to pvmgs t%x", (unsigned)s);
	fail_report(&cc, &ms, 30);
	tc_eq(cc, PvmSysErr, "member waiting in a barrier gets PvmSysErr");
	tc_check(ms >= 0 && ms < 10000, "... within 10 s (%d ms)", ms);
	t0 = tc_now();
	tc_eq(pvm_barrier("K", -1), PvmSysErr, "our next request: PvmSysErr");
	tc_check(tc_now() - t0 < 10, "... within 10 s");
	tc_eq(pvm_joingroup("K2"), 0, "next call starts a new server");
	s2 = mbox_server();
	tc_check(s2 > 0 && s2 != s, "new server t%x registered", (unsigned)s2);
	tc_eq(pvm_gsize("K"), PvmNoGroup, "old groups are gone");
	cc = 1;
	tc_send_ints(tids[0], TAG_GO, &cc, 1);
	return tc_done();
}

static int
run_killmember(void)
{
	int tids[3], cc, ms, inst, res[4];
	double t0;

	/* Barrier: two wait, one is killed before it arrives. */
	tc_eq(pvm_joingroup("D"), 0, "join D");
	fail_start("D", "sleep", 1, &tids[2]);
	fail_start("D", "barrier", 2, tids);
	tc_eq(pvm_sendsig(tids[2], SIGKILL), 0, "SIGKILL to a member");
	/* We never arrive either; both waiters must fail. */
	inst = fail_report(&cc, &ms, 30);
	tc_eq(cc, PvmNoTask, "waiter inst %d: barrier fails with PvmNoTask",
	    inst);
	inst = fail_report(&cc, &ms, 30);
	tc_eq(cc, PvmNoTask, "waiter inst %d: barrier fails with PvmNoTask",
	    inst);
	tc_check(ms >= 0 && ms < 10000, "... within 10 s (%d ms)", ms);
	cc = 1;
	tc_send_ints(tids[0], TAG_GO, &cc, 1);
	tc_send_ints(tids[1], TAG_GO, &cc, 1);
	tc_eq(poll_gsize("D", 1, 10), 1, "D is back to one member");

	/* Gather at the root (us): one member sends, one is killed. */
	tc_eq(pvm_joingroup("E"), 0, "join E");
	fail_start("E", "gather", 1, tids);
	fail_start("E", "die", 1, &tids[1]);
	tc_eq(pvm_gsize("E"), 3, "E has 3 members");
	t0 = tc_now();
	res[0] = res[1] = res[2] = -1;
	inst = 0;
	tc_eq(pvm_gather(res, &inst, 1, PVM_INT, 5, "E", 0), PvmNoTask,
	    "root's gather with a dead member: PvmNoTask");
	tc_check(tc_now() - t0 < 10, "... within 10 s");
	tc_eq(res[1], 1, "the live member's value arrived");
	fail_report(&cc, &ms, 30);
	tc_eq(cc, 0, "the live member's gather returned 0");
	cc = 1;
	tc_send_ints(tids[0], TAG_GO, &cc, 1);

	/* Scatter: the root (a child) is killed while a member waits. */
	fail_start("F", "sleep", 1, tids);
	fail_start("F", "scatter", 1, &tids[1]);
	tc_eq(pvm_sendsig(tids[0], SIGKILL), 0, "SIGKILL to the root");
	fail_report(&cc, &ms, 30);
	tc_eq(cc, PvmNoTask, "member's scatter with a dead root: PvmNoTask");
	tc_check(ms >= 0 && ms < 10000, "... within 10 s (%d ms)", ms);
	cc = 1;
	tc_send_ints(tids[1], TAG_GO, &cc, 1);
	return tc_done();
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strncmp(mode, "child-", 6) == 0) {
		pvm_setopt(PvmAutoErr, 0);
		if (strcmp(mode, "child-joiner") == 0) {
			return child_joiner();
		}
		if (strcmp(mode, "child-coll") == 0 && argc > 2) {
			return child_coll(atoi(argv[2]));
		}
		if (strcmp(mode, "child-fail") == 0 && argc > 3) {
			return child_fail(argv[2], argv[3]);
		}
		return 2;
	}
	tc_init("t_group");
	if (pvm_mytid() < 0) {
		tc_fatal("pvm_mytid");
	}
	pvm_setopt(PvmAutoErr, 0);
	if (strcmp(mode, "basic") == 0) {
		return run_basic();
	}
	if (strcmp(mode, "first") == 0 && argc > 2) {
		return run_first(argv[2], argc > 3 ? argv[3] : NULL);
	}
	if (strcmp(mode, "second") == 0 && argc > 3) {
		return run_second(argv[2], argv[3]);
	}
	if (strcmp(mode, "race") == 0 && argc > 3) {
		return run_race(argv[2], atoi(argv[3]));
	}
	if (strcmp(mode, "coll") == 0 && argc > 2) {
		return run_coll(atoi(argv[2]));
	}
	if (strcmp(mode, "killserver") == 0) {
		return run_killserver();
	}
	if (strcmp(mode, "killmember") == 0) {
		return run_killmember();
	}
	tc_fatal("usage: t_group basic|first G|second G TID|race G N|coll N|"
		 "killserver|killmember");
}
