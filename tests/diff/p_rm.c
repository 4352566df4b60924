/*
 * p_rm.c: a resource manager and a tracer, and what a program sees
 * under them.  One program in several roles (argv[1]):
 *
 *   (none)  the probe: starts the others and records what they report
 *   rm      a small resource manager: pvm_reg_rm, then it serves
 *           SM_SPAWN (round-robin over the hosts, one SM_EXEC each),
 *           SM_CONFIG, SM_TASK and SM_NOTIFY (TaskExit, from SM_TASKX),
 *           and keeps every SM_TASKX it hears
 *   client  a task that enrols while the RM is registered: spawn,
 *           config, tasks, a TaskExit notify, all through the RM; later,
 *           once the RM has gone, one more spawn
 *   idle    waits for a message, then exits
 *   burn    uses some CPU time, then exits with status 3
 *   tracer  pvm_reg_tracer in a context of its own; reports the output
 *           messages that reach it
 *   say     prints a line and exits
 *
 * The SM_* values are PVM 3.4.6's (its pvmsdpro.h is not installed).
 */
#include "probe.h"

#include <time.h>

#define SM_SPAWN ((int)0x80040001)
#define SM_EXEC ((int)0x80040002)
#define SM_EXECACK ((int)0x80040003)
#define SM_TASK ((int)0x80040004)
#define SM_CONFIG ((int)0x80040005)
#define SM_NOTIFY ((int)0x8004000a)
#define SM_TASKX ((int)0x8004000b)

#define TAG_READY 401
#define TAG_RES 402
#define TAG_END 403
#define TAG_GO 404
#define TAG_NOTE 405
#define TAG_KIDS 406
#define TAG_ASK 407
#define TAG_TRC 70
#define TAG_OUT 71
#define TEXT_LEN 1024
#define MAXT 16

static char self[512];

static void addf(char *out, size_t n, const char *fmt, ...);
static void report(int to, const char *text);

/* ---------------------------------------------------------------- */
/* The resource manager                                              */
/* ---------------------------------------------------------------- */

struct rm_watch {
	int tid, who, ctx, tag;
};
static struct rm_watch watches[MAXT];
static int nwatch, next_host;
static int seen_spawn, seen_config, seen_task, seen_notify;

/* An SM_TASKX as it came: tid, status, user and system time. */
struct rm_taskx {
	int tid, status, us, uus, ss, sus;
};
static struct rm_taskx taskx[MAXT];
static int ntaskx;

/* One task on the next host (round-robin); its tid or an error. */
static int
rm_exec_one(int ptid, const char *file, int flags, int nargs, char **args,
    int nenv, char **env)
{
	struct pvmhostinfo *hi;
	struct timeval tv = {5, 0};
	int nh, na, one = 1, i, v[6] = {0, 0, 0, 0, 0, 0}, dst, cnt = 0;
	int tid = PvmSysErr, zero = 0;

	if (pvm_config(&nh, &na, &hi) < 0 || nh < 1)
		return PvmSysErr;
	dst = hi[next_host++ % nh].hi_tid | 0x80000000;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&ptid, 1, 1);
	pvm_pkstr((char *)file);
	pvm_pkint(&flags, 1, 1);
	pvm_pkint(&one, 1, 1);
	pvm_pkint(&nargs, 1, 1);
	for (i = 0; i < nargs; i++)
		pvm_pkstr(args[i]);
	pvm_pkint(v, 6, 1);
	pvm_pkint(&nenv, 1, 1);
	for (i = 0; i < nenv; i++)
		pvm_pkstr(env[i]);
	pvm_pkint(&zero, 1, 1);
	pvm_pkint(&one, 1, 1);
	if (pvm_send(dst, SM_EXEC) < 0)
		return PvmSysErr;
	if (pvm_trecv(-1, SM_EXECACK, &tv) > 0 && pvm_upkint(&cnt, 1, 1) == 0 &&
	    cnt == 1)
		pvm_upkint(&tid, 1, 1);
	return tid;
}

