/*
 * p_misc.c: probe of the calls no other probe makes: pvm_version,
 * pvm_archcode, the error texts (pvm_errlist, pvm_errno, pvm_strerror,
 * pvm_perror), pvmgettmp/pvmgetrsh, pvm_export/pvm_unexport, the trace
 * masks, the PVM 3.3 database (pvm_insert/lookup/delete),
 * pvm_getnoresets, pvm_getfds, pvm_hostsync, pvm_start_pvmd with a pvmd
 * running, pvm_tickle and the registrations (pvm_reg_rm, pvm_reg_hoster,
 * pvm_reg_tasker, pvm_reg_tracer).
 *
 * A call that may crash, hang or change how the pvmd behaves (a NULL
 * argument, a registration) runs in a spawned child of its own, under an
 * alarm: the child sends its record back; no answer within a bound is
 * recorded as "hangs", a child gone without one as "dies".
 *
 *   p_misc              the probe
 *   p_misc call NAME    a child: runs case NAME, sends its record, exits
 *   p_misc hold NAME    a child: runs case NAME when told, sends its
 *                       record, exits when told
 *
 * pvm_halt is not probed (it ends the machine the test runs on).
 */
#include "probe.h"

#define TAG_RES 61
#define TAG_EXIT 62
#define TAG_GO 63
#define TAG_END 64
#define NOTASK 0x4fff0    /* a task tid of host 1 nobody has */
#define NOHOST 0x3ffc0000 /* host 4095, not in the machine */
#define MASK_LEN 36       /* pvmtev.h's TEV_MASK_LENGTH */
#define TEXT_LEN 512

/* Neither pvm3.h declares these (the masks are in pvmtev.h, which this
 * probe does without); both libraries export them. */
extern int pvm_errno;
extern char *pvm_errlist[];
extern int pvm_nerr;
int pvm_gettmask(int, char *);
int pvm_settmask(int, char *);
char *pvmtmpnam(char *);

static int me, host;
static char self[4096];

/* ------------------------------------------------------------------ */
/* Text helpers                                                        */
/* ------------------------------------------------------------------ */

/* Append to out (size n) like snprintf. */
static void __attribute__((format(printf, 3, 4)))
addf(char *out, size_t n, const char *fmt, ...)
{
	size_t l = strlen(out);
	va_list ap;

	if (l + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(out + l, n - l, fmt, ap);
	va_end(ap);
}

/* A mask as runs of bytes: "'@'x35 0x1". */
static void
mask_text(const char *m, char *out, size_t n)
{
	int i = 0, j;
	unsigned char c;

	out[0] = '\0';
	while (i < MASK_LEN) {
		c = (unsigned char)m[i];
		for (j = i; j < MASK_LEN && (unsigned char)m[j] == c; j++)
			;
		if (c >= 0x20 && c < 0x7f)
			addf(out, n, "%s'%c'x%d", i ? " " : "", c, j - i);
		else
			addf(out, n, "%s%dx%d", i ? " " : "", c, j - i);
		i = j;
	}
}

/* stderr text with the task's tid or the pid replaced by a name. */
static void
untid_text(char *s)
{
	char *p, *q;

	if ((p = strstr(s, "[t")) != NULL && (q = strchr(p, ']')) != NULL) {
		memmove(p + 3, q, strlen(q) + 1);
		memcpy(p, "[me", 3);
	}
	if ((p = strstr(s, "[pid")) != NULL && (q = strchr(p, ']')) != NULL)
		memmove(p + 4, q, strlen(q) + 1);
	while ((p = strchr(s, '\n')) != NULL)
		*p = '|';
}

/* What fn(arg) writes to stderr, in out; its result in *rc. */
static void
stderr_of(int (*fn)(char *), char *arg, int *rc, char *out, size_t n)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t got = 0;

	out[0] = '\0';
	if (f == NULL || saved < 0) {
		*rc = fn(arg);
		snprintf(out, n, "(not captured)");
		return;
	}
	fflush(stderr);
	dup2(fileno(f), 2);
	*rc = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	got = fread(out, 1, n - 1, f);
	out[got] = '\0';
	fclose(f);
	untid_text(out);
}

/* ------------------------------------------------------------------ */
/* Cases run in a child (they may crash or hang)                       */
/* ------------------------------------------------------------------ */

static void
c_archcode_null(char *out, size_t n)
{
	addf(out, n, "pvm_archcode(NULL) = %s", dp_code(pvm_archcode(NULL)));
}

static void
c_export_null(char *out, size_t n)
{
	addf(out, n, "pvm_export(NULL) = %s", dp_code(pvm_export(NULL)));
}

static void
c_unexport_null(char *out, size_t n)
{
	addf(out, n, "pvm_unexport(NULL) = %s", dp_code(pvm_unexport(NULL)));
}

static void
c_perror_null(char *out, size_t n)
{
	char text[TEXT_LEN];
	int rc;

	pvm_pstat(NOTASK);
	stderr_of(pvm_perror, NULL, &rc, text, sizeof(text));
	addf(out, n, "pvm_perror(NULL) = %s, stderr \"%s\"", dp_code(rc), text);
}

