/*
 * p_tasker.c: pvm_reg_tasker's protocol, as a program sees it.  The same
 * file is three programs (argv[1]):
 *
 *   (none)    the driver: it spawns the tasker, spawns children through
 *             it and records what it can observe: spawn results, what
 *             the tasker was asked (SM_STTASK), the children's messages,
 *             pvm_tasks flags, TaskExit notifies, and spawns once the
 *             tasker is gone (fork/exec again).
 *   tasker    registers, then starts each task it is asked for with
 *             fork/exec and reports its end with SM_TASKX (at once,
 *             without a process, for a child asked to "fail"), telling
 *             the driver what each SM_STTASK held.
 *   child     tells its parent who it thinks its parent is, then waits
 *             to be told to go.
 *
 * The tasker and the children are built with the driver (t-diff.sh
 * builds it twice, against PVM 3.4.6 and against ours), so each side's
 * tasker runs on each side's pvmd.
 */
#include "probe.h"

/* Debian's PVM 3.4.6 does not install pvmsdpro.h; ours does. */
#if __has_include("pvmsdpro.h")
#include "pvmsdpro.h"
#else
#define SM_TASKX 0x8004000b
#define SM_STTASK 0x80040011
#endif

#include <signal.h>
#include <sys/wait.h>

#define TAG_REG 10   /* tasker -> driver: pvm_reg_tasker's result */
#define TAG_ASKED 11 /* tasker -> driver: an SM_STTASK's contents */
#define TAG_QUIT 12  /* driver -> tasker: exit */
#define TAG_HELLO 20 /* child -> parent: int parent */
#define TAG_GO 21    /* parent -> child: exit */
#define TAG_EXIT 30  /* TaskExit notifies */
#define MAXKIDS 16
#define WAIT_MS 5000

static char self[1024];

/* ---- the tasker ---- */

static int kid_pid[MAXKIDS], kid_tid[MAXKIDS];

/* SM_TASKX for tid to the local pvmd. */
static void
taskx(int tid, int status)
{
	int v[6] = {tid, status, 0, 0, 0, 0};

	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 6, 1);
	pvm_send((int)0x80000000u, (int)SM_TASKX);
}

/* Report the children that ended. */
static void
reap(void)
{
	int st, i;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < MAXKIDS; i++) {
			if (kid_pid[i] == pid) {
				taskx(kid_tid[i], st);
				kid_pid[i] = 0;
			}
		}
	}
}

/* fork/exec what an SM_STTASK asks; a "fail" argument: report at once. */
static void
start(int tid, const char *path, char **av, char **env, int nenv)
{
	int i, slot = -1;
	pid_t pid;

	for (i = 0; i < MAXKIDS; i++)
		if (kid_pid[i] == 0 && slot < 0)
			slot = i;
	if (slot < 0 ||
	    (av[1] != NULL && av[2] != NULL && strcmp(av[2], "fail") == 0)) {
		taskx(tid, 1 << 8);
		return;
	}
	if ((pid = fork()) == 0) {
		for (i = 0; i < nenv; i++)
			putenv(env[i]);
		execv(path, av);
		_exit(127);
	}
	kid_pid[slot] = pid;
	kid_tid[slot] = tid;
	if (pid < 0) {
		kid_pid[slot] = 0;
		taskx(tid, 127 << 8);
	}
}

/* Read one SM_STTASK, tell the driver what it held, start the task. */
static void
asked(int bufid, int parent)
{
	int tid = 0, flags = 0, argc = 0, nenv = 0, extra[3] = {0, 0, 0};
	int i, epid = 0, nextra = 0, len, tag, src;
	char path[1024] = "", *av[16] = {0}, *env[64] = {0}, buf[1024];
	struct pvmminfo mi;

	pvm_bufinfo(bufid, &len, &tag, &src);
	pvm_upkint(&tid, 1, 1);
	pvm_upkint(&flags, 1, 1);
	pvm_upkstr(path);
	pvm_upkint(&argc, 1, 1);
	for (i = 0; i < argc && i < 15; i++) {
		pvm_upkstr(buf);
		av[i] = strdup(buf);
	}
	pvm_upkint(&nenv, 1, 1);
	for (i = 0; i < nenv && i < 63; i++) {
		pvm_upkstr(buf);
		env[i] = strdup(buf);
		epid |= strncmp(buf, "PVMEPID=", 8) == 0;
	}
	while (nextra < 3 && pvm_upkint(&extra[nextra], 1, 1) == 0)
		nextra++;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&tid, 1, 1);
	pvm_pkint(&src, 1, 1);
	/* pvm_getmwid is PVM33COMPAT, which Debian's libpvm3 lacks. */
	pvm_getminfo(bufid, &mi);
	i = mi.wid != 0;
	pvm_pkint(&i, 1, 1);
	pvm_pkint(&mi.ctx, 1, 1);
	pvm_pkint(&flags, 1, 1);
	i = strcmp(path, self) == 0;
	pvm_pkint(&i, 1, 1);
	pvm_pkint(&argc, 1, 1);
	pvm_pkstr(argc > 1 && av[1] != NULL ? av[1] : "-");
	pvm_pkint(&epid, 1, 1);
	pvm_pkint(&nextra, 1, 1);
	pvm_pkint(extra, 3, 1);
	pvm_send(parent, TAG_ASKED);
	start(tid, path, av, env, nenv < 63 ? nenv : 63);
}

