/*
 * pvmgs.c: the group server, an ordinary PVM task.
 *
 * Started on demand by libgpvm3 (client.c) and found again through the
 * mailbox (class "pvmgs", index 0).  It owns membership, instance numbers,
 * freeze state and barrier counting (groups.c); collective data never
 * passes through it.  Requests are served one at a time in arrival order;
 * the protocol is described in gsproto.h.
 *
 * Members are watched with TaskExit notifies (GS_DEADTID): a member that
 * exits or dies is removed from every group, and waiters at a barrier or
 * freeze that can no longer complete are failed instead of hanging.  After
 * each change, the new view is pushed to the group's members so their
 * caches stay current without asking.
 *
 * The server lives until the virtual machine halts or it is killed; then
 * all groups are gone (as with PVM 3.4's `reset`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvm3.h"
#include "tid.h"
#include "paths.h"
#include "gsproto.h"
#include "groups.h"
#include "gseg.h"
#include "gdata.h"

static struct gt_table gs_table;

/* The virtual machine's directory, where barrier segments live. */
static struct pvm_paths gs_paths;
static uint32_t gs_next_segid;

/* Tids we asked the pvmd to watch (a member of some group, or was). */
static int *gs_watched;
static int gs_nwatched, gs_capwatched;

/* Pack the view of g. */
static void
gs_pack_view(const struct gt_group *g)
{
	int version = (int)g->version, state = g->state, ninst = g->ninst;
	int segid = (int)g->segid;

	pvm_pkstr((char *)g->name);
	pvm_pkint(&version, 1, 1);
	pvm_pkint(&state, 1, 1);
	pvm_pkint(&segid, 1, 1);
	pvm_pkint(&ninst, 1, 1);
	if (ninst > 0) {
		pvm_pkint(g->tids, ninst, 1);
	}
}

/* Start a reply: a fresh send buffer with seq and status. */
static void
gs_reply_begin(int seq, int status)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&seq, 1, 1);
	pvm_pkint(&status, 1, 1);
}

/* A reply with only a status. */
static void
gs_reply(int tid, int tag, int seq, int status)
{
	gs_reply_begin(seq, status);
	pvm_send(tid, tag);
}

/* Send the same status (seq 0) to every tid in l, in one multicast. */
static void
gs_release(const struct gt_list *l, int tag, int status)
{
	if (l->n == 0) {
		return;
	}
	gs_reply_begin(0, status);
	pvm_mcast(l->tids, l->n, tag);
}

/* Push g's new view to its members except `except` (0: none). */
static void
gs_push(const struct gt_group *g, int except)
{
	int *to, n = 0, i;

	if (g == NULL || g->nmembers == 0) {
		return;
	}
	if ((to = malloc((size_t)g->ninst * sizeof(*to))) == NULL) {
		return;
	}
	for (i = 0; i < g->ninst; i++) {
		if (g->tids[i] != -1 && g->tids[i] != except) {
			to[n++] = g->tids[i];
		}
	}
	if (n > 0) {
		pvm_initsend(PvmDataDefault);
		gs_pack_view(g);
		pvm_mcast(to, n, GS_PUSH);
	}
	free(to);
}

/*
 * Whether the virtual machine has one host.  Members choose the barrier
 * path each from its own view of the group (barrier.c), and a view may
 * not list members still joining from other hosts; a group made on a
 * machine of several hosts therefore gets no segment, so that all its
 * members agree on the server path.
 */
static int
gs_one_host(void)
{
	int nhost = 0;

	return pvm_config(&nhost, NULL, NULL) == 0 && nhost == 1;
}

/*
 * Give a group just created its barrier segment and its data segment
 * (gdata.h).  If either cannot be made (or the machine has several
 * hosts) the group keeps segid 0 for life, so all its members count
 * barriers here and move data by messages.
 */
static void
gs_seg_new(struct gt_group *g)
{
	char path[PATHS_MAX + 16], dpath[PATHS_MAX + 16];

	if (gs_paths.dir[0] == '\0' || !gs_one_host()) {
		return;
	}
	if (++gs_next_segid == 0) {
		gs_next_segid = 1;
	}
	g->segid = gs_next_segid;
	if (gseg_path(gs_paths.dir, g->segid, path, sizeof(path)) < 0 ||
	    gdata_path(gs_paths.dir, g->segid, dpath, sizeof(dpath)) < 0 ||
	    (g->seg = gseg_create(path)) == NULL) {
		g->segid = 0;
		return;
	}
	if ((g->dseg = gdata_create(dpath)) == NULL) {
		unlink(path);
		gseg_unmap(g->seg);
		g->seg = NULL;
		g->segid = 0;
	}
}

