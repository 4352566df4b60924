/*
 * p_mhf.c: probe of message handlers (pvm_addmhf, pvm_delmhf) and of
 * message contexts (pvm_newcontext, pvm_setcontext, pvm_getcontext,
 * pvm_freecontext): handler ids, which messages a handler takes and
 * during which calls it runs, which context a message is received in,
 * and what a child spawned in a context inherits.
 *
 *   p_mhf             the probe
 *   p_mhf child       a spawned child: tells the parent its context, then
 *                     in context 0 does what the parent's TAG_CMD messages
 *                     say
 */
#include "probe.h"

#include <unistd.h>

#define TAG_CMD 70
#define TAG_REP 71
#define TAG_HELLO 72
#define TAG_EXIT 73
#define NOREPLY (-1000)

/* Child commands: a, b are arguments. */
enum {
	OP_SEND,    /* send int b with tag a in context ctx (below) */
	OP_SETCTX,  /* make a the context messages are sent in */
	OP_RECV,    /* receive tag a (-1: any) from the parent within b ms,
	             * in the work context; answer tag and value */
	OP_FREECTX, /* pvm_freecontext(a); answer its result */
	OP_EXIT
};

static int me, child;
static char self[4096];
static int ctx1, ctx2; /* contexts the parent made, named */

/* ---------------------------------------------------------------- */
/* The child.                                                        */

/* Receive from the parent within ms in ctx; answer rc, tag, value. */
static void
child_recv(int parent, int tag, int ms, int ctx)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int old = pvm_setcontext(ctx), b, t = -1, v = -1, len;

	b = pvm_trecv(parent, tag, &tv);
	if (b > 0) {
		pvm_bufinfo(b, &len, &t, NULL);
		pvm_upkint(&v, 1, 1);
		b = 1;
	}
	pvm_setcontext(old);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&b, 1, 1);
	pvm_pkint(&t, 1, 1);
	pvm_pkint(&v, 1, 1);
	pvm_send(parent, TAG_REP);
}

static void
child_send(int parent, int tag, int v, int ctx)
{
	int old = pvm_setcontext(ctx);

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(parent, tag);
	pvm_setcontext(old);
}

static void
child_answer(int parent, int rc)
{
	int x = -1;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rc, 1, 1);
	pvm_pkint(&x, 1, 1);
	pvm_pkint(&x, 1, 1);
	pvm_send(parent, TAG_REP);
}

static int
child_main(void)
{
	int parent = pvm_parent(), ctx = pvm_getcontext(), op, a, b;

	pvm_setopt(PvmAutoErr, 0);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&ctx, 1, 1);
	pvm_send(parent, TAG_HELLO);
	pvm_setcontext(0);
	for (;;) {
		if (pvm_recv(parent, TAG_CMD) < 0)
			break;
		pvm_upkint(&op, 1, 1);
		pvm_upkint(&a, 1, 1);
		pvm_upkint(&b, 1, 1);
		if (op == OP_EXIT)
			break;
		if (op == OP_SEND) {
			/* Not before the parent's pvm_send has returned:
			 * what a send finds waiting is what we probe. */
			usleep(20000);
			child_send(parent, a, b, ctx);
		} else if (op == OP_SETCTX)
			ctx = a;
		else if (op == OP_RECV)
			child_recv(parent, a, b, ctx);
		else if (op == OP_FREECTX)
			child_answer(parent, pvm_freecontext(a));
	}
	pvm_exit();
	return 0;
}

/* ---------------------------------------------------------------- */
/* The parent's helpers.                                             */

/* A command to the child, sent in context 0 whatever ours is. */
static void
cmd(int op, int a, int b)
{
	int old = pvm_setcontext(0);

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&op, 1, 1);
	pvm_pkint(&a, 1, 1);
	pvm_pkint(&b, 1, 1);
	pvm_send(child, TAG_CMD);
	pvm_setcontext(old);
}