/* SM_SPAWN from src: one SM_EXEC per task, then the answer. */
static void
rm_spawn(int src)
{
	char file[256], where[256], *args[MAXT], *env[64];
	int flags, count, nargs, nenv, out[6], tids[MAXT], i;

	seen_spawn++;
	pvm_upkstr(file);
	pvm_upkint(&flags, 1, 1);
	pvm_upkstr(where);
	pvm_upkint(&count, 1, 1);
	pvm_upkint(&nargs, 1, 1);
	for (i = 0; i < nargs && i < MAXT; i++) {
		args[i] = malloc(256);
		pvm_upkstr(args[i]);
	}
	pvm_upkint(out, 6, 1);
	pvm_upkint(&nenv, 1, 1);
	for (i = 0; i < nenv && i < 64; i++) {
		env[i] = malloc(1024);
		pvm_upkstr(env[i]);
	}
	if (count > MAXT)
		count = MAXT;
	for (i = 0; i < count; i++)
		tids[i] = rm_exec_one(src, file, 0, nargs, args, nenv, env);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&count, 1, 1);
	pvm_pkint(tids, count, 1);
	pvm_send(src, SM_SPAWN);
	for (i = 0; i < nargs && i < MAXT; i++)
		free(args[i]);
	for (i = 0; i < nenv && i < 64; i++)
		free(env[i]);
}

/* SM_CONFIG: our own pvm_config, as PVM's TM_CONFIG answer. */
static void
rm_config(int src)
{
	struct pvmhostinfo *hi;
	int nh = 0, na = 0, i;

	seen_config++;
	pvm_config(&nh, &na, &hi);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&nh, 1, 1);
	pvm_pkint(&na, 1, 1);
	for (i = 0; i < nh; i++) {
		pvm_pkint(&hi[i].hi_tid, 1, 1);
		pvm_pkstr(hi[i].hi_name);
		pvm_pkstr(hi[i].hi_arch);
		pvm_pkint(&hi[i].hi_speed, 1, 1);
		pvm_pkint(&hi[i].hi_dsig, 1, 1);
	}
	pvm_send(src, SM_CONFIG);
}

/* SM_TASK: our own pvm_tasks. */
static void
rm_tasks(int src)
{
	struct pvmtaskinfo *ti;
	int where = 0, nt = 0, i, st;

	seen_task++;
	pvm_upkint(&where, 1, 1);
	st = pvm_tasks(where, &nt, &ti);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&st, 1, 1);
	for (i = 0; st >= 0 && i < nt; i++) {
		pvm_pkint(&ti[i].ti_tid, 1, 1);
		pvm_pkint(&ti[i].ti_ptid, 1, 1);
		pvm_pkint(&ti[i].ti_host, 1, 1);
		pvm_pkint(&ti[i].ti_flag, 1, 1);
		pvm_pkstr(ti[i].ti_a_out);
		pvm_pkint(&ti[i].ti_pid, 1, 1);
	}
	pvm_send(src, SM_TASK);
}

/* SM_NOTIFY: remember TaskExit requests. */
static void
rm_notify(int src)
{
	int what, ctx, tag, cnt, i, t;

	seen_notify++;
	pvm_upkint(&what, 1, 1);
	pvm_upkint(&ctx, 1, 1);
	pvm_upkint(&tag, 1, 1);
	pvm_upkint(&cnt, 1, 1);
	for (i = 0; what == PvmTaskExit && i < cnt && nwatch < MAXT; i++) {
		pvm_upkint(&t, 1, 1);
		watches[nwatch].tid = t;
		watches[nwatch].who = src;
		watches[nwatch].ctx = ctx;
		watches[nwatch].tag = tag;
		nwatch++;
	}
}

