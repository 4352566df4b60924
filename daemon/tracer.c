/*
 * tracer.c: the machine's tracer (pvm_reg_tracer).  As in PVM 3.4.6
 * there is one for the whole machine: the master keeps it (TM_TRACER
 * goes there) and gives every pvmd a copy (DM_TRACER), so that tasks
 * that start anywhere afterwards, without trace or output destinations
 * of their own, send their output (and would send trace records) to it.
 * It ends when the tracer unregisters or leaves.
 */
#include "pvmd.h"

#include <string.h>

/* Master: tell every slave (or one, index > 0) the tracer now. */
static void
tracer_send(int index)
{
	struct xdr_writer w;
	struct host *hp;
	int i;

	xdr_writer_init(&w);
	sd_tracer_encode(&w, &pvmd.tracer);
	for (i = 1; i <= TID_HOST_MAX && !w.failed; i++) {
		if ((hp = host_get(i)) == NULL || i == pvmd.host ||
		    (index > 0 && i != index))
			continue;
		pvmd_send(tid_pvmd(i), DM_TRACER, SYSCTX_TM, 0, &w);
	}
	xdr_writer_free(&w);
}

/* Master: the tracer is t now (t->tid 0: none). */
static void
tracer_set(const struct sd_tracer *t)
{
	pvmd.tracer = *t;
	log_info("tracer: t%x", (unsigned)t->tid);
	tracer_send(0);
}

/* TM_TRACER (to the master): register the caller, or unregister it. */
void
ctl_TM_TRACER(struct ctlreq *q)
{
	struct sd_tracer t;
	size_t n;
	const uint8_t *p = xdr_rest(&q->r, &n);
	int regme;

	if (!pvmd.master) {
		ctl_reply_int(q, PvmNotImpl);
		return;
	}
	if (sd_tracer_req_decode(p, n, &regme, &t) != 0 ||
	    !tid_is_task(q->src)) {
		ctl_bad(q);
		return;
	}
	if (regme && pvmd.tracer.tid != 0) {
		ctl_reply_int(q, PvmAlready);
		return;
	}
	if (!regme && pvmd.tracer.tid != q->src) {
		ctl_reply_int(q, PvmNoTask);
		return;
	}
	if (regme)
		t.tid = q->src;
	else
		memset(&t, 0, sizeof(t));
	tracer_set(&t);
	ctl_reply_int(q, 0);
}

void
tracer_spawn_defaults(struct spawn_req *s)
{
	const struct sd_tracer *tr = &pvmd.tracer;

	if (tr->tid == 0)
		return;
	if (s->trctid == 0 && tr->trctag != 0) {
		s->trctid = tr->tid;
		s->trcctx = tr->trcctx;
		s->trctag = tr->trctag;
	}
	if (s->outtid == 0 && tr->outtag != 0) {
		s->outtid = tr->tid;
		s->outctx = tr->outctx;
		s->outtag = tr->outtag;
		s->out_traced = 1;
	}
}

void
tracer_task_defaults(struct task *t)
{
	const struct sd_tracer *tr = &pvmd.tracer;

	if (tr->tid == 0 || t->tid == tr->tid)
		return;
	if (t->trctid == 0 && tr->trctag != 0) {
		t->trctid = tr->tid;
		t->trcctx = tr->trcctx;
		t->trctag = tr->trctag;
	}
	if (t->outtid == 0 && tr->outtag != 0) {
		t->outtid = tr->tid;
		t->outctx = tr->outctx;
		t->outtag = tr->outtag;
	}
}

void
tracer_task_left(int tid)
{
	struct sd_tracer none;

	if (!pvmd.master || tid == 0 || tid != pvmd.tracer.tid)
		return;
	memset(&none, 0, sizeof(none));
	tracer_set(&none);
}

void
tracer_tell_host(int index)
{
	if (pvmd.master && pvmd.tracer.tid != 0)
		tracer_send(index);
}

void
tracer_on_dm(const uint8_t *body, size_t len)
{
	struct xdr_reader r;
	struct sd_tracer t;

	xdr_reader_init(&r, body, len);
	if (sd_tracer_decode(&r, &t) != 0 ||
	    (t.tid != 0 && !tid_is_task(t.tid))) {
		log_warn("malformed DM_TRACER ignored");
		return;
	}
	pvmd.tracer = t;
	log_info("tracer: t%x (the master says so)", (unsigned)t.tid);
}