/* Write g's size, state and version to its segment (before replying). */
static void
gs_seg_publish(const struct gt_group *g)
{
	if (g != NULL && g->seg != NULL) {
		gseg_publish(g->seg, g->nmembers, g->state, g->version);
	}
}

/* A group is gone: remove its segments. */
static void
gs_seg_free(uint32_t segid, struct gseg *seg, struct gdata *dseg)
{
	char path[PATHS_MAX + 16];

	if (seg == NULL) {
		return;
	}
	if (gseg_path(gs_paths.dir, segid, path, sizeof(path)) == 0) {
		unlink(path);
	}
	if (gdata_path(gs_paths.dir, segid, path, sizeof(path)) == 0) {
		unlink(path);
	}
	gseg_unmap(seg);
	gdata_unmap(dseg);
}

/* Ask for tid's TaskExit once. */
static void
gs_watch(int tid)
{
	int i, *p;

	for (i = 0; i < gs_nwatched; i++) {
		if (gs_watched[i] == tid) {
			return;
		}
	}
	if (gs_nwatched == gs_capwatched) {
		i = gs_capwatched == 0 ? 32 : gs_capwatched * 2;
		if ((p = realloc(gs_watched, (size_t)i * sizeof(*p))) == NULL) {
			return;
		}
		gs_watched = p;
		gs_capwatched = i;
	}
	if (pvm_notify(PvmTaskExit, GS_DEADTID, 1, &tid) == 0) {
		gs_watched[gs_nwatched++] = tid;
	}
}

/* Forget a watched tid (it exited). */
static void
gs_unwatch(int tid)
{
	int i;

	for (i = 0; i < gs_nwatched; i++) {
		if (gs_watched[i] == tid) {
			gs_watched[i] = gs_watched[--gs_nwatched];
			return;
		}
	}
}

/* Unpack seq and a group name (free it); 0 or -1 (a malformed request). */
static int
gs_upk_head(int *seq, char **name)
{
	if (pvm_upkint(seq, 1, 1) < 0 || (*name = gs_upk_name()) == NULL) {
		return -1;
	}
	return 0;
}

/*
 * Remove tid from group name; fail waiters (code: PvmNoTask for a death,
 * PvmMismatch for a leave, as the shared-memory collectives report it),
 * push the new view.
 */
static int
gs_remove(const char *name, int tid, int code)
{
	struct gt_list fb = { 0 }, ff = { 0 };
	struct gt_group *g = gt_find(&gs_table, name);
	struct gseg *seg = g != NULL ? g->seg : NULL;
	struct gdata *dseg = g != NULL ? g->dseg : NULL;
	uint32_t segid = g != NULL ? g->segid : 0;
	int inst = g != NULL ? gt_inst(g, tid) : -1;
	int ninst = g != NULL ? g->ninst : 0;
	int deleted, cc;

	cc = gt_leave(
	    &gs_table, name, tid, code == PvmNoTask, &fb, &ff, &deleted);
	if (cc == 0 && deleted) {
		gs_seg_free(segid, seg, dseg);
	} else if (cc == 0 && seg != NULL) {
		gs_seg_publish(gt_find(&gs_table, name));
		gseg_member_gone(seg, inst, ninst);
		gdata_member_gone(dseg, inst, code);
	}
	if (cc == 0) {
		gs_release(&fb, GS_BARRIER, fb.code);
		gs_release(&ff, GS_FREEZE, ff.code);
		if (!deleted) {
			gs_push(gt_find(&gs_table, name), 0);
		}
	}
	gt_list_free(&fb);
	gt_list_free(&ff);
	return cc;
}

/* GS_JOIN: reply with the instance and the view; push to the others. */
static void
gs_join(int src, int seq, const char *name)
{
	struct gt_group *g;
	int inst;

	inst = gt_join(&gs_table, name, src);
	if (inst >= 0) {
		g = gt_find(&gs_table, name);
		if (g->nmembers == 1) {
			gs_seg_new(g); /* the join created it */
		}
		if (g->dseg != NULL) {
			gdata_member_new(g->dseg, inst, src);
		}
		gs_seg_publish(g);
		/* The others first: a member the joiner messages as soon as
		 * it has its reply must have the new view by then (the
		 * pvmd delivers in the order it was given). */
		gs_push(g, src);
		gs_watch(src);
	}
	gs_reply_begin(seq, inst);
	if (inst >= 0) {
		gs_pack_view(g);
	}
	pvm_send(src, GS_JOIN);
}

/*
 * GS_VIEW: the view of a group, for members and non-members.  A dead
 * group's too: as PVM 3.4's server, we still tell its size and members
 * (the collectives refuse it, gpvm_view_live).
 */