/* SM_TASKX: a task ended; keep it, fire the TaskExit notifies on it. */
static void
rm_taskx(void)
{
	struct rm_taskx x = {0, 0, 0, 0, 0, 0};
	int i, old;

	pvm_upkint(&x.tid, 1, 1);
	pvm_upkint(&x.status, 1, 1);
	pvm_upkint(&x.us, 1, 1);
	pvm_upkint(&x.uus, 1, 1);
	pvm_upkint(&x.ss, 1, 1);
	pvm_upkint(&x.sus, 1, 1);
	if (ntaskx < MAXT)
		taskx[ntaskx++] = x;
	for (i = 0; i < nwatch; i++) {
		if (watches[i].tid != x.tid)
			continue;
		old = pvm_setcontext(watches[i].ctx);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&x.tid, 1, 1);
		pvm_send(watches[i].who, watches[i].tag);
		pvm_setcontext(old);
		watches[i].tid = 0;
	}
}

/* The kept SM_TASKX of tid, or NULL. */
static struct rm_taskx *
rm_taskx_of(int tid)
{
	int i;

	for (i = 0; i < ntaskx; i++) {
		if (taskx[i].tid == tid)
			return &taskx[i];
	}
	return NULL;
}

/* One request to the RM (tag from src); 1 if it was TAG_END or TAG_ASK
 * from the parent (left in the receive buffer for the caller). */
static int
rm_serve(int b, int parent)
{
	int tag, src, len;

	pvm_bufinfo(b, &len, &tag, &src);
	if ((tag == TAG_END || tag == TAG_ASK) && src == parent)
		return 1;
	if (tag == SM_SPAWN)
		rm_spawn(src);
	else if (tag == SM_CONFIG)
		rm_config(src);
	else if (tag == SM_TASK)
		rm_tasks(src);
	else if (tag == SM_NOTIFY)
		rm_notify(src);
	else if (tag == SM_TASKX)
		rm_taskx();
	return 0;
}

/* Serve until the SM_TASKX of tid came or ms passed; it, or NULL. */
static struct rm_taskx *
rm_await_taskx(int tid, int parent, int ms)
{
	struct timeval tv;
	struct rm_taskx *x;
	int b;

	while ((x = rm_taskx_of(tid)) == NULL && ms > 0) {
		tv.tv_sec = 0;
		tv.tv_usec = 100000;
		ms -= 100;
		if ((b = pvm_trecv(-1, SM_TASKX, &tv)) > 0)
			rm_serve(b, parent);
	}
	return x;
}

/* TAG_ASK {tid}: the SM_TASKX of that task (it exits with status 3
 * after some CPU time), as the RM got it. */
static void
rm_ask(int parent)
{
	struct rm_taskx *x;
	char out[TEXT_LEN];
	int tid = 0, u;

	pvm_upkint(&tid, 1, 1);
	if ((x = rm_await_taskx(tid, parent, 8000)) == NULL) {
		report(parent, "no SM_TASKX within 8000 ms");
		report(parent, "no SM_TASKX");
		return;
	}
	snprintf(out, sizeof(out), "status 0x%x, times %s", x->status,
	    x->us >= 0 && x->ss >= 0 && x->uus >= 0 && x->uus < 1000000 &&
	            x->sus >= 0 && x->sus < 1000000
	        ? "well-formed"
	        : "malformed");
	report(parent, out);
	u = (x->us + x->ss) * 1000000 + x->uus + x->sus;
	snprintf(out, sizeof(out), "user + system time %s",
	    u == 0       ? "0"
	    : u < 100000 ? "under 0.1 s"
	                 : "0.1 s or more");
	report(parent, out);
}

/* TAG_END {n, n x tid}: the counts, and for each of those tasks where
 * it ran and whether an SM_TASKX came for it (3 s at most each). */
static void
rm_end(int parent)
{
	char out[TEXT_LEN];
	int n = 0, kids[MAXT], i, here = pvm_tidtohost(pvm_mytid());

	pvm_upkint(&n, 1, 1);
	if (n < 0 || n > MAXT)
		n = 0;
	pvm_upkint(kids, n, 1);
	snprintf(out, sizeof(out),
	    "SM_SPAWN %d, SM_CONFIG %d, SM_TASK %d, SM_NOTIFY %d, SM_TASKX:",
	    seen_spawn, seen_config, seen_task, seen_notify);
	for (i = 0; i < n; i++)
		addf(out, sizeof(out), " child %d (%s) %s", i + 1,
		    pvm_tidtohost(kids[i]) == here ? "RM's host" : "other host",
		    rm_await_taskx(kids[i], parent, 3000) ? "reported"
		                                          : "not reported");
	report(parent, out);
}

