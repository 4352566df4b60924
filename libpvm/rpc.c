/*
 * rpc.c: requests to the pvmd.  A request goes out in context SYSCTX_TM
 * with a fresh wid; the reply carries the same wid and lands here, never
 * in the user's receive queue.  Replies are kept in a short list so that
 * nested requests (a message handler calling pvm_config while we wait for
 * another reply) each find their own.
 */
#include "pvm3.h"
#include "conn.h"

#include <stdlib.h>

struct rpc_reply {
	int wid;
	uint8_t *data;
	size_t len;
	struct rpc_reply *next;
};

static struct rpc_reply *rpc_replies;

void
lpvm_rpc_input(int wid, uint8_t *data, size_t len)
{
	struct rpc_reply *r;

	if ((r = malloc(sizeof(*r))) == NULL) {
		free(data);
		return;
	}
	r->wid = wid;
	r->data = data;
	r->len = len;
	r->next = rpc_replies;
	rpc_replies = r;
}

void
lpvm_rpc_reset(void)
{
	struct rpc_reply *r;

	while ((r = rpc_replies) != NULL) {
		rpc_replies = r->next;
		free(r->data);
		free(r);
	}
}

/* Unlink and return the reply for wid, or NULL. */
static struct rpc_reply *
rpc_take(int wid)
{
	struct rpc_reply **pp, *r;

	for (pp = &rpc_replies; (r = *pp) != NULL; pp = &r->next) {
		if (r->wid == wid) {
			*pp = r->next;
			return r;
		}
	}
	return NULL;
}

int
lpvm_send_xdr(int dst, int tag, int ctx, const struct xdr_writer *w)
{
	struct lpvm_seg seg;

	if (w->failed)
		return PvmNoMem;
	seg.ptr = w->data;
	seg.len = w->len;
	return lpvm_send_pieces(dst, tag, ctx, 0, WIRE_ENC_XDR, &seg, 1);
}

/* A fresh wid for a request. */
static int
rpc_new_wid(void)
{
	if (++lpvm.nextwid <= 0)
		lpvm.nextwid = 1;
	return lpvm.nextwid;
}

/* Wait for the reply to wid (see lpvm_rpc). */
static int
rpc_wait(int wid, uint8_t **rep, size_t *replen)
{
	struct rpc_reply *r;

	while ((r = rpc_take(wid)) == NULL) {
		if (lpvm_pump(-1) < 0)
			return PvmSysErr;
	}
	*rep = r->data;
	*replen = r->len;
	free(r);
	return 0;
}

int
lpvm_rpc(int dst, int tag, const struct xdr_writer *req, uint8_t **rep,
    size_t *replen)
{
	struct lpvm_seg seg;
	int wid, rc;

	*rep = NULL;
	*replen = 0;
	if (lpvm_pvmd == NULL)
		return PvmSysErr;
	if (req != NULL && req->failed)
		return PvmNoMem;
	/* The pvmd drops a connection that sends a longer control message
	 * (a mailbox entry, say): refuse it here and stay connected. */
	if (req != NULL && req->len > WIRE_CTL_MAX)
		return PvmOutOfRes;
	wid = rpc_new_wid();
	seg.ptr = req != NULL ? req->data : NULL;
	seg.len = req != NULL ? req->len : 0;
	rc = lpvm_send_pieces(
	    dst, tag, SYSCTX_TM, wid, WIRE_ENC_XDR, &seg, seg.len > 0 ? 1 : 0);
	if (rc < 0)
		return rc;
	return rpc_wait(wid, rep, replen);
}

int
lpvm_rpc_fd(int tag, int fd, uint8_t **rep, size_t *replen)
{
	struct wire_hdr h;
	int wid;

	*rep = NULL;
	*replen = 0;
	if (lpvm_pvmd == NULL)
		return PvmSysErr;
	wid = rpc_new_wid();
	lpvm_hdr_init(&h, TID_LOCAL_PVMD, tag, SYSCTX_TM, WIRE_ENC_XDR, wid);
	if (lpvm_fd_frame_send(lpvm_pvmd, &h, NULL, 0, fd) != 0)
		return PvmSysErr;
	return rpc_wait(wid, rep, replen);
}