static void
c_settmask_null(char *out, size_t n)
{
	addf(out, n, "pvm_settmask(Self, NULL) = %s",
	    dp_code(pvm_settmask(PvmTaskSelf, NULL)));
}

static void
c_gettmask_null(char *out, size_t n)
{
	addf(out, n, "pvm_gettmask(Self, NULL) = %s",
	    dp_code(pvm_gettmask(PvmTaskSelf, NULL)));
}

static void
c_hostsync_null(char *out, size_t n)
{
	int h = pvm_tidtohost(pvm_mytid());

	addf(out, n, "pvm_hostsync(host, NULL, NULL) = %s",
	    dp_code(pvm_hostsync(h, NULL, NULL)));
}

/* pvm_hostsync of a tid of each class (the clocks are not recorded). */
static void
hostsync_of(int tid, const char *what, char *out, size_t n)
{
	struct timeval clk, delta;
	int rc;

	delta.tv_sec = 99;
	rc = pvm_hostsync(tid, &clk, &delta);
	addf(out, n, "pvm_hostsync(%s) = %s", what, dp_code(rc));
	if (rc >= 0)
		addf(out, n, ", delta %s",
		    labs((long)delta.tv_sec) <= 2 ? "small" : "large");
}

static void
c_hostsync_host(char *out, size_t n)
{
	hostsync_of(pvm_tidtohost(pvm_mytid()), "host", out, n);
}

static void
c_hostsync_pvmd(char *out, size_t n)
{
	unsigned h = (unsigned)pvm_tidtohost(pvm_mytid());

	hostsync_of((int)(0x80000000u | h), "pvmd-addr", out, n);
}

static void
c_hostsync_nohost(char *out, size_t n)
{
	pvm_mytid();
	hostsync_of(NOHOST, "nohost", out, n);
}

static void
c_hostsync_me(char *out, size_t n)
{
	hostsync_of(pvm_mytid(), "me", out, n);
}

/* A host of the machine other than this task's, or 0. */
static int
other_host(void)
{
	struct pvmhostinfo *hi;
	int nh, na, i, h = pvm_tidtohost(pvm_mytid());

	if (pvm_config(&nh, &na, &hi) < 0)
		return 0;
	for (i = 0; i < nh; i++)
		if (hi[i].hi_tid != h)
			return hi[i].hi_tid;
	return 0;
}

/* A task tid nobody has, on this task's host. */
static void
c_hostsync_notask(char *out, size_t n)
{
	int h = pvm_tidtohost(pvm_mytid());

	hostsync_of(h | 0xfff0, "notask here", out, n);
}

/* Another host (on several hosts), by its pvmd's tid and by a task tid
 * of it that nobody has. */
static void
c_hostsync_other(char *out, size_t n)
{
	int h = other_host();

	if (h == 0)
		addf(out, n, "no other host");
	else
		hostsync_of(h, "other host", out, n);
}

static void
c_hostsync_other_notask(char *out, size_t n)
{
	int h = other_host();

	if (h == 0)
		addf(out, n, "no other host");
	else
		hostsync_of(h | 0xfff0, "notask there", out, n);
}

static void
c_hostsync_zero(char *out, size_t n)
{
	pvm_mytid();
	hostsync_of(0, "0", out, n);
}

static void
c_hostsync_neg(char *out, size_t n)
{
	pvm_mytid();
	hostsync_of(-1, "-1", out, n);
}

static void
c_hostsync_tidpvmd(char *out, size_t n)
{
	pvm_mytid();
	hostsync_of((int)0x80000000u, "TIDPVMD", out, n);
}

static void
c_getnoresets_null(char *out, size_t n)
{
	addf(out, n, "pvm_getnoresets(NULL, NULL) = %s",
	    dp_code(pvm_getnoresets(NULL, NULL)));
}

static void
c_getfds_null(char *out, size_t n)
{
	pvm_mytid();
	addf(out, n, "pvm_getfds(NULL) = %s", dp_code(pvm_getfds(NULL)));
}

static void
c_insert_null(char *out, size_t n)
{
	addf(out, n, "pvm_insert(NULL, -1, 1) = %s",
	    dp_code(pvm_insert(NULL, -1, 1)));
}

static void
c_lookup_null(char *out, size_t n)
{
	int d = -1;

	addf(out, n, "pvm_lookup(name, -1, NULL) = %s",
	    dp_code(pvm_lookup("p_misc_none", -1, NULL)));
	addf(out, n, ", pvm_lookup(NULL, -1, &d) = %s",
	    dp_code(pvm_lookup(NULL, -1, &d)));
}

/* pvm_start_pvmd before this child is enrolled: it finds the pvmd. */
static void
c_start_unenrolled(char *out, size_t n)
{
	int rc = pvm_start_pvmd(0, NULL, 0);

	addf(out, n, "pvm_start_pvmd(0, NULL, 0) = %s", dp_code(rc));
	addf(out, n, ", then pvm_mytid is %s",
	    pvm_mytid() > 0 ? "a task tid" : "an error");
}