/* The child sends int v with tag; wait until it is surely here. */
static void
csend(int tag, int v)
{
	cmd(OP_SEND, tag, v);
	usleep(300000);
}

/* The child's answer (in context 0) as a record. */
static void
creply(const char *c, const char *what)
{
	struct timeval tv = {3, 0};
	int old = pvm_setcontext(0), rc = NOREPLY, t = -1, v = -1;

	if (pvm_trecv(child, TAG_REP, &tv) > 0) {
		pvm_upkint(&rc, 1, 1);
		pvm_upkint(&t, 1, 1);
		pvm_upkint(&v, 1, 1);
	}
	pvm_setcontext(old);
	if (rc == NOREPLY)
		dp_rec(c, "%s: no answer", what);
	else if (rc == 1)
		dp_rec(c, "%s: tag %d, int %d", what, t, v);
	else
		dp_rec(
		    c, "%s = %s", what, rc == 0 ? "0 (nothing)" : dp_code(rc));
}

/* A context as a name: 0, ctx1, ctx2, or its class. */
static const char *
ctxname(int c)
{
	if (c == 0)
		return "0";
	if (c == ctx1 && c != 0)
		return "ctx1";
	if (c == ctx2 && c != 0)
		return "ctx2";
	if (c < 0)
		return dp_code(c);
	return "another context";
}

/* What the handlers saw. */
struct hcall {
	int h, tag, src, v, ctx, rbuf_is_mid, sbuf;
};
static struct hcall hlog[32];
static int nhlog;
static int h_reply_to; /* a handler answers to this tid, if set */

static void
hnote(int h, int mid)
{
	struct hcall *c = &hlog[nhlog < 32 ? nhlog++ : 31];
	int len;

	c->h = h;
	c->tag = c->src = c->v = -1;
	pvm_bufinfo(mid, &len, &c->tag, &c->src);
	pvm_upkint(&c->v, 1, 1);
	c->ctx = pvm_getcontext();
	c->rbuf_is_mid = pvm_getrbuf() == mid;
	c->sbuf = pvm_getsbuf();
}

static int
h1(int mid)
{
	hnote(1, mid);
	return 0;
}

static int
h2(int mid)
{
	hnote(2, mid);
	return 0;
}

/* Notes, then frees its buffer itself. */
static int
h3(int mid)
{
	hnote(3, mid);
	pvm_freebuf(mid);
	return 0;
}

/* Notes, then answers h_reply_to with tag 90 from a buffer of its own. */
static int
h4(int mid)
{
	int v = 4;

	hnote(4, mid);
	if (h_reply_to > 0) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(h_reply_to, 90);
	}
	return 0;
}

/* The handler calls since the last time, as records. */
static void
hflush(const char *c)
{
	int i;

	if (nhlog == 0)
		dp_rec(c, "no handler call");
	for (i = 0; i < nhlog; i++)
		dp_rec(c,
		    "handler h%d: tag %d from %s, int %s, ctx %s, rbuf %s, "
		    "sbuf %s",
		    hlog[i].h, hlog[i].tag, dp_tid(hlog[i].src),
		    dp_val(hlog[i].v), ctxname(hlog[i].ctx),
		    hlog[i].rbuf_is_mid ? "= mid" : "!= mid",
		    hlog[i].sbuf == 0 ? "0" : "set");
	nhlog = 0;
}

/* A receive of tag from anyone within ms, as a record. */
static void
trecv_rec(const char *c, int tag, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int b = pvm_trecv(-1, tag, &tv), len, t = -1, src = -1, v = -1;

	if (b == 0) {
		dp_rec(c, "trecv(-1, %d): nothing within %d ms", tag, ms);
		return;
	}
	if (b < 0) {
		dp_rec(c, "trecv(-1, %d) = %s", tag, dp_code(b));
		return;
	}
	pvm_bufinfo(b, &len, &t, &src);
	pvm_upkint(&v, 1, 1);
	dp_rec(c, "trecv(-1, %d): tag %d from %s, int %s", tag, t, dp_tid(src),
	    dp_val(v));
}