static int
rm_main(void)
{
	struct pvmhostinfo *hi;
	int parent = pvm_parent(), b, tag, src, len, rc;

	alarm(60);
	pvm_setopt(PvmResvTids, 1);
	rc = pvm_reg_rm(&hi);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rc, 1, 1);
	pvm_send(parent, TAG_READY);
	while ((b = pvm_recv(-1, -1)) > 0) {
		if (!rm_serve(b, parent))
			continue;
		pvm_bufinfo(b, &len, &tag, &src);
		if (tag == TAG_ASK) {
			rm_ask(parent);
			continue;
		}
		rm_end(parent);
		break;
	}
	pvm_exit();
	return 0;
}

/* ---------------------------------------------------------------- */
/* The client                                                        */
/* ---------------------------------------------------------------- */

static void
addf(char *out, size_t n, const char *fmt, ...)
{
	size_t l = strlen(out);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out + l, n - l, fmt, ap);
	va_end(ap);
}

static void
report(int to, const char *text)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkstr((char *)text);
	pvm_send(to, TAG_RES);
}

/* pvm_tasks through the RM, normalised. */
static void
client_tasks(int rm, const int *kids, char *out, size_t n)
{
	struct pvmtaskinfo *ti;
	int nt = 0, i, rc, rmflag = -1, k = 0;

	rc = pvm_tasks(0, &nt, &ti);
	for (i = 0; rc >= 0 && i < nt; i++) {
		if (ti[i].ti_tid == rm)
			rmflag = ti[i].ti_flag & 0x100;
		if (ti[i].ti_tid == kids[0] || ti[i].ti_tid == kids[1])
			k++;
	}
	addf(out, n,
	    "pvm_tasks = %s, rm listed %s, rm flag 0x100 %s, "
	    "children listed %d",
	    dp_code(rc), rmflag >= 0 ? "yes" : "no",
	    rmflag > 0 ? "set" : "clear", k);
}

static int
client_main(void)
{
	struct pvmhostinfo *hi;
	struct timeval tv = {5, 0};
	char out[TEXT_LEN], *args[] = {"idle", NULL};
	int parent = pvm_parent(), kids[2] = {0, 0}, rm = 0, rc, nh, na;
	int tid = 0;

	alarm(60);
	pvm_setopt(PvmAutoErr, 0);
	pvm_recv(parent, TAG_GO);
	pvm_upkint(&rm, 1, 1);
	out[0] = '\0';
	rc = pvm_spawn(self, args, PvmTaskDefault, NULL, 2, kids);
	addf(out, sizeof(out), "pvm_spawn = %s, tids %s %s", dp_code(rc),
	    kids[0] > 0 ? "task" : dp_code(kids[0]),
	    kids[1] > 0 ? "task" : dp_code(kids[1]));
	report(parent, out);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(kids, 2, 1);
	pvm_send(parent, TAG_KIDS);
	out[0] = '\0';
	rc = pvm_config(&nh, &na, &hi);
	addf(out, sizeof(out), "pvm_config = %s, nhost %d, narch %d",
	    dp_code(rc), nh, na);
	report(parent, out);
	out[0] = '\0';
	client_tasks(rm, kids, out, sizeof(out));
	report(parent, out);
	out[0] = '\0';
	rc = pvm_notify(PvmTaskExit, TAG_NOTE, 1, kids);
	pvm_initsend(PvmDataDefault);
	pvm_send(kids[0], TAG_END);
	if (pvm_trecv(-1, TAG_NOTE, &tv) > 0)
		pvm_upkint(&tid, 1, 1);
	addf(out, sizeof(out), "pvm_notify = %s, TaskExit %s", dp_code(rc),
	    tid == kids[0] ? "of the child"
	    : tid          ? "other"
	                   : "none");
	report(parent, out);
	pvm_send(kids[1], TAG_END);
	/* Once the RM is gone: a spawn must not wait for it forever. */
	pvm_recv(parent, TAG_GO);
	out[0] = '\0';
	tid = 0;
	rc = pvm_spawn("p_rm_no_such_program", NULL, 0, NULL, 1, &tid);
	addf(out, sizeof(out), "pvm_spawn = %s, tids[0] %s", dp_code(rc),
	    dp_code(tid));
	report(parent, out);
	pvm_exit();
	return 0;
}

