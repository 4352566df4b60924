/*
 * ctx.c: message contexts.  Every message carries the sender's current
 * context and receives match only the receiver's current one.  The pvmd
 * hands out new context ids (TM_CTX_NEW) and takes them back.
 */
#include "pvm3.h"
#include "conn.h"

#include <stdlib.h>

/* One int from a reply body (status or value), or PvmSysErr. */
static int
ctx_reply_int(const uint8_t *rep, size_t len)
{
	struct xdr_reader r;
	int32_t v;

	xdr_reader_init(&r, rep, len);
	if (xdr_get_int(&r, &v) != 0 || r.failed)
		return PvmSysErr;
	return v;
}

/* A fresh context id from the pvmd (not made current). */
int
pvm_newcontext(void)
{
	uint8_t *rep;
	size_t len;
	int rc;

	if ((rc = lpvm_enrol()) < 0 ||
	    (rc = lpvm_rpc(lpvm.pvmdtid, TM_CTX_NEW, NULL, &rep, &len)) < 0)
		return lpvm_err("pvm_newcontext", rc);
	rc = ctx_reply_int(rep, len);
	free(rep);
	if (rc < 0)
		return lpvm_err("pvm_newcontext", rc);
	return rc;
}

/* Make ctx current (not checked, as in PVM); returns the previous one. */
int
pvm_setcontext(int ctx)
{
	int old, rc;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_setcontext", rc);
	old = lpvm.ctx;
	lpvm.ctx = ctx;
	return old;
}

/* The current context. */
int
pvm_getcontext(void)
{
	int rc;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_getcontext", rc);
	return lpvm.ctx;
}

/* Give a context back to the pvmd. */
int
pvm_freecontext(int ctx)
{
	struct xdr_writer w;
	uint8_t *rep;
	size_t len;
	int rc;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_freecontext", rc);
	xdr_writer_init(&w);
	xdr_put_int(&w, ctx);
	if (w.failed) {
		xdr_writer_free(&w);
		return lpvm_err("pvm_freecontext", PvmNoMem);
	}
	rc = lpvm_rpc(lpvm.pvmdtid, TM_CTX_FREE, &w, &rep, &len);
	xdr_writer_free(&w);
	if (rc < 0)
		return lpvm_err("pvm_freecontext", rc);
	rc = ctx_reply_int(rep, len);
	free(rep);
	if (rc < 0)
		return lpvm_err("pvm_freecontext", rc);
	return 0;
}