static int
spawn_child(const char *nm)
{
	char *args[] = {"child", NULL};
	int tid = 0;

	if (pvm_spawn(self, args, 0, "", 1, &tid) != 1)
		tid = 0;
	if (tid > 0)
		dp_name(tid, nm);
	dp_rec(nm, "%s is %s", nm, tid > 0 ? "a task" : "missing");
	return tid;
}

/* The child's hello (its context at start) within ms, in our context. */
static void
hello(const char *c, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int b = pvm_trecv(child, TAG_HELLO, &tv), v = -1;

	if (b <= 0) {
		dp_rec(c, "no hello within %d ms in context %s", ms,
		    ctxname(pvm_getcontext()));
		return;
	}
	pvm_upkint(&v, 1, 1);
	dp_rec(c, "hello in context %s: the child's context is %s",
	    ctxname(pvm_getcontext()), ctxname(v));
}

/* ---------------------------------------------------------------- */
/* The cases.                                                        */

static int id1, id2, id3;
static int odd[8], nodd; /* handlers add_del leaves for later cases */

/* addmhf's result as a record; a success is kept in odd[]. */
static void
add_rec(const char *c, const char *call, int src, int tag, int ctx)
{
	int id = pvm_addmhf(src, tag, ctx, h1);

	dp_rec(c, "%s = %s", call, dp_code(id));
	if (id >= 0 && nodd < 8)
		odd[nodd++] = id;
}

/* Adding and removing handlers. */
static void
add_del(void)
{
	int id;

	id1 = pvm_addmhf(-1, 10, -1, h1);
	dp_rec("add-tag10", "addmhf(-1, 10, -1) = %s", dp_code(id1));
	dp_rc("add-tag10-again", "addmhf(-1, 10, -1)",
	    pvm_addmhf(-1, 10, -1, h2));
	dp_rc("add-tag10-ctx0", "addmhf(-1, 10, 0)", pvm_addmhf(-1, 10, 0, h2));
	dp_rc("add-tag10-child", "addmhf(child, 10, -1)",
	    pvm_addmhf(child, 10, -1, h2));
	dp_rc("add-all-wild", "addmhf(-1, -1, -1)", pvm_addmhf(-1, -1, -1, h2));
	id2 = pvm_addmhf(child, 11, -1, h2);
	dp_rec("add-child-11", "addmhf(child, 11, -1) = %s", dp_code(id2));
	if (id2 >= 0)
		odd[nodd++] = id2;
	add_rec("add-any-11", "addmhf(-1, 11, -1)", -1, 11, -1);
	add_rec("add-me-11", "addmhf(me, 11, -1)", me, 11, -1);
	id3 = pvm_addmhf(-1, 12, 0, h3);
	dp_rec("add-12-ctx0", "addmhf(-1, 12, 0) = %s", dp_code(id3));
	id = pvm_addmhf(-1, 12, 5, h1);
	dp_rec("add-12-ctx5", "addmhf(-1, 12, 5) = %s", dp_code(id));
	dp_rc("del-12-ctx5", "delmhf(it)", pvm_delmhf(id));
	dp_rc("del-12-ctx5-again", "delmhf(it) again", pvm_delmhf(id));
	id = pvm_addmhf(-1, 13, -1, h1);
	dp_rec(
	    "add-reuse", "addmhf(-1, 13, -1) after a delmhf = %s", dp_code(id));
	dp_rc("del-reuse", "delmhf(it)", pvm_delmhf(id));
	dp_rc("del-neg", "delmhf(-1)", pvm_delmhf(-1));
	dp_rc("del-none", "delmhf(999)", pvm_delmhf(999));
	add_rec("add-neg-tag", "addmhf(-1, -5, -1)", -1, -5, -1);
	add_rec("add-neg-src", "addmhf(-5, 14, -1)", -5, 14, -1);
	add_rec("add-neg-ctx", "addmhf(-1, 14, -5)", -1, 14, -5);
	id = pvm_addmhf(0x4fff0, 14, -1, h1);
	dp_rec("add-notask-src", "addmhf(notask, 14, -1) = %s", dp_code(id));
	if (id >= 0)
		pvm_delmhf(id);
	id = pvm_addmhf(-1, 15, -1, NULL);
	dp_rec("add-null-func", "addmhf(-1, 15, -1, NULL) = %s", dp_code(id));
	if (id >= 0)
		pvm_delmhf(id);
}

