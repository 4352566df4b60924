/*
 * client.c: membership calls of libgpvm3 and the cache of group views.
 *
 * pvm_joingroup, pvm_lvgroup and pvm_freezegroup are requests to the
 * group server (pvmgs, see gsproto.h); pvm_getinst, pvm_gettid and
 * pvm_gsize answer from the cached view of the group when it is current
 * (see gpvm.h for the consistency rule), so in steady state they cost no
 * message at all.
 *
 * Finding the server: read mailbox class "pvmgs"; if it is empty, spawn
 * the server by absolute path ($PVMGS_PATH, else the installed one) with
 * the default output (never the caller's catchout: the server outlives
 * us), and wait up to GC_START_MS for its hello.  A server that loses the
 * start-up race exits; we then read the winner from the mailbox.  The
 * tid is cached until the server dies or our own tid changes.
 *
 * Every request saves and restores the caller's send buffer, receive
 * buffer and context, and waits with gpvm_recv_from, so a dead server is
 * an error (PvmSysErr), never a hang.
 *
 * Pushed views (GS_PUSH) are applied by a message handler (pvm_addmhf)
 * the moment libpvm reads them, inside whatever libpvm call is running;
 * a wait inside a collective learns of the change at once
 * (gpvm_wait_view_changed).  So using the cache costs no receive-queue
 * scan; gpvm_enter only reads our connections once (a probe) so that a
 * member that never waits still reads its pushes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>

#include "gpvm.h"
#include "gseg.h"
#include "gdata.h"
#include "paths.h"
#include "tid.h"

#ifndef PVMGS_PATH
#define PVMGS_PATH "/usr/local/bin/pvmgs"
#endif

/*
 * Server traffic keeps the user's routing (normally through the pvmd).
 * Direct routes both ways were measured faster for barriers (16 members,
 * one 2-core host: about 290 us through the pvmd, 220-250 us direct),
 * but they also deliver leave notices (pushes) sooner, and PVM 3.4's own
 * example "ge" (a member may leave while another still checks the
 * instance table) then failed in 3 of 4 runs against 0 of 6 through the
 * pvmd.  Compatibility with such programs' timing wins.
 */

/* How long a started server may take to register. */
#define GC_START_MS 10000

/* libpvm3 exports pvm_errno without declaring it in pvm3.h. */
extern int pvm_errno;

/* A cached view and its storage. */
struct gc_ent {
	struct gpvm_view v;
	int cap; /* room in v.tids */
	struct gseg *seg; /* v.segid mapped, or NULL */
	struct gdata *dseg; /* its data segment mapped, or NULL */
	struct gc_ent *next;
};

static struct gc_ent *gc_cache;
static int gc_mytid;  /* the tid the cache belongs to */
static int gc_server; /* pvmgs's tid, 0 if unknown */
static int gc_seq;
static int gc_mhf = -1; /* the push handler's id, -1 if none */

/* A tag nothing is ever sent with (gc_read_pushes probes for it). */
#define GS_HELLO_NEVER 0x3fff000a

/* Free one cache entry (already unlinked). */
static void
gc_ent_free(struct gc_ent *e)
{
	gseg_unmap(e->seg);
	gdata_unmap(e->dseg);
	free(e->v.tids);
	free(e->v.name);
	free(e);
}

/* Drop every cached view. */
static void
gc_flush(void)
{
	struct gc_ent *e;

	while ((e = gc_cache) != NULL) {
		gc_cache = e->next;
		gc_ent_free(e);
	}
}

/* The server is gone: forget it and everything it told us. */
static void
gc_lost_server(void)
{
	gc_server = 0;
	gc_flush();
}

/* The cache entry of a group, or NULL. */
static struct gc_ent *
gc_find(const char *name)
{
	struct gc_ent *e;

	for (e = gc_cache; e != NULL; e = e->next) {
		if (strcmp(e->v.name, name) == 0) {
			return e;
		}
	}
	return NULL;
}

/* Whether a cached view may answer without asking the server. */
static int
gc_current(const struct gc_ent *e)
{
	if (e->v.frozen == GS_FROZEN) {
		return 1;
	}
	/* Members get every change pushed.  A dead group's view (fetched
	 * by a non-member) is asked for again each time, as in PVM 3.4. */
	return e->v.frozen == GS_DYNAMIC && e->v.myinst >= 0;
}

