/*
 * p_task.c: probe of the calls about tasks and the machine: identity,
 * tidtohost, pstat, kill and sendsig, notify of every kind on every class
 * of target, config, tasks, spawn failures, options, tickle.
 *
 *   p_task            the probe
 *   p_task child      a spawned child: waits for a message, then exits
 */
#include "probe.h"

#include <signal.h>
#include <unistd.h>

#define TAG_GO 77
#define TAG_READY 78
#define NOTASK 0x4fff0    /* a task tid of host 1 nobody has */
#define NOHOST 0x3ffc0000 /* host 4095, not in the machine */
#define HOST0 0x12345     /* local part set, host part 0 */

static int me, host, child;

static void
identity(void)
{
	int *sib = NULL;

	dp_rc("mytid-again", "pvm_mytid() == first", pvm_mytid() == me);
	dp_rec("parent", "pvm_parent = %s", dp_tid(pvm_parent()));
	dp_rec("tidtohost-me", "pvm_tidtohost(me) = %s",
	    dp_tid(pvm_tidtohost(me)));
	dp_rec("tidtohost-host", "pvm_tidtohost(host) = %s",
	    dp_tid(pvm_tidtohost(host)));
	dp_rec(
	    "tidtohost-0", "pvm_tidtohost(0) = %s", dp_tid(pvm_tidtohost(0)));
	dp_rec("tidtohost-neg", "pvm_tidtohost(-1) = %s",
	    dp_tid(pvm_tidtohost(-1)));
	dp_rec("tidtohost-notask", "pvm_tidtohost(notask) = %s",
	    dp_tid(pvm_tidtohost(NOTASK)));
	dp_rc("pstat-me", "pvm_pstat(me)", pvm_pstat(me));
	dp_rc("pstat-child", "pvm_pstat(child)", pvm_pstat(child));
	dp_rc("pstat-notask", "pvm_pstat(notask)", pvm_pstat(NOTASK));
	dp_rc("pstat-host", "pvm_pstat(host)", pvm_pstat(host));
	dp_rc("pstat-0", "pvm_pstat(0)", pvm_pstat(0));
	dp_rc("mstat-bad", "pvm_mstat(nosuchhost)", pvm_mstat("nosuchhost"));
	dp_rc("sendsig-me-0", "pvm_sendsig(me, 0)", pvm_sendsig(me, 0));
	dp_rc(
	    "sendsig-notask", "pvm_sendsig(notask, 0)", pvm_sendsig(NOTASK, 0));
	dp_rc("kill-notask", "pvm_kill(notask)", pvm_kill(NOTASK));
	dp_rc("kill-0", "pvm_kill(0)", pvm_kill(0));
	dp_rc("siblings", "pvm_siblings() == 1", pvm_siblings(&sib) == 1);
}

static void
notify_one(const char *c, int what, int cnt, int *tids)
{
	dp_rc(c, "pvm_notify", pvm_notify(what, 50, cnt, tids));
	dp_recv(c, 500);
	dp_drain(100);
}

static void
notifies(void)
{
	int t[2];

	t[0] = NOTASK;
	notify_one("notify-exit-notask", PvmTaskExit, 1, t);
	t[0] = host;
	notify_one("notify-exit-host", PvmTaskExit, 1, t);
	notify_one("notify-exit-cnt0", PvmTaskExit, 0, t);
	notify_one("notify-exit-cnt-1", PvmTaskExit, -1, t);
	t[0] = me;
	notify_one("notify-hostdel-me", PvmHostDelete, 1, t);
	t[0] = child;
	notify_one("notify-hostdel-child", PvmHostDelete, 1, t);
	t[0] = host;
	notify_one("notify-hostdel-host", PvmHostDelete, 1, t);
	t[0] = NOHOST;
	notify_one("notify-hostdel-nohost", PvmHostDelete, 1, t);
	t[0] = NOTASK;
	notify_one("notify-hostdel-notask", PvmHostDelete, 1, t);
	notify_one("notify-hostdel-cnt0", PvmHostDelete, 0, t);
	notify_one("notify-hostadd-cnt0", PvmHostAdd, 0, NULL);
	notify_one("notify-hostadd-cnt1", PvmHostAdd, 1, NULL);
	notify_one("notify-bad-what", 99, 1, t);
	/* The child's exit, watched, then the child told to go. */
	t[0] = child;
	dp_rc("notify-exit-child", "pvm_notify",
	    pvm_notify(PvmTaskExit, 51, 1, t));
	pvm_initsend(PvmDataDefault);
	pvm_send(child, TAG_GO);
	dp_recv("notify-exit-child", 5000);
	dp_rc("pstat-child-gone", "pvm_pstat(child)", pvm_pstat(child));
	dp_rc("kill-child-gone", "pvm_kill(child)", pvm_kill(child));
	notify_one("notify-exit-gone", PvmTaskExit, 1, t);
	notify_one("notify-cancel-none", PvmTaskExit | PvmNotifyCancel, 1, t);
}