/* During which calls handlers run, and what they take. */
static void
when(void)
{
	int b, sb, rb;

	csend(10, 100);
	hflush("when-none-yet");
	dp_rc("when-mytid", "mytid() == me", pvm_mytid() == me);
	hflush("when-mytid");
	dp_rc("when-getcontext", "getcontext()", pvm_getcontext());
	hflush("when-getcontext");
	dp_rc("when-probe-20", "probe(-1, 20)", pvm_probe(-1, 20));
	hflush("when-probe");
	csend(10, 101);
	dp_rc("when-nrecv-20", "nrecv(-1, 20)", pvm_nrecv(-1, 20));
	hflush("when-nrecv");
	csend(10, 102);
	pvm_initsend(PvmDataDefault);
	pvm_send(child, 95); /* the child never looks at tag 95 */
	hflush("when-send");
	pvm_probe(-1, 99);
	hflush("when-send-later");
	csend(10, 110);
	pvm_initsend(PvmDataDefault);
	pvm_send(me, 21);
	hflush("when-send-self");
	pvm_probe(-1, 99);
	hflush("when-send-self-later");
	trecv_rec("when-send-self-recv", 21, 500);
	hflush("when-send-self-recv");
	csend(10, 103);
	dp_rc("when-probe-10", "probe(-1, 10)", pvm_probe(-1, 10));
	hflush("when-probe-10");
	csend(10, 104);
	trecv_rec("when-trecv-10", 10, 300);
	hflush("when-trecv-10");
	csend(10, 105);
	cmd(OP_SEND, 20, 200);
	usleep(300000);
	trecv_rec("when-trecv-any", -1, 1000);
	hflush("when-trecv-any");
	csend(10, 106);
	csend(20, 201);
	csend(10, 107);
	trecv_rec("when-order", 20, 1000);
	hflush("when-order");
	pvm_probe(-1, 99);
	hflush("when-order-later");
	csend(11, 111);
	csend(12, 120);
	csend(10, 108);
	trecv_rec("when-three", 99, 300);
	hflush("when-three");
	/* The user's buffers across a handler call. */
	cmd(OP_SEND, 20, 202);
	b = pvm_recv(-1, 20);
	sb = pvm_initsend(PvmDataDefault);
	csend(10, 109);
	pvm_probe(-1, 99);
	hflush("when-buffers");
	rb = pvm_getrbuf();
	dp_rc("when-rbuf-kept", "getrbuf() == before", rb == b);
	dp_rc("when-sbuf-kept", "getsbuf() == before", pvm_getsbuf() == sb);
	b = -1;
	pvm_upkint(&b, 1, 1);
	dp_rec("when-rbuf-content", "the receive buffer still holds %d", b);
}