static void
c_start_argv_null(char *out, size_t n)
{
	pvm_mytid();
	addf(out, n, "pvm_start_pvmd(2, NULL, 0) = %s",
	    dp_code(pvm_start_pvmd(2, NULL, 0)));
}

/* pvm_start_pvmd by an enrolled task, with args and block. */
static void
start_enrolled(int argc, char **argv, int block, char *out, size_t n)
{
	pvm_mytid();
	addf(out, n, "pvm_start_pvmd(%d, %s, %d) = %s", argc,
	    argv ? "argv" : "NULL", block,
	    dp_code(pvm_start_pvmd(argc, argv, block)));
}

static void
c_start_0(char *out, size_t n)
{
	start_enrolled(0, NULL, 0, out, n);
}

static void
c_start_block(char *out, size_t n)
{
	start_enrolled(0, NULL, 1, out, n);
}

static void
c_start_block2(char *out, size_t n)
{
	start_enrolled(0, NULL, 2, out, n);
}

static void
c_start_argc_neg(char *out, size_t n)
{
	start_enrolled(-1, NULL, 0, out, n);
}

static void
c_start_args(char *out, size_t n)
{
	char *argv[] = {"-d0", NULL};

	start_enrolled(1, argv, 1, out, n);
}

static void
c_start_badopt(char *out, size_t n)
{
	char *argv[] = {"-Q", "/p_misc/no/such/hostfile", NULL};

	start_enrolled(2, argv, 0, out, n);
}

/* pvm_tickle with narg and one argument what. */
static void
tickle_of(int narg, int what, char *out, size_t n)
{
	int args[10] = {what}, res[16], nres = -1, rc;

	pvm_mytid();
	rc = pvm_tickle(narg, args, &nres, res);
	addf(out, n, "pvm_tickle(%d, {%d}) = %s", narg, what, dp_code(rc));
	if (rc >= 0)
		addf(out, n, ", nres %d", nres);
}

static void
c_tickle_0(char *out, size_t n)
{
	tickle_of(0, 0, out, n);
}

static void
c_tickle_bad(char *out, size_t n)
{
	tickle_of(1, 999, out, n);
}

static void
c_tickle_neg(char *out, size_t n)
{
	tickle_of(-1, 0, out, n);
}

static void
c_tickle_11(char *out, size_t n)
{
	tickle_of(11, 999, out, n);
}

/* The host table pvm_reg_rm hands back, in short. */
static void
rm_hosts(struct pvmhostinfo *hi, char *out, size_t n)
{
	int h = pvm_tidtohost(pvm_mytid());

	if (hi == NULL) {
		addf(out, n, ", hostinfo NULL");
		return;
	}
	addf(out, n, ", hostinfo[0] %s, arch %s",
	    hi[0].hi_tid == h ? "this host" : "another",
	    hi[0].hi_arch ? hi[0].hi_arch : "NULL");
}

/* How many entries the mailbox shows under "###_PVM_*". */
static void
sys_classes(char *out, size_t n)
{
	struct pvmmboxinfo *mi;
	int nc = -1, rc, i;

	rc = pvm_getmboxinfo("###_PVM_*", &nc, &mi);
	addf(out, n, ", getmboxinfo(###_PVM_*) = %s", dp_code(rc));
	for (i = 0; rc >= 0 && i < nc; i++)
		addf(out, n, " %s:%d", mi[i].mi_name, mi[i].mi_nentries);
}

static void
c_reg_rm(char *out, size_t n)
{
	struct pvmhostinfo *hi = NULL;
	int rc = pvm_reg_rm(&hi);

	addf(out, n, "pvm_reg_rm = %s", dp_code(rc));
	if (rc >= 0)
		rm_hosts(hi, out, n);
	hi = NULL;
	dp_name(pvm_mytid(), "self");
	addf(out, n, ", again = %s", dp_val(pvm_reg_rm(&hi)));
	sys_classes(out, n);
}

/* A spawn by a task that enrolled after a resource manager had come and
 * gone. */
static void
c_after_rm(char *out, size_t n)
{
	int tid = 0, rc;

	rc = pvm_spawn("p_misc_no_such_program", NULL, 0, NULL, 1, &tid);
	addf(out, n, "pvm_spawn(nofile) = %s, tids[0] %s", dp_code(rc),
	    dp_code(tid));
}

static void
c_reg_hoster(char *out, size_t n)
{
	addf(out, n, "pvm_reg_hoster = %s", dp_code(pvm_reg_hoster()));
	addf(out, n, ", again = %s", dp_code(pvm_reg_hoster()));
	sys_classes(out, n);
}

static void
c_reg_tasker(char *out, size_t n)
{
	addf(out, n, "pvm_reg_tasker = %s", dp_code(pvm_reg_tasker()));
	addf(out, n, ", again = %s", dp_code(pvm_reg_tasker()));
	sys_classes(out, n);
}

static void
c_reg_tracer(char *out, size_t n)
{
	char m[MASK_LEN];

	memset(m, '@', sizeof(m));
	m[MASK_LEN - 1] = '\0';
	addf(out, n, "pvm_reg_tracer = %s",
	    dp_code(pvm_reg_tracer(0, 70, 0, 71, m, 0, 0)));
	addf(out, n, ", again = %s",
	    dp_code(pvm_reg_tracer(0, 70, 0, 71, m, 0, 0)));
	sys_classes(out, n);
}