/* ---------------------------------------------------------------- */
/* The tracer                                                        */
/* ---------------------------------------------------------------- */

/* One output message's kind: begin (-1, -2), text, end (0). */
static void
tracer_note(char *out, size_t n, int talker)
{
	char text[256];
	int tid = 0, cnt = 0;

	pvm_upkint(&tid, 1, 1);
	pvm_upkint(&cnt, 1, 1);
	if (cnt > 0 && cnt < (int)sizeof(text)) {
		pvm_upkbyte(text, cnt, 1);
		text[cnt] = '\0';
		text[strcspn(text, "\n")] = '\0';
		addf(
		    out, n, " %s:\"%s\"", tid == talker ? "talker" : "?", text);
	} else {
		addf(out, n, " %s:%d", tid == talker ? "talker" : "?", cnt);
	}
}

static int
tracer_main(void)
{
	struct timeval tv = {3, 0};
	char out[TEXT_LEN], m[40];
	int parent = pvm_parent(), ctx, rc, talker = 0, b;

	alarm(60);
	pvm_setopt(PvmAutoErr, 0);
	ctx = pvm_newcontext();
	memset(m, '@', sizeof(m));
	m[35] = '\0';
	rc = pvm_reg_tracer(ctx, TAG_TRC, ctx, TAG_OUT, m, 0, PvmTraceFull);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rc, 1, 1);
	pvm_send(parent, TAG_READY);
	pvm_recv(parent, TAG_GO);
	pvm_upkint(&talker, 1, 1);
	snprintf(out, sizeof(out), "in the tracer's context, tag %d:", TAG_OUT);
	pvm_setcontext(ctx);
	while ((b = pvm_trecv(-1, TAG_OUT, &tv)) > 0)
		tracer_note(out, sizeof(out), talker);
	pvm_setcontext(0);
	rc = pvm_reg_tracer(ctx, TAG_TRC, ctx, TAG_OUT, m, 0, PvmTraceFull);
	addf(out, sizeof(out), "; unregister = %s", dp_code(rc));
	report(parent, out);
	pvm_exit();
	return 0;
}

/* ---------------------------------------------------------------- */
/* The probe                                                         */
/* ---------------------------------------------------------------- */

/* Start a copy of ourselves in role r; its tid or 0. */
static int
start(const char *c, const char *r)
{
	return dp_start(c, self, r, PvmTaskDefault, NULL);
}

/* Wait for a READY with its int (a return code), recorded as c. */
static int
ready(const char *c, int tid, const char *call)
{
	return dp_ready(c, tid, TAG_READY, 5, call);
}

/* How pvm_tasks shows task tid: listed, and its ti_flag & bit. */
static void
flag_of(const char *c, int tid, int bit)
{
	struct pvmtaskinfo *ti;
	int nt = 0, i, f = -1, rc = pvm_tasks(0, &nt, &ti);

	for (i = 0; rc >= 0 && i < nt; i++) {
		if (ti[i].ti_tid == tid)
			f = ti[i].ti_flag & bit;
	}
	dp_rec(c, "pvm_tasks = %s, %s, flag 0x%x %s", dp_code(rc),
	    f >= 0 ? "listed" : "not listed", bit, f > 0 ? "set" : "clear");
}

static void
tracer_cases(void)
{
	int tr = start("tracer", "tracer"), talker;

	if (tr == 0 || !ready("tracer-reg", tr, "pvm_reg_tracer"))
		return;
	flag_of("tracer-flag", tr, 0x800);
	talker = start("tracer-talker", "say");
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&talker, 1, 1);
	pvm_send(tr, TAG_GO);
	dp_answer("tracer-output", tr, TAG_RES, 10000);
	dp_drain(200);
}