/* Handlers and messages from ourselves, before install, after delete. */
static void
more(void)
{
	int v = 300, id;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(me, 10);
	/* Whether the handler runs in the send or the receive is a race
	 * with the pvmd in PVM 3.4.6: only the sum is recorded. */
	trecv_rec("self-recv", 10, 300);
	hflush("self-recv-handler");
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(me, 11);
	trecv_rec("self-src-pattern", 11, 300);
	hflush("self-src-pattern-handler");
	/* A message read in before its handler exists. */
	csend(16, 301);
	dp_rc("early-probe", "probe(-1, 16) > 0", pvm_probe(-1, 16) > 0);
	id = pvm_addmhf(-1, 16, -1, h1);
	trecv_rec("early-recv", 16, 300);
	hflush("early-handler");
	csend(16, 302);
	trecv_rec("early-next", 16, 300);
	hflush("early-next-handler");
	dp_rc("del-16", "delmhf", pvm_delmhf(id));
	csend(16, 303);
	trecv_rec("after-del-recv", 16, 300);
	hflush("after-del-handler");
	/* A handler that sends. */
	id = pvm_addmhf(-1, 17, -1, h4);
	h_reply_to = me;
	csend(17, 304);
	pvm_probe(-1, 99);
	hflush("h-sends");
	trecv_rec("h-sends-recv", 90, 500);
	h_reply_to = 0;
	pvm_delmhf(id);
	dp_rc("del-id1", "delmhf(id1)", pvm_delmhf(id1));
	dp_rc("del-id1-again", "delmhf(id1)", pvm_delmhf(id1));
	csend(10, 305);
	trecv_rec("after-del-id1", 10, 300);
	hflush("after-del-id1-handler");
}

/* Contexts: values, set and get, free. */
static void
contexts(void)
{
	int c3, c4;

	dp_rec("ctx-initial", "getcontext() = %s", ctxname(pvm_getcontext()));
	dp_rec("ctx-base", "PvmBaseContext = %d", PvmBaseContext);
	ctx1 = pvm_newcontext();
	dp_rec("ctx-new1", "newcontext() %s", ctx1 > 0 ? "> 0" : dp_code(ctx1));
	ctx2 = pvm_newcontext();
	dp_rec("ctx-new2", "newcontext() %s, %s ctx1",
	    ctx2 > 0 ? "> 0" : dp_code(ctx2), ctx2 == ctx1 ? "==" : "!=");
	dp_rec("ctx-new-step", "ctx2 - ctx1 = %d", ctx2 - ctx1);
	dp_rec("ctx-new-host", "ctx1 without its low 18 bits is %s",
	    dp_tid(ctx1 & ~0x3ffff));
	dp_rec("ctx-new-cur", "getcontext() = %s", ctxname(pvm_getcontext()));
	dp_rec(
	    "ctx-set1", "setcontext(ctx1) = %s", ctxname(pvm_setcontext(ctx1)));
	dp_rec("ctx-get1", "getcontext() = %s", ctxname(pvm_getcontext()));
	dp_rec(
	    "ctx-set2", "setcontext(ctx2) = %s", ctxname(pvm_setcontext(ctx2)));
	dp_rec("ctx-set0", "setcontext(0) = %s", ctxname(pvm_setcontext(0)));
	dp_rec(
	    "ctx-set-neg", "setcontext(-1) = %s", ctxname(pvm_setcontext(-1)));
	dp_rec("ctx-get-neg", "getcontext() = %s", ctxname(pvm_getcontext()));
	dp_rec("ctx-set-odd", "setcontext(12345) = %s",
	    ctxname(pvm_setcontext(12345)));
	dp_rec("ctx-get-odd", "getcontext() = %s",
	    pvm_getcontext() == 12345 ? "12345" : ctxname(pvm_getcontext()));
	pvm_setcontext(0);
	c3 = pvm_newcontext();
	dp_rc("ctx-free", "freecontext(c3)", pvm_freecontext(c3));
	dp_rc("ctx-free-again", "freecontext(c3) again", pvm_freecontext(c3));
	c4 = pvm_newcontext();
	dp_rec("ctx-new-after-free", "newcontext() %s the freed one",
	    c4 == c3 ? "==" : "!=");
	c3 = pvm_freecontext(0);
	dp_rec("ctx-free-0", "freecontext(0) %s", c3 > 0 ? "> 0" : dp_code(c3));
	dp_rc("ctx-free-neg", "freecontext(-1)", pvm_freecontext(-1));
	dp_rc("ctx-free-odd", "freecontext(12345)", pvm_freecontext(12345));
	pvm_setcontext(c4);
	dp_rc("ctx-free-current", "freecontext(current)", pvm_freecontext(c4));
	dp_rec("ctx-after-free-current", "getcontext() %s the freed one",
	    pvm_getcontext() == c4 ? "==" : "!=");
	pvm_setcontext(0);
}

