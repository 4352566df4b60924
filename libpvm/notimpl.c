/*
 * notimpl.c: PVM 3.4 calls this implementation does not provide.  They
 * exist so that programs link; each reports PvmNotImpl.
 *
 *  - pvm_reg_rm: PVM lets one task take over placement decisions (a
 *    resource manager) through an extra pvmd protocol (SM_*, TM_SCHED).
 *    Our pvmd has no such hook.  (pvm_reg_hoster and pvm_reg_tasker:
 *    reg.c.)
 *  - pvm_reg_tracer: there is no trace event collection (TEV_*) to hand
 *    to a tracer.
 */
#include "ctl.h"

/* Become the resource manager: not available. */
int
pvm_reg_rm(struct pvmhostinfo **hip)
{
	(void)hip;
	return lpvm_err("pvm_reg_rm", PvmNotImpl);
}

/* Become the tracer: not available (no trace events exist). */
int
pvm_reg_tracer(int tctx, int ttag, int octx, int otag, char *tmask,
    int tbuf, int topt)
{
	(void)tctx;
	(void)ttag;
	(void)octx;
	(void)otag;
	(void)tmask;
	(void)tbuf;
	(void)topt;
	return lpvm_err("pvm_reg_tracer", PvmNotImpl);
}
