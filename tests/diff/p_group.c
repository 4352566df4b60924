/*
 * p_group.c: probe of dynamic groups (libgpvm3 and the group server):
 * join and leave, instance numbers and their reuse, getinst, gettid,
 * gsize, freeze, barrier, bcast, reduce on every datatype, gather and
 * scatter, members that exit without leaving, what the server sends.
 *
 *   p_group           the probe (the main task, "me")
 *   p_group child     a spawned child: runs the commands the main task
 *                     sends (TAG_CMD) and reports each result (TAG_REP)
 *
 * Every call that may block (barrier, freeze, reduce, gather, scatter)
 * runs in a child, never in the main task, and the main task waits for
 * each report at most a bounded time: a hang in either system becomes a
 * record ("no reply within N ms") instead of a hung probe.
 */
#include "probe.h"

#include <unistd.h>

#define TAG_CMD 71
#define TAG_REP 72
#define TAG_BC 30      /* bcasts */
#define NOTASK 0x4fff0 /* a task tid of host 1 nobody has */
#define NCHILD 9       /* children at most (c1..c9) */
#define MAXV 32        /* values in a report */
#define WAIT_OK 5000   /* ms for a report that should come */
#define WAIT_HANG 1500 /* ms for a report that may never come */

/* The commands of a child. */
enum {
	OP_JOIN,
	OP_LEAVE,
	OP_GETINST,
	OP_GETTID,
	OP_GSIZE,
	OP_BARRIER,
	OP_FREEZE,
	OP_BCAST,
	OP_WAITMSG,
	OP_REDUCE,
	OP_GATHER,
	OP_SCATTER,
	OP_PENDING,
	OP_EXIT,
	OP_REENROL,
	OP_QUIT
};

static const char *op_names[] = {"pvm_joingroup", "pvm_lvgroup", "pvm_getinst",
    "pvm_gettid", "pvm_gsize", "pvm_barrier", "pvm_freezegroup", "pvm_bcast",
    "trecv", "pvm_reduce", "pvm_gather", "pvm_scatter", "pending", "pvm_exit",
    "re-enrol", "quit"};

/* A command: op, a group (NULL when nullgroup), four arguments. */
struct cmd {
	int seq, op, nullgroup, a, b, c, d;
	char group[1100];
};

/* A report: the call's result, values (tids or numbers), text. */
struct rep {
	int seq, rc, n, v[MAXV];
	char text[1024];
};

static int me, parent_tid;
static int kids[NCHILD + 1]; /* kids[1..]: c1.. */
static char self[4096];
static int seqno, kseq[NCHILD + 1]; /* last command sent to ck */

/* ---- the child ---- */

/* Element j of child k's data: signed, unsigned, real. */
static int
val_i(int j, int k)
{
	return j % 3 == 0 ? k : j % 3 == 1 ? -k : 10 * k + j;
}

static unsigned
val_u(int j, int k)
{
	return j % 3 == 0 ? k : j % 3 == 1 ? 5 - k : 10 * k + j;
}

static double
val_d(int j, int k)
{
	if (j % 3 == 0)
		return k + 0.5;
	return j % 3 == 1 ? -1.25 * k : 10 * k;
}

/* Reduce data: distinct per child (k) and element (j), some negative. */
static void
fill(int type, void *p, int count, int k)
{
	int j;

	for (j = 0; j < count; j++) {
		int i = val_i(j, k);
		unsigned u = val_u(j, k);
		double d = val_d(j, k);

		switch (type) {
		case PVM_BYTE:
			((signed char *)p)[j] = (signed char)(40 * i);
			break;
		case PVM_SHORT:
			((short *)p)[j] = (short)i;
			break;
		case PVM_INT:
			((int *)p)[j] = i;
			break;
		case PVM_LONG:
			((long *)p)[j] = i;
			break;
		case PVM_USHORT:
			((unsigned short *)p)[j] = (unsigned short)u;
			break;
		case PVM_UINT:
			((unsigned *)p)[j] = u;
			break;
		case PVM_ULONG:
			((unsigned long *)p)[j] = u;
			break;
		case PVM_FLOAT:
			((float *)p)[j] = (float)d;
			break;
		case PVM_DOUBLE:
			((double *)p)[j] = d;
			break;
		case PVM_CPLX:
			((float *)p)[2 * j] = (float)i;
			((float *)p)[2 * j + 1] = (float)d;
			break;
		case PVM_DCPLX:
			((double *)p)[2 * j] = i;
			((double *)p)[2 * j + 1] = d;
			break;
		default:
			((int *)p)[j] = i;
		}
	}
}

/* Reduce data as text. */
static void
show(int type, const void *p, int count, char *out, size_t len)
{
	size_t o = 0;
	int j;

	out[0] = '\0';
	for (j = 0; j < count && o + 64 < len; j++) {
		const char *sep = j ? " " : "";

		switch (type) {
		case PVM_BYTE:
			o += snprintf(out + o, len - o, "%s%d", sep,
			    ((const signed char *)p)[j]);
			break;
		case PVM_SHORT:
			o += snprintf(out + o, len - o, "%s%d", sep,
			    ((const short *)p)[j]);
			break;
		case PVM_LONG:
			o += snprintf(out + o, len - o, "%s%ld", sep,
			    ((const long *)p)[j]);
			break;
		case PVM_USHORT:
			o += snprintf(out + o, len - o, "%s%u", sep,
			    ((const unsigned short *)p)[j]);
			break;
		case PVM_UINT:
			o += snprintf(out + o, len - o, "%s%u", sep,
			    ((const unsigned *)p)[j]);
			break;
		case PVM_ULONG:
			o += snprintf(out + o, len - o, "%s%lu", sep,
			    ((const unsigned long *)p)[j]);
			break;
		case PVM_FLOAT:
			o += snprintf(out + o, len - o, "%s%g", sep,
			    ((const float *)p)[j]);
			break;
		case PVM_DOUBLE:
			o += snprintf(out + o, len - o, "%s%g", sep,
			    ((const double *)p)[j]);
			break;
		case PVM_CPLX:
			o += snprintf(out + o, len - o, "%s(%g,%g)", sep,
			    ((const float *)p)[2 * j],
			    ((const float *)p)[2 * j + 1]);
			break;
		case PVM_DCPLX:
			o += snprintf(out + o, len - o, "%s(%g,%g)", sep,
			    ((const double *)p)[2 * j],
			    ((const double *)p)[2 * j + 1]);
			break;
		default:
			o += snprintf(
			    out + o, len - o, "%s%d", sep, ((const int *)p)[j]);
		}
	}
}