static void
machine(void)
{
	struct pvmhostinfo *hi;
	struct pvmtaskinfo *ti;
	int nhost = -1, narch = -1, ntask = -1, rc;

	rc = pvm_config(&nhost, &narch, &hi);
	dp_rec("config", "= %s, nhost %d, narch %d, arch %s, tid %s",
	    dp_code(rc), nhost, narch, rc == 0 ? hi[0].hi_arch : "-",
	    rc == 0 ? dp_tid(hi[0].hi_tid) : "-");
	rc = pvm_tasks(me, &ntask, &ti);
	dp_rec("tasks-me", "= %s, ntask %d, tid %s, parent %s, host %s",
	    dp_code(rc), ntask, rc == 0 ? dp_tid(ti[0].ti_tid) : "-",
	    rc == 0 ? dp_tid(ti[0].ti_ptid) : "-",
	    rc == 0 ? dp_tid(ti[0].ti_host) : "-");
	ntask = -1;
	rc = pvm_tasks(NOTASK, &ntask, &ti);
	dp_rec("tasks-notask", "= %s, ntask %d", dp_code(rc), ntask);
	ntask = -1;
	rc = pvm_tasks(host, &ntask, &ti);
	dp_rec("tasks-host", "= %s, ntask %d", dp_code(rc), ntask);
}

/* A spawn of a program that does not exist, with flag and where: which
 * error (PvmNoFile: a host was chosen; PvmNoHost: none). */
static void
spawn_where(const char *c, int flag, char *where)
{
	int tids[1] = {1}, rc;

	rc = pvm_spawn("p_task_no_such_program", NULL, flag, where, 1, tids);
	dp_rec(c, "= %s, tids[0] %s", dp_code(rc), dp_code(tids[0]));
}

static void
spawns(void)
{
	int tids[2] = {1, 1}, rc;

	rc = pvm_spawn("p_task_no_such_program", NULL, 0, "", 1, tids);
	dp_rec(
	    "spawn-nofile", "= %s, tids[0] %s", dp_code(rc), dp_code(tids[0]));
	tids[0] = 1;
	rc = pvm_spawn(
	    "p_task_no_such_program", NULL, PvmTaskHost, "nosuchhost", 1, tids);
	dp_rec(
	    "spawn-nohost", "= %s, tids[0] %s", dp_code(rc), dp_code(tids[0]));
	spawn_where("spawn-host-empty", PvmTaskHost, "");
	spawn_where("spawn-host-null", PvmTaskHost, NULL);
	spawn_where("spawn-host-wdonly", PvmTaskHost, ":/tmp");
	spawn_where("spawn-host-dot", PvmTaskHost, ".");
	spawn_where("spawn-host-localhost", PvmTaskHost, "localhost");
	spawn_where("spawn-compl-empty", PvmTaskHost | PvmHostCompl, "");
	spawn_where("spawn-arch-empty", PvmTaskArch, "");
	tids[0] = 1;
	rc = pvm_spawn("", NULL, 0, "", 1, tids);
	dp_rec("spawn-file-empty", "= %s, tids[0] %s", dp_code(rc),
	    dp_code(tids[0]));
	rc = pvm_spawn("p_task_no_such_program", NULL, 0, "", 0, tids);
	dp_rc("spawn-count0", "pvm_spawn(count 0)", rc);
	rc = pvm_spawn("p_task_no_such_program", NULL, 0, "", -1, tids);
	dp_rc("spawn-count-1", "pvm_spawn(count -1)", rc);
}

static void
options(void)
{
	static const struct {
		const char *name;
		int what;
	} o[] = {{"Route", PvmRoute}, {"DebugMask", PvmDebugMask},
	    {"AutoErr", PvmAutoErr}, {"OutputTid", PvmOutputTid},
	    {"OutputCode", PvmOutputCode}, {"TraceTid", PvmTraceTid},
	    {"TraceCode", PvmTraceCode}, {"FragSize", PvmFragSize},
	    {"ResvTids", PvmResvTids}, {"SelfOutputTid", PvmSelfOutputTid},
	    {"SelfOutputCode", PvmSelfOutputCode},
	    {"SelfTraceTid", PvmSelfTraceTid},
	    {"SelfTraceCode", PvmSelfTraceCode}, {"ShowTids", PvmShowTids},
	    {"PollType", PvmPollType}, {"PollTime", PvmPollTime},
	    {"OutputContext", PvmOutputContext},
	    {"TraceContext", PvmTraceContext},
	    {"SelfOutputContext", PvmSelfOutputContext},
	    {"SelfTraceContext", PvmSelfTraceContext}, {"NoReset", PvmNoReset}};
	char c[64];
	size_t i;

	for (i = 0; i < sizeof(o) / sizeof(o[0]); i++) {
		snprintf(c, sizeof(c), "getopt-%s", o[i].name);
		dp_rec(c, "= %s", dp_val(pvm_getopt(o[i].what)));
	}
	dp_rc("getopt-bad", "pvm_getopt(99)", pvm_getopt(99));
	dp_rc("setopt-bad", "pvm_setopt(99, 1)", pvm_setopt(99, 1));
	dp_rc("setopt-route-bad", "pvm_setopt(Route, 99)",
	    pvm_setopt(PvmRoute, 99));
	dp_rc("setopt-frag-small", "pvm_setopt(FragSize, 10)",
	    pvm_setopt(PvmFragSize, 10));
	dp_rc("setopt-autoerr-2", "pvm_setopt(AutoErr, 2) (old value)",
	    pvm_setopt(PvmAutoErr, 2));
	pvm_setopt(PvmAutoErr, 0);
	/* Our own destinations also set our children's (the console sets
	 * both to -1); put back for the spawns that follow. */
	dp_rc("setopt-selftrace-neg", "pvm_setopt(SelfTraceTid, -1)",
	    pvm_setopt(PvmSelfTraceTid, -1));
	dp_rec("getopt-trace-follows", "TraceTid = %s",
	    dp_val(pvm_getopt(PvmTraceTid)));
	dp_rc("setopt-selfout-neg", "pvm_setopt(SelfOutputTid, -1)",
	    pvm_setopt(PvmSelfOutputTid, -1));
	dp_rec("getopt-out-follows", "OutputTid = %s",
	    dp_val(pvm_getopt(PvmOutputTid)));
	pvm_setopt(PvmSelfTraceTid, 0);
	pvm_setopt(PvmSelfOutputTid, 0);
	dp_rec("getopt-trace-back", "TraceTid = %s",
	    dp_val(pvm_getopt(PvmTraceTid)));
}