/* One registration (hold children). */
static void
c_hold_hoster(char *out, size_t n)
{
	addf(out, n, "pvm_reg_hoster = %s", dp_code(pvm_reg_hoster()));
}

static void
c_hold_tasker(char *out, size_t n)
{
	addf(out, n, "pvm_reg_tasker = %s", dp_code(pvm_reg_tasker()));
}

static const struct {
	const char *name;
	void (*fn)(char *, size_t);
} child_cases[] = {{"archcode-null", c_archcode_null},
    {"export-null", c_export_null}, {"unexport-null", c_unexport_null},
    {"perror-null", c_perror_null}, {"settmask-null", c_settmask_null},
    {"gettmask-null", c_gettmask_null}, {"hostsync-null", c_hostsync_null},
    {"hostsync-host", c_hostsync_host}, {"hostsync-pvmd", c_hostsync_pvmd},
    {"hostsync-nohost", c_hostsync_nohost}, {"hostsync-me", c_hostsync_me},
    {"hostsync-notask", c_hostsync_notask},
    {"hostsync-other", c_hostsync_other},
    {"hostsync-other-notask", c_hostsync_other_notask},
    {"hostsync-0", c_hostsync_zero}, {"hostsync-neg", c_hostsync_neg},
    {"hostsync-tidpvmd", c_hostsync_tidpvmd}, {"start-0", c_start_0},
    {"start-block", c_start_block}, {"start-block2", c_start_block2},
    {"start-argc-neg", c_start_argc_neg}, {"start-args", c_start_args},
    {"start-badopt", c_start_badopt}, {"tickle-0", c_tickle_0},
    {"tickle-bad", c_tickle_bad}, {"tickle-neg", c_tickle_neg},
    {"tickle-11", c_tickle_11}, {"getnoresets-null", c_getnoresets_null},
    {"getfds-null", c_getfds_null}, {"insert-null", c_insert_null},
    {"lookup-null", c_lookup_null}, {"start-unenrolled", c_start_unenrolled},
    {"start-argv-null", c_start_argv_null}, {"reg-rm", c_reg_rm},
    {"after-rm", c_after_rm}, {"reg-hoster", c_reg_hoster},
    {"reg-tasker", c_reg_tasker}, {"reg-tracer", c_reg_tracer},
    {"hold-hoster", c_hold_hoster}, {"hold-tasker", c_hold_tasker}};

/* Run the named case into out. */
static void
child_run(const char *name, char *out, size_t n)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < sizeof(child_cases) / sizeof(child_cases[0]); i++)
		if (strcmp(child_cases[i].name, name) == 0) {
			child_cases[i].fn(out, n);
			return;
		}
	snprintf(out, n, "no case %s", name);
}

static void
child_send(int to, const char *text)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkstr((char *)text);
	pvm_send(to, TAG_RES);
}

/* p_misc call NAME / p_misc hold NAME. */
static int
child_main(int hold, const char *name)
{
	char out[TEXT_LEN];
	int parent;

	alarm(30);
	pvm_setopt(PvmAutoErr, 0);
	if (hold) {
		parent = pvm_parent();
		pvm_recv(parent, TAG_GO);
	}
	child_run(name, out, sizeof(out));
	parent = pvm_parent();
	child_send(parent, out);
	if (hold)
		pvm_recv(parent, TAG_END);
	pvm_exit();
	return 0;
}

/* ------------------------------------------------------------------ */
/* The parent's side of a child                                        */
/* ------------------------------------------------------------------ */

/* A child running "MODE NAME", its exit watched; its tid or 0. */
static int
spawn_child(const char *c, const char *mode, const char *name)
{
	char *args[] = {(char *)mode, (char *)name, NULL};
	int tid = 0, rc;

	rc = pvm_spawn(self, args, PvmTaskDefault, NULL, 1, &tid);
	if (rc != 1) {
		dp_rec(c, "spawn = %s", dp_code(rc < 0 ? rc : tid));
		return 0;
	}
	pvm_notify(PvmTaskExit, TAG_EXIT, 1, &tid);
	return tid;
}

/* The next message from tid (its record) or about it (its exit notify)
 * within the deadline; others are dropped.  Its tag, 0 if none came. */
static int
child_next(int tid, struct timeval *end)
{
	struct timeval now, tv;
	int b, tag, len, src, v;

	for (;;) {
		gettimeofday(&now, NULL);
		timersub(end, &now, &tv);
		if (tv.tv_sec < 0)
			return 0;
		if ((b = pvm_trecv(-1, -1, &tv)) <= 0)
			return 0;
		pvm_bufinfo(b, &len, &tag, &src);
		if (tag == TAG_RES && src == tid)
			return tag;
		if (tag == TAG_EXIT && pvm_upkint(&v, 1, 1) >= 0 && v == tid)
			return tag;
	}
}

/* The child's record within ms: "hangs", "dies" or its text; 1 if its
 * exit has been seen already. */