/* Messages in one context and receives in another. */
static void
ctx_messages(void)
{
	cmd(OP_SETCTX, ctx1, 0);
	csend(30, 400);
	trecv_rec("ctxmsg-base-any", -1, 300);
	dp_rc("ctxmsg-base-probe", "probe(-1, 30)", pvm_probe(-1, 30));
	pvm_setcontext(ctx2);
	trecv_rec("ctxmsg-ctx2", -1, 300);
	pvm_setcontext(ctx1);
	dp_rc("ctxmsg-ctx1-probe", "probe(-1, 30) > 0", pvm_probe(-1, 30) > 0);
	trecv_rec("ctxmsg-ctx1", -1, 300);
	pvm_setcontext(0);
	cmd(OP_SETCTX, 0, 0);
	csend(31, 401);
	pvm_setcontext(ctx1);
	trecv_rec("ctxmsg-ctx1-base-msg", -1, 300);
	pvm_setcontext(0);
	trecv_rec("ctxmsg-base-base-msg", -1, 300);
	/* The child receives only in its own context. */
	pvm_setcontext(ctx1);
	pvm_initsend(PvmDataDefault);
	{
		int v = 402;

		pvm_pkint(&v, 1, 1);
	}
	pvm_send(child, 32);
	pvm_setcontext(0);
	cmd(OP_RECV, 32, 300);
	creply("ctxmsg-child-base", "child trecv(32) in context 0");
	cmd(OP_SETCTX, ctx1, 0);
	cmd(OP_RECV, 32, 300);
	creply("ctxmsg-child-ctx1", "child trecv(32) in ctx1");
	cmd(OP_SETCTX, 0, 0);
	/* Only the parent owns ctx1 and ctx2. */
	cmd(OP_FREECTX, ctx2, 0);
	creply("ctxfree-child-parents", "child freecontext(ctx2)");
	dp_rc("ctxfree-parent-after", "freecontext(ctx2) by its owner",
	    pvm_freecontext(ctx2));
	/* Handlers and contexts. */
	id1 = pvm_addmhf(-1, 33, ctx1, h1);
	dp_rec("ctxmhf-add", "addmhf(-1, 33, ctx1) = %s", dp_code(id1));
	csend(33, 403);
	trecv_rec("ctxmhf-base-msg", 33, 300);
	hflush("ctxmhf-base-msg-handler");
	cmd(OP_SETCTX, ctx1, 0);
	csend(33, 404);
	pvm_probe(-1, 99);
	hflush("ctxmhf-ctx1-msg-handler");
	cmd(OP_SETCTX, ctx2, 0);
	id2 = pvm_addmhf(-1, 34, -1, h2);
	csend(34, 405);
	pvm_probe(-1, 99);
	hflush("ctxmhf-any-ctx-handler");
	pvm_delmhf(id2);
	/* A handler's send goes out in the message's context. */
	cmd(OP_SETCTX, ctx1, 0);
	id2 = pvm_addmhf(-1, 35, -1, h4);
	h_reply_to = me;
	csend(35, 406);
	pvm_probe(-1, 99);
	hflush("ctxmhf-h-sends");
	dp_rec("ctxmhf-h-sends-ctx", "our context after: %s",
	    ctxname(pvm_getcontext()));
	trecv_rec("ctxmhf-h-sends-base", 90, 300);
	pvm_setcontext(ctx1);
	trecv_rec("ctxmhf-h-sends-ctx1", 90, 300);
	pvm_setcontext(0);
	h_reply_to = 0;
	pvm_delmhf(id2);
	cmd(OP_SETCTX, 0, 0);
}

