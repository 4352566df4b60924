/*
 * psend.c: pvm_psend / pvm_precv, one array in one call.
 *
 * pvm_psend sends len items of a datatype as raw native bytes (no
 * conversion, as in PVM), straight from the caller's memory, without
 * touching the active send buffer.  pvm_precv takes the first matching
 * message (src, tag, current context; -1 = any) off the receive queue into
 * a private buffer, copies at most len items' worth of its body, and leaves
 * the active receive buffer alone.  Both are interoperable with
 * pvm_send/pvm_recv; precv copies the body bytes whatever their encoding.
 *
 * Deviation: pvm_precv matches with the default rule even when pvm_recvf
 * installed another matcher (PVM's precv goes through pvm_recv and so uses
 * it).
 */
#include "lpvm.h"

#include <limits.h>
#include <string.h>

/* What pvm_precv waits for. */
struct psend_match {
	int tid;
	int tag;
	int ctx;
};

/* Bytes of len items of `type`, or a Pvm* error for a bad type or len. */
static long long
psend_bytes(int type, int len)
{
	const struct lpvm_dtype *t;

	if (type == PVM_STR)
		return PvmNotImpl;
	if ((t = lpvm_dtype(type)) == NULL || len < 0)
		return PvmBadParam;
	return (long long)len * (long long)t->size;
}

/* Send len items of `type` at buf to tid with tag, as raw bytes. */
int
pvm_psend(int tid, int tag, void *buf, int len, int type)
{
	struct lpvm_seg seg;
	long long n;
	int cc;

	if ((n = psend_bytes(type, len)) < 0)
		return lpvm_err("pvm_psend", (int)n);
	/* The receiver's length is an int too (pvm_precv, pvm_bufinfo). */
	if (n > INT_MAX)
		return lpvm_err("pvm_psend", PvmOverflow);
	if ((n > 0 && buf == NULL) || (tag < 0 && !lpvm.resvtids) ||
	    (!tid_is_task(tid) && !tid_is_pvmd(tid)))
		return lpvm_err("pvm_psend", PvmBadParam);
	if ((cc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_psend", cc);
	seg.ptr = buf;
	seg.len = (size_t)n;
	cc = lpvm_send_pieces(tid, tag, lpvm.ctx, 0, WIRE_ENC_NATIVE, &seg,
	    n > 0 ? 1 : 0);
	if (cc < 0)
		return lpvm_err("pvm_psend", cc);
	return 0;
}

/* The default receive rule: src, tag (-1 = any) and exact context. */
static int
psend_match_cb(const struct lpvm_msg *m, void *arg)
{
	const struct psend_match *w = arg;

	return (w->tid == -1 || m->src == w->tid) &&
	    (w->tag == -1 || m->tag == w->tag) && m->ctx == w->ctx;
}

/*
 * Receive into buf at most len items of `type`; *rtid, *rtag and *rlen
 * (the whole message's length in bytes, as PVM's code does) may be NULL.
 */
int
pvm_precv(int tid, int tag, void *buf, int len, int type, int *rtid, int *rtag,
    int *rlen)
{
	struct psend_match w;
	struct lpvm_msg *m;
	size_t body, n;
	long long want;
	int cc, err = 0;

	if ((want = psend_bytes(type, len)) < 0)
		return lpvm_err("pvm_precv", (int)want);
	if (want > 0 && buf == NULL)
		return lpvm_err("pvm_precv", PvmBadParam);
	if ((cc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_precv", cc);
	w.tid = tid;
	w.tag = tag;
	w.ctx = lpvm.ctx;
	if ((m = lpvm_queue_wait(psend_match_cb, &w, -1, &err)) == NULL)
		return lpvm_err("pvm_precv", err < 0 ? err : PvmSysErr);
	if ((cc = lpvm_msg_flatten(m)) < 0) {
		lpvm_msg_free(m);
		return lpvm_err("pvm_precv", cc);
	}
	body = lpvm_msg_body_len(m);
	n = body < (size_t)want ? body : (size_t)want;
	if (n > 0)
		memcpy(buf, m->data, n);
	if (rtid != NULL)
		*rtid = m->src;
	if (rtag != NULL)
		*rtag = m->tag;
	if (rlen != NULL)
		*rlen = body > INT_MAX ? INT_MAX : (int)body;
	lpvm_msg_free(m);
	return 0;
}