static void (*const red_fns[])(int *, void *, void *, int *, int *) = {
    PvmSum, PvmMax, PvmMin, PvmProduct, NULL};

/* OP_REDUCE: a = datatype, b = function + 16 * msgtag, c = root, d =
 * count. */
static int
c_reduce(struct cmd *c, struct rep *r, char *g, int k)
{
	double data[64];
	int rc;

	memset(data, 0, sizeof(data));
	fill(c->a, data, c->d > 0 && c->d < 16 ? c->d : 0, k);
	rc = pvm_reduce(
	    red_fns[c->b % 16], data, c->d, c->a, c->b / 16, g, c->c);
	show(c->a, data, c->d > 0 && c->d < 16 ? c->d : 0, r->text,
	    sizeof(r->text));
	return rc;
}

/* OP_GATHER: a = datatype, c = root, d = count. */
static int
c_gather(struct cmd *c, struct rep *r, char *g, int k)
{
	double data[64], res[256];
	int rc, n = c->d > 0 && c->d < 16 ? c->d : 0;

	memset(data, 0, sizeof(data));
	memset(res, 0, sizeof(res));
	fill(c->a, data, n, k);
	rc = pvm_gather(res, data, c->d, c->a, 41, g, c->c);
	show(c->a, res, 4 * n, r->text, sizeof(r->text));
	return rc;
}

/* OP_SCATTER: a = datatype, c = root, d = count. */
static int
c_scatter(struct cmd *c, struct rep *r, char *g, int k)
{
	double data[256], res[64];
	int rc, n = c->d > 0 && c->d < 16 ? c->d : 0;

	memset(data, 0, sizeof(data));
	memset(res, 0, sizeof(res));
	fill(c->a, data, 4 * n, k);
	rc = pvm_scatter(res, data, c->d, c->a, 42, g, c->c);
	show(c->a, res, n, r->text, sizeof(r->text));
	return rc;
}

/* OP_WAITMSG: the first message (any source, tag a) within b ms. */
static int
c_waitmsg(struct cmd *c, struct rep *r)
{
	struct timeval tv = {c->b / 1000, (c->b % 1000) * 1000};
	int b, len = 0, tag = 0, src = 0, v = 0;

	b = pvm_trecv(-1, c->a, &tv);
	if (b > 0) {
		pvm_bufinfo(b, &len, &tag, &src);
		pvm_upkint(&v, 1, 1);
		r->v[r->n++] = tag;
		r->v[r->n++] = src;
		r->v[r->n++] = v;
	}
	return b > 0 ? 1 : b;
}

/* OP_PENDING: tags and sources of every message now in the queue. */
static int
c_pending(struct rep *r)
{
	int b, tag = 0, src = 0, len = 0, n = 0;

	while ((b = pvm_nrecv(-1, -1)) > 0) {
		pvm_bufinfo(b, &len, &tag, &src);
		if (r->n + 2 <= MAXV) {
			r->v[r->n++] = tag;
			r->v[r->n++] = src;
		}
		n++;
	}
	return n;
}

/* Run one command; the call's result. */
static int
c_run(struct cmd *c, struct rep *r, int k)
{
	char *g = c->nullgroup ? NULL : c->group;

	switch (c->op) {
	case OP_JOIN:
		return pvm_joingroup(g);
	case OP_LEAVE:
		return pvm_lvgroup(g);
	case OP_GETINST:
		return pvm_getinst(g, c->a ? c->a : pvm_mytid());
	case OP_GETTID:
		return pvm_gettid(g, c->a);
	case OP_GSIZE:
		return pvm_gsize(g);
	case OP_BARRIER:
		return pvm_barrier(g, c->a);
	case OP_FREEZE:
		return pvm_freezegroup(g, c->a);
	case OP_BCAST:
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&k, 1, 1);
		return pvm_bcast(g, c->a);
	case OP_WAITMSG:
		return c_waitmsg(c, r);
	case OP_REDUCE:
		return c_reduce(c, r, g, k);
	case OP_GATHER:
		return c_gather(c, r, g, k);
	case OP_SCATTER:
		return c_scatter(c, r, g, k);
	case OP_PENDING:
		return c_pending(r);
	case OP_REENROL:
		pvm_exit();
		return pvm_mytid() > 0 ? 0 : -1;
	}
	return 0;
}

static void
c_reply(const struct rep *r)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint((int *)&r->seq, 1, 1);
	pvm_pkint((int *)&r->rc, 1, 1);
	pvm_pkint((int *)&r->n, 1, 1);
	pvm_pkint((int *)r->v, r->n, 1);
	pvm_pkstr((char *)r->text);
	pvm_send(parent_tid, TAG_REP);
}

static void
c_unpack(struct cmd *c)
{
	int v[7] = {0};

	pvm_upkint(v, 7, 1);
	c->seq = v[0];
	c->op = v[1];
	c->nullgroup = v[2];
	c->a = v[3];
	c->b = v[4];
	c->c = v[5];
	c->d = v[6];
	pvm_upkstr(c->group);
}

static void
child(int k)
{
	struct timeval tv = {60, 0};
	struct cmd c;
	struct rep r;

	pvm_setopt(PvmAutoErr, 0);
	parent_tid = pvm_parent();
	while (pvm_trecv(parent_tid, TAG_CMD, &tv) > 0) {
		memset(&r, 0, sizeof(r));
		c_unpack(&c);
		if (c.op == OP_QUIT)
			break;
		if (c.op == OP_EXIT) {
			pvm_exit();
			exit(0);
		}
		r.seq = c.seq;
		r.rc = c_run(&c, &r, k);
		c_reply(&r);
	}
	pvm_exit();
}

/* ---- the main task ---- */

/* Send child k a command (group NULL: a NULL group). */
static void
cmd(int k, int op, const char *group, int a, int b, int c, int d)
{
	int v[7] = {++seqno, op, group == NULL, a, b, c, d};

	kseq[k] = seqno;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 7, 1);
	pvm_pkstr(group == NULL ? "" : (char *)group);
	pvm_send(kids[k], TAG_CMD);
}