static int
child_answer(const char *c, int tid, int ms)
{
	struct timeval now, end, d = {ms / 1000, (ms % 1000) * 1000};
	char text[TEXT_LEN];
	int tag;

	gettimeofday(&now, NULL);
	timeradd(&now, &d, &end);
	tag = child_next(tid, &end);
	if (tag == TAG_RES && pvm_upkstr(text) >= 0)
		dp_rec(c, "%s", text);
	else if (tag == TAG_EXIT)
		dp_rec(c, "dies (no answer)");
	else
		dp_rec(c, "hangs (no answer within %d ms)", ms);
	if (tag == 0)
		pvm_kill(tid);
	return tag == TAG_EXIT;
}

/* Wait (bounded) until the child's exit notify has come. */
static void
child_gone(int tid)
{
	struct timeval now, end, d = {10, 0};

	gettimeofday(&now, NULL);
	timeradd(&now, &d, &end);
	while (child_next(tid, &end) == TAG_RES)
		;
}

/* A case run in a child of its own. */
static void
in_child(const char *name)
{
	int tid = spawn_child(name, "call", name);

	if (tid <= 0)
		return;
	if (!child_answer(name, tid, 4000))
		child_gone(tid);
	dp_drain(100);
}

/* ------------------------------------------------------------------ */
/* Before enrolment: version, environment, export                      */
/* ------------------------------------------------------------------ */

/* PVM_EXPORT as it reads now. */
static void
export_env(const char *c, const char *call, int rc)
{
	const char *e = getenv("PVM_EXPORT");

	dp_rec(c, "%s = %s, PVM_EXPORT %s%s%s", call, dp_code(rc),
	    e ? "\"" : "unset", e ? e : "", e ? "\"" : "");
}

static void
exports(void)
{
	export_env("export-initial", "nothing", 0);
	export_env("export-a", "pvm_export(P_MISC_A)", pvm_export("P_MISC_A"));
	export_env("export-b", "pvm_export(P_MISC_B)", pvm_export("P_MISC_B"));
	export_env(
	    "export-dup", "pvm_export(P_MISC_A)", pvm_export("P_MISC_A"));
	export_env("export-empty", "pvm_export(\"\")", pvm_export(""));
	export_env("export-prefix", "pvm_export(P_MISC)", pvm_export("P_MISC"));
	export_env(
	    "unexport-prefix", "pvm_unexport(P_MISC)", pvm_unexport("P_MISC"));
	export_env("unexport-none", "pvm_unexport(P_MISC_NONE)",
	    pvm_unexport("P_MISC_NONE"));
	export_env(
	    "unexport-a", "pvm_unexport(P_MISC_A)", pvm_unexport("P_MISC_A"));
	export_env("unexport-empty", "pvm_unexport(\"\")", pvm_unexport(""));
	export_env(
	    "unexport-b", "pvm_unexport(P_MISC_B)", pvm_unexport("P_MISC_B"));
	unsetenv("PVM_EXPORT");
	export_env("unexport-unset", "pvm_unexport(P_MISC_B)",
	    pvm_unexport("P_MISC_B"));
	export_env("export-colon", "pvm_export(P:Q)", pvm_export("P:Q"));
	export_env("unexport-colon-p", "pvm_unexport(P)", pvm_unexport("P"));
	setenv("PVM_EXPORT", ":X::Y:", 1);
	export_env("export-preset", "pvm_export(Z)", pvm_export("Z"));
	export_env("unexport-preset-x", "pvm_unexport(X)", pvm_unexport("X"));
	export_env("unexport-preset-y", "pvm_unexport(Y)", pvm_unexport("Y"));
	export_env("unexport-preset-z", "pvm_unexport(Z)", pvm_unexport("Z"));
	unsetenv("PVM_EXPORT");
}

/* A path named by where it lies: "$PVM_TMP" (itself or under it), else
 * the path. */
static const char *
tmp_name(const char *path)
{
	const char *t = getenv("PVM_TMP");
	size_t n = t ? strlen(t) : 0;

	if (path == NULL)
		return "NULL";
	if (n > 0 && strncmp(path, t, n) == 0)
		return path[n] == '\0' ? "$PVM_TMP" : "under $PVM_TMP";
	return path;
}

static void
version(void)
{
	const char *v = pvm_version();

	dp_rec("version", "pvm_version = \"%s\", %s PVM_VER", v ? v : "NULL",
	    v && strcmp(v, PVM_VER) == 0 ? "same as" : "not");
	dp_rec("version-again", "same pointer %s",
	    pvm_version() == v ? "yes" : "no");
}

/* pvmgettmp, pvmgetrsh (set, then unset), pvmtmpnam. */
static void
environment(void)
{
	char buf[256], *p;

	dp_rec("gettmp", "pvmgettmp = %s", tmp_name(pvmgettmp()));
	setenv("PVM_RSH", "/p_misc/rsh", 1);
	p = pvmgetrsh();
	dp_rec("getrsh-set", "pvmgetrsh = %s", p ? p : "NULL");
	unsetenv("PVM_RSH");
	p = pvmgetrsh();
	dp_rec("getrsh-unset", "pvmgetrsh = %s", p ? p : "NULL");
	p = pvmtmpnam(buf);
	dp_rec("tmpnam", "pvmtmpnam(buf) %s buf, %s",
	    p == buf ? "is" : "is not", tmp_name(buf));
}