void
gpvm_view_forget(const char *group)
{
	struct gc_ent **pp, *e;

	for (pp = &gc_cache; (e = *pp) != NULL; pp = &e->next) {
		if (strcmp(e->v.name, group) == 0) {
			*pp = e->next;
			gc_ent_free(e);
			return;
		}
	}
}

/* Message handler: a view pushed by the server (GS_PUSH). */
static int
gc_on_push(int mid)
{
	(void)mid;
	gpvm_view_input(1);
	return 0;
}

/* Install the push handler for a new enrolment.  0 or an error. */
static int
gc_install(void)
{
	int autoerr, resv, cc;

	autoerr = pvm_setopt(PvmAutoErr, 0);
	if (gc_mhf >= 0) {
		pvm_delmhf(gc_mhf);
		gc_mhf = -1;
	}
	/* GS_PUSH is a reserved (negative) tag. */
	resv = pvm_setopt(PvmResvTids, 1);
	cc = pvm_addmhf(-1, GS_PUSH, SYSCTX_DG, gc_on_push);
	pvm_setopt(PvmResvTids, resv);
	pvm_setopt(PvmAutoErr, autoerr);
	if (cc < 0) {
		return cc;
	}
	gc_mhf = cc;
	return 0;
}

/*
 * Let libpvm read what our pvmd has sent, so that the handler applies
 * pending pushes even in a member that never waits (a leaf of every
 * reduce): a probe that matches nothing reads every connection and runs
 * handlers.  Not pvm_getfds and a poll(2) of the pvmd socket, as before:
 * once a program has called pvm_getfds, every message written into one
 * of its rings also costs its writer a write(2) to the ring's socket
 * (libpvm/shm.c), so every group member paid a system call per message
 * it got from anyone (pvm_bcast of 1 double to 1 member, with both on
 * their own CPU: 2.1 us with it, 0.6-0.7 without).
 */
static void
gc_read_pushes(void)
{
	int (*matcher)(int, int, int);
	int ctx;

	ctx = pvm_setcontext(SYSCTX_DG);
	matcher = (int (*)(int, int, int))(void (*)(void))pvm_recvf(NULL);
	pvm_probe(gc_mytid, GS_HELLO_NEVER);
	pvm_recvf(matcher);
	pvm_setcontext(ctx);
}

int
gpvm_enter(void)
{
	int me, cc;

	if ((me = pvm_mytid()) < 0) {
		return me;
	}
	if (me != gc_mytid) {
		/* pvm_exit and a new enrolment: nothing we knew holds. */
		gc_lost_server();
		gpvm_wait_reset();
		gc_mytid = me;
		if ((cc = gc_install()) < 0) {
			gc_mytid = 0;
			return cc;
		}
	}
	if (gc_server != 0) {
		gc_read_pushes();
	}
	return 0;
}

const struct gpvm_view *
gpvm_view_peek(const char *group)
{
	struct gc_ent *e = gc_find(group);

	return e != NULL ? &e->v : NULL;
}

int
gpvm_name_check(const char *group)
{
	if (group == NULL || *group == '\0') {
		return PvmNullGroup;
	}
	return 0;
}

/* Set pvm_errno and report per PvmAutoErr, as libpvm3's calls do. */
int
gpvm_err(const char *call, int code)
{
	char what[64];
	int level;

	pvm_errno = code;
	if (code >= 0 || (level = pvm_getopt(PvmAutoErr)) <= 0) {
		return code;
	}
	snprintf(what, sizeof(what), "%s()", call);
	pvm_perror(what);
	if (level == 2) {
		/* PVM's "exit on error" level; the program asked for it. */
		pvm_exit();
		exit(-code);
	}
	if (level >= 3) {
		abort();
	}
	return code;
}

