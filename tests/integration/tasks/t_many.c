/*
 * t_many.c: N tasks connected at once.  Every child reports ready and
 * waits for a release; only when all N are connected does the parent
 * release them; each says goodbye and exits; every exit is notified.
 *
 *   t_many N
 */
#include "tcheck.h"

#define TAG_READY 1
#define TAG_GO 2
#define TAG_BYE 3
#define TAG_EXIT 4
#define MAXKIDS 1024

/* Child: ready, wait for the release, goodbye. */
static int
child(void)
{
	int parent = pvm_parent(), me = pvm_mytid(), v;

	tc_send_ints(parent, TAG_READY, &me, 1);
	if (tc_recv_ints(parent, TAG_GO, &v, 1, 120) > 0) {
		v = me ^ 0x5a5a;
		tc_send_ints(parent, TAG_BYE, &v, 1);
	}
	pvm_exit();
	return 0;
}

/* Receive n messages of tag; count per child; the number received. */
static int
collect(const int *tids, int n, int tag, int *seen, int xor, double secs)
{
	int i, v, src, k, bufid, got = 0;
	double end = tc_now() + secs;

	memset(seen, 0, sizeof(int) * (size_t)n);
	for (i = 0; i < n; i++) {
		double left = end - tc_now();

		/* (src of a TaskExit is the pvmd: a negative tid) */
		if (left <= 0 || (bufid = tc_trecv(-1, tag, left)) == 0) {
			break;
		}
		src = 0;
		v = -1;
		pvm_bufinfo(bufid, NULL, NULL, &src);
		pvm_upkint(&v, 1, 1);
		if (tag == TAG_EXIT) {
			src = v; /* the body names the task */
		} else if (v != (src ^ xor)) {
			tc_info("t%x sent %d", src, v);
			continue;
		}
		if ((k = tc_index(tids, n, src)) >= 0) {
			seen[k]++;
			got++;
		}
	}
	return got;
}

/* True if every count is exactly one. */
static int
all_once(const int *seen, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (seen[i] != 1) {
			return 0;
		}
	}
	return 1;
}

int
main(int argc, char **argv)
{
	static int tids[MAXKIDS], seen[MAXKIDS];
	char *args[] = {"child", NULL};
	struct pvmtaskinfo *ti;
	int n, cc, got, ntask = -1, v = 1;
	double t0, end;

	tc_init("t_many");
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		return child();
	}
	n = argc > 1 ? atoi(argv[1]) : 200;
	if (n < 1 || n > MAXKIDS) {
		return 2;
	}
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	t0 = tc_now();
	cc = tc_spawn_self(args, n, tids);
	tc_eq(cc, n, "spawn %d tasks", n);
	if (cc != n) {
		return tc_done();
	}
	tc_eq(pvm_notify(PvmTaskExit, TAG_EXIT, n, tids), 0, "notify on all");
	got = collect(tids, n, TAG_READY, seen, 0, 120);
	tc_check(got == n && all_once(seen, n),
	    "all %d tasks connected and ready (%d)", n, got);
	tc_info("%d tasks ready after %.2f s", n, tc_now() - t0);
	cc = pvm_tasks(0, &ntask, &ti);
	tc_check(cc == 0 && ntask == n + 1, "pvm_tasks lists %d tasks (%d)",
	    n + 1, ntask);

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	tc_eq(pvm_mcast(tids, n, TAG_GO), 0, "release by mcast");
	got = collect(tids, n, TAG_BYE, seen, 0x5a5a, 60);
	tc_check(got == n && all_once(seen, n),
	    "all %d tasks said goodbye once (%d)", n, got);
	got = collect(tids, n, TAG_EXIT, seen, 0, 60);
	tc_check(got == n && all_once(seen, n),
	    "TaskExit for each of %d tasks once (%d)", n, got);
	end = tc_now() + 10;
	do {
		cc = pvm_tasks(0, &ntask, &ti);
	} while (cc == 0 && ntask != 1 && tc_now() < end);
	tc_check(cc == 0 && ntask == 1, "only we remain (%d tasks)", ntask);
	tc_info("whole run %.2f s", tc_now() - t0);
	return tc_done();
}
