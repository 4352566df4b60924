/*
 * notify.c: pvm_notify requests.  TaskExit and HostDelete are one-shot
 * per watched tid; HostAdd counts down (-1 = for ever).  A request for
 * something that does not exist fires at once; a cancel removes the
 * request and fires it at once, as PVM 3.4 does.  The requests of a task
 * that exits are dropped.
 */
#include "pvmd.h"

#include <stdlib.h>

struct notify {
	int what; /* PvmTaskExit, PvmHostDelete, PvmHostAdd */
	int on;   /* watched tid (task or pvmd), 0 for HostAdd */
	int tid;  /* requester */
	int tag, ctx;
	int cnt; /* HostAdd: messages left, -1 unlimited */
	TAILQ_ENTRY(notify) entry;
};

static TAILQ_HEAD(, notify) notify_list = TAILQ_HEAD_INITIALIZER(notify_list);

/* The event message: body one int. */
static void
notify_fire(int dst, int tag, int ctx, int v)
{
	/* PVM 3.4.6 sends every notify from TIDPVMD, "my pvmd"; a
	 * DM_TASKEXIT to another pvmd goes under our own tid. */
	pvmd_send_int_from(tid_is_task(dst) ? TID_LOCAL_PVMD : pvmd.mytid,
	    dst, tag, ctx, 0, v);
}

/* Store a request. */
static int
notify_add(int what, int on, int tid, int tag, int ctx, int cnt)
{
	struct notify *n;

	if ((n = calloc(1, sizeof(*n))) == NULL)
		return PvmNoMem;
	n->what = what;
	n->on = on;
	n->tid = tid;
	n->tag = tag;
	n->ctx = ctx;
	n->cnt = cnt;
	TAILQ_INSERT_TAIL(&notify_list, n, entry);
	return 0;
}

/* The stored request matching all of these, or NULL. */
static struct notify *
notify_find(int what, int on, int tid, int tag, int ctx)
{
	struct notify *n;

	TAILQ_FOREACH(n, &notify_list, entry) {
		if (n->what == what && n->on == on && n->tid == tid &&
		    n->tag == tag && n->ctx == ctx)
			return n;
	}
	return NULL;
}

/* Unlink and free a request. */
static void
notify_del(struct notify *n)
{
	TAILQ_REMOVE(&notify_list, n, entry);
	free(n);
}

/*
 * Does the watched object of a TaskExit/HostDelete request exist.  A
 * task of another host is taken to exist while its host does (its pvmd
 * answers at once if it is gone: notify_each).
 */
static int
notify_target_exists(int what, int on)
{
	if (what == PvmTaskExit && tid_host(on) != pvmd.host)
		return host_get(tid_host(on)) != NULL;
	if (what == PvmTaskExit)
		return task_find(&pvmd.tasks, on) != NULL;
	/* HostDelete on a task's tid watches that task's host, as in PVM
	 * 3.4.6: its tid's host part. */
	return !tid_is_mcast(on) && host_get(tid_host(on)) != NULL;
}

/* TaskExit / HostDelete for each listed tid. */
static int
notify_each(struct ctlreq *q, int what, int cancel, int tag, int ctx,
    const int32_t *tids, int n)
{
	struct notify *e;
	int i, rc;

	for (i = 0; i < n; i++) {
		if (cancel) {
			if ((e = notify_find(what, tids[i], q->src, tag,
			    ctx)) != NULL) {
				notify_del(e);
				notify_fire(q->src, tag, ctx, tids[i]);
			}
		} else if (!notify_target_exists(what, tids[i])) {
			notify_fire(q->src, tag, ctx, tids[i]);
		} else if ((rc = notify_add(what, tids[i], q->src, tag, ctx,
		    0)) != 0) {
			return rc;
		} else if (what == PvmTaskExit &&
		    tid_host(tids[i]) != pvmd.host) {
			/* Its pvmd says when it leaves (DM_TASKEXIT). */
			pvmd_send_int(tid_pvmd(tid_host(tids[i])), DM_NOTIFY,
			    SYSCTX_TM, 0, tids[i]);
		}
	}
	return 0;
}

/* HostAdd: one request per task; a new call replaces the count. */
static int
notify_hostadd(struct ctlreq *q, int cancel, int tag, int ctx, int cnt)
{
	struct notify *n, *n2;

	TAILQ_FOREACH_SAFE(n, &notify_list, entry, n2) {
		if (n->what == PvmHostAdd && n->tid == q->src)
			notify_del(n);
	}
	if (cancel || cnt == 0)
		return 0;
	return notify_add(PvmHostAdd, 0, q->src, tag, ctx, cnt);
}

