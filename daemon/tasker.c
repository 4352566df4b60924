/*
 * tasker.c: pvm_reg_tasker.  A task of this host may register as the
 * tasker (TM_TASKER); while it lives, this pvmd starts its tasks by
 * sending it SM_STTASK instead of fork/exec (spawn.c), and the tasker
 * reports each task's end, or its failure to start, with SM_TASKX.
 *
 * SM_STTASK (to the tasker, context 0, with a wait id as PVM 3.4.6's):
 *   int tid, int flags (as given to pvm_spawn), str path,
 *   int argc, argc x str (argv[0] is the path), int nenv, nenv x str
 *   (first "PVMEPID=<cookie>", then what the task needs to find this
 *   pvmd, then the spawn's own), int inst, int ntask, int ntask
 * The trailing three ints are PVM 3.4.6's (instance, tasks for this
 * host, tasks in all); our pvmd knows only its own share of a spawn, so
 * the last two are equal.
 *
 * The started process enrols by itself: PVMEPID holds a cookie above
 * any real pid (PVM's "fake pid"), which TM_CONNECT matches to the
 * pending task (ctltask.c); the task's real pid replaces it then.
 *
 * A tasker that exits leaves its running tasks as they are (they are
 * processes of their own); those that never connected leave the machine
 * with it, since their end could no longer be told.  Later spawns
 * fork/exec again.  An SM_TASKX that is malformed or about a task its
 * sender did not start is logged and ignored.
 */
#include "pvmd.h"
#include "pvmsdpro.h"
#include "smwire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PVMEPID cookies: above Linux's largest pid (2^22), as in PVM 3.4.6. */
#define TASKER_COOKIE_MIN 10000000
#define TASKER_COOKIE_MAX 20000000

static int tasker; /* tid, or 0 */
static int tasker_next_wid = 1;
static int tasker_cookie = TASKER_COOKIE_MIN;

int
tasker_tid(void)
{
	return tasker;
}

/* A fresh cookie no pending task holds. */
static int
tasker_new_cookie(void)
{
	int i;

	for (i = 0; i <= TASKER_COOKIE_MAX - TASKER_COOKIE_MIN; i++) {
		if (++tasker_cookie > TASKER_COOKIE_MAX)
			tasker_cookie = TASKER_COOKIE_MIN;
		if (task_find_pending(&pvmd.tasks, tasker_cookie) == NULL)
			return tasker_cookie;
	}
	return 0;
}

/* The environment strings the task needs from us, into w; their count. */
static int
tasker_own_env(struct xdr_writer *w, int cookie)
{
	char buf[PATHS_MAX + 16];
	const char *tmp = getenv("PVM_TMP");
	const char *vmid = getenv("PVM_VMID");
	int n = 2;

	snprintf(buf, sizeof(buf), "PVMEPID=%d", cookie);
	xdr_put_str(w, buf);
	snprintf(buf, sizeof(buf), "PVMSOCK=%s", pvmd.paths.sock);
	xdr_put_str(w, buf);
	if (tmp != NULL) {
		snprintf(buf, sizeof(buf), "PVM_TMP=%s", tmp);
		xdr_put_str(w, buf);
		n++;
	}
	if (vmid != NULL) {
		snprintf(buf, sizeof(buf), "PVM_VMID=%s", vmid);
		xdr_put_str(w, buf);
		n++;
	}
	return n;
}

/* True if a spawn's env entry e would override one of ours. */
static int
tasker_reserved(const char *e)
{
	static const char *const own[] = {
	    "PVMEPID=", "PVMSOCK=", "PVM_TMP=", "PVM_VMID="};
	size_t i;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		if (strncmp(e, own[i], strlen(own[i])) == 0)
			return 1;
	}
	return strchr(e, '=') == NULL;
}

/* Count of ours (dry run) so nenv can come before the strings. */
static int
tasker_own_count(void)
{
	return 2 + (getenv("PVM_TMP") != NULL) + (getenv("PVM_VMID") != NULL);
}