/* pvmgettmp after PVM_TMP changes (restored at once). */
static void
gettmp_changed(void)
{
	char *t = getenv("PVM_TMP"), *p;
	char old[1024];

	snprintf(old, sizeof(old), "%s", t ? t : "");
	setenv("PVM_TMP", "/p_misc/tmp", 1);
	p = pvmgettmp();
	dp_rec("gettmp-changed", "pvmgettmp = %s",
	    p && !strcmp(p, old) ? "the old $PVM_TMP"
	    : p                  ? p
	                         : "NULL");
	if (t)
		setenv("PVM_TMP", old, 1);
	else
		unsetenv("PVM_TMP");
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static int
pstat_notask(char *unused)
{
	(void)unused;
	return pvm_pstat(NOTASK);
}

static void
perror_rec(const char *c, char *arg)
{
	char text[TEXT_LEN];
	int rc;

	stderr_of(pvm_perror, arg, &rc, text, sizeof(text));
	dp_rec(c, "pvm_perror(\"%s\") = %s, errno %s, stderr \"%s\"", arg,
	    dp_code(rc), dp_code(pvm_errno), text);
}

/* Before enrolment. */
static void
errors_early(void)
{
	dp_rec("errno-initial", "pvm_errno = %s, strerror \"%s\"",
	    dp_code(pvm_errno), pvm_strerror());
	perror_rec("perror-initial", "p_misc");
}

static void
errlist(void)
{
	char c[32];
	int i;

	dp_rec("nerr", "pvm_nerr = %d", pvm_nerr);
	for (i = 0; i < pvm_nerr && i < 64; i++) {
		snprintf(c, sizeof(c), "errlist-%d", i);
		dp_rec(c, "\"%s\"", pvm_errlist[i] ? pvm_errlist[i] : "NULL");
	}
}

/* pvm_errno after the failures PVM does not report (from 0). */
static void
errno_quiet(void)
{
	int rc;

	pvm_errno = 0;
	rc = pvm_parent();
	dp_rec("errno-parent", "pvm_parent = %s, pvm_errno %s", dp_code(rc),
	    dp_code(pvm_errno));
	pvm_errno = 0;
	rc = pvm_mstat("p_misc_nosuchhost");
	dp_rec("errno-mstat", "pvm_mstat(nosuchhost) = %s, pvm_errno %s",
	    dp_code(rc), dp_code(pvm_errno));
	pvm_errno = 0;
	rc = pvm_recvinfo("p_misc_none", 0, PvmMboxDefault);
	dp_rec("errno-recvinfo", "pvm_recvinfo(none) = %s, pvm_errno %s",
	    dp_code(rc), dp_code(pvm_errno));
	pvm_errno = 0;
	rc = pvm_lookup("p_misc_none", 0, &rc);
	dp_rec("errno-lookup", "pvm_lookup(none) = %s, pvm_errno %s",
	    dp_code(rc), dp_code(pvm_errno));
	pvm_errno = 0;
	rc = pvm_kill(NOTASK);
	dp_rec("errno-kill", "pvm_kill(notask) = %s, pvm_errno %s", dp_code(rc),
	    dp_code(pvm_errno));
	pvm_errno = 0;
}

static void
errors(void)
{
	char text[TEXT_LEN];
	int rc;

	errlist();
	rc = pvm_pstat(NOTASK);
	dp_rec("errno-fail",
	    "pvm_pstat(notask) = %s, pvm_errno %s, "
	    "strerror \"%s\"",
	    dp_code(rc), dp_code(pvm_errno), pvm_strerror());
	perror_rec("perror-fail", "p_misc");
	perror_rec("perror-empty", "");
	rc = pvm_pstat(me);
	dp_rec("errno-ok", "pvm_pstat(me) = %s, pvm_errno %s", dp_code(rc),
	    dp_code(pvm_errno));
	rc = pvm_setopt(99, 1);
	dp_rec("errno-badparam",
	    "pvm_setopt(99, 1) = %s, pvm_errno %s, "
	    "strerror \"%s\"",
	    dp_code(rc), dp_code(pvm_errno), pvm_strerror());
	errno_quiet();
	pvm_setopt(PvmAutoErr, 1);
	stderr_of(pstat_notask, NULL, &rc, text, sizeof(text));
	pvm_setopt(PvmAutoErr, 0);
	dp_rec("autoerr-1", "pvm_pstat(notask) = %s, stderr \"%s\"",
	    dp_code(rc), text);
	in_child("perror-null");
}

/* ------------------------------------------------------------------ */
/* archcode, trace masks                                               */
/* ------------------------------------------------------------------ */

static void
archcodes(void)
{
	static char *names[] = {"LINUX64", "LINUX", "SUN4", "RS6K", "ALPHA",
	    "CRAY", "WIN32", "HPPA", "SGI64", "X86SOL2", "linux64", "",
	    "NOSUCHARCH", "LINUX64 ", "LINUX6"};
	char c[64];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(c, sizeof(c), "archcode-%s",
		    *names[i] ? names[i] : "empty");
		for (char *q = c; *q; q++)
			if (*q == ' ')
				*q = '_';
		dp_rec(c, "pvm_archcode(\"%s\") = %s", names[i],
		    dp_code(pvm_archcode(names[i])));
	}
	in_child("archcode-null");
}