/* TM_NOTIFY: int what, int tag, int ctx, int cnt, int n, n x int tid. */
void
ctl_TM_NOTIFY(struct ctlreq *q)
{
	int32_t what, tag, ctx, cnt, n, i, *tids = NULL;
	int kind, cancel, rc = 0;

	if (xdr_get_int(&q->r, &what) != 0 || xdr_get_int(&q->r, &tag) != 0 ||
	    xdr_get_int(&q->r, &ctx) != 0 || xdr_get_int(&q->r, &cnt) != 0 ||
	    xdr_get_int(&q->r, &n) != 0 || n < 0 ||
	    (size_t)n > xdr_left(&q->r) / 4) {
		ctl_bad(q);
		return;
	}
	if ((tids = calloc((size_t)n + 1, sizeof(*tids))) == NULL) {
		ctl_reply_int(q, PvmNoMem);
		return;
	}
	for (i = 0; i < n; i++)
		xdr_get_int(&q->r, &tids[i]);
	cancel = (what & PvmNotifyCancel) != 0;
	kind = what & ~PvmNotifyCancel;
	if (tag < 0) {
		rc = PvmBadParam;
		goto out;
	}
	switch (kind) {
	case PvmTaskExit:
		for (i = 0; i < n; i++) {
			if (!tid_is_task(tids[i])) {
				rc = PvmBadParam;
				goto out;
			}
		}
		rc = notify_each(q, kind, cancel, tag, ctx, tids, n);
		break;
	case PvmHostDelete:
		rc = notify_each(q, kind, cancel, tag, ctx, tids, n);
		break;
	case PvmHostAdd:
		rc = notify_hostadd(q, cancel, tag, ctx, cnt);
		break;
	default:
		rc = PvmBadParam;
		break;
	}
out:
	free(tids);
	ctl_reply_int(q, rc);
}

/* Task tid is gone: tell its watchers, forget its own requests. */
void
notify_task_exit(int tid)
{
	struct notify *n, *n2;

	TAILQ_FOREACH_SAFE(n, &notify_list, entry, n2) {
		if (n->what == PvmTaskExit && n->on == tid) {
			notify_fire(n->tid, n->tag, n->ctx, tid);
			notify_del(n);
		} else if (n->tid == tid) {
			notify_del(n);
		}
	}
}

/* The pvmd pvmdtid wants DM_TASKEXIT when our task tid leaves. */
void
notify_watch_for_pvmd(int pvmdtid, int tid)
{
	if (task_find(&pvmd.tasks, tid) == NULL) {
		notify_fire(pvmdtid, DM_TASKEXIT, SYSCTX_TM, tid);
		return;
	}
	if (notify_find(PvmTaskExit, tid, pvmdtid, DM_TASKEXIT,
	    SYSCTX_TM) == NULL &&
	    notify_add(PvmTaskExit, tid, pvmdtid, DM_TASKEXIT, SYSCTX_TM,
	    0) != 0)
		log_warn("out of memory: exit of t%x will not reach host %d",
		    (unsigned)tid, tid_host(pvmdtid));
}

/*
 * Host `index` left: its HostDelete requests fire, so do TaskExit
 * requests on its tasks (its pvmd cannot send them any more), and the
 * requests its tasks or its pvmd made are dropped.
 */
void
notify_host_down(int index)
{
	struct notify *n, *n2;

	TAILQ_FOREACH_SAFE(n, &notify_list, entry, n2) {
		if ((n->what == PvmTaskExit || n->what == PvmHostDelete) &&
		    tid_host(n->on) == index) {
			notify_fire(n->tid, n->tag, n->ctx, n->on);
			notify_del(n);
		} else if (tid_host(n->tid) == index) {
			notify_del(n);
		}
	}
}

/* Hosts were added: HostAdd gets int n, n x pvmd tid (hi_tid form). */
void
notify_host_add(const int *tids, int n)
{
	struct notify *e, *e2;
	struct xdr_writer w;
	int i;

	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	for (i = 0; i < n; i++)
		xdr_put_int(&w, tids[i]);
	TAILQ_FOREACH_SAFE(e, &notify_list, entry, e2) {
		if (e->what != PvmHostAdd)
			continue;
		if (!w.failed)
			pvmd_send_from(TID_LOCAL_PVMD, e->tid, e->tag, e->ctx,
			    0, WIRE_ENC_XDR, w.data, w.len);
		if (e->cnt > 0 && --e->cnt == 0)
			notify_del(e);
	}
	xdr_writer_free(&w);
}

/* Free everything (halt). */
void
notify_fini(void)
{
	struct notify *n;

	while ((n = TAILQ_FIRST(&notify_list)) != NULL)
		notify_del(n);
}