/*
 * More tids for pstat, sendsig and kill.  Host part 0: no such host, so
 * no such task (the console's "kill 12345"); pvmd and multicast
 * addresses are no tasks.  (Here, not in identity(): PVM 3.4.6 may list
 * a child twice while it connects, and tasks-host must not meet that.)
 */
static void
odd_tids(void)
{
	dp_rc("pstat-host0", "pvm_pstat(host0)", pvm_pstat(HOST0));
	dp_rc("sendsig-host0", "pvm_sendsig(host0, 0)", pvm_sendsig(HOST0, 0));
	dp_rc("kill-host0", "pvm_kill(host0)", pvm_kill(HOST0));
	dp_rc("kill-host", "pvm_kill(host)", pvm_kill(host));
	dp_rc("kill-neg", "pvm_kill(-1)", pvm_kill(-1));
	dp_rc("sendsig-mcast", "pvm_sendsig(mcast, 0)",
	    pvm_sendsig(0x40000000 | me, 0));
}

/* pvm_tickle: the argument count, the debug mask, an unknown request. */
static void
tickles(void)
{
	int arg[11] = {5}, res[10] = {0}, n = -1, rc;

	rc = pvm_tickle(1, arg, &n, res);
	dp_rec("tickle-mask", "= %s, nres %d, res[0] %d", dp_code(rc), n,
	    res[0]);
	arg[0] = 6;
	arg[1] = 3;
	dp_rc("tickle-setmask", "pvm_tickle(6, 3)", pvm_tickle(2, arg, &n, res));
	arg[0] = 5;
	n = -1;
	rc = pvm_tickle(1, arg, &n, res);
	dp_rec("tickle-mask-3", "= %s, nres %d, res[0] %d", dp_code(rc), n,
	    res[0]);
	arg[0] = 6;
	arg[1] = 0;
	pvm_tickle(2, arg, &n, res);
	arg[0] = 4242;
	n = -1;
	rc = pvm_tickle(1, arg, &n, res);
	dp_rec("tickle-unknown", "= %s, nres %d", dp_code(rc), n);
	dp_rc("tickle-narg0", "pvm_tickle(0 args)", pvm_tickle(0, arg, &n, res));
	dp_rc("tickle-narg11", "pvm_tickle(11 args)",
	    pvm_tickle(11, arg, &n, res));
}

int
main(int argc, char **argv)
{
	int tids[1];

	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		/* Connected: PVM 3.4.6 may list a child twice until then. */
		pvm_initsend(PvmDataDefault);
		pvm_send(pvm_parent(), TAG_READY);
		pvm_recv(pvm_parent(), TAG_GO);
		pvm_exit();
		return 0;
	}
	if ((me = dp_enrol()) <= 0)
		return 1;
	host = pvm_tidtohost(me);
	dp_name(host, "host1");
	dp_name((int)(0x80000000u | (unsigned)host), "pvmd1-addr");
	dp_name(NOTASK, "notask");
	dp_name(NOHOST, "nohost");
	{
		char *args[] = {"child", NULL}, self[4096];
		dp_self(self, sizeof(self));
		if (pvm_spawn(self, args, 0, "", 1, tids) == 1)
			child = tids[0];
	}
	if (child > 0) {
		dp_name(child, "child");
		if (pvm_trecv(child, TAG_READY, &(struct timeval){10, 0}) > 0)
			pvm_freebuf(pvm_getrbuf());
	}
	dp_rec("spawn-child", "child is %s", child > 0 ? "a task" : "missing");
	identity();
	machine();
	options();
	odd_tids();
	tickles();
	spawns();
	notifies();
	pvm_exit();
	return 0;
}