/* Read the server's tid from the mailbox; 0 if none is registered. */
static int
gc_mbox_lookup(void)
{
	int saved, b, tid = 0, autoerr;

	saved = pvm_setrbuf(0);
	autoerr = pvm_setopt(PvmAutoErr, 0);
	b = pvm_recvinfo(GS_MBOX, 0, PvmMboxDefault);
	pvm_setopt(PvmAutoErr, autoerr);
	if (b > 0) {
		if (pvm_upkint(&tid, 1, 1) < 0 || !tid_is_task(tid)) {
			tid = 0;
		}
		pvm_freebuf(b);
	}
	pvm_setrbuf(saved);
	return tid;
}

/* Spawn a server and wait for it to register.  Its tid, or 0. */
static int
gc_start_server(void)
{
	const char *path = getenv("PVMGS_PATH");
	int otid, ttid, tid = 0, n, b;

	if (path == NULL || *path == '\0') {
		path = PVMGS_PATH;
	}
	/* The server outlives us: its output must not come to us. */
	otid = pvm_setopt(PvmOutputTid, 0);
	ttid = pvm_setopt(PvmTraceTid, 0);
	/* On our host, never spread: its barrier segments live in our
	 * host's private directory (barrier.c). */
	n = pvm_spawn((char *)path, NULL, PvmTaskHost, ".", 1, &tid);
	pvm_setopt(PvmOutputTid, otid);
	pvm_setopt(PvmTraceTid, ttid);
	if (n != 1) {
		return 0;
	}
	b = gpvm_trecv_from(tid, GS_HELLO, GC_START_MS);
	if (b > 0) {
		pvm_freebuf(b);
		return tid;
	}
	if (b == 0) {
		/* It neither registered nor exited in time. */
		pvm_kill(tid);
	}
	/* It may have lost the race to another server: look again. */
	return gc_mbox_lookup();
}

/* The server's tid (found or started), or PvmSysErr. */
static int
gc_get_server(void)
{
	if (gc_server == 0 && (gc_server = gc_mbox_lookup()) == 0) {
		gc_server = gc_start_server();
	}
	return gc_server != 0 ? gc_server : PvmSysErr;
}

int
gpvm_req_begin(struct gpvm_req *rq)
{
	int cc;

	memset(rq, 0, sizeof(*rq));
	if ((cc = gc_get_server()) < 0) {
		return cc;
	}
	rq->ctx = pvm_getcontext();
	rq->rbuf = pvm_setrbuf(0);
	if ((rq->mysbuf = pvm_mkbuf(PvmDataDefault)) < 0) {
		cc = rq->mysbuf;
		pvm_setrbuf(rq->rbuf);
		return cc;
	}
	rq->sbuf = pvm_setsbuf(rq->mysbuf);
	rq->seq = ++gc_seq;
	if (rq->seq <= 0) {
		rq->seq = gc_seq = 1;
	}
	pvm_pkint(&rq->seq, 1, 1);
	return 0;
}

int
gpvm_req_call(struct gpvm_req *rq, int tag)
{
	int server = gc_server, resv, cc, b, seq = 0, status = 0;

	if (server == 0) {
		return PvmSysErr;
	}
	pvm_setcontext(SYSCTX_DG);
	resv = pvm_setopt(PvmResvTids, 1);
	cc = pvm_send(server, tag);
	pvm_setopt(PvmResvTids, resv);
	pvm_setcontext(rq->ctx);
	if (cc < 0) {
		return cc;
	}
	for (;;) {
		if ((b = gpvm_recv_from(server, tag)) < 0) {
			gc_lost_server();
			return PvmSysErr;
		}
		if (rq->myrbuf > 0) {
			pvm_freebuf(rq->myrbuf);
		}
		rq->myrbuf = b;
		pvm_setrbuf(b);
		if (pvm_upkint(&seq, 1, 1) < 0 ||
		    pvm_upkint(&status, 1, 1) < 0) {
			return PvmBadMsg;
		}
		/* seq 0: a release multicast to every waiter. */
		if (seq == rq->seq || seq == 0) {
			return status;
		}
	}
}

void
gpvm_req_end(struct gpvm_req *rq)
{
	if (rq->myrbuf > 0) {
		pvm_freebuf(rq->myrbuf);
	}
	pvm_setrbuf(rq->rbuf);
	pvm_setsbuf(rq->sbuf);
	if (rq->mysbuf > 0) {
		pvm_freebuf(rq->mysbuf);
	}
	pvm_setcontext(rq->ctx);
}