/* Read a mask back as a record. */
static void
tmask_get(const char *c, int who, const char *what)
{
	char m[MASK_LEN], text[256];
	int rc;

	memset(m, 0x7e, sizeof(m));
	rc = pvm_gettmask(who, m);
	mask_text(m, text, sizeof(text));
	dp_rec(c, "pvm_gettmask(%s) = %s, mask %s", what, dp_code(rc),
	    rc >= 0 ? text : "-");
}

/* pvmtev.h's TEV_MASK_INIT and TEV_MASK_SET, written out. */
static void
tmask_init(char *m, int k1, int k2)
{
	memset(m, '@', MASK_LEN - 1);
	m[MASK_LEN - 1] = '\0';
	m[k1 / 4] |= (char)(1 << (k1 & 3));
	m[k2 / 4] |= (char)(1 << (k2 & 3));
}

static void
tmasks(void)
{
	char m[MASK_LEN];

	tmask_get("tmask-self-initial", PvmTaskSelf, "Self");
	tmask_get("tmask-child-initial", PvmTaskChild, "Child");
	tmask_init(m, 0, 5);
	dp_rc("tmask-set-self", "pvm_settmask(Self, bits 0 5)",
	    pvm_settmask(PvmTaskSelf, m));
	tmask_get("tmask-self", PvmTaskSelf, "Self");
	tmask_get("tmask-child-after-self", PvmTaskChild, "Child");
	tmask_init(m, 7, 139);
	dp_rc("tmask-set-child", "pvm_settmask(Child, bits 7 139)",
	    pvm_settmask(PvmTaskChild, m));
	tmask_get("tmask-child", PvmTaskChild, "Child");
	memset(m, 'A', sizeof(m));
	dp_rc("tmask-set-nonul", "pvm_settmask(Self, 36 x 'A')",
	    pvm_settmask(PvmTaskSelf, m));
	tmask_get("tmask-self-nonul", PvmTaskSelf, "Self");
	memset(m, 0, sizeof(m));
	dp_rc("tmask-set-empty", "pvm_settmask(Self, \"\")",
	    pvm_settmask(PvmTaskSelf, m));
	tmask_get("tmask-self-empty", PvmTaskSelf, "Self");
	tmask_init(m, 1, 2);
	dp_rc("tmask-set-who2", "pvm_settmask(2, m)", pvm_settmask(2, m));
	dp_rc("tmask-set-who-neg", "pvm_settmask(-1, m)", pvm_settmask(-1, m));
	tmask_get("tmask-get-who2", 2, "2");
	tmask_get("tmask-get-who-neg", -1, "-1");
	tmask_get("tmask-child-end", PvmTaskChild, "Child");
	in_child("settmask-null");
	in_child("gettmask-null");
}

/* ------------------------------------------------------------------ */
/* The PVM 3.3 database, noresets, fds                                 */
/* ------------------------------------------------------------------ */

static void
lookup_rec(const char *c, char *name, int req)
{
	int d = -1, rc = pvm_lookup(name, req, &d);

	dp_rec(c, "pvm_lookup(%s, %d) = %s, data %d", name, req, dp_code(rc),
	    rc >= 0 ? d : -1);
}

static void
database(void)
{
	char *db = "p_misc_db";

	dp_rc("insert-first", "pvm_insert(db, -1, 11)", pvm_insert(db, -1, 11));
	dp_rc(
	    "insert-second", "pvm_insert(db, -1, 22)", pvm_insert(db, -1, 22));
	dp_rc("insert-at-5", "pvm_insert(db, 5, 55)", pvm_insert(db, 5, 55));
	dp_rc("insert-at-5-again", "pvm_insert(db, 5, 56)",
	    pvm_insert(db, 5, 56));
	dp_rc(
	    "insert-at-neg", "pvm_insert(db, -7, 77)", pvm_insert(db, -7, 77));
	dp_rc("insert-empty-name", "pvm_insert(\"\", -1, 1)",
	    pvm_insert("", -1, 1));
	lookup_rec("lookup-0", db, 0);
	lookup_rec("lookup-1", db, 1);
	lookup_rec("lookup-5", db, 5);
	lookup_rec("lookup-any", db, -1);
	lookup_rec("lookup-3", db, 3);
	lookup_rec("lookup-none", "p_misc_none", 0);
	dp_rc("delete-0", "pvm_delete(db, 0)", pvm_delete(db, 0));
	lookup_rec("lookup-0-deleted", db, 0);
	lookup_rec("lookup-any-deleted", db, -1);
	dp_rc("delete-0-again", "pvm_delete(db, 0)", pvm_delete(db, 0));
	dp_rc("delete-any", "pvm_delete(db, -1)", pvm_delete(db, -1));
	dp_rc("insert-after-delete", "pvm_insert(db, -1, 33)",
	    pvm_insert(db, -1, 33));
	dp_rc("delete-none", "pvm_delete(p_misc_none, 0)",
	    pvm_delete("p_misc_none", 0));
	in_child("insert-null");
	in_child("lookup-null");
}

