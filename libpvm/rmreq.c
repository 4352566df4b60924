/*
 * rmreq.c: pvm_spawn, pvm_config, pvm_tasks, pvm_addhosts, pvm_delhosts
 * and pvm_notify as requests to the resource manager (rm.h), with PVM
 * 3.4.6's bodies (common/sdpro.h) and its reading of the answers.
 */
#include "rm.h"
#include "pvmsdpro.h"
#include "sdpro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The four variables PVM's pvm_spawn passes first (trace settings and
 * the context), then the exported ones: int n, n x str. */
static void
rmreq_env(struct xdr_writer *w)
{
	struct xdr_writer e;
	struct xdr_reader r;
	char mask[CTL_TMASK_LEN], buf[CTL_TMASK_LEN + 32];
	int32_t n = 0;

	xdr_writer_init(&e);
	lpvm_spawn_env(&e);
	xdr_reader_init(&r, e.data, e.len);
	xdr_get_int(&r, &n);
	memset(mask, 0, sizeof(mask));
	(void)pvm_gettmask(PvmTaskChild, mask);
	xdr_put_int(w, n + 4);
	snprintf(buf, sizeof(buf), "PVMTMASK=%s", mask);
	xdr_put_str(w, buf);
	snprintf(buf, sizeof(buf), "PVMTRCBUF=%d", lpvm.trcbuf);
	xdr_put_str(w, buf);
	snprintf(buf, sizeof(buf), "PVMTRCOPT=%d", lpvm.trcopt);
	xdr_put_str(w, buf);
	snprintf(buf, sizeof(buf), "PVMCTX=0x%x", (unsigned)lpvm.ctx);
	xdr_put_str(w, buf);
	if (e.len > 4)
		xdr_put_bytes(w, e.data + 4, e.len - 4);
	if (e.failed)
		w->failed = 1;
	xdr_writer_free(&e);
}

/* PVM 3.4.6's SM_SPAWN request. */
static void
rmreq_spawn_body(struct xdr_writer *w, const char *file, char **argv, int flag,
    const char *where, int ntask)
{
	lpvm_spawn_head(w, file, argv, flag, where, ntask);
	xdr_put_int(w, lpvm.outtid);
	xdr_put_int(w, lpvm.outctx);
	xdr_put_int(w, lpvm.outtag);
	xdr_put_int(w, lpvm.trctid);
	xdr_put_int(w, lpvm.trcctx);
	xdr_put_int(w, lpvm.trctag);
	rmreq_env(w);
}

int
lpvm_rm_spawn(const char *file, char **argv, int flag, const char *where,
    int ntask, int *out)
{
	struct xdr_writer w;
	struct lpvm_msg *m;
	int32_t *slots;
	int i, k = 0, cc;

	if (lpvm.schedtid == 0)
		return LPVM_RM_NONE;
	if ((slots = calloc((size_t)ntask, sizeof(*slots))) == NULL)
		return PvmNoMem;
	xdr_writer_init(&w);
	rmreq_spawn_body(&w, file, argv, flag, where, ntask);
	cc = lpvm_rm_call((int)SM_SPAWN, &w, &m);
	xdr_writer_free(&w);
	if (cc == 0) {
		cc = lpvm_rm_code(
		    sd_spawn_reply_decode(m->data, m->len, ntask, slots));
		lpvm_msg_free(m);
	}
	/* As PVM's: the tids first, then the errors, each in order. */
	for (i = 0; cc >= 0 && cc != LPVM_RM_NONE && i < ntask; i++) {
		if (slots[i] > 0)
			out[k++] = slots[i];
	}
	for (i = 0; cc >= 0 && cc != LPVM_RM_NONE && i < ntask; i++) {
		if (slots[i] <= 0)
			out[k++] =
			    slots[i] < 0 ? ctl_code(slots[i]) : PvmDSysErr;
	}
	free(slots);
	return cc;
}