/* Count v's members and find our instance (-1: not a member). */
static void
gc_count(struct gpvm_view *v)
{
	int i;

	v->nmembers = 0;
	v->myinst = -1;
	for (i = 0; i < v->ninst; i++) {
		if (v->tids[i] == -1) {
			continue;
		}
		v->nmembers++;
		if (v->tids[i] == gc_mytid) {
			v->myinst = i;
		}
	}
}

/* Make room for n tids in e; 0 or PvmNoMem. */
static int
gc_reserve(struct gc_ent *e, int n)
{
	int *p;

	if (n <= e->cap) {
		return 0;
	}
	if ((p = realloc(e->v.tids, (size_t)n * sizeof(*p))) == NULL) {
		return PvmNoMem;
	}
	e->v.tids = p;
	e->cap = n;
	return 0;
}

/* The entry for name, created (empty) if needed; NULL if no memory. */
static struct gc_ent *
gc_entry(const char *name)
{
	struct gc_ent *e;

	if ((e = gc_find(name)) != NULL) {
		return e;
	}
	if ((e = calloc(1, sizeof(*e))) == NULL) {
		return NULL;
	}
	if ((e->v.name = strdup(name)) == NULL) {
		free(e);
		return NULL;
	}
	e->v.myinst = -1;
	e->next = gc_cache;
	gc_cache = e;
	return e;
}

/*
 * A frozen group that a member left: keep the frozen table for
 * getinst/gettid/gsize (PVM 3.4 answers those from its cache), mark the
 * group dead for collectives, and let a wait in progress see the new
 * membership so it ends instead of waiting for a member that left.
 */
static int
gc_frozen_dies(struct gc_ent *e, uint32_t version, int ninst, int from_push)
{
	struct gpvm_view now = e->v;
	int *tids = NULL;

	if (ninst > 0 && ((tids = calloc((size_t)ninst, sizeof(int))) == NULL ||
	    pvm_upkint(tids, ninst, 1) < 0)) {
		free(tids);
		return tids == NULL ? PvmNoMem : PvmBadMsg;
	}
	e->v.version = version;
	e->v.dead = 1;
	if (from_push) {
		now.version = version;
		now.frozen = GS_DEAD;
		now.dead = 1;
		now.ninst = ninst;
		now.tids = tids;
		gc_count(&now);
		gpvm_wait_view_changed(&now);
	}
	free(tids);
	return 0;
}

/* Apply the rest of a view (after its name) to the cache. */
static int
gc_view_apply(const char *name, int from_push)
{
	struct gc_ent *e;
	int version = 0, state = 0, segid = 0, ninst = 0;

	if (pvm_upkint(&version, 1, 1) < 0 || pvm_upkint(&state, 1, 1) < 0 ||
	    pvm_upkint(&segid, 1, 1) < 0 || pvm_upkint(&ninst, 1, 1) < 0 ||
	    ninst < 0) {
		return PvmBadMsg;
	}
	e = gc_find(name);
	if (e != NULL && e->v.frozen == GS_FROZEN && state == GS_DEAD) {
		return gc_frozen_dies(e, (uint32_t)version, ninst, from_push);
	}
	/*
	 * Pushes go only to members, and a push may be applied (by the
	 * handler) before the reply to our own join or freeze that it
	 * follows: so a push for an unknown group creates its entry, and a
	 * reply older than what a push told a member is dropped.
	 */
	if (e != NULL && (uint32_t)version <= e->v.version &&
	    (from_push ||
	        (e->v.myinst >= 0 && (uint32_t)version != e->v.version))) {
		return 0;
	}
	if ((e == NULL && (e = gc_entry(name)) == NULL) ||
	    gc_reserve(e, ninst) < 0) {
		return PvmNoMem;
	}
	if (ninst > 0 && pvm_upkint(e->v.tids, ninst, 1) < 0) {
		gpvm_view_forget(name);
		return PvmBadMsg;
	}
	if (e->v.segid != (uint32_t)segid) {
		/* A new group under the same name: a new segment. */
		gseg_unmap(e->seg);
		gdata_unmap(e->dseg);
		e->seg = NULL;
		e->dseg = NULL;
		e->v.segid = (uint32_t)segid;
	}
	if (e->v.version != (uint32_t)version) {
		e->v.ncalls = 0; /* calls are named per version (gdata.h) */
	}
	e->v.version = (uint32_t)version;
	e->v.frozen = state;
	e->v.dead = state == GS_DEAD;
	e->v.ninst = ninst;
	gc_count(&e->v);
	if (from_push) {
		/* A wait in a collective on this group may have to end. */
		gpvm_wait_view_changed(&e->v);
	}
	return 0;
}

