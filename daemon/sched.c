/*
 * sched.c: a resource manager (RM, pvm_reg_rm).  As in PVM 3.4.6 each
 * pvmd has its own: the task that sent it TM_SCHED.  Tasks that enrol
 * here afterwards learn its tid in the TM_CONNECT reply and send their
 * spawn, config, tasks, host and notify requests to it (SM_*, bodies in
 * common/sdpro.h); it does the work by sending SM_EXEC (and SM_ADD) to
 * the pvmds, and hears of tasks and hosts that go (SM_TASKX, SM_HOSTX).
 *
 * Unlike PVM 3.4.6 we forget an RM that has left, so that a task that
 * enrols later is not sent to a tid nobody answers (docs/compat.md).
 * SM_EXEC and SM_ADD are taken from any task: they can do nothing that
 * TM_SPAWN and TM_ADDHOST do not already allow every task.  A slave that
 * joins learns the master's RM (DM_SCHED), as PVM's slaves do.
 */
#include "pvmd.h"
#include "pvmsdpro.h"
#include "be.h"

#include <stdlib.h>
#include <string.h>

/* TM_SCHED: the caller becomes this pvmd's RM; the answer names the RM
 * before it and the master host. */
void
ctl_TM_SCHED(struct ctlreq *q)
{
	struct host *m = host_get(TID_MASTER_HOST);
	struct xdr_writer w;

	if (q->t == NULL || m == NULL) {
		ctl_reply_int(q, PvmSysErr);
		return;
	}
	xdr_writer_init(&w);
	sd_sched_encode(&w, pvmd.sched_tid, tid_make(m->index, 0), m->name,
	    m->arch, m->speed, m->dsig);
	ctl_reply(q, &w);
	xdr_writer_free(&w);
	log_info("t%x is the resource manager (was t%x)", (unsigned)q->src,
	    (unsigned)pvmd.sched_tid);
	pvmd.sched_tid = q->src;
}

/* The context a spawner passes in its environment ("PVMCTX=0x..."), as
 * PVM 3.4.6's pvm_spawn packs it; 0 if none. */
static int
sched_env_ctx(const char **env, int nenv)
{
	static const char pre[] = "PVMCTX=";
	int i;

	for (i = 0; i < nenv; i++) {
		if (strncmp(env[i], pre, sizeof(pre) - 1) == 0)
			return (int)strtol(env[i] + sizeof(pre) - 1, NULL, 0);
	}
	return 0;
}

/* SM_ADDACK with an error alone, at once. */
static void
sched_add_refuse(int src, const struct wire_hdr *h, int code)
{
	struct xdr_writer w;

	xdr_writer_init(&w);
	xdr_put_int(&w, code);
	pvmd_send(src, (int)SM_ADDACK, h->ctx, h->wid, &w);
	xdr_writer_free(&w);
}

/*
 * SM_ADD {count, count x str}: add the hosts as TM_ADDHOST does; the
 * answer (sched_addack) comes when every one is up or has failed.  Only
 * the master adds hosts (PVM's RM sends SM_ADD to the master, the host
 * its pvm_reg_rm names); a slave refuses with PvmNotImpl.
 */
static void
sched_add(int src, const struct wire_hdr *h, const uint8_t *body, size_t len)
{
	const char **names;
	int count;

	if (sd_add_decode(body, len, &names, &count) != 0) {
		log_warn("t%x: malformed SM_ADD: PvmBadMsg", (unsigned)src);
		sched_add_refuse(src, h, PvmBadMsg);
		return;
	}
	if (!pvmd.master || pvmd.halting) {
		log_warn("t%x: SM_ADD to a pvmd that %s", (unsigned)src,
		    pvmd.master ? "halts" : "is not the master");
		sched_add_refuse(src, h, pvmd.halting ? PvmSysErr : PvmNotImpl);
	} else {
		log_info("t%x adds %d host(s) (SM_ADD)", (unsigned)src, count);
		vm_add_for_rm(src, h->ctx, h->wid, names, count);
	}
	free(names);
}