static void
gs_view(int src, int seq, const char *name)
{
	struct gt_group *g = gt_find(&gs_table, name);

	if (g == NULL) {
		gs_reply(src, GS_VIEW, seq, PvmNoGroup);
		return;
	}
	gs_reply_begin(seq, 0);
	gs_pack_view(g);
	pvm_send(src, GS_VIEW);
}

/* GS_BARRIER / GS_FREEZE: count an arrival, release when complete. */
static void
gs_sync(int src, int tag, int seq, const char *name)
{
	struct gt_list rel = { 0 };
	struct gt_group *g;
	int count = 0, cc;

	if (pvm_upkint(&count, 1, 1) < 0) {
		gs_reply(src, tag, seq, PvmBadMsg);
		return;
	}
	if (tag == GS_BARRIER) {
		cc = gt_barrier(&gs_table, name, src, count, &rel);
	} else {
		cc = gt_freeze(&gs_table, name, src, count, &rel);
	}
	if (cc < 0) {
		gs_reply(src, tag, seq, cc);
	} else if (cc == 1 && tag == GS_BARRIER) {
		gs_release(&rel, GS_BARRIER, 0);
	} else if (cc == 1) {
		/* Freeze: everyone gets the final view; pushes are moot. */
		g = gt_find(&gs_table, name);
		gs_seg_publish(g);
		gs_reply_begin(0, g->nmembers);
		gs_pack_view(g);
		pvm_mcast(rel.tids, rel.n, GS_FREEZE);
		gs_push(g, 0);
	}
	gt_list_free(&rel);
}

/* GS_DEADTID: a member exited; remove it from every group. */
static void
gs_dead(void)
{
	struct gt_group *g;
	char *name;
	int tid = 0;

	if (pvm_upkint(&tid, 1, 1) < 0) {
		return;
	}
	gs_unwatch(tid);
	while ((g = gt_first_with(&gs_table, tid)) != NULL) {
		/* gs_remove may free g, name and all. */
		if ((name = strdup(g->name)) == NULL) {
			return;
		}
		gs_remove(name, tid, PvmNoTask);
		free(name);
	}
}

/* Serve one request in the active receive buffer. */
static void
gs_dispatch(int src, int tag)
{
	char *name = NULL;
	int seq = 0;

	if (tag == GS_DEADTID && tid_is_pvmd(src)) {
		gs_dead();
		return;
	}
	if (!tid_is_task(src) || gs_upk_head(&seq, &name) < 0) {
		return;
	}
	if (tag == GS_JOIN) {
		gs_join(src, seq, name);
	} else if (tag == GS_LEAVE) {
		gs_reply(src, tag, seq, gs_remove(name, src, PvmMismatch));
	} else if (tag == GS_VIEW) {
		gs_view(src, seq, name);
	} else if (tag == GS_BARRIER || tag == GS_FREEZE) {
		gs_sync(src, tag, seq, name);
	}
	free(name);
}

/* Publish our tid in the mailbox.  0, 1 if another server won, or -1. */
static int
gs_register(int me)
{
	int cc;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	cc = pvm_putinfo(GS_MBOX, pvm_getsbuf(), PvmMboxDefault);
	if (cc == PvmDenied || cc == PvmExists) {
		return 1;
	}
	return cc < 0 ? -1 : 0;
}

int
main(int argc, char **argv)
{
	int me, parent, cc, b, tag, src;

	(void)argc;
	(void)argv;
	if ((me = pvm_mytid()) < 0) {
		return 1;
	}
	/* Errors are answers to clients here, not messages on stderr. */
	pvm_setopt(PvmAutoErr, 0);
	pvm_setopt(PvmResvTids, 1);
	if ((cc = gs_register(me)) != 0) {
		pvm_exit();
		return cc > 0 ? 0 : 1;
	}
	gt_init(&gs_table);
	if (paths_from_env(&gs_paths) != 0) {
		gs_paths.dir[0] = '\0';
	}
	gs_next_segid = (uint32_t)getpid() << 12;
	/* Segments a previous server left behind (it was killed). */
	if (gs_paths.dir[0] != '\0') {
		paths_remove_prefixed(gs_paths.dir, "g");
	}
	pvm_setcontext(SYSCTX_DG);
	if ((parent = pvm_parent()) > 0) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_send(parent, GS_HELLO);
	}
	for (;;) {
		if ((b = pvm_recv(-1, -1)) < 0) {
			break; /* our pvmd is gone */
		}
		if (pvm_bufinfo(b, NULL, &tag, &src) == 0) {
			gs_dispatch(src, tag);
		}
	}
	gt_fini(&gs_table);
	pvm_exit();
	return 0;
}