int
gpvm_view_input(int from_push)
{
	char *name;
	int cc;

	if ((name = gs_upk_name()) == NULL) {
		return PvmBadMsg;
	}
	cc = gc_view_apply(name, from_push);
	free(name);
	return cc;
}

/* Ask the server for the view of group; 0 or an error. */
static int
gc_fetch(const char *group)
{
	struct gpvm_req rq;
	int cc;

	if ((cc = gpvm_req_begin(&rq)) < 0) {
		return cc;
	}
	pvm_pkstr((char *)group);
	if ((cc = gpvm_req_call(&rq, GS_VIEW)) >= 0) {
		cc = gpvm_view_input(0);
	}
	gpvm_req_end(&rq);
	return cc;
}

int
gpvm_view_refresh(const char *group)
{
	return gc_fetch(group);
}

struct gseg *
gpvm_view_seg(struct gpvm_view *v)
{
	struct gc_ent *e = gc_find(v->name);
	struct pvm_paths p;
	char path[PATHS_MAX + 16];

	if (e == NULL || &e->v != v || v->segid == 0) {
		return NULL;
	}
	if (e->seg == NULL && paths_from_env(&p) == 0 &&
	    gseg_path(p.dir, v->segid, path, sizeof(path)) == 0) {
		e->seg = gseg_map(path);
	}
	return e->seg;
}

struct gdata *
gpvm_view_dseg(struct gpvm_view *v)
{
	struct gc_ent *e = gc_find(v->name);
	struct pvm_paths p;
	char path[PATHS_MAX + 16];

	if (e == NULL || &e->v != v || v->segid == 0) {
		return NULL;
	}
	if (e->dseg == NULL && paths_from_env(&p) == 0 &&
	    gdata_path(p.dir, v->segid, path, sizeof(path)) == 0) {
		e->dseg = gdata_map(path);
	}
	return e->dseg;
}

int
gpvm_view_local(const struct gpvm_view *v)
{
	int i, host = tid_host(pvm_mytid());

	if (tid_host(gc_server) != host) {
		return 0;
	}
	for (i = 0; i < v->ninst; i++) {
		if (v->tids[i] != -1 && tid_host(v->tids[i]) != host) {
			return 0;
		}
	}
	return 1;
}

int
gpvm_server_tid(void)
{
	return gc_server;
}

int
gpvm_server_check(void)
{
	if (gc_server != 0 && gpvm_peer_dead(gc_server)) {
		gc_lost_server();
		return PvmSysErr;
	}
	return 0;
}

int
gpvm_view(const char *group, struct gpvm_view **view)
{
	struct gc_ent *e;
	int cc;

	if ((cc = gpvm_enter()) < 0 || (cc = gpvm_name_check(group)) < 0) {
		return cc;
	}
	e = gc_find(group);
	if (e == NULL || !gc_current(e)) {
		if ((cc = gc_fetch(group)) < 0) {
			return cc;
		}
		if ((e = gc_find(group)) == NULL) {
			return PvmNoGroup;
		}
	}
	*view = &e->v;
	return 0;
}

/* The cached view of group when its segment shows it current (see
 * gpvm_view_fast), else what slow says. */
static int
gc_view_fast_or(const char *group, struct gpvm_view **view,
    int (*slow)(const char *, struct gpvm_view **))
{
	struct gc_ent *e;

	if (gpvm_name_check(group) == 0 && gc_mytid > 0 &&
	    pvm_mytid() == gc_mytid && gc_server != 0 &&
	    (e = gc_find(group)) != NULL && gc_current(e) && !e->v.dead &&
	    e->seg != NULL && atomic_load(&e->seg->version) == e->v.version) {
		*view = &e->v;
		return 0;
	}
	return slow(group, view);
}