/* SM_ADDACK as PVM 3.4.6 packs it (the body of the SM_ADDHOST answer):
 * int count, int narch (0), count x {int tid or error, str name, str
 * arch, int speed, int dsig}; a host that failed has "", "", 0, 0.
 * n < 0: that error alone. */
void
sched_addack(int tid, int ctx, int wid, int n, const int *res)
{
	struct xdr_writer w;
	struct host *hp;
	int i;

	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	if (n >= 0)
		xdr_put_int(&w, 0);
	for (i = 0; i < n; i++) {
		hp = res[i] >= 0 ? host_get(tid_host(res[i])) : NULL;
		xdr_put_int(&w, hp != NULL   ? res[i]
		                : res[i] < 0 ? res[i]
		                             : PvmCantStart);
		xdr_put_str(&w, hp != NULL ? hp->name : "");
		xdr_put_str(&w, hp != NULL ? hp->arch : "");
		xdr_put_int(&w, hp != NULL ? hp->speed : 0);
		xdr_put_int(&w, hp != NULL ? hp->dsig : 0);
	}
	pvmd_send(tid, (int)SM_ADDACK, ctx, wid, &w);
	xdr_writer_free(&w);
}

/* SM_EXEC: start tasks here, answer SM_EXECACK {count, tids}. */
static void
sched_exec(struct conn *c, int src, const struct wire_hdr *h,
    const uint8_t *body, size_t len)
{
	struct xdr_writer w;
	struct sd_exec e;
	struct spawn_req s;
	int *res, i;

	if (sd_exec_decode(body, len, &e) != 0) {
		log_warn("t%x: malformed SM_EXEC ignored", (unsigned)src);
		return;
	}
	if ((res = calloc((size_t)e.count, sizeof(*res))) == NULL) {
		sd_exec_free(&e);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.file = e.file;
	s.flag = e.flags & ~(PvmTaskHost | PvmTaskArch | PvmHostCompl);
	s.uflag = e.flags;
	s.where = "";
	s.count = e.count;
	s.nargs = e.nargs;
	s.args = e.args;
	s.nenv = e.nenv;
	s.env = e.env;
	s.outtid = e.outtid;
	s.outctx = e.outctx;
	s.outtag = e.outtag;
	s.trctid = e.trctid;
	s.trcctx = e.trcctx;
	s.trctag = e.trctag;
	s.ctx = sched_env_ctx(e.env, e.nenv);
	s.sched = src;
	tracer_spawn_defaults(&s);
	/* The tasks' parent is the one the RM names, not the RM. */
	spawn_start(tid_is_task(e.ptid) ? e.ptid : src, &s,
	    pvmd.halting ? PvmSysErr : 0, NULL, res);
	xdr_writer_init(&w);
	xdr_put_int(&w, e.count);
	for (i = 0; i < e.count; i++)
		xdr_put_int(&w, res[i]);
	if (!w.failed)
		conn_send(c, pvmd.mytid, src, (int)SM_EXECACK, h->ctx, h->wid,
		    WIRE_ENC_XDR, w.data, w.len);
	xdr_writer_free(&w);
	free(res);
	sd_exec_free(&e);
}

/* SM_HANDOFF: only this pvmd's RM may name its successor. */
static void
sched_handoff(int src, const uint8_t *body, size_t len)
{
	struct xdr_reader r;
	int32_t tid;

	xdr_reader_init(&r, body, len);
	if (src != pvmd.sched_tid || xdr_get_int(&r, &tid) != 0 ||
	    xdr_left(&r) != 0 || (tid != 0 && !tid_is_task(tid))) {
		log_warn("t%x: SM_HANDOFF refused (the manager is t%x)",
		    (unsigned)src, (unsigned)pvmd.sched_tid);
		return;
	}
	log_info("resource manager t%x hands over to t%x", (unsigned)src,
	    (unsigned)tid);
	pvmd.sched_tid = tid;
}

void
sched_dispatch(struct conn *c, int src, const struct wire_hdr *h,
    const uint8_t *body, size_t len)
{
	if (!tid_is_task(src)) {
		log_warn("t%x: %x from a non-task ignored", (unsigned)src,
		    (unsigned)h->tag);
		return;
	}
	switch ((unsigned)h->tag) {
	case SM_EXEC:
		sched_exec(c, src, h, body, len);
		return;
	case SM_ADD:
		sched_add(src, h, body, len);
		return;
	case SM_HANDOFF:
		sched_handoff(src, body, len);
		return;
	default:
		log_warn("t%x: SM tag 0x%x is not for a pvmd: ignored",
		    (unsigned)src, (unsigned)h->tag);
		return;
	}
}

void
sched_task_enrolled(struct task *t)
{
	struct xdr_writer w;

	if (pvmd.sched_tid == 0 || t->tid == pvmd.sched_tid)
		return;
	t->sched = pvmd.sched_tid;
	xdr_writer_init(&w);
	xdr_put_int(&w, 1);
	xdr_put_int(&w, t->tid);
	pvmd_send(pvmd.sched_tid, (int)SM_EXECACK, 0, 0, &w);
	xdr_writer_free(&w);
}

/* SM_TASKX {tid, status, utime s/us, stime s/us} to rm, as PVM 3.4.6
 * sends it: the wait status as the pvmd got it, the times wait4 gave. */
static void
sched_taskx_send(int rm, int tid, int status, const struct timeval *ut,
    const struct timeval *st)
{
	struct xdr_writer w;

	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	xdr_put_int(&w, status);
	xdr_put_int(&w, (int32_t)ut->tv_sec);
	xdr_put_int(&w, (int32_t)ut->tv_usec);
	xdr_put_int(&w, (int32_t)st->tv_sec);
	xdr_put_int(&w, (int32_t)st->tv_usec);
	pvmd_send(rm, (int)SM_TASKX, 0, 0, &w);
	xdr_writer_free(&w);
}

void
sched_child_reaped(struct child *ch)
{
	int rm = ch->sched;

	if (rm == 0)
		return;
	ch->sched = 0;
	sched_taskx_send(rm, ch->tid, ch->status, &ch->utime, &ch->stime);
}

/*
 * A task that leaves PVM before its process ends is reported when the
 * process is reaped, as PVM 3.4.6 does (its task lives on until then):
 * only then are the status and the times known.  A task that no pvmd
 * started has neither, so it is reported now with zeros.
 */
void
sched_task_left(const struct task *t)
{
	static const struct timeval zero;
	struct child *ch = t->child;

	if (t->tid == pvmd.sched_tid) {
		log_info("resource manager t%x left: tasks go to the pvmd "
		         "again",
		    (unsigned)t->tid);
		pvmd.sched_tid = 0;
	}
	if (t->sched == 0 || t->sched == t->tid)
		return;
	if (ch == NULL) {
		sched_taskx_send(t->sched, t->tid, 0, &zero, &zero);
		return;
	}
	ch->sched = t->sched;
	if (ch->reaped)
		sched_child_reaped(ch);
}

/* PVM 3.4.6's master gives a slave it starts its own RM (DM_SLCONF), so
 * tasks there use it too; a later change is not passed on. */
void
sched_tell_host(int index)
{
	if (pvmd.master && pvmd.sched_tid != 0)
		pvmd_send_int(
		    tid_pvmd(index), DM_SCHED, SYSCTX_TM, 0, pvmd.sched_tid);
}

void
sched_on_dm(int tid)
{
	if (tid != 0 && !tid_is_task(tid)) {
		log_warn(
		    "DM_SCHED names t%x, not a task: ignored", (unsigned)tid);
		return;
	}
	log_info("resource manager: t%x (the master says so)", (unsigned)tid);
	pvmd.sched_tid = tid;
}

void
sched_host_gone(int index)
{
	if (pvmd.sched_tid != 0)
		pvmd_send_int(
		    pvmd.sched_tid, (int)SM_HOSTX, 0, 0, tid_pvmd(index));
}