/* Child k's report for its last command within ms; 0, or -1 if none. */
static int
get_rep(int k, int ms, struct rep *r)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int b;

	while ((b = pvm_trecv(kids[k], TAG_REP, &tv)) > 0) {
		pvm_upkint(&r->seq, 1, 1);
		pvm_upkint(&r->rc, 1, 1);
		pvm_upkint(&r->n, 1, 1);
		if (r->n < 0 || r->n > MAXV)
			r->n = 0;
		pvm_upkint(r->v, r->n, 1);
		pvm_upkstr(r->text);
		if (r->seq == kseq[k])
			return 0;
	}
	return -1;
}

/* The record of child k's report: "ck OP = rc [values] [text]". */
static void
rec_rep(const char *c, int k, int op, int ms, int withtext)
{
	struct rep r;
	char vals[MAXV * 16] = "";
	size_t o = 0;
	int i;

	memset(&r, 0, sizeof(r));
	if (get_rep(k, ms, &r) < 0) {
		dp_rec(c, "c%d %s: no reply within %d ms", k, op_names[op], ms);
		return;
	}
	for (i = 0; i < r.n; i++)
		o +=
		    snprintf(vals + o, sizeof(vals) - o, " %s", dp_val(r.v[i]));
	dp_rec(c, "c%d %s = %s%s%s%s%s", k, op_names[op], dp_val(r.rc),
	    r.n ? ", vals" : "", vals, withtext ? " | " : "",
	    withtext ? r.text : "");
}

/* Child k runs one command; its record. */
static void
ask(const char *c, int k, int op, const char *g, int a, int b, int cc, int d)
{
	cmd(k, op, g, a, b, cc, d);
	rec_rep(c, k, op, WAIT_OK, 0);
}

