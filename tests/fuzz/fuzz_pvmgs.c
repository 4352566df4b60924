/*
 * fuzz_pvmgs.c: the group server's request decoder and group table
 * (libgpvm/pvmgs.c, groups.c) on a run of hostile requests.
 *
 * pvmgs.c is a program: its dispatcher is static and lives beside main.
 * Rather than change it, this file includes it with main renamed, and
 * stands in for the few libpvm calls that would reach a pvmd (send,
 * multicast, notify, config).  Packing and unpacking are libpvm's own
 * (msgbuf.c, pack.c).  No group gets a barrier segment: the server's
 * directory stays unset, so nothing touches the file system.
 *
 * Input: records of (tag choice, source choice, body length, body).  The
 * body becomes the receive buffer and gs_dispatch serves it, as the
 * server's loop does.  After every request the table must be whole:
 * member counts match, no tid twice in a group or at a barrier, waiters
 * are members, and replies go to tasks only.
 */
#include "fuzz.h"
#include "lpvm.h"

int pvmgs_main(int argc, char **argv);
#define main pvmgs_main
#include "pvmgs.c"
#undef main

/* ---- stand-ins for the calls that need a pvmd ---- */

/* A reply starts with int seq, int status (gsproto.h). */
static void
check_reply(void)
{
	struct lpvm_msg *m = lpvm_msg_get(pvm_getsbuf());

	FZ_CHECK(m != NULL && lpvm_msg_wire_enc(m) == WIRE_ENC_XDR && m->len >= 8);
}

int
pvm_send(int tid, int tag)
{
	FZ_CHECK(tid_is_task(tid) && tag < 0);
	check_reply();
	return 0;
}

int
pvm_mcast(int *tids, int n, int tag)
{
	int i;

	FZ_CHECK(n > 0 && tag < 0);
	for (i = 0; i < n; i++)
		FZ_CHECK(tid_is_task(tids[i]));
	check_reply();
	return 0;
}

int
pvm_notify(int what, int tag, int cnt, int *tids)
{
	FZ_CHECK(what == PvmTaskExit && tag == GS_DEADTID && cnt == 1);
	FZ_CHECK(tid_is_task(tids[0]));
	return 0;
}

/* One host: never asked, as the server has no directory for segments. */
int
pvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp)
{
	(void)narch;
	(void)hostp;
	*nhost = 1;
	return 0;
}

/* Only pvmgs_main, never called, uses the rest. */
int
pvm_putinfo(char *name, int bufid, int flags)
{
	(void)name;
	(void)bufid;
	(void)flags;
	return PvmSysErr;
}

int
pvm_mytid(void)
{
	return PvmSysErr;
}

int
pvm_parent(void)
{
	return PvmNoParent;
}

int
pvm_setcontext(int ctx)
{
	return ctx;
}

int
pvm_recv(int tid, int tag)
{
	(void)tid;
	(void)tag;
	return PvmSysErr;
}

int
pvm_setopt(int what, int val)
{
	(void)what;
	return val;
}

/* ---- the table's invariants ---- */

static int
count_in(const int *v, int n, int tid)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += v[i] == tid;
	return k;
}

static void
check_sync(const struct gt_group *g, const struct gt_sync *s)
{
	int i, w;

	FZ_CHECK((s->count == 0) == (s->nwait == 0));
	FZ_CHECK(s->nwait <= s->cap && (s->count == 0 || s->nwait < s->count));
	for (i = 0; i < s->nwait; i++) {
		w = s->waiters[i];
		FZ_CHECK(count_in(s->waiters, s->nwait, w) == 1);
		FZ_CHECK(count_in(g->tids, g->ninst, w) == 1);
	}
}

static void
check_group(const struct gt_group *g)
{
	int i, members = 0;

	FZ_CHECK(g->name != NULL);
	FZ_CHECK(g->state >= GS_DYNAMIC && g->state <= GS_DEAD);
	FZ_CHECK(g->ninst >= 0 && g->ninst <= g->cap);
	FZ_CHECK(g->ninst == 0 || g->tids[g->ninst - 1] != -1);
	for (i = 0; i < g->ninst; i++) {
		if (g->tids[i] == -1)
			continue;
		members++;
		FZ_CHECK(tid_is_task(g->tids[i]));
		FZ_CHECK(count_in(g->tids, g->ninst, g->tids[i]) == 1);
	}
	FZ_CHECK(members == g->nmembers && members > 0);
	check_sync(g, &g->barrier);
	check_sync(g, &g->freeze);
}

static void
check_table(void)
{
	const struct gt_group *g, *h;

	for (g = gs_table.head; g != NULL; g = g->next) {
		check_group(g);
		for (h = g->next; h != NULL; h = h->next)
			FZ_CHECK(strcmp(g->name, h->name) != 0);
	}
}

/* ---- driver ---- */

static const int tags[] = {
    GS_JOIN,
    GS_LEAVE,
    GS_VIEW,
    GS_BARRIER,
    GS_FREEZE,
    GS_DEADTID,
    GS_PUSH,
    0,
};

/* Four tasks on two hosts, a pvmd, and a multicast address. */
static int
source(unsigned b)
{
	if (b % 10 < 8)
		return tid_make(1 + (int)(b % 10) / 4, 1 + (int)(b % 4));
	return b % 10 == 8 ? tid_pvmd(1) : (int)(TID_MCAST_BIT | 1);
}

/* Serve one request: its body becomes the active receive buffer. */
static void
serve(int tag, int src, const uint8_t *body, size_t len)
{
	struct lpvm_msg *m;
	int id;

	m = lpvm_msg_wrap(
	    len > 0 ? fz_dup(body, len) : NULL, len, WIRE_ENC_XDR);
	FZ_CHECK(m != NULL && (id = lpvm_msg_register(m)) > 0);
	m->src = src;
	m->tag = tag;
	pvm_freebuf(pvm_setrbuf(id));
	gs_dispatch(src, tag);
	check_table();
}

/* Forget every group and watched tid: each input starts afresh. */
static void
reset(void)
{
	gt_fini(&gs_table);
	gt_init(&gs_table);
	free(gs_watched);
	gs_watched = NULL;
	gs_nwatched = gs_capwatched = 0;
	lpvm_msg_free_all();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *body;
	struct fz f;
	size_t len;
	int tag, src;

	fz_init(&f, data, size);
	while (f.n > 0) {
		tag = tags[fz_byte(&f) % (sizeof(tags) / sizeof(tags[0]))];
		src = source(fz_byte(&f));
		body = fz_piece(&f, &len);
		serve(tag, src, body, len);
	}
	reset();
	return 0;
}