static int
tasker_main(void)
{
	struct timeval tv = {0, 20000};
	int parent, rc, bufid, tag, len, src;

	pvm_setopt(PvmAutoErr, 0);
	pvm_setopt(PvmResvTids, 1);
	parent = pvm_parent();
	rc = pvm_reg_tasker();
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rc, 1, 1);
	pvm_send(parent, TAG_REG);
	for (;;) {
		reap();
		if ((bufid = pvm_trecv(-1, -1, &tv)) < 0)
			break;
		if (bufid == 0)
			continue;
		pvm_bufinfo(bufid, &len, &tag, &src);
		if (tag == (int)SM_STTASK)
			asked(bufid, parent);
		else if (tag == TAG_QUIT)
			break;
	}
	pvm_exit();
	return 0;
}

/* ---- a child ---- */

static int
child_main(void)
{
	int parent = pvm_parent();

	pvm_setopt(PvmAutoErr, 0);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&parent, 1, 1);
	pvm_send(parent, TAG_HELLO);
	pvm_recv(parent, TAG_GO);
	pvm_exit();
	return 0;
}

/* ---- the driver ---- */

/* The pvm_tasks flags of tid, or "gone". */
static void
flags_of(const char *c, const char *what, int tid)
{
	struct pvmtaskinfo *ti;
	int n = 0, i, rc;

	rc = pvm_tasks(0, &n, &ti);
	for (i = 0; rc >= 0 && i < n; i++) {
		if (ti[i].ti_tid == tid) {
			dp_rec(c, "%s: flag 0x%x, pid %s", what, ti[i].ti_flag,
			    ti[i].ti_pid > 0 ? "> 0" : "<= 0");
			return;
		}
	}
	dp_rec(c, "%s: not in pvm_tasks (rc %s)", what, dp_code(rc));
}

/* One SM_STTASK as the tasker saw it. */
static void
rec_asked(const char *c)
{
	int tid, src, wid, ctx, flags, same, argc, epid, nextra, extra[3];
	char arg[256];

	if (!dp_wait(-1, TAG_ASKED, WAIT_MS)) {
		dp_rec(c, "the tasker was asked nothing");
		return;
	}
	pvm_upkint(&tid, 1, 1);
	pvm_upkint(&src, 1, 1);
	pvm_upkint(&wid, 1, 1);
	pvm_upkint(&ctx, 1, 1);
	pvm_upkint(&flags, 1, 1);
	pvm_upkint(&same, 1, 1);
	pvm_upkint(&argc, 1, 1);
	pvm_upkstr(arg);
	pvm_upkint(&epid, 1, 1);
	pvm_upkint(&nextra, 1, 1);
	pvm_upkint(extra, 3, 1);
	dp_rec(c,
	    "SM_STTASK for %s from %s, wait id %s, context %d, "
	    "flags %d, path %s, argc %d, argv[1] %s, PVMEPID %s, "
	    "%d more ints %d %d %d",
	    dp_tid(tid), dp_tid(src), wid ? "set" : "0", ctx, flags,
	    same ? "the program" : "other", argc, arg, epid ? "yes" : "no",
	    nextra, extra[0], extra[1], extra[2]);
}

/* A child's hello within WAIT_MS. */
static void
rec_hello(const char *c, int tid)
{
	int parent = 0;

	if (!dp_wait(tid, TAG_HELLO, WAIT_MS)) {
		dp_rec(c, "no hello from %s", dp_tid(tid));
		return;
	}
	pvm_upkint(&parent, 1, 1);
	dp_rec(c, "%s says its parent is %s", dp_tid(tid), dp_tid(parent));
}

