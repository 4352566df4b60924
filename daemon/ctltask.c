/*
 * ctltask.c: requests about tasks: connect, exit, list, signal, status,
 * reset.
 */
#include "pvmd.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

/* The TM_CONNECT reply; t NULL for a refusal. */
static void
connect_reply(struct ctlreq *q, int status, const struct task *t)
{
	struct xdr_writer w;
	struct host *me = host_self();

	xdr_writer_init(&w);
	xdr_put_int(&w, status);
	xdr_put_int(&w, t ? t->tid : 0);
	xdr_put_int(&w, t ? t->ptid : 0);
	xdr_put_int(&w, t ? t->outtid : 0);
	xdr_put_int(&w, t ? t->outctx : 0);
	xdr_put_int(&w, t ? t->outtag : 0);
	xdr_put_int(&w, t ? t->trctid : 0);
	xdr_put_int(&w, t ? t->trcctx : 0);
	xdr_put_int(&w, t ? t->trctag : 0);
	xdr_put_int(&w, t ? t->ctx : 0);
	xdr_put_int(&w, WIRE_FRAG_DEFAULT);
	xdr_put_int(&w, me->dsig);
	xdr_put_int(&w, pvmd.mytid);
	xdr_put_str(&w, me->name);
	xdr_put_str(&w, me->arch);
	xdr_put_str(&w, pvmd.paths.dir);
	xdr_put_int(&w, pvmd.sched_tid);
	if (t != NULL && t->trctid != 0 && t->trctid == pvmd.tracer.tid) {
		xdr_put_str(&w, pvmd.tracer.tmask);
		xdr_put_int(&w, pvmd.tracer.trcbuf);
		xdr_put_int(&w, pvmd.tracer.trcopt);
	} else {
		xdr_put_str(&w, "");
		xdr_put_int(&w, 0);
		xdr_put_int(&w, 0);
	}
	if (w.failed) {
		conn_close(q->c, "out of memory in TM_CONNECT");
	} else {
		conn_send(q->c, pvmd.mytid, t ? t->tid : 0, q->tag, SYSCTX_TM,
		    q->wid, WIRE_ENC_XDR, w.data, w.len);
	}
	xdr_writer_free(&w);
}

/*
 * TM_CONNECT: the first message on a connection.  A process we spawned
 * (PVMEPID = its pid) becomes its pending task; anyone else gets a new
 * anonymous task.
 */
void
ctl_TM_CONNECT(struct ctlreq *q)
{
	int32_t version, pid, epid;
	const char *name;
	struct task *t;
	int tid, rc;

	if (q->t != NULL) {
		log_warn("t%x: repeated TM_CONNECT ignored", (unsigned)q->src);
		return;
	}
	if (xdr_get_int(&q->r, &version) != 0) {
		conn_close(q->c, "empty TM_CONNECT");
		return;
	}
	if (version != WIRE_VERSION) {
		log_warn("connection with protocol version %d refused "
		    "(ours is %d)", version, WIRE_VERSION);
		connect_reply(q, PvmBadVersion, NULL);
		conn_close_after_flush(q->c);
		return;
	}
	if ((rc = conn_refusal(q->c)) != 0) {
		connect_reply(q, rc, NULL);
		conn_close_after_flush(q->c);
		return;
	}
	xdr_get_int(&q->r, &pid);
	xdr_get_int(&q->r, &epid);
	name = xdr_get_str(&q->r);
	if (name == NULL) {
		connect_reply(q, PvmBadMsg, NULL);
		conn_close_after_flush(q->c);
		return;
	}
	if ((t = task_find_pending(&pvmd.tasks, epid)) == NULL) {
		if ((tid = task_alloc_tid(&pvmd.tasks)) == 0 ||
		    (t = task_new(&pvmd.tasks, tid)) == NULL) {
			connect_reply(q, PvmOutOfRes, NULL);
			conn_close_after_flush(q->c);
			return;
		}
		t->pid = pid > 0 ? pid : conn_peer_pid(q->c);
		tracer_task_defaults(t);
		sched_task_enrolled(t);
	} else if (t->tasked) {
		/* The tasker's cookie stood for the pid until now. */
		t->pid = conn_peer_pid(q->c) > 0 ? conn_peer_pid(q->c) : pid;
	}
	conn_set_task(q->c, t);
	log_info("t%x connected (pid %ld%s%s)", (unsigned)t->tid,
	    (long)t->pid, (t->flags & TASK_F_SPAWNED) ? ", spawned " : "",
	    (t->flags & TASK_F_SPAWNED) ? t->a_out : "");
	connect_reply(q, 0, t);
	conn_release_held(q->c, t);
	place_update();
}

/*
 * TM_RINGS: take the ring segment that came with the request.  The
 * reply still goes through the socket; everything after it, and every
 * frame the task sends after the request, through the rings.
 */