int
gpvm_view_fast(const char *group, struct gpvm_view **view)
{
	return gc_view_fast_or(group, view, gpvm_view_live);
}

int
gpvm_view_cached(const char *group, struct gpvm_view **view)
{
	return gc_view_fast_or(group, view, gpvm_view);
}

int
gpvm_view_live(const char *group, struct gpvm_view **view)
{
	int cc;

	if ((cc = gpvm_view(group, view)) < 0) {
		return cc;
	}
	return (*view)->dead ? PvmNoGroup : 0;
}

/* Join a group (created if needed); the caller's instance number. */
int
pvm_joingroup(char *group)
{
	struct gpvm_req rq;
	int cc;

	if ((cc = gpvm_enter()) < 0 || (cc = gpvm_name_check(group)) < 0 ||
	    (cc = gpvm_req_begin(&rq)) < 0) {
		return gpvm_err("pvm_joingroup", cc);
	}
	pvm_pkstr(group);
	if ((cc = gpvm_req_call(&rq, GS_JOIN)) >= 0 &&
	    gpvm_view_input(0) < 0) {
		/* Joined, but no view: the next call asks for one. */
		gpvm_view_forget(group);
	}
	gpvm_req_end(&rq);
	return gpvm_err("pvm_joingroup", cc);
}

/* Leave a group; 0 once the server has removed us. */
int
pvm_lvgroup(char *group)
{
	struct gpvm_req rq;
	int cc;

	if ((cc = gpvm_enter()) < 0 || (cc = gpvm_name_check(group)) < 0 ||
	    (cc = gpvm_req_begin(&rq)) < 0) {
		return gpvm_err("pvm_lvgroup", cc);
	}
	pvm_pkstr(group);
	cc = gpvm_req_call(&rq, GS_LEAVE);
	gpvm_req_end(&rq);
	/* Even on error: a frozen non-member's cache is freed this way. */
	gpvm_view_forget(group);
	return gpvm_err("pvm_lvgroup", cc);
}

/* Instance number of tid in group. */
int
pvm_getinst(char *group, int tid)
{
	struct gpvm_view *v;
	int cc, i;

	if ((cc = gpvm_view(group, &v)) < 0) {
		return gpvm_err("pvm_getinst", cc);
	}
	for (i = 0; i < v->ninst; i++) {
		if (v->tids[i] == tid && tid != -1) {
			return i;
		}
	}
	return gpvm_err("pvm_getinst", PvmNotInGroup);
}

/* Tid of instance inst of group. */
int
pvm_gettid(char *group, int inst)
{
	struct gpvm_view *v;
	int cc;

	if ((cc = gpvm_view(group, &v)) < 0) {
		return gpvm_err("pvm_gettid", cc);
	}
	if (inst < 0 || inst >= v->ninst || v->tids[inst] == -1) {
		return gpvm_err("pvm_gettid", PvmNoInst);
	}
	return v->tids[inst];
}

/* Number of members of group. */
int
pvm_gsize(char *group)
{
	struct gpvm_view *v;
	int cc;

	if ((cc = gpvm_view(group, &v)) < 0) {
		return gpvm_err("pvm_gsize", cc);
	}
	return v->nmembers;
}

/*
 * Make group static once `size` members (-1: its current size) have
 * called; returns the size.  The frozen view is cached for good.
 */
int
pvm_freezegroup(char *group, int size)
{
	struct gpvm_req rq;
	int cc;

	/* A size of 0 or below -1 is the server's PvmMismatch (groups.c). */
	if ((cc = gpvm_enter()) < 0 || (cc = gpvm_name_check(group)) < 0 ||
	    (cc = gpvm_req_begin(&rq)) < 0) {
		return gpvm_err("pvm_freezegroup", cc);
	}
	pvm_pkstr(group);
	pvm_pkint(&size, 1, 1);
	if ((cc = gpvm_req_call(&rq, GS_FREEZE)) >= 0 &&
	    gpvm_view_input(0) < 0) {
		gpvm_view_forget(group);
	}
	gpvm_req_end(&rq);
	return gpvm_err("pvm_freezegroup", cc);
}
