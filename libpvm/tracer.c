/*
 * tracer.c: pvm_reg_tracer.  As in PVM 3.4.6 the call toggles: the first
 * registers the caller as the machine's tracer, the next one from the
 * same task unregisters it.  The master pvmd keeps the tracer and tells
 * every pvmd; tasks that start afterwards without their own trace and
 * output destinations get the tracer's.  Our libpvm makes no trace
 * records (TEV_*), so only output messages reach a tracer.
 */
#include "ctl.h"
#include "sdpro.h"

#include <string.h>

static int tracer_me;           /* we are the tracer */
static int tracer_mbindex = -1; /* our PVMTRACERCLASS entry */

/* The registration, for other tasks to find (PVM packs the same). */
static void
tracer_publish(int on, const struct sd_tracer *t)
{
	int b, old;

	if (!on) {
		if (tracer_mbindex >= 0 &&
		    pvm_delinfo(
		        PVMTRACERCLASS, tracer_mbindex, PvmMboxDefault) >= 0)
			tracer_mbindex = -1;
		return;
	}
	old = pvm_setsbuf(0);
	b = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(b);
	pvm_pkint(&lpvm.mytid, 1, 1);
	pvm_pkint((int *)&t->trcctx, 1, 1);
	pvm_pkint((int *)&t->trctag, 1, 1);
	pvm_pkint((int *)&t->outctx, 1, 1);
	pvm_pkint((int *)&t->outtag, 1, 1);
	pvm_pkstr((char *)t->tmask);
	pvm_pkint((int *)&t->trcbuf, 1, 1);
	pvm_pkint((int *)&t->trcopt, 1, 1);
	tracer_mbindex = pvm_putinfo(PVMTRACERCLASS, b, PvmMboxDefault);
	pvm_freebuf(b);
	pvm_setsbuf(old);
}

int
pvm_reg_tracer(
    int tctx, int ttag, int octx, int otag, char *tmask, int tbuf, int topt)
{
	struct xdr_writer w;
	struct sd_tracer t;
	int rc, regme = !tracer_me;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_reg_tracer", rc);
	memset(&t, 0, sizeof(t));
	if (regme && (tmask == NULL || strlen(tmask) >= sizeof(t.tmask)))
		return lpvm_err("pvm_reg_tracer", PvmBadParam);
	if (regme) {
		t.trcctx = tctx;
		t.trctag = ttag;
		t.outctx = octx;
		t.outtag = otag;
		memcpy(t.tmask, tmask, strlen(tmask));
		t.trcbuf = tbuf;
		t.trcopt = topt;
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, regme);
	if (regme) {
		/* TM_TRACER carries the settings without the tid. */
		struct xdr_writer s;

		xdr_writer_init(&s);
		sd_tracer_encode(&s, &t);
		xdr_put_bytes(&w, s.data + 4, s.len - 4);
		if (s.failed)
			w.failed = 1;
		xdr_writer_free(&s);
	}
	rc = ctl_status(TID_MASTER_HOST, TM_TRACER, &w);
	if (rc < 0)
		return lpvm_err("pvm_reg_tracer", rc);
	if (rc == 0) {
		tracer_me = regme;
		tracer_publish(regme, &t);
	}
	return rc;
}