int
tasker_start(struct task *t, int flags, const char *path,
    const char *const *args, int nargs, const char *const *env, int nenv,
    int inst, int ntask)
{
	struct xdr_writer w;
	int cookie, i, n = 0, wid;

	if ((cookie = tasker_new_cookie()) == 0)
		return PvmOutOfRes;
	for (i = 0; i < nenv; i++)
		n += !tasker_reserved(env[i]);
	xdr_writer_init(&w);
	xdr_put_int(&w, t->tid);
	xdr_put_int(&w, flags);
	xdr_put_str(&w, path);
	xdr_put_int(&w, nargs + 1);
	xdr_put_str(&w, path);
	for (i = 0; i < nargs; i++)
		xdr_put_str(&w, args[i]);
	xdr_put_int(&w, tasker_own_count() + n);
	tasker_own_env(&w, cookie);
	for (i = 0; i < nenv; i++) {
		if (!tasker_reserved(env[i]))
			xdr_put_str(&w, env[i]);
	}
	xdr_put_int(&w, inst);
	xdr_put_int(&w, ntask);
	xdr_put_int(&w, ntask);
	if (w.failed) {
		xdr_writer_free(&w);
		return PvmNoMem;
	}
	wid = tasker_next_wid++;
	if (tasker_next_wid <= 0)
		tasker_next_wid = 1;
	t->pid = cookie;
	t->tasked = tasker;
	/* From TIDPVMD, as PVM 3.4.6's pvmd sends it. */
	pvmd_send_from(TID_LOCAL_PVMD, tasker, SM_STTASK, 0, wid, WIRE_ENC_XDR,
	    w.data, w.len);
	xdr_writer_free(&w);
	log_info("t%x: start asked of the tasker t%x (cookie %d) %s",
	    (unsigned)t->tid, (unsigned)tasker, cookie, path);
	return 0;
}

/*
 * SM_TASKX: a task the sender started has ended, or never started.  Only
 * the task that started it may say so (it may have given the role up
 * since).
 */
void
tasker_on_taskx(int src, const uint8_t *body, size_t len)
{
	struct sm_taskx x;
	struct task *t;

	if (sm_taskx_decode(body, len, &x) != 0) {
		log_warn("t%x: malformed SM_TASKX (%zu bytes) ignored",
		    (unsigned)src, len);
		return;
	}
	if ((t = task_find(&pvmd.tasks, x.tid)) == NULL) {
		/* It left PVM already (its connection closed). */
		log_debug("t%x: SM_TASKX for t%x, gone already", (unsigned)src,
		    (unsigned)x.tid);
		return;
	}
	if (t->tasked != src || x.tid == src) {
		log_warn("t%x: SM_TASKX for t%x, not a task it started: "
		         "ignored",
		    (unsigned)src, (unsigned)x.tid);
		return;
	}
	log_info("t%x ended (status 0x%x, told by the tasker)", (unsigned)x.tid,
	    (unsigned)x.status);
	depart_task(t);
}

/* A task tid started that never connected, or NULL. */
static struct task *
tasker_orphan(int tid)
{
	struct task *t;

	TAILQ_FOREACH(t, &pvmd.tasks.list, entry)
	{
		if (t->tasked == tid && t->conn == NULL &&
		    !(t->flags & TASK_F_CONN))
			return t;
	}
	return NULL;
}

/*
 * Task tid left.  If it was the tasker, later spawns fork/exec again.
 * The tasks it started that run stay; those that never connected leave
 * now, since nobody could tell us of their end any more.
 */
void
tasker_task_left(int tid)
{
	struct task *t;

	if (tid == 0)
		return;
	if (tid == tasker) {
		log_info("tasker t%x left: tasks are started by fork/exec "
		         "again",
		    (unsigned)tid);
		tasker = 0;
	}
	while ((t = tasker_orphan(tid)) != NULL) {
		log_info("t%x never connected, and its tasker t%x left",
		    (unsigned)t->tid, (unsigned)tid);
		depart_task(t);
	}
}

/* TM_TASKER: int regme; rep int status (PVM 3.4.6's rules). */
void
ctl_TM_TASKER(struct ctlreq *q)
{
	int32_t regme;

	if (xdr_get_int(&q->r, &regme) != 0) {
		ctl_bad(q);
		return;
	}
	if (regme) {
		if (tasker != 0) {
			ctl_reply_int(q, PvmAlready);
			return;
		}
		tasker = q->src;
		q->t->flags |= TASK_F_TASKER;
		log_info("t%x is the tasker", (unsigned)q->src);
	} else {
		if (tasker != q->src) {
			ctl_reply_int(q, PvmNoTask);
			return;
		}
		tasker = 0;
		q->t->flags &= ~TASK_F_TASKER;
		log_info("t%x is no longer the tasker", (unsigned)q->src);
	}
	ctl_reply_int(q, 0);
}