/* The TaskExit notifies that come within ms. */
static void
rec_exits(const char *c, int want, int ms)
{
	int i, tid;

	for (i = 0; i < want; i++) {
		if (!dp_wait(-1, TAG_EXIT, ms)) {
			dp_rec(c, "no TaskExit within %d ms", ms);
			return;
		}
		pvm_upkint(&tid, 1, 1);
		dp_rec(c, "TaskExit %s", dp_tid(tid));
	}
}

/* Spawn n children with extra argument arg; records; their tids. */
static int
spawn_kids(const char *c, const char *arg, int n, int *tids)
{
	char *av[3] = {(char *)"child", (char *)arg, NULL};
	int rc = pvm_spawn(self, av, PvmTaskDefault, "", n, tids);

	dp_rec(c, "pvm_spawn(%d) = %s", n, dp_code(rc));
	return rc;
}

int
main(int argc, char **argv)
{
	int me, tasker = 0, kids[2] = {0, 0}, k3 = 0, k4 = 0, rc, b, v;
	char *tav[2] = {(char *)"tasker", NULL};

	dp_self(self, sizeof(self));
	if (argc > 1 && strcmp(argv[1], "tasker") == 0)
		return tasker_main();
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main();
	me = dp_enrol();
	if (me <= 0)
		return 1;
	rc = pvm_spawn(self, tav, PvmTaskDefault, "", 1, &tasker);
	dp_rec("tasker-spawn", "pvm_spawn = %s", dp_code(rc));
	dp_name(tasker, "tasker");
	b = dp_wait(tasker, TAG_REG, WAIT_MS);
	v = 1;
	if (b)
		pvm_upkint(&v, 1, 1);
	dp_rec("tasker-reg", "pvm_reg_tasker in the tasker = %s",
	    b ? dp_code(v) : "(no answer)");
	flags_of("tasker-flags", "tasker", tasker);

	rc = spawn_kids("spawn-2", "ok", 2, kids);
	dp_name(kids[0], "kid1");
	dp_name(kids[1], "kid2");
	rec_asked("asked-1");
	rec_asked("asked-2");
	rec_hello("hello-1", kids[0]);
	rec_hello("hello-2", kids[1]);
	flags_of("kid-flags", "kid1", kids[0]);
	pvm_notify(PvmTaskExit, TAG_EXIT, 2, kids);
	/* One at a time: the order of two ends would be a race. */
	pvm_initsend(PvmDataDefault);
	pvm_send(kids[0], TAG_GO);
	rec_exits("kid1-exit", 1, WAIT_MS);
	pvm_send(kids[1], TAG_GO);
	rec_exits("kid2-exit", 1, WAIT_MS);
	dp_rec("kids-gone", "pstat kid1 = %s", dp_code(pvm_pstat(kids[0])));

	rc = spawn_kids("spawn-fail", "fail", 1, &k3);
	dp_name(k3, "kid3");
	rec_asked("asked-fail");
	if (rc == 1) {
		pvm_notify(PvmTaskExit, TAG_EXIT, 1, &k3);
		rec_exits("fail-exit", 1, WAIT_MS);
	}
	dp_rec("fail-gone", "pstat kid3 = %s", dp_code(pvm_pstat(k3)));
	rc = pvm_spawn((char *)"p_tasker_no_such_program", NULL, 0, "", 1, &v);
	dp_rec(
	    "spawn-nofile", "pvm_spawn = %s, tid %s", dp_code(rc), dp_code(v));
	dp_drain(300);

	pvm_notify(PvmTaskExit, TAG_EXIT, 1, &tasker);
	pvm_initsend(PvmDataDefault);
	pvm_send(tasker, TAG_QUIT);
	rec_exits("tasker-exit", 1, WAIT_MS);
	rc = spawn_kids("spawn-after", "ok", 1, &k4);
	dp_name(k4, "kid4");
	if (dp_wait(-1, TAG_ASKED, 500))
		dp_rec("asked-after", "the tasker was asked, though gone");
	rec_hello("hello-after", k4);
	flags_of("after-flags", "kid4", k4);
	pvm_notify(PvmTaskExit, TAG_EXIT, 1, &k4);
	pvm_initsend(PvmDataDefault);
	pvm_send(k4, TAG_GO);
	rec_exits("after-exit", 1, WAIT_MS);
	pvm_exit();
	return 0;
}
