/*
 * rm.c: pvm_reg_rm, and the requests a task sends to a resource manager
 * (RM) instead of its pvmd while one is registered there (the TM_CONNECT
 * reply names it).  The bodies are PVM 3.4.6's (common/sdpro.h), so a
 * PVM RM serves us and ours serves PVM's conventions.
 *
 * A request to the RM waits for its answer (same tag, from the RM).
 * Every RM_CHECK_MS without one we ask our pvmd whether the RM still
 * exists; if it is gone we forget it and the call goes to the pvmd as if
 * no RM had been registered (PVM 3.4.6 waits forever: docs/compat.md).
 */
#include "ctl.h"
#include "pvmsdpro.h"
#include "rm.h"
#include "sdpro.h"

#include <stdlib.h>
#include <string.h>

#define RM_CHECK_MS 500

struct rm_want {
	int src, tag;
};

static int
rm_match(const struct lpvm_msg *m, void *arg)
{
	const struct rm_want *w = arg;

	return m->src == w->src && m->tag == w->tag;
}

int
lpvm_rm_call(int tag, const struct xdr_writer *w, struct lpvm_msg **rep)
{
	struct rm_want want;
	int rc, err = 0;

	*rep = NULL;
	if (lpvm.schedtid == 0)
		return LPVM_RM_NONE;
	want.src = lpvm.schedtid;
	want.tag = tag;
	if ((rc = lpvm_send_xdr(lpvm.schedtid, tag, 0, w)) < 0)
		return rc;
	for (;;) {
		*rep = lpvm_queue_wait(rm_match, &want, RM_CHECK_MS, &err);
		if (*rep != NULL)
			break;
		if (err < 0)
			return PvmSysErr;
		if (ctl_pstat(want.src) == PvmNoTask) {
			lpvm.schedtid = 0;
			return LPVM_RM_NONE;
		}
	}
	/* Answers are XDR (PvmDataDefault), as PVM's RMs pack them. */
	if (!(*rep)->enc->xdr || (*rep)->enc->trace) {
		lpvm_msg_free(*rep);
		*rep = NULL;
		return PvmBadMsg;
	}
	return 0;
}

int
lpvm_rm_post(int tag, const struct xdr_writer *w)
{
	if (lpvm.schedtid == 0)
		return LPVM_RM_NONE;
	if (ctl_pstat(lpvm.schedtid) == PvmNoTask) {
		lpvm.schedtid = 0;
		return LPVM_RM_NONE;
	}
	return lpvm_send_xdr(lpvm.schedtid, tag, 0, w);
}

/* The RM's own answer, or PvmBadMsg for one that does not parse. */
int
lpvm_rm_code(int v)
{
	return v == SD_MALFORMED ? PvmBadMsg : ctl_code(v);
}

/* pvm_reg_rm's host entry, owned here (as pvm_config's table). */
static struct pvmhostinfo rm_host;
static int rm_mbindex = -1;

/* Publish our tid under PVMRMCLASS, one entry (the last registration). */
static void
rm_publish(void)
{
	int b, old = pvm_setsbuf(0);

	if (rm_mbindex >= 0)
		(void)pvm_delinfo(PVMRMCLASS, rm_mbindex, PvmMboxDefault);
	b = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(b);
	pvm_pkint(&lpvm.mytid, 1, 1);
	rm_mbindex = pvm_putinfo(PVMRMCLASS, b, PvmMboxMultiInstance);
	pvm_freebuf(b);
	pvm_setsbuf(old);
}

/* Ask the pvmd (or the RM there is: SM_SCHED) to make us the RM. */
static int
rm_register(struct sd_sched *s)
{
	struct xdr_writer w;
	struct lpvm_msg *m = NULL;
	uint8_t *rep = NULL;
	size_t len = 0;
	int rc;

	xdr_writer_init(&w);
	rc = lpvm_rm_call((int)SM_SCHED, &w, &m);
	if (rc == LPVM_RM_NONE)
		rc = lpvm_rpc(lpvm.pvmdtid, TM_SCHED, &w, &rep, &len);
	xdr_writer_free(&w);
	if (rc < 0)
		return rc;
	if (m != NULL)
		rc = sd_sched_decode(m->data, m->len, s);
	else
		rc = sd_sched_decode(rep, len, s);
	lpvm_msg_free(m);
	free(rep);
	return rc == -1 ? PvmBadMsg : rc < 0 ? ctl_code(rc) : 0;
}

int
pvm_reg_rm(struct pvmhostinfo **hip)
{
	struct sd_sched s;
	int rc;

	if ((rc = lpvm_enrol()) < 0 || (rc = rm_register(&s)) < 0)
		return lpvm_err("pvm_reg_rm", rc);
	free(rm_host.hi_name);
	free(rm_host.hi_arch);
	rm_host.hi_tid = s.master.tid;
	rm_host.hi_name = s.master.name;
	rm_host.hi_arch = s.master.arch;
	rm_host.hi_speed = s.master.speed;
	rm_host.hi_dsig = s.master.dsig;
	if (hip != NULL)
		*hip = &rm_host;
	rm_publish();
	return s.old;
}
