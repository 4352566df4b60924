/*
 * hoster.c: pvm_reg_hoster.  A task of the master's host may register
 * as the hoster (TM_HOSTER); while it lives, the master starts new
 * slave pvmds by sending it SM_STHOST instead of running the launcher
 * (addhost.c), and the hoster answers SM_STHOSTACK (smwire.h).
 *
 * SM_STHOST (to the hoster, context 0, wait id set: the answer must
 * carry it, pvm_setmwid), PVM 3.4.6's layout:
 *   int n, n x {int tid (the new host's, as pvm_addhosts gives it),
 *   str so= options, str login "[user@]host", str command,
 *   str "" (PVM's Windows command), str PVM_VMID or ""}
 * The command starts our slave with -K: it makes a one-time key K,
 * prints it as its result line, and proves K when it dials the master,
 * which then hands it the machine's secret sealed under K
 * (docs/security.md).  The secret itself never goes through the hoster.
 *
 * Answers are matched by wait id and tid, in any order; a host without
 * a usable answer fails with PvmCantStart (the error it names, if any),
 * and every start is bounded by $PVMD_ADD_TIMEOUT as with the launcher.
 * A hoster that leaves fails the starts it still owes.
 */
#include "pvmd.h"
#include "pvmsdpro.h"
#include "smwire.h"

#include <stdlib.h>

static int hoster; /* tid, or 0 */
static int hoster_next_wid = 1;

int
hoster_tid(void)
{
	return hoster;
}

/* Send SM_STHOST for n hosts; the wait id, or a Pvm* error. */
int
hoster_start(const struct hoster_host *v, int n)
{
	const char *vmid = getenv("PVM_VMID");
	struct xdr_writer w;
	int i, wid;

	if (hoster == 0)
		return PvmSysErr;
	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	for (i = 0; i < n; i++) {
		xdr_put_int(&w, tid_make(v[i].index, 0));
		xdr_put_str(&w, v[i].so);
		xdr_put_str(&w, v[i].login);
		xdr_put_str(&w, v[i].cmd);
		xdr_put_str(&w, "");
		xdr_put_str(&w, vmid != NULL ? vmid : "");
	}
	if (w.failed) {
		xdr_writer_free(&w);
		return PvmNoMem;
	}
	wid = hoster_next_wid++;
	if (hoster_next_wid <= 0)
		hoster_next_wid = 1;
	/* From TIDPVMD, as PVM 3.4.6's pvmd sends to its tasker. */
	pvmd_send_from(TID_LOCAL_PVMD, hoster, SM_STHOST, 0, wid, WIRE_ENC_XDR,
	    w.data, w.len);
	xdr_writer_free(&w);
	log_info("%d host(s) to start asked of the hoster t%x (wait id %d)", n,
	    (unsigned)hoster, wid);
	return wid;
}

/* SM_STHOSTACK: the result line of each host, or why it failed. */
void
hoster_on_ack(int src, int wid, const uint8_t *body, size_t len)
{
	struct sm_ack *v;
	int i, n;

	if (src != hoster || hoster == 0) {
		log_warn("t%x: SM_STHOSTACK but not the hoster: ignored",
		    (unsigned)src);
		return;
	}
	if ((v = calloc(SM_ACK_MAX, sizeof(*v))) == NULL) {
		addhost_hoster_end(wid, "out of memory reading the hoster's "
		                        "answer");
		return;
	}
	n = sm_sthostack_decode(body, len, v, SM_ACK_MAX);
	if (n < 0)
		log_warn("t%x: malformed SM_STHOSTACK (wait id %d, %zu bytes)",
		    (unsigned)src, wid, len);
	for (i = 0; i < n; i++)
		addhost_hoster_result(wid, v[i].tid, v[i].result);
	free(v);
	addhost_hoster_end(wid, n < 0 ? "the hoster's answer was malformed"
	                              : "the hoster gave no answer for it");
}

/* The hoster left: the starts it owes fail now. */
void
hoster_task_left(int tid)
{
	if (tid != 0 && tid == hoster) {
		log_info("hoster t%x left: hosts are started by the launcher "
		         "again",
		    (unsigned)tid);
		hoster = 0;
		addhost_hoster_gone();
	}
}

/* TM_HOSTER: int regme; rep int status (PVM 3.4.6's rules). */
void
ctl_TM_HOSTER(struct ctlreq *q)
{
	int32_t regme;

	if (xdr_get_int(&q->r, &regme) != 0) {
		ctl_bad(q);
		return;
	}
	if (!pvmd.master) {
		ctl_reply_int(q, PvmHostrNMstr);
		return;
	}
	if (regme) {
		if (hoster != 0) {
			ctl_reply_int(q, PvmAlready);
			return;
		}
		hoster = q->src;
		q->t->flags |= TASK_F_HOSTER;
		log_info("t%x is the hoster", (unsigned)q->src);
	} else {
		if (hoster != q->src) {
			ctl_reply_int(q, PvmNoTask);
			return;
		}
		hoster = 0;
		q->t->flags &= ~TASK_F_HOSTER;
		log_info("t%x is no longer the hoster", (unsigned)q->src);
		addhost_hoster_gone();
	}
	ctl_reply_int(q, 0);
}