/* Spawn child k of this program, named ck. */
static void
spawn_kid(int k)
{
	static const char *names[] = {
	    "", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"};
	char arg[8], *args[] = {"child", arg, NULL};

	snprintf(arg, sizeof(arg), "%d", k);
	kids[k] = 0;
	if (pvm_spawn(self, args, 0, "", 1, &kids[k]) != 1 || kids[k] <= 0) {
		dp_rec("spawn", "c%d missing", k);
		kids[k] = 0;
		return;
	}
	dp_name(kids[k], names[k]);
}

/* Every message now in my queue (default context), as one record. */
static void
pending(const char *c)
{
	char out[512] = "";
	size_t o = 0;
	int b, tag = 0, src = 0, len = 0, n = 0;

	while ((b = pvm_nrecv(-1, -1)) > 0) {
		pvm_bufinfo(b, &len, &tag, &src);
		if (o + 64 < sizeof(out))
			o += snprintf(out + o, sizeof(out) - o,
			    " tag %d from %s", tag, dp_tid(src));
		n++;
	}
	dp_rec(c, "%d messages pending%s", n, out);
}

/* The group server among the tasks: name it, print what it is. */
static void
find_server(void)
{
	struct pvmtaskinfo *ti;
	int ntask = 0, i, found = 0;

	if (pvm_tasks(0, &ntask, &ti) < 0)
		ntask = 0;
	for (i = 0; i < ntask; i++) {
		const char *base = strrchr(ti[i].ti_a_out, '/');

		base = base ? base + 1 : ti[i].ti_a_out;
		if (strcmp(base, "pvmgs") != 0)
			continue;
		dp_name(ti[i].ti_tid, "pvmgs");
		dp_rec("server-task", "a task pvmgs, parent %s, host %s",
		    dp_tid(ti[i].ti_ptid),
		    ti[i].ti_host == pvm_tidtohost(me) ? "mine" : "other");
		found++;
	}
	dp_rec("server-count", "%d pvmgs tasks", found);
}

/* A long group name of n characters. */
static const char *
longname(int n)
{
	static char buf[1100];

	memset(buf, 'L', sizeof(buf));
	buf[0] = 'A' + n % 26;
	buf[n] = '\0';
	return buf;
}

static void
joins(void)
{
	dp_rc("join-first", "pvm_joingroup(g1)", pvm_joingroup("g1"));
	find_server();
	pending("pending-after-join");
	ask("join-c1", 1, OP_JOIN, "g1", 0, 0, 0, 0);
	ask("join-c2", 2, OP_JOIN, "g1", 0, 0, 0, 0);
	ask("join-c3", 3, OP_JOIN, "g1", 0, 0, 0, 0);
	dp_rc("join-dup", "pvm_joingroup(g1) again", pvm_joingroup("g1"));
	ask("join-dup-c2", 2, OP_JOIN, "g1", 0, 0, 0, 0);
	dp_rc("join-null", "pvm_joingroup(NULL)", pvm_joingroup(NULL));
	dp_rc("join-empty", "pvm_joingroup(\"\")", pvm_joingroup(""));
	dp_rc("join-long255", "pvm_joingroup(255 chars)",
	    pvm_joingroup((char *)longname(255)));
	dp_rc("gsize-long255", "pvm_gsize(255 chars)",
	    pvm_gsize((char *)longname(255)));
	dp_rc("join-long256", "pvm_joingroup(256 chars)",
	    pvm_joingroup((char *)longname(256)));
	dp_rc("join-long1000", "pvm_joingroup(1000 chars)",
	    pvm_joingroup((char *)longname(1000)));
	dp_rc("gsize-long1000", "pvm_gsize(1000 chars)",
	    pvm_gsize((char *)longname(1000)));
	dp_rc("getinst-long1000", "pvm_getinst(1000 chars, me)",
	    pvm_getinst((char *)longname(1000), me));
	dp_rc("lvgroup-long1000", "pvm_lvgroup(1000 chars)",
	    pvm_lvgroup((char *)longname(1000)));
	dp_rc("lvgroup-long255", "pvm_lvgroup(255 chars)",
	    pvm_lvgroup((char *)longname(255)));
	dp_rc("join-g2", "pvm_joingroup(g2)", pvm_joingroup("g2"));
	ask("join-g2-c3", 3, OP_JOIN, "g2", 0, 0, 0, 0);
	dp_rc("join-spaces", "pvm_joingroup(\"a b\")", pvm_joingroup("a b"));
	dp_rc("lvgroup-spaces", "pvm_lvgroup(\"a b\")", pvm_lvgroup("a b"));
	pending("pending-after-joins");
}

static void
queries(void)
{
	dp_rc("gsize-g1", "pvm_gsize(g1)", pvm_gsize("g1"));
	dp_rc("gsize-g2", "pvm_gsize(g2)", pvm_gsize("g2"));
	dp_rc("gsize-nogroup", "pvm_gsize(nosuch)", pvm_gsize("nosuch"));
	dp_rc("gsize-null", "pvm_gsize(NULL)", pvm_gsize(NULL));
	dp_rc("gsize-empty", "pvm_gsize(\"\")", pvm_gsize(""));
	dp_rc("getinst-me", "pvm_getinst(g1, me)", pvm_getinst("g1", me));
	dp_rc("getinst-c2", "pvm_getinst(g1, c2)", pvm_getinst("g1", kids[2]));
	dp_rc("getinst-notask", "pvm_getinst(g1, notask)",
	    pvm_getinst("g1", NOTASK));
	dp_rc("getinst-c4", "pvm_getinst(g1, c4)", pvm_getinst("g1", kids[4]));
	dp_rc("getinst-0", "pvm_getinst(g1, 0)", pvm_getinst("g1", 0));
	dp_rc("getinst-neg", "pvm_getinst(g1, -1)", pvm_getinst("g1", -1));
	dp_rc("getinst-nogroup", "pvm_getinst(nosuch, me)",
	    pvm_getinst("nosuch", me));
	dp_rc("getinst-null", "pvm_getinst(NULL, me)", pvm_getinst(NULL, me));
	dp_rc(
	    "getinst-g2-c3", "pvm_getinst(g2, c3)", pvm_getinst("g2", kids[3]));
	dp_rec(
	    "gettid-0", "pvm_gettid(g1, 0) = %s", dp_tid(pvm_gettid("g1", 0)));
	dp_rec(
	    "gettid-3", "pvm_gettid(g1, 3) = %s", dp_tid(pvm_gettid("g1", 3)));
	dp_rec(
	    "gettid-4", "pvm_gettid(g1, 4) = %s", dp_tid(pvm_gettid("g1", 4)));
	dp_rec("gettid-neg", "pvm_gettid(g1, -1) = %s",
	    dp_tid(pvm_gettid("g1", -1)));
	dp_rec("gettid-nogroup", "pvm_gettid(nosuch, 0) = %s",
	    dp_tid(pvm_gettid("nosuch", 0)));
	dp_rec("gettid-null", "pvm_gettid(NULL, 0) = %s",
	    dp_tid(pvm_gettid(NULL, 0)));
	ask("child-getinst", 1, OP_GETINST, "g1", 0, 0, 0, 0);
	ask("child-getinst-me", 1, OP_GETINST, "g1", me, 0, 0, 0);
	ask("child-gsize", 1, OP_GSIZE, "g1", 0, 0, 0, 0);
	ask("child-gettid", 1, OP_GETTID, "g1", 2, 0, 0, 0);
	ask("nonmember-gsize", 4, OP_GSIZE, "g1", 0, 0, 0, 0);
	ask("nonmember-getinst", 4, OP_GETINST, "g1", me, 0, 0, 0);
	ask("nonmember-getinst-self", 4, OP_GETINST, "g1", 0, 0, 0, 0);
}

static void
leaves(void)
{
	ask("lvgroup-c2", 2, OP_LEAVE, "g1", 0, 0, 0, 0);
	ask("lvgroup-c2-again", 2, OP_LEAVE, "g1", 0, 0, 0, 0);
	ask("lvgroup-nogroup", 2, OP_LEAVE, "nosuch", 0, 0, 0, 0);
	ask("lvgroup-null", 2, OP_LEAVE, NULL, 0, 0, 0, 0);
	ask("lvgroup-empty", 2, OP_LEAVE, "", 0, 0, 0, 0);
	ask("lvgroup-notmember", 4, OP_LEAVE, "g1", 0, 0, 0, 0);
	dp_rc("gsize-after-leave", "pvm_gsize(g1)", pvm_gsize("g1"));
	dp_rec("gettid-left", "pvm_gettid(g1, 2) = %s",
	    dp_tid(pvm_gettid("g1", 2)));
	dp_rc(
	    "getinst-left", "pvm_getinst(g1, c2)", pvm_getinst("g1", kids[2]));
	ask("lvgroup-c1", 1, OP_LEAVE, "g1", 0, 0, 0, 0);
	ask("reuse-c2", 2, OP_JOIN, "g1", 0, 0, 0, 0);
	ask("reuse-c1", 1, OP_JOIN, "g1", 0, 0, 0, 0);
	ask("reuse-c4-new", 4, OP_JOIN, "g1", 0, 0, 0, 0);
	dp_rc("lvgroup-me", "pvm_lvgroup(g1)", pvm_lvgroup("g1"));
	dp_rec("gettid-me-left", "pvm_gettid(g1, 0) = %s",
	    dp_tid(pvm_gettid("g1", 0)));
	dp_rc("getinst-me-left", "pvm_getinst(g1, me)", pvm_getinst("g1", me));
	ask("lvgroup-c4", 4, OP_LEAVE, "g1", 0, 0, 0, 0);
	dp_rc("reuse-me", "pvm_joingroup(g1)", pvm_joingroup("g1"));
	dp_rc("gsize-reused", "pvm_gsize(g1)", pvm_gsize("g1"));
	ask("lvgroup-g2-c3", 3, OP_LEAVE, "g2", 0, 0, 0, 0);
	dp_rc("lvgroup-g2-last", "pvm_lvgroup(g2)", pvm_lvgroup("g2"));
	dp_rc("gsize-g2-empty", "pvm_gsize(g2)", pvm_gsize("g2"));
	dp_rc("lvgroup-g2-gone", "pvm_lvgroup(g2)", pvm_lvgroup("g2"));
	ask("rejoin-g2-c3", 3, OP_JOIN, "g2", 0, 0, 0, 0);
	ask("lvgroup-g2-c3-end", 3, OP_LEAVE, "g2", 0, 0, 0, 0);
	pending("pending-after-leaves");
	ask("child-pending", 1, OP_PENDING, "", 0, 0, 0, 0);
}

/* Children ks[0..n-1] run one command together; then each's record. */
static void
all(const char *c, const int *ks, int n, int op, const char *g, int a, int b,
    int cc, int d, int ms, int withtext)
{
	int i;

	for (i = 0; i < n; i++)
		cmd(ks[i], op, g, a, b, cc, d);
	for (i = 0; i < n; i++)
		rec_rep(c, ks[i], op, ms, withtext);
}

static const int k123[] = {1, 2, 3}, k12[] = {1, 2};

static void
freezes(void)
{
	ask("fz-join-c1", 1, OP_JOIN, "fz", 0, 0, 0, 0);
	ask("fz-join-c2", 2, OP_JOIN, "fz", 0, 0, 0, 0);
	cmd(1, OP_FREEZE, "fz", -1, 0, 0, 0);
	rec_rep("fz-first-waits", 1, OP_FREEZE, 700, 0);
	ask("fz-second", 2, OP_FREEZE, "fz", -1, 0, 0, 0);
	rec_rep("fz-first", 1, OP_FREEZE, WAIT_OK, 0);
	dp_rc("fz-gsize", "pvm_gsize(fz)", pvm_gsize("fz"));
	dp_rc("fz-getinst", "pvm_getinst(fz, c2)", pvm_getinst("fz", kids[2]));
	dp_rec(
	    "fz-gettid", "pvm_gettid(fz, 0) = %s", dp_tid(pvm_gettid("fz", 0)));
	ask("fz-join-frozen", 3, OP_JOIN, "fz", 0, 0, 0, 0);
	dp_rc("fz-join-frozen-me", "pvm_joingroup(fz)", pvm_joingroup("fz"));
	ask("fz-again", 1, OP_FREEZE, "fz", -1, 0, 0, 0);
	ask("fz-nonmember", 3, OP_FREEZE, "fz", -1, 0, 0, 0);
	ask("fz-nogroup", 3, OP_FREEZE, "nosuch", -1, 0, 0, 0);
	ask("fz-null", 3, OP_FREEZE, NULL, -1, 0, 0, 0);
	all("fz-barrier", k12, 2, OP_BARRIER, "fz", -1, 0, 0, 0, WAIT_OK, 0);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	dp_rc("fz-bcast", "pvm_bcast(fz) by me", pvm_bcast("fz", TAG_BC));
	all("fz-bcast-got", k12, 2, OP_WAITMSG, "", TAG_BC, 1000, 0, 0, WAIT_OK,
	    0);
	ask("fz-leave", 2, OP_LEAVE, "fz", 0, 0, 0, 0);
	dp_rc("fz-left-gsize", "pvm_gsize(fz)", pvm_gsize("fz"));
	dp_rc("fz-left-getinst", "pvm_getinst(fz, c2)",
	    pvm_getinst("fz", kids[2]));
	ask("fz-left-gsize-c1", 1, OP_GSIZE, "fz", 0, 0, 0, 0);
	ask("fz-left-getinst-c1", 1, OP_GETINST, "fz", kids[2], 0, 0, 0);
	ask("fz-left-gsize-c3", 3, OP_GSIZE, "fz", 0, 0, 0, 0);
	ask("fz-left-barrier", 1, OP_BARRIER, "fz", -1, 0, 0, 0);
	ask("fz-left-rejoin", 2, OP_JOIN, "fz", 0, 0, 0, 0);
	ask("fz-left-freeze", 1, OP_FREEZE, "fz", -1, 0, 0, 0);
	ask("fz-left-freeze-nonmember", 3, OP_FREEZE, "fz", -1, 0, 0, 0);
	ask("fz-left-leave-c1", 1, OP_LEAVE, "fz", 0, 0, 0, 0);
	dp_rc("fz-gone-gsize", "pvm_gsize(fz)", pvm_gsize("fz"));
	ask("fz-gone-gsize-c3", 3, OP_GSIZE, "fz", 0, 0, 0, 0);
	ask("fz-gone-join", 3, OP_JOIN, "fz", 0, 0, 0, 0);
	ask("fz-gone-leave", 3, OP_LEAVE, "fz", 0, 0, 0, 0);
}

static void
freezes_size(void)
{
	ask("fz2-join-c1", 1, OP_JOIN, "fz2", 0, 0, 0, 0);
	ask("fz2-join-c2", 2, OP_JOIN, "fz2", 0, 0, 0, 0);
	cmd(1, OP_FREEZE, "fz2", 3, 0, 0, 0);
	rec_rep("fz2-bigger-c1", 1, OP_FREEZE, 700, 0);
	cmd(2, OP_FREEZE, "fz2", 3, 0, 0, 0);
	rec_rep("fz2-bigger-c2", 2, OP_FREEZE, 700, 0);
	ask("fz2-join-c3", 3, OP_JOIN, "fz2", 0, 0, 0, 0);
	dp_rc("fz2-gsize", "pvm_gsize(fz2)", pvm_gsize("fz2"));
	ask("fz2-c3-freezes", 3, OP_FREEZE, "fz2", 3, 0, 0, 0);
	rec_rep("fz2-c1-after", 1, OP_FREEZE, WAIT_HANG, 0);
	rec_rep("fz2-c2-after", 2, OP_FREEZE, WAIT_HANG, 0);
	dp_rc("fz2-gsize-after", "pvm_gsize(fz2)", pvm_gsize("fz2"));
	ask("fz2-join-c4", 4, OP_JOIN, "fz2", 0, 0, 0, 0);
	ask("fz3-join-c4", 4, OP_JOIN, "fz3", 0, 0, 0, 0);
	dp_rc("fz3-gsize", "pvm_gsize(fz3)", pvm_gsize("fz3"));
	ask("fz3-size0", 4, OP_FREEZE, "fz3", 0, 0, 0, 0);
	ask("fz3-size-2", 4, OP_FREEZE, "fz3", -2, 0, 0, 0);
	ask("fz3-size1", 4, OP_FREEZE, "fz3", 1, 0, 0, 0);
	ask("fz3-leave", 4, OP_LEAVE, "fz3", 0, 0, 0, 0);
	dp_rc("fz3-gone", "pvm_gsize(fz3)", pvm_gsize("fz3"));
}

static void
barriers(void)
{
	ask("bar-join-c1", 1, OP_JOIN, "bar", 0, 0, 0, 0);
	ask("bar-join-c2", 2, OP_JOIN, "bar", 0, 0, 0, 0);
	ask("bar-join-c3", 3, OP_JOIN, "bar", 0, 0, 0, 0);
	all("bar-all-1", k123, 3, OP_BARRIER, "bar", -1, 0, 0, 0, WAIT_OK, 0);
	all("bar-all-3", k123, 3, OP_BARRIER, "bar", 3, 0, 0, 0, WAIT_OK, 0);
	all("bar-two-of-3", k12, 2, OP_BARRIER, "bar", 2, 0, 0, 0, WAIT_OK, 0);
	cmd(1, OP_BARRIER, "bar", 3, 0, 0, 0);
	rec_rep("bar-mismatch-first", 1, OP_BARRIER, 700, 0);
	ask("bar-mismatch", 2, OP_BARRIER, "bar", 2, 0, 0, 0);
	all("bar-mismatch-rest", k123 + 1, 2, OP_BARRIER, "bar", 3, 0, 0, 0,
	    WAIT_OK, 0);
	rec_rep("bar-mismatch-first-end", 1, OP_BARRIER, WAIT_OK, 0);
	ask("bar-nonmember", 4, OP_BARRIER, "bar", -1, 0, 0, 0);
	ask("bar-nogroup", 4, OP_BARRIER, "nosuch", -1, 0, 0, 0);
	ask("bar-null", 4, OP_BARRIER, NULL, -1, 0, 0, 0);
	ask("bar-solo-join", 4, OP_JOIN, "solo", 0, 0, 0, 0);
	ask("bar-solo", 4, OP_BARRIER, "solo", -1, 0, 0, 0);
	ask("bar-solo-1", 4, OP_BARRIER, "solo", 1, 0, 0, 0);
	dp_rc("bar-me-nonmember", "pvm_barrier(solo, -1) by me",
	    pvm_barrier("solo", -1));
	all("bar-larger", k123, 3, OP_BARRIER, "bar", 4, 0, 0, 0, WAIT_HANG, 0);
	ask("bar-larger-join", 4, OP_JOIN, "bar", 0, 0, 0, 0);
	ask("bar-larger-4th", 4, OP_BARRIER, "bar", 4, 0, 0, 0);
	rec_rep("bar-larger-released", 1, OP_BARRIER, WAIT_OK, 0);
	rec_rep("bar-larger-released", 2, OP_BARRIER, WAIT_OK, 0);
	rec_rep("bar-larger-released", 3, OP_BARRIER, WAIT_OK, 0);
}

static void
bcasts(void)
{
	int k;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	dp_rc("bc-member", "pvm_bcast(g1) by me", pvm_bcast("g1", TAG_BC));
	all("bc-member-got", k123, 3, OP_WAITMSG, "", TAG_BC, 1000, 0, 0,
	    WAIT_OK, 0);
	pending("bc-member-self");
	ask("bc-child", 1, OP_BCAST, "g1", TAG_BC, 0, 0, 0);
	all("bc-child-got", k123 + 1, 2, OP_WAITMSG, "", TAG_BC, 1000, 0, 0,
	    WAIT_OK, 0);
	ask("bc-child-self", 1, OP_WAITMSG, "", TAG_BC, 300, 0, 0);
	dp_recv("bc-child-me", 1000);
	ask("bc-nonmember", 4, OP_BCAST, "g1", TAG_BC, 0, 0, 0);
	all("bc-nonmember-got", k123, 3, OP_WAITMSG, "", TAG_BC, 1000, 0, 0,
	    WAIT_OK, 0);
	dp_recv("bc-nonmember-me", 1000);
	pvm_initsend(PvmDataDefault);
	dp_rc("bc-nogroup", "pvm_bcast(nosuch)", pvm_bcast("nosuch", TAG_BC));
	dp_rc("bc-null", "pvm_bcast(NULL)", pvm_bcast(NULL, TAG_BC));
	dp_rc("bc-empty", "pvm_bcast(\"\")", pvm_bcast("", TAG_BC));
	dp_rc("bc-negtag", "pvm_bcast(g1, -5)", pvm_bcast("g1", -5));
	dp_rc("bc-alone-join", "pvm_joingroup(alone)", pvm_joingroup("alone"));
	dp_rc("bc-alone", "pvm_bcast(alone) by its only member",
	    pvm_bcast("alone", TAG_BC));
	dp_rc("bc-alone-leave", "pvm_lvgroup(alone)", pvm_lvgroup("alone"));
	ask("bc-solo-c4", 4, OP_BCAST, "solo", TAG_BC, 0, 0, 0);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	dp_rc("bc-solo-me", "pvm_bcast(solo) by me", pvm_bcast("solo", TAG_BC));
	ask("bc-solo-me-got", 4, OP_WAITMSG, "", TAG_BC, 1000, 0, 0);
	for (k = 1; k <= 4; k++)
		cmd(k, OP_PENDING, "", 0, 0, 0, 0);
	for (k = 1; k <= 4; k++)
		rec_rep("bc-pending", k, OP_PENDING, WAIT_OK, 0);
	pending("bc-pending-me");
}

static const struct {
	const char *name;
	int type;
} types[] = {{"BYTE", PVM_BYTE}, {"SHORT", PVM_SHORT}, {"INT", PVM_INT},
    {"FLOAT", PVM_FLOAT}, {"CPLX", PVM_CPLX}, {"DOUBLE", PVM_DOUBLE},
    {"DCPLX", PVM_DCPLX}, {"LONG", PVM_LONG}, {"USHORT", PVM_USHORT},
    {"UINT", PVM_UINT}, {"ULONG", PVM_ULONG}};
static const char *fn_names[] = {"Sum", "Max", "Min", "Product"};

/*
 * One reduce by c1..c3 on group red (c1 is instance 0), with a msgtag of
 * its own: what a failed reduce leaves behind cannot reach a later one.
 */
static void
reduce_one(const char *c, int type, int fn, int root, int count)
{
	static int tag = 100;
	int k;

	tag++;
	for (k = 1; k <= 3; k++)
		cmd(k, OP_REDUCE, "red", type, fn + 16 * tag, root, count);
	for (k = 1; k <= 3; k++)
		rec_rep(c, k, OP_REDUCE, WAIT_HANG, k == root + 1);
}

static void
reduces(void)
{
	char c[64];
	size_t t;
	int f;

	ask("red-join-c1", 1, OP_JOIN, "red", 0, 0, 0, 0);
	ask("red-join-c2", 2, OP_JOIN, "red", 0, 0, 0, 0);
	ask("red-join-c3", 3, OP_JOIN, "red", 0, 0, 0, 0);
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (f = 0; f < 4; f++) {
			snprintf(c, sizeof(c), "red-%s-%s", types[t].name,
			    fn_names[f]);
			reduce_one(c, types[t].type, f, 0, 3);
		}
	reduce_one("red-root2", PVM_INT, 0, 2, 3);
	reduce_one("red-count0", PVM_INT, 0, 0, 0);
	reduce_one("red-count1", PVM_DOUBLE, 1, 1, 1);
}

static void
gathers(void)
{
	int k;

	all("gather-int", k123, 3, OP_GATHER, "red", PVM_INT, 0, 0, 2, WAIT_OK,
	    1);
	all("gather-double-root2", k123, 3, OP_GATHER, "red", PVM_DOUBLE, 0, 2,
	    2, WAIT_OK, 1);
	all("gather-short", k123, 3, OP_GATHER, "red", PVM_SHORT, 0, 1, 3,
	    WAIT_OK, 1);
	all("gather-count0", k123, 3, OP_GATHER, "red", PVM_INT, 0, 0, 0,
	    WAIT_OK, 0);
	all("scatter-int", k123, 3, OP_SCATTER, "red", PVM_INT, 0, 0, 2,
	    WAIT_OK, 1);
	all("scatter-double-root2", k123, 3, OP_SCATTER, "red", PVM_DOUBLE, 0,
	    2, 2, WAIT_OK, 1);
	all("scatter-cplx", k123, 3, OP_SCATTER, "red", PVM_CPLX, 0, 1, 1,
	    WAIT_OK, 1);
	all("scatter-count0", k123, 3, OP_SCATTER, "red", PVM_INT, 0, 0, 0,
	    WAIT_OK, 0);
	ask("gather-nonmember", 4, OP_GATHER, "red", PVM_INT, 0, 0, 2);
	ask("scatter-nonmember", 4, OP_SCATTER, "red", PVM_INT, 0, 0, 2);
	ask("gather-nogroup", 4, OP_GATHER, "nosuch", PVM_INT, 0, 0, 2);
	ask("scatter-null", 4, OP_SCATTER, NULL, PVM_INT, 0, 0, 2);
	for (k = 1; k <= 3; k++)
		cmd(k, OP_PENDING, "", 0, 0, 0, 0);
	for (k = 1; k <= 3; k++)
		rec_rep("coll-pending", k, OP_PENDING, WAIT_OK, 0);
}

/* Child k exits without leaving its groups; wait for it to be gone. */
static void
kid_exits(const char *c, int k)
{
	struct timeval tv = {5, 0};
	int b;

	pvm_notify(PvmTaskExit, 55, 1, &kids[k]);
	cmd(k, OP_EXIT, "", 0, 0, 0, 0);
	b = pvm_trecv(-1, 55, &tv);
	dp_rec(c, "c%d %s", k, b > 0 ? "exited" : "did not exit");
	/* The server learns of the exit through its own notify. */
	usleep(500000);
}

static void
exits(void)
{
	int n;

	spawn_kid(5);
	spawn_kid(6);
	ask("ex-join-c5", 5, OP_JOIN, "ex", 0, 0, 0, 0);
	dp_rc("ex-join-me", "pvm_joingroup(ex)", pvm_joingroup("ex"));
	ask("ex-join-c6", 6, OP_JOIN, "ex", 0, 0, 0, 0);
	kid_exits("ex-exit-c5", 5);
	/* Under load the server once took longer than kid_exits waits
	 * (ours, in a make check of 28 November 2026): the record is about
	 * the end, not the latency, so give it up to 5 s more. */
	for (n = 0; n < 250 && pvm_gsize("ex") == 3; n++)
		usleep(20000);
	dp_rc("ex-gsize", "pvm_gsize(ex)", pvm_gsize("ex"));
	dp_rc("ex-getinst", "pvm_getinst(ex, c5)", pvm_getinst("ex", kids[5]));
	dp_rec(
	    "ex-gettid", "pvm_gettid(ex, 0) = %s", dp_tid(pvm_gettid("ex", 0)));
	ask("ex-gsize-c6", 6, OP_GSIZE, "ex", 0, 0, 0, 0);
	ask("ex-gsize-c4", 4, OP_GSIZE, "ex", 0, 0, 0, 0);
	ask("ex-reuse-c4", 4, OP_JOIN, "ex", 0, 0, 0, 0);
	ask("ex-leave-c4", 4, OP_LEAVE, "ex", 0, 0, 0, 0);
	pending("ex-pending-me");
	ask("ex-pending-c6", 6, OP_PENDING, "", 0, 0, 0, 0);
	ask("fx-join-c6", 6, OP_JOIN, "fx", 0, 0, 0, 0);
	ask("fx-join-c4", 4, OP_JOIN, "fx", 0, 0, 0, 0);
	cmd(6, OP_FREEZE, "fx", -1, 0, 0, 0);
	ask("fx-freeze-c4", 4, OP_FREEZE, "fx", -1, 0, 0, 0);
	rec_rep("fx-freeze-c6", 6, OP_FREEZE, WAIT_OK, 0);
	kid_exits("fx-exit-c6", 6);
	dp_rc("fx-gsize", "pvm_gsize(fx)", pvm_gsize("fx"));
	dp_rc("fx-getinst", "pvm_getinst(fx, c6)", pvm_getinst("fx", kids[6]));
	ask("fx-gsize-c4", 4, OP_GSIZE, "fx", 0, 0, 0, 0);
	ask("fx-getinst-c4", 4, OP_GETINST, "fx", kids[6], 0, 0, 0);
	ask("fx-barrier-c4", 4, OP_BARRIER, "fx", -1, 0, 0, 0);
	ask("fx-bcast-c4", 4, OP_BCAST, "fx", TAG_BC, 0, 0, 0);
	pvm_initsend(PvmDataDefault);
	dp_rc("fx-bcast-me", "pvm_bcast(fx) by me", pvm_bcast("fx", TAG_BC));
	dp_recv("fx-bcast-got", 500);
	ask("fx-leave-c4", 4, OP_LEAVE, "fx", 0, 0, 0, 0);
	dp_rc("fx-gone", "pvm_gsize(fx)", pvm_gsize("fx"));
}

/* A barrier that a member's exit makes impossible. */
static void
exit_at_barrier(void)
{
	spawn_kid(7);
	spawn_kid(8);
	ask("bx-join-c7", 7, OP_JOIN, "bx", 0, 0, 0, 0);
	ask("bx-join-c8", 8, OP_JOIN, "bx", 0, 0, 0, 0);
	cmd(7, OP_BARRIER, "bx", 2, 0, 0, 0);
	rec_rep("bx-waits", 7, OP_BARRIER, 500, 0);
	kid_exits("bx-exit-c8", 8);
	rec_rep("bx-after-exit", 7, OP_BARRIER, WAIT_HANG, 0);
	dp_rc("bx-gsize", "pvm_gsize(bx)", pvm_gsize("bx"));
	spawn_kid(9);
	ask("bx-join-c9", 9, OP_JOIN, "bx", 0, 0, 0, 0);
	cmd(9, OP_BARRIER, "bx", 2, 0, 0, 0);
	rec_rep("bx-barrier-c9", 9, OP_BARRIER, WAIT_HANG, 0);
	rec_rep("bx-c7-end", 7, OP_BARRIER, WAIT_HANG, 0);
}

/* Child k calls pvm_exit and enrols again: a new tid, named newname. */
static void
reenrol(const char *c, int k, const char *newname)
{
	struct timeval tv = {5, 0};
	int b, src = 0;

	cmd(k, OP_REENROL, "", 0, 0, 0, 0);
	b = pvm_trecv(-1, TAG_REP, &tv);
	if (b > 0)
		pvm_bufinfo(b, NULL, NULL, &src);
	dp_rec(c, "reply from %s", b > 0 ? dp_tid(src) : "nobody");
	if (b > 0 && src != kids[k]) {
		dp_name(src, newname);
		kids[k] = src;
	}
	usleep(500000);
}

static void
reenrols(void)
{
	int old;

	ask("re-join-c3", 3, OP_JOIN, "re", 0, 0, 0, 0);
	dp_rc("re-join-me", "pvm_joingroup(re)", pvm_joingroup("re"));
	old = kids[3];
	reenrol("re-reenrol", 3, "c3new");
	dp_rc("re-gsize", "pvm_gsize(re)", pvm_gsize("re"));
	dp_rc("re-getinst-old", "pvm_getinst(re, old c3)",
	    pvm_getinst("re", old));
	dp_rc("re-getinst-new", "pvm_getinst(re, c3new)",
	    pvm_getinst("re", kids[3]));
	ask("re-getinst-self", 3, OP_GETINST, "re", 0, 0, 0, 0);
	ask("re-gsize-self", 3, OP_GSIZE, "re", 0, 0, 0, 0);
	ask("re-rejoin", 3, OP_JOIN, "re", 0, 0, 0, 0);
	ask("re-red-getinst", 3, OP_GETINST, "red", 0, 0, 0, 0);
	dp_rec("re-red-gettid", "pvm_gettid(red, 2) = %s",
	    dp_tid(pvm_gettid("red", 2)));
	ask("re-red-join", 3, OP_JOIN, "red", 0, 0, 0, 0);
}

/* Calls that may hang or crash a system: last, each bounded. */
static void
risky(void)
{
	ask("bar-count0-nogroup", 4, OP_BARRIER, "nosuch", 0, 0, 0, 0);
	ask("bar-count0-nonmember", 4, OP_BARRIER, "ex", 0, 0, 0, 0);
	ask("fz-size0-nogroup", 4, OP_FREEZE, "nosuch", 0, 0, 0, 0);
	ask("fz-size0-nonmember", 4, OP_FREEZE, "ex", 0, 0, 0, 0);
	ask("bar-count0", 4, OP_BARRIER, "solo", 0, 0, 0, 0);
	ask("bar-count-2", 4, OP_BARRIER, "solo", -2, 0, 0, 0);
	cmd(4, OP_BARRIER, "solo", 1, 0, 0, 0);
	rec_rep("bar-after-count0", 4, OP_BARRIER, WAIT_HANG, 0);
	reduce_one("red-type99", 99, 0, 0, 2);
	reduce_one("red-str", PVM_STR, 1, 0, 2);
	reduce_one("red-root7", PVM_INT, 0, 7, 2);
	reduce_one("red-neg-count", PVM_INT, 0, 0, -1);
	all("gather-root7", k123, 3, OP_GATHER, "red", PVM_INT, 0, 7, 2,
	    WAIT_HANG, 0);
	all("scatter-root7", k123, 3, OP_SCATTER, "red", PVM_INT, 0, 7, 2,
	    WAIT_HANG, 0);
	all("gather-type99", k123, 3, OP_GATHER, "red", 99, 0, 0, 2, WAIT_HANG,
	    0);
	ask("red-nonmember", 4, OP_REDUCE, "red", PVM_INT, 16 * 90, 0, 2);
	cmd(4, OP_FREEZE, "ex", -1, 0, 0, 0);
	rec_rep("fz-nonmember-dynamic", 4, OP_FREEZE, WAIT_HANG, 0);
	dp_rc("fz-nonmember-dynamic-gsize", "pvm_gsize(ex)", pvm_gsize("ex"));
}

int
main(int argc, char **argv)
{
	ssize_t n;

	if (argc > 2 && strcmp(argv[1], "child") == 0) {
		child(atoi(argv[2]));
		return 0;
	}
	if ((me = dp_enrol()) <= 0)
		return 1;
	dp_name(NOTASK, "notask");
	dp_self(self, sizeof(self));
	for (n = 1; n <= 4; n++)
		spawn_kid(n);
	joins();
	queries();
	leaves();
	freezes();
	freezes_size();
	barriers();
	bcasts();
	dp_drain(100);
	reduces();
	gathers();
	exits();
	exit_at_barrier();
	risky();
	reenrols();
	reduce_one("red-nullfn", PVM_INT, 4, 0, 2);
	dp_rc("red-nullfn-root", "pvm_pstat(c1)", pvm_pstat(kids[1]));
	for (n = 1; n <= NCHILD; n++)
		if (kids[n] > 0)
			cmd(n, OP_QUIT, "", 0, 0, 0, 0);
	pvm_exit();
	return 0;
}