/* The client's two children (TAG_KIDS), or zeros. */
static void
kids_of(int cl, int *kids)
{
	struct timeval tv = {5, 0};

	if (pvm_trecv(cl, TAG_KIDS, &tv) > 0)
		pvm_upkint(kids, 2, 1);
}

/* A task on the RM's host that exits with status 3 after some CPU time:
 * what the RM's SM_TASKX says of it. */
static void
burn_case(int rm)
{
	struct pvmhostinfo *hi;
	char *args[] = {"burn", NULL}, *where = NULL;
	int nh = 0, na, i, tid = 0, rc;

	pvm_config(&nh, &na, &hi);
	for (i = 0; i < nh; i++) {
		if (hi[i].hi_tid == pvm_tidtohost(rm))
			where = hi[i].hi_name;
	}
	rc = pvm_spawn(self, args, PvmTaskHost, where, 1, &tid);
	if (rc != 1) {
		dp_rec("rm-taskx", "spawn = %s", dp_code(rc < 0 ? rc : tid));
		return;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&tid, 1, 1);
	pvm_send(rm, TAG_ASK);
	dp_answer("rm-taskx", rm, TAG_RES, 10000);
	dp_answer("rm-taskx-times", rm, TAG_RES, 1000);
}

static void
rm_cases(void)
{
	struct timeval tv = {0, 300000};
	int rm = start("rm", "rm"), cl, i, kids[2] = {0, 0};
	const char *c[] = {"rm-spawn", "rm-config", "rm-tasks", "rm-notify"};

	if (rm == 0 || !ready("rm-reg", rm, "pvm_reg_rm"))
		return;
	if ((cl = start("rm-client", "client")) == 0)
		return;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rm, 1, 1);
	pvm_send(cl, TAG_GO);
	for (i = 0; i < 4; i++) {
		dp_answer(c[i], cl, TAG_RES, 8000);
		if (i == 0)
			kids_of(cl, kids);
	}
	burn_case(rm);
	pvm_initsend(PvmDataDefault);
	i = 2;
	pvm_pkint(&i, 1, 1);
	pvm_pkint(kids, 2, 1);
	pvm_send(rm, TAG_END);
	dp_answer("rm-seen", rm, TAG_RES, 10000);
	pvm_notify(PvmTaskExit, TAG_END, 1, &rm);
	pvm_trecv(-1, TAG_END, &tv);
	sleep(1);
	pvm_initsend(PvmDataDefault);
	pvm_send(cl, TAG_GO);
	dp_answer("rm-gone-spawn", cl, TAG_RES, 6000);
	dp_drain(200);
}

static int
say_main(void)
{
	printf("hello from the talker\n");
	fflush(stdout);
	pvm_exit();
	return 0;
}

/* About 0.3 s of user time, then exit status 3. */
static int
burn_main(void)
{
	volatile unsigned long x = 0;
	clock_t end = clock() + CLOCKS_PER_SEC * 3 / 10;

	alarm(30);
	pvm_mytid();
	while (clock() < end)
		x++;
	pvm_exit();
	exit(3);
}

static int
idle_main(void)
{
	alarm(30);
	pvm_recv(-1, TAG_END);
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	dp_self(self, sizeof(self));
	if (argc > 1 && strcmp(argv[1], "rm") == 0)
		return rm_main();
	if (argc > 1 && strcmp(argv[1], "client") == 0)
		return client_main();
	if (argc > 1 && strcmp(argv[1], "tracer") == 0)
		return tracer_main();
	if (argc > 1 && strcmp(argv[1], "say") == 0)
		return say_main();
	if (argc > 1 && strcmp(argv[1], "idle") == 0)
		return idle_main();
	if (argc > 1 && strcmp(argv[1], "burn") == 0)
		return burn_main();
	if (dp_enrol() <= 0)
		return 1;
	tracer_cases();
	rm_cases();
	pvm_exit();
	return 0;
}
