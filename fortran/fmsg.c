/*
 * fmsg.c: message buffers, sending and receiving, and contexts from
 * Fortran.  Thin: each wrapper dereferences its arguments and stores the
 * C result; only pvmftrecv (two integers for a timeval, -1 = block) and
 * the minfo calls (a struct as separate integers) do more.
 */
#include "fpvm.h"

#include <string.h>
#include <sys/time.h>

/* pvm_initsend. */
void
FPVM(pvmfinitsend, PVMFINITSEND)(int *enc, int *bufid)
{
	*bufid = pvm_initsend(*enc);
}

/* pvm_mkbuf. */
void
FPVM(pvmfmkbuf, PVMFMKBUF)(int *enc, int *bufid)
{
	*bufid = pvm_mkbuf(*enc);
}

/* pvm_freebuf. */
void
FPVM(pvmffreebuf, PVMFFREEBUF)(int *bufid, int *info)
{
	*info = pvm_freebuf(*bufid);
}

/* pvm_getsbuf. */
void
FPVM(pvmfgetsbuf, PVMFGETSBUF)(int *bufid)
{
	*bufid = pvm_getsbuf();
}

/* pvm_getrbuf. */
void
FPVM(pvmfgetrbuf, PVMFGETRBUF)(int *bufid)
{
	*bufid = pvm_getrbuf();
}

/* pvm_setsbuf. */
void
FPVM(pvmfsetsbuf, PVMFSETSBUF)(int *bufid, int *oldbuf)
{
	*oldbuf = pvm_setsbuf(*bufid);
}

/* pvm_setrbuf. */
void
FPVM(pvmfsetrbuf, PVMFSETRBUF)(int *bufid, int *oldbuf)
{
	*oldbuf = pvm_setrbuf(*bufid);
}

/* pvm_bufinfo. */
void
FPVM(pvmfbufinfo, PVMFBUFINFO)(
    int *bufid, int *bytes, int *tag, int *tid, int *info)
{
	*info = pvm_bufinfo(*bufid, bytes, tag, tid);
}

/* pvm_getminfo, the struct as separate integers. */
void
FPVM(pvmfgetminfo, PVMFGETMINFO)(int *bufid, int *len, int *ctx, int *tag,
    int *wid, int *enc, int *crc, int *src, int *dst, int *info)
{
	struct pvmminfo mi;

	memset(&mi, 0, sizeof(mi));
	if ((*info = pvm_getminfo(*bufid, &mi)) < 0) {
		return;
	}
	*len = mi.len;
	*ctx = mi.ctx;
	*tag = mi.tag;
	*wid = mi.wid;
	*enc = mi.enc;
	*crc = mi.crc;
	*src = mi.src;
	*dst = mi.dst;
}

/* pvm_setminfo of the settable fields; the others are kept. */
void
FPVM(pvmfsetminfo, PVMFSETMINFO)(
    int *bufid, int *ctx, int *tag, int *wid, int *src, int *dst, int *info)
{
	struct pvmminfo mi;

	memset(&mi, 0, sizeof(mi));
	if ((*info = pvm_getminfo(*bufid, &mi)) < 0) {
		return;
	}
	mi.ctx = *ctx;
	mi.tag = *tag;
	mi.wid = *wid;
	mi.src = *src;
	mi.dst = *dst;
	*info = pvm_setminfo(*bufid, &mi);
}

/* pvm_pkmesg. */
void
FPVM(pvmfpkmesg, PVMFPKMESG)(int *bufid, int *info)
{
	*info = pvm_pkmesg(*bufid);
}

/* pvm_pkmesgbody. */
void
FPVM(pvmfpkmesgbody, PVMFPKMESGBODY)(int *bufid, int *info)
{
	*info = pvm_pkmesgbody(*bufid);
}

/*
 * pvm_upkmesg from buffer bufid (0: the active receive buffer); the
 * active receive buffer is the same afterwards.
 */
void
FPVM(pvmfupkmesg, PVMFUPKMESG)(int *bufid, int *newbufid)
{
	int old;

	if (*bufid <= 0 || *bufid == pvm_getrbuf()) {
		*newbufid = pvm_upkmesg();
		return;
	}
	if ((old = pvm_setrbuf(*bufid)) < 0) {
		*newbufid = old;
		return;
	}
	*newbufid = pvm_upkmesg();
	pvm_setrbuf(old);
}

/* pvm_send. */
void
FPVM(pvmfsend, PVMFSEND)(int *tid, int *tag, int *info)
{
	*info = pvm_send(*tid, *tag);
}

/* pvm_mcast; note Fortran's order: count first. */
void
FPVM(pvmfmcast, PVMFMCAST)(int *ntask, int *tids, int *tag, int *info)
{
	*info = pvm_mcast(tids, *ntask, *tag);
}

/* pvm_recv. */
void
FPVM(pvmfrecv, PVMFRECV)(int *tid, int *tag, int *bufid)
{
	*bufid = pvm_recv(*tid, *tag);
}

/* pvm_nrecv. */
void
FPVM(pvmfnrecv, PVMFNRECV)(int *tid, int *tag, int *bufid)
{
	*bufid = pvm_nrecv(*tid, *tag);
}

/* pvm_probe. */
void
FPVM(pvmfprobe, PVMFPROBE)(int *tid, int *tag, int *bufid)
{
	*bufid = pvm_probe(*tid, *tag);
}

/* pvm_trecv; a negative sec (PVM: -1) waits without limit. */
void
FPVM(pvmftrecv, PVMFTRECV)(int *tid, int *tag, int *sec, int *usec, int *bufid)
{
	struct timeval tv;

	if (*sec < 0) {
		*bufid = pvm_trecv(*tid, *tag, NULL);
		return;
	}
	tv.tv_sec = *sec;
	tv.tv_usec = *usec;
	*bufid = pvm_trecv(*tid, *tag, &tv);
}

/* pvm_psend. */
void
FPVM(pvmfpsend, PVMFPSEND)(
    int *tid, int *tag, void *buf, int *len, int *type, int *info)
{
	*info = pvm_psend(*tid, *tag, buf, *len, *type);
}

/* pvm_precv. */
void
FPVM(pvmfprecv, PVMFPRECV)(int *tid, int *tag, void *buf, int *len, int *type,
    int *atid, int *atag, int *alen, int *info)
{
	*info = pvm_precv(*tid, *tag, buf, *len, *type, atid, atag, alen);
}

/* pvm_newcontext. */
void
FPVM(pvmfnewcontext, PVMFNEWCONTEXT)(int *ctx)
{
	*ctx = pvm_newcontext();
}

/* pvm_setcontext. */
void
FPVM(pvmfsetcontext, PVMFSETCONTEXT)(int *newctx, int *oldctx)
{
	*oldctx = pvm_setcontext(*newctx);
}

/* pvm_getcontext. */
void
FPVM(pvmfgetcontext, PVMFGETCONTEXT)(int *ctx)
{
	*ctx = pvm_getcontext();
}

/* pvm_freecontext. */
void
FPVM(pvmffreecontext, PVMFFREECONTEXT)(int *ctx, int *info)
{
	*info = pvm_freecontext(*ctx);
}