void
ctl_TM_RINGS(struct ctlreq *q)
{
	int ok = conn_ring_attach(q->c);

	ctl_reply_int(q, ok);
	if (ok) {
		conn_ring_output(q->c);
		log_debug("t%x: on rings", (unsigned)q->src);
	}
}

/* TM_EXIT: answer, leave the machine, close once the answer is out. */
void
ctl_TM_EXIT(struct ctlreq *q)
{
	ctl_reply_int(q, 0);
	depart_task(q->t);
	conn_close_after_flush(q->c);
}

/* One TM_TASKS entry. */
static void
tasks_put(struct xdr_writer *w, const struct task *t)
{
	xdr_put_int(w, t->tid);
	xdr_put_int(w, t->ptid);
	xdr_put_int(w, tid_make(tid_host(t->tid), 0));
	xdr_put_int(w, t->flags | (t->tid == pvmd.sched_tid ? TASK_F_SCHED : 0) |
	    (t->tid == pvmd.tracer.tid ? TASK_F_TRACER : 0));
	xdr_put_str(w, t->a_out);
	xdr_put_int(w, (int32_t)t->pid);
}

/* TM_TASKS: all tasks, those of one host, or one task. */
void
ctl_TM_TASKS(struct ctlreq *q)
{
	struct xdr_writer w;
	struct task *t;
	int32_t where;

	if (xdr_get_int(&q->r, &where) != 0) {
		ctl_bad(q);
		return;
	}
	if (tid_is_task(where)) {
		/* A task that is not there: no tasks, as PVM 3.4.6 answers
		 * (tests/diff, p_task). */
		xdr_writer_init(&w);
		if ((t = task_find(&pvmd.tasks, where)) == NULL) {
			xdr_put_int(&w, 0);
		} else {
			xdr_put_int(&w, 1);
			tasks_put(&w, t);
		}
		goto out;
	}
	if (where != 0 && (tid_is_mcast(where) || tid_local(where) != 0 ||
	    (tid_host(where) != 0 && tid_host(where) != pvmd.host))) {
		ctl_reply_int(q, tid_local(where) != 0 ? PvmBadParam :
		    PvmNoHost);
		return;
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, pvmd.tasks.count);
	TAILQ_FOREACH(t, &pvmd.tasks.list, entry)
		tasks_put(&w, t);
out:
	ctl_reply(q, &w);
	xdr_writer_free(&w);
}

/* TM_SENDSIG: signal a task of this host. */
void
ctl_TM_SENDSIG(struct ctlreq *q)
{
	int32_t tid, sig;
	struct task *t;

	if (xdr_get_int(&q->r, &tid) != 0 || xdr_get_int(&q->r, &sig) != 0) {
		ctl_bad(q);
		return;
	}
	if (!tid_is_task(tid)) {
		ctl_reply_int(q, PvmBadParam);
		return;
	}
	if ((t = task_find(&pvmd.tasks, tid)) == NULL || t->pid <= 0) {
		ctl_reply_int(q, PvmNoTask);
		return;
	}
	log_info("signal %d to t%x (pid %ld) from t%x", sig, (unsigned)tid,
	    (long)t->pid, (unsigned)q->src);
	if (kill(t->pid, sig) != 0) {
		ctl_reply_int(q, errno == EINVAL ? PvmBadParam : PvmNoTask);
		return;
	}
	ctl_reply_int(q, 0);
}

/* TM_PSTAT: does a task exist. */
void
ctl_TM_PSTAT(struct ctlreq *q)
{
	int32_t tid;

	if (xdr_get_int(&q->r, &tid) != 0) {
		ctl_bad(q);
		return;
	}
	if (!tid_is_task(tid))
		ctl_reply_int(q, PvmBadParam);
	else if (task_find(&pvmd.tasks, tid) == NULL)
		ctl_reply_int(q, PvmNoTask);
	else
		ctl_reply_int(q, PvmOk);
}

/*
 * TM_RESET: SIGTERM every task but the caller and the PvmNoReset ones;
 * empty the mailbox but for the no-reset and group-server classes.  The
 * killed tasks leave the table when their connections close.
 */
void
ctl_TM_RESET(struct ctlreq *q)
{
	static const char *const keep[] = { MBOX_CLASS_NORESET,
		MBOX_CLASS_PVMGS };
	struct task *t;

	log_info("reset requested by t%x", (unsigned)q->src);
	TAILQ_FOREACH(t, &pvmd.tasks.list, entry) {
		if (t->tid == q->src || mbox_is_noreset(&pvmd.mbox, t->tid) ||
		    t->pid <= 0)
			continue;
		log_info("reset: SIGTERM to t%x (pid %ld)", (unsigned)t->tid,
		    (long)t->pid);
		kill(t->pid, SIGTERM);
	}
	mbox_reset(&pvmd.mbox, keep, 2);
	ctl_reply_int(q, 0);
}