static void
noresets_rec(const char *c)
{
	int *tids = NULL, n = -1, rc = pvm_getnoresets(&tids, &n);

	dp_rec(c, "pvm_getnoresets = %s, n %d, first %s", dp_code(rc), n,
	    rc >= 0 && n > 0 && tids ? dp_tid(tids[0]) : "-");
}

static void
noresets(void)
{
	int *fds = NULL, rc;

	noresets_rec("noresets-initial");
	dp_rc("noresets-set", "pvm_setopt(NoReset, 1) (old value)",
	    pvm_setopt(PvmNoReset, 1));
	noresets_rec("noresets-one");
	dp_rc("noresets-set-again", "pvm_setopt(NoReset, 1) (old value)",
	    pvm_setopt(PvmNoReset, 1));
	noresets_rec("noresets-one-again");
	dp_rc("noresets-clear", "pvm_setopt(NoReset, 0) (old value)",
	    pvm_setopt(PvmNoReset, 0));
	noresets_rec("noresets-cleared");
	in_child("getnoresets-null");
	rc = pvm_getfds(&fds);
	dp_rec("getfds", "pvm_getfds = %s, fds[0] %s", dp_code(rc),
	    rc > 0 && fds ? (fds[0] >= 0 ? "an fd" : "negative") : "-");
	in_child("getfds-null");
}

/* ------------------------------------------------------------------ */
/* hostsync, start_pvmd, tickle, registrations                         */
/* ------------------------------------------------------------------ */

static void
hostsyncs(void)
{
	struct timeval clk, delta;
	int rc = pvm_hostsync(host, &clk, &delta);

	dp_rec("hostsync-parent", "pvm_hostsync(host) = %s", dp_code(rc));
	in_child("hostsync-host");
	in_child("hostsync-pvmd");
	in_child("hostsync-nohost");
	in_child("hostsync-me");
	in_child("hostsync-notask");
	in_child("hostsync-other");
	in_child("hostsync-other-notask");
	in_child("hostsync-0");
	in_child("hostsync-neg");
	in_child("hostsync-tidpvmd");
	in_child("hostsync-null");
}

static void
starts(void)
{
	in_child("start-unenrolled");
	in_child("start-0");
	in_child("start-block");
	in_child("start-block2");
	in_child("start-argc-neg");
	in_child("start-args");
	in_child("start-badopt");
	in_child("start-argv-null");
	in_child("tickle-0");
	in_child("tickle-bad");
	in_child("tickle-neg");
	in_child("tickle-11");
}

/* Two children registering as one thing, the second while the first
 * still holds it. */
static void
hold_pair(const char *what)
{
	char name[32], c[64];
	int a, b;

	snprintf(name, sizeof(name), "hold-%s", what);
	snprintf(c, sizeof(c), "%s-first", name);
	a = spawn_child(c, "hold", name);
	snprintf(c, sizeof(c), "%s-second", name);
	b = spawn_child(c, "hold", name);
	if (a <= 0 || b <= 0)
		return;
	pvm_initsend(PvmDataDefault);
	pvm_send(a, TAG_GO);
	snprintf(c, sizeof(c), "%s-first", name);
	child_answer(c, a, 4000);
	pvm_initsend(PvmDataDefault);
	pvm_send(b, TAG_GO);
	snprintf(c, sizeof(c), "%s-second", name);
	child_answer(c, b, 4000);
	pvm_initsend(PvmDataDefault);
	pvm_send(a, TAG_END);
	pvm_send(b, TAG_END);
	child_gone(a);
	child_gone(b);
	dp_drain(100);
}

static void
registrations(void)
{
	in_child("reg-hoster");
	in_child("reg-tasker");
	in_child("reg-tracer");
	hold_pair("hoster");
	hold_pair("tasker");
	/* Last: PVM 3.4.6's pvmd keeps the tid of a resource manager that
	 * has gone, and a task that enrols later sends its requests there. */
	in_child("reg-rm");
	in_child("after-rm");
}

int
main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "call") == 0)
		return child_main(0, argv[2]);
	if (argc > 2 && strcmp(argv[1], "hold") == 0)
		return child_main(1, argv[2]);
	unsetenv("PVM_EXPORT");
	version();
	environment();
	errors_early();
	exports();
	if ((me = dp_enrol()) <= 0)
		return 1;
	host = pvm_tidtohost(me);
	dp_name(host, "host1");
	dp_self(self, sizeof(self));
	dp_rec("errno-enrolled", "pvm_errno = %s", dp_code(pvm_errno));
	gettmp_changed();
	export_env("export-enrolled", "nothing", 0);
	pvm_errno = 0;
	errors();
	archcodes();
	tmasks();
	database();
	noresets();
	hostsyncs();
	starts();
	in_child("export-null");
	in_child("unexport-null");
	registrations();
	pvm_exit();
	return 0;
}
