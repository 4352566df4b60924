/*
 * t_notify.c: PvmTaskExit notifies, pvm_sendsig, pvm_kill, pvm_pstat.
 *
 *   t_notify      all checks in sequence:
 *     - SIGKILL by pvm_sendsig       -> one TaskExit message, PvmNoTask
 *     - SIGKILL with kill(2) on the pid from pvm_tasks (outside PVM)
 *     - pvm_kill
 *     - three children under one notify, all killed: three messages
 *     - notify on a tid that no longer exists: message at once
 */
#include <errno.h>
#include <signal.h>

#include "tcheck.h"

#define TAG_READY 70
#define TAG_EXIT 71

/* Child: say ready, then wait (for up to two minutes) to be killed. */
static int
child(void)
{
	int parent = pvm_parent(), me = pvm_mytid();

	tc_send_ints(parent, TAG_READY, &me, 1);
	tc_trecv(parent, 9999, 120);
	pvm_exit();
	return 0;
}

/* Spawn n sleeping children and wait for each to be ready; count ready. */
static int
spawn_sleepers(int n, int *tids)
{
	char *args[] = {"child", NULL};
	int cc, i, v, ready = 0;

	cc = tc_spawn_self(args, n, tids);
	if (cc != n) {
		tc_check(0, "spawn %d sleepers (cc %d)", n, cc);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (tc_recv_ints(-1, TAG_READY, &v, 1, 30) > 0) {
			ready++;
		}
	}
	return ready;
}

/* Wait for one TaskExit message; the tid in its body, or 0. */
static int
wait_exit(int tag, double secs, int *src)
{
	int bufid, tid = 0;

	*src = 0;
	if ((bufid = tc_trecv(-1, tag, secs)) == 0) {
		return 0;
	}
	pvm_bufinfo(bufid, NULL, NULL, src);
	pvm_upkint(&tid, 1, 1);
	return tid;
}

/* The pid pvm_tasks reports for tid, or -1. */
static int
pid_of(int tid)
{
	struct pvmtaskinfo *ti;
	int n = 0;

	if (pvm_tasks(tid, &n, &ti) < 0 || n != 1) {
		return -1;
	}
	return ti[0].ti_pid;
}

/* One child killed by `how`: 's' sendsig, 'k' kill(2), 'p' pvm_kill. */
static void
one(int how)
{
	const char *name = how == 's'   ? "pvm_sendsig SIGKILL"
	                   : how == 'k' ? "kill(2) SIGKILL"
	                                : "pvm_kill";
	int kid = 0, src, got, pid;
	double end;

	if (spawn_sleepers(1, &kid) != 1) {
		tc_check(0, "%s: child ready", name);
		return;
	}
	tc_eq(pvm_pstat(kid), PvmOk, "%s: pvm_pstat of the live child", name);
	pid = pid_of(kid);
	tc_check(pid > 0 && kill(pid, 0) == 0,
	    "%s: pvm_tasks gives the "
	    "child's pid (%d)",
	    name, pid);
	tc_eq(pvm_notify(PvmTaskExit, TAG_EXIT, 1, &kid), 0, "%s: pvm_notify",
	    name);
	if (how == 's') {
		tc_eq(pvm_sendsig(kid, SIGKILL), 0, "pvm_sendsig");
	} else if (how == 'k') {
		tc_eq(kill(pid, SIGKILL), 0, "kill(2)");
	} else {
		tc_eq(pvm_kill(kid), 0, "pvm_kill");
	}
	got = wait_exit(TAG_EXIT, 10, &src);
	tc_eq(got, kid, "%s: TaskExit message names the child", name);
	tc_check(got == 0 || (src & 0x80000000) != 0,
	    "%s: TaskExit comes from the pvmd (src 0x%x)", name, src);
	tc_eq(wait_exit(TAG_EXIT, 0.5, &src), 0,
	    "%s: no second TaskExit message", name);
	tc_eq(pvm_pstat(kid), PvmNoTask, "%s: pvm_pstat after exit", name);
	/* The pvmd reaps its children: the pid disappears. */
	end = tc_now() + 5;
	while (pid > 0 && kill(pid, 0) == 0 && tc_now() < end) {
		tc_sleep(0.05);
	}
	tc_check(pid > 0 && kill(pid, 0) < 0 && errno == ESRCH,
	    "%s: process %d is gone (reaped)", name, pid);
}

/* Three children under one notify call. */
static void
three(void)
{
	int kids[3], seen[3] = {0, 0, 0}, i, k, got, src, ok = 1;

	if (spawn_sleepers(3, kids) != 3) {
		tc_check(0, "three children ready");
		return;
	}
	tc_eq(pvm_notify(PvmTaskExit, TAG_EXIT + 1, 3, kids), 0,
	    "pvm_notify on three tids");
	for (i = 0; i < 3; i++) {
		pvm_sendsig(kids[i], SIGKILL);
	}
	for (i = 0; i < 3; i++) {
		got = wait_exit(TAG_EXIT + 1, 10, &src);
		k = tc_index(kids, 3, got);
		if (k >= 0) {
			seen[k]++;
		}
	}
	for (i = 0; i < 3; i++) {
		ok &= seen[i] == 1;
	}
	tc_check(ok, "three TaskExit messages, one per child (%d %d %d)",
	    seen[0], seen[1], seen[2]);
	tc_eq(wait_exit(TAG_EXIT + 1, 0.5, &src), 0, "no fourth message");

	/* kids[0] is gone now: a notify on it fires at once. */
	tc_eq(pvm_notify(PvmTaskExit, TAG_EXIT + 2, 1, kids), 0,
	    "pvm_notify on a dead tid");
	got = wait_exit(TAG_EXIT + 2, 5, &src);
	tc_eq(got, kids[0], "TaskExit for an already dead tid comes at once");
}

int
main(int argc, char **argv)
{
	tc_init("t_notify");
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		return child();
	}
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	one('s');
	one('k');
	one('p');
	three();
	tc_eq(pvm_notify(PvmTaskExit, -3, 1, &argc), PvmBadParam,
	    "pvm_notify with tag -3");
	return tc_done();
}
