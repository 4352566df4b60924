/*
 * reg.c: pvm_reg_hoster and pvm_reg_tasker.  The first call registers
 * the caller with its pvmd as the one task that starts slave pvmds (the
 * hoster, on the master only) or this host's tasks (the tasker); the
 * next call from the same task gives the role up again, as in PVM
 * 3.4.6.  While registered, the task's tid sits in the mailbox under
 * PVMHOSTERCLASS or PVMTASKERCLASS (PvmMboxMultiInstance), where PVM
 * 3.4.6 puts it too.  The protocols themselves (SM_STHOST and
 * SM_STHOSTACK, SM_STTASK and SM_TASKX) are plain messages the task
 * receives and sends with PvmResvTids: include/pvmsdpro.h.
 */
#include "ctl.h"

/* One role: whether we hold it, and our mailbox entry. */
struct reg_role {
	const char *fn; /* for errors */
	int tag;        /* TM_HOSTER or TM_TASKER */
	char *class;    /* mailbox class */
	int held;
	int mbindex;
};

static struct reg_role reg_hoster = {
    "pvm_reg_hoster", TM_HOSTER, (char *)PVMHOSTERCLASS, 0, -1};
static struct reg_role reg_tasker = {
    "pvm_reg_tasker", TM_TASKER, (char *)PVMTASKERCLASS, 0, -1};

/* Our tid in the mailbox (taken) or out of it (given up). */
static void
reg_mbox(struct reg_role *r)
{
	int sbf, mytid = lpvm.mytid;

	if (r->held) {
		sbf = pvm_setsbuf(pvm_mkbuf(PvmDataDefault));
		pvm_pkint(&mytid, 1, 1);
		r->mbindex =
		    pvm_putinfo(r->class, pvm_getsbuf(), PvmMboxMultiInstance);
		pvm_freebuf(pvm_setsbuf(sbf));
	} else if (r->mbindex >= 0) {
		if (pvm_delinfo(r->class, r->mbindex, PvmMboxDefault) >= 0)
			r->mbindex = -1;
	}
}

/* Take the role, or give it up if we hold it; the pvmd's answer. */
static int
reg_toggle(struct reg_role *r)
{
	struct xdr_writer w;
	int cc;

	if ((cc = lpvm_enrol()) < 0)
		return lpvm_err(r->fn, cc);
	xdr_writer_init(&w);
	xdr_put_int(&w, r->held ? 0 : 1);
	cc = ctl_status(CTL_LOCAL, r->tag, &w);
	if (cc < 0)
		return lpvm_err(r->fn, cc);
	r->held = !r->held;
	reg_mbox(r);
	return 0;
}

/* Become (or stop being) the starter of slave pvmds. */
int
pvm_reg_hoster(void)
{
	return reg_toggle(&reg_hoster);
}

/* Become (or stop being) the starter of this host's tasks. */
int
pvm_reg_tasker(void)
{
	return reg_toggle(&reg_tasker);
}