int
lpvm_rm_config(struct ctl_hosts *hs)
{
	struct xdr_writer w;
	struct lpvm_msg *m;
	struct sd_host *h;
	int i, n, narch, cc;

	memset(hs, 0, sizeof(*hs));
	xdr_writer_init(&w);
	cc = lpvm_rm_call((int)SM_CONFIG, &w, &m);
	xdr_writer_free(&w);
	if (cc != 0)
		return cc;
	cc = sd_config_decode(m->data, m->len, &h, &n, &narch);
	lpvm_msg_free(m);
	if (cc != 0)
		return cc == -1 ? PvmBadMsg : ctl_code(cc);
	if ((hs->h = calloc((size_t)n + 1, sizeof(*hs->h))) == NULL) {
		sd_hosts_free(h, n);
		return PvmNoMem;
	}
	for (i = 0; i < n; i++) {
		hs->h[i].hi_tid = h[i].tid;
		hs->h[i].hi_name = h[i].name;
		hs->h[i].hi_arch = h[i].arch;
		hs->h[i].hi_speed = h[i].speed;
		hs->h[i].hi_dsig = h[i].dsig;
		h[i].name = h[i].arch = NULL;
	}
	hs->n = n;
	hs->narch = narch;
	sd_hosts_free(h, n);
	return 0;
}

int
lpvm_rm_tasks(int where, struct pvmtaskinfo **tasks, int *n)
{
	struct xdr_writer w;
	struct lpvm_msg *m;
	struct sd_task *t;
	int i, cc;

	*tasks = NULL;
	*n = 0;
	xdr_writer_init(&w);
	xdr_put_int(&w, where);
	cc = lpvm_rm_call((int)SM_TASK, &w, &m);
	xdr_writer_free(&w);
	if (cc != 0)
		return cc;
	cc = sd_tasks_decode(m->data, m->len, &t, n);
	lpvm_msg_free(m);
	if (cc != 0)
		return lpvm_rm_code(cc);
	if ((*tasks = calloc((size_t)*n + 1, sizeof(**tasks))) == NULL) {
		sd_tasks_free(t, *n);
		*n = 0;
		return PvmNoMem;
	}
	for (i = 0; i < *n; i++) {
		(*tasks)[i].ti_tid = t[i].tid;
		(*tasks)[i].ti_ptid = t[i].ptid;
		(*tasks)[i].ti_host = t[i].host;
		(*tasks)[i].ti_flag = t[i].flag;
		(*tasks)[i].ti_a_out = t[i].a_out;
		(*tasks)[i].ti_pid = t[i].pid;
		t[i].a_out = NULL;
	}
	sd_tasks_free(t, *n);
	return 0;
}

int
lpvm_rm_hosts(int add, char **names, int n, int *codes)
{
	struct xdr_writer w;
	struct lpvm_msg *m;
	int32_t *v;
	int i, ok = 0, cc;

	if (lpvm.schedtid == 0)
		return LPVM_RM_NONE;
	if ((v = calloc((size_t)n, sizeof(*v))) == NULL)
		return PvmNoMem;
	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	for (i = 0; i < n; i++)
		xdr_put_str(&w, names[i] != NULL ? names[i] : "");
	cc = lpvm_rm_call((int)(add ? SM_ADDHOST : SM_DELHOST), &w, &m);
	xdr_writer_free(&w);
	if (cc == 0) {
		cc = lpvm_rm_code(
		    sd_hostchange_decode(m->data, m->len, add, n, v));
		lpvm_msg_free(m);
	}
	for (i = 0; cc >= 0 && cc != LPVM_RM_NONE && i < n; i++) {
		codes[i] = v[i] < 0 ? ctl_code(v[i]) : v[i];
		ok += v[i] >= 0;
	}
	free(v);
	return cc >= 0 && cc != LPVM_RM_NONE ? ok : cc;
}

int
lpvm_rm_notify(int what, int tag, int cnt, const int *tids)
{
	struct xdr_writer w;
	int kind = what & ~PvmNotifyCancel;
	int i, k = kind == PvmHostAdd ? 0 : cnt, cc;

	if (lpvm.schedtid == 0)
		return LPVM_RM_NONE;
	xdr_writer_init(&w);
	xdr_put_int(&w, what);
	xdr_put_int(&w, lpvm.ctx);
	xdr_put_int(&w, tag);
	xdr_put_int(&w, cnt);
	for (i = 0; i < k; i++)
		xdr_put_int(&w, tids[i]);
	cc = lpvm_rm_post((int)SM_NOTIFY, &w);
	xdr_writer_free(&w);
	return cc;
}