/* Handler ids handed out again; wildcards with no handler of ours. */
static void
ids(void)
{
	int a, b, c, d, e;

	a = pvm_addmhf(-1, 40, -1, h1);
	b = pvm_addmhf(-1, 41, -1, h1);
	c = pvm_addmhf(-1, 42, -1, h1);
	dp_rec("ids-three", "b - a = %d, c - a = %d", b - a, c - a);
	pvm_delmhf(b);
	pvm_delmhf(a);
	d = pvm_addmhf(-1, 43, -1, h1);
	e = pvm_addmhf(-1, 44, -1, h1);
	dp_rec("ids-reuse", "after delmhf(b), delmhf(a): %s, %s",
	    d == a   ? "a"
	    : d == b ? "b"
	    : d == c ? "c"
	             : "new",
	    e == a   ? "a"
	    : e == b ? "b"
	    : e == c ? "c"
	             : "new");
	pvm_delmhf(c);
	pvm_delmhf(d);
	pvm_delmhf(e);
	a = pvm_addmhf(-1, -1, -1, h1);
	dp_rec("wild-all", "addmhf(-1, -1, -1) = %s", dp_code(a));
	if (a >= 0)
		pvm_delmhf(a);
	a = pvm_addmhf(-1, -1, 0, h1);
	dp_rec(
	    "wild-ctx0", "addmhf(-1, -1, 0) %s", a >= 0 ? ">= 0" : dp_code(a));
	if (a >= 0)
		pvm_delmhf(a);
	a = pvm_addmhf(-1, -1, ctx1, h1);
	dp_rec("wild-ctx1", "addmhf(-1, -1, ctx1) %s",
	    a >= 0 ? ">= 0" : dp_code(a));
	if (a >= 0)
		pvm_delmhf(a);
	a = pvm_addmhf(me, -1, -1, h1);
	dp_rec("wild-me", "addmhf(me, -1, -1) = %s", dp_code(a));
	if (a >= 0)
		pvm_delmhf(a);
	a = pvm_addmhf(0x80000000, 5, -1, h1);
	dp_rec("src-pvmd", "addmhf(TIDPVMD, 5, -1) %s",
	    a >= 0 ? ">= 0" : dp_code(a));
	if (a >= 0)
		pvm_delmhf(a);
}

/* A child spawned while we are in ctx1. */
static void
inherit(void)
{
	int t[1];

	pvm_setcontext(ctx1);
	child = spawn_child("child2");
	pvm_setcontext(0);
	if (child <= 0)
		return;
	hello("inherit-hello-base", 1000);
	pvm_setcontext(ctx1);
	hello("inherit-hello-ctx1", 3000);
	pvm_setcontext(0);
	/* Its exit, announced by the pvmd to a handler. */
	t[0] = child;
	id1 = pvm_addmhf(-1, TAG_EXIT, -1, h1);
	dp_rc("exit-notify", "notify(TaskExit)",
	    pvm_notify(PvmTaskExit, TAG_EXIT, 1, t));
	cmd(OP_EXIT, 0, 0);
	usleep(500000);
	pvm_probe(-1, 99);
	hflush("exit-notify-handler");
	pvm_delmhf(id1);
	dp_drain(100);
	dp_recv("end-nothing-left", 300);
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main();
	if ((me = dp_enrol()) <= 0)
		return 1;
	dp_self(self, sizeof(self));
	child = spawn_child("child");
	if (child <= 0)
		return 1;
	hello("hello", 3000);
	add_del();
	when();
	more();
	contexts();
	ctx_messages();
	pvm_delmhf(id1);
	pvm_delmhf(id3);
	while (nodd > 0)
		pvm_delmhf(odd[--nodd]);
	cmd(OP_EXIT, 0, 0);
	ids();
	inherit();
	pvm_exit();
	return 0;
}
