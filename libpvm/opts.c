/*
 * opts.c: pvm_setopt and pvm_getopt.
 *
 * Values live in `lpvm`; setopt returns the previous value or a negative
 * error, as in PVM.  Most options need no daemon and work before
 * enrolment; PvmNoReset enrols (it registers us in a mailbox class) and
 * PvmSelfOutput* tells the pvmd when we are connected.  Trace options are
 * stored and returned; this implementation produces no trace events.
 */
#include "pvm3.h"
#include "conn.h"

#include <string.h>

/* Tell the pvmd where our own stdout/stderr goes (TM_SETOUT, no reply). */
static int
opts_setout(void)
{
	struct xdr_writer w;
	int rc;

	if (lpvm.mytid <= 0 || lpvm_pvmd == NULL)
		return 0;
	xdr_writer_init(&w);
	xdr_put_int(&w, lpvm.selfouttid);
	xdr_put_int(&w, lpvm.selfoutctx);
	xdr_put_int(&w, lpvm.selfouttag);
	rc = lpvm_send_xdr(lpvm.pvmdtid, TM_SETOUT, SYSCTX_TM, &w);
	xdr_writer_free(&w);
	return rc;
}

/*
 * PvmNoReset: list (or unlist) our tid in the PVMNORESETCLASS mailbox
 * class, one MultiInstance entry holding the tid as an XDR int; the
 * console's reset and pvm_getnoresets read that class.
 */
static int
opts_noreset(int on)
{
	int buf, sbuf, rc;

	if ((rc = lpvm_enrol()) < 0)
		return rc;
	if (on && lpvm.noresetix < 0) {
		if ((buf = pvm_mkbuf(PvmDataDefault)) < 0)
			return buf;
		sbuf = pvm_setsbuf(buf);
		rc = pvm_pkint(&lpvm.mytid, 1, 1);
		(void)pvm_setsbuf(sbuf);
		if (rc >= 0)
			rc = pvm_putinfo(
			    (char *)PVMNORESETCLASS, buf, PvmMboxMultiInstance);
		(void)pvm_freebuf(buf);
		if (rc < 0)
			return rc;
		lpvm.noresetix = rc;
	} else if (!on && lpvm.noresetix >= 0) {
		(void)pvm_delinfo((char *)PVMNORESETCLASS, lpvm.noresetix, 0);
		lpvm.noresetix = -1;
	}
	lpvm.noreset = on;
	return 0;
}

/*
 * May our children's output (or trace) go to tid?  PVM allows none, us,
 * or what we inherited, and then only with the inherited tag.
 */
static int
opts_sink_ok(int tid, int self, int tag, int selftag)
{
	return tid == 0 || (tid == lpvm.mytid && tid > 0) ||
	       (tid == self && tag == selftag);
}

/* Store val into *slot, returning the old value. */
static int
opts_swap(int *slot, int val)
{
	int old = *slot;

	*slot = val;
	return old;
}

/*
 * PvmFragSize as a program sees it.  PVM 3.4.6 reports 4080 (its UDP
 * fragment) until the program sets a size; ours cuts messages at a
 * larger size meanwhile (WIRE_FRAG_DEFAULT), which nothing a program
 * receives depends on, so it reports PVM's figure (tests/diff, p_task).
 */
#define OPTS_FRAG_SHOWN 4080

static int
opts_fragsize(void)
{
	return lpvm.fragset ? lpvm.fragsize : OPTS_FRAG_SHOWN;
}

/*
 * PvmSelfOutputTid or Code: as in PVM 3.4.6, our children's output
 * follows ours, and a code is ignored (0 returned) while our output goes
 * to the log.
 */
static int
opts_selfout(int what, int val)
{
	int old, rc;

	if (what == PvmSelfOutputCode && lpvm.selfouttid == 0)
		return 0;
	old = opts_swap(what == PvmSelfOutputTid ? &lpvm.selfouttid
	                                         : &lpvm.selfouttag,
	    val);
	lpvm.outtid = lpvm.selfouttid;
	lpvm.outtag = lpvm.selfouttag;
	if ((rc = opts_setout()) < 0)
		return lpvm_err("pvm_setopt", rc);
	return old;
}

/* Set an option; returns its previous value or an error. */
int
pvm_setopt(int what, int val)
{
	int old, rc;

	switch (what) {
	case PvmRoute:
		if (val != PvmDontRoute && val != PvmAllowDirect &&
		    val != PvmRouteDirect)
			break;
		return opts_swap(&lpvm.route, val);
	case PvmDebugMask:
		return opts_swap(&lpvm.debugmask, val);
	case PvmAutoErr:
		if (val < 0 || val > 3)
			break;
		return opts_swap(&lpvm.autoerr, val);
	case PvmOutputTid:
		if (!opts_sink_ok(
		        val, lpvm.selfouttid, lpvm.outtag, lpvm.selfouttag))
			break;
		return opts_swap(&lpvm.outtid, val);
	case PvmOutputCode:
		return opts_swap(&lpvm.outtag, val);
	case PvmOutputContext:
		return opts_swap(&lpvm.outctx, val);
	case PvmTraceTid:
		if (!opts_sink_ok(
		        val, lpvm.selftrctid, lpvm.trctag, lpvm.selftrctag))
			break;
		return opts_swap(&lpvm.trctid, val);
	case PvmTraceCode:
		return opts_swap(&lpvm.trctag, val);
	case PvmTraceContext:
		return opts_swap(&lpvm.trcctx, val);
	case PvmTraceBuffer:
		return opts_swap(&lpvm.trcbuf, val);
	case PvmTraceOptions:
		return opts_swap(&lpvm.trcopt, val);
	case PvmFragSize:
		if (val < 52 || val > 1048576)
			break;
		old = opts_fragsize();
		lpvm.fragset = 1;
		lpvm.fragsize = val > WIRE_FRAME_MAX ? WIRE_FRAME_MAX : val;
		return old;
	case PvmResvTids:
		return opts_swap(&lpvm.resvtids, val);
	case PvmSelfOutputTid:
	case PvmSelfOutputCode:
		return opts_selfout(what, val);
	case PvmSelfTraceTid:
		/* As in PVM 3.4.6, our children's trace tid follows. */
		lpvm.trctid = val;
		return opts_swap(&lpvm.selftrctid, val);
	case PvmSelfTraceCode:
		return opts_swap(&lpvm.selftrctag, val);
	case PvmSelfTraceBuffer:
		return opts_swap(&lpvm.selftrcbuf, val);
	case PvmSelfTraceOptions:
		return opts_swap(&lpvm.selftrcopt, val);
	case PvmShowTids:
		return opts_swap(&lpvm.showtids, val);
	case PvmPollType:
	case PvmPollTime:
	case PvmSelfOutputContext:
	case PvmSelfTraceContext:
		return lpvm_err("pvm_setopt", PvmNotImpl);
	case PvmNoReset:
		old = lpvm.noreset;
		if ((rc = opts_noreset(val != 0)) < 0)
			return lpvm_err("pvm_setopt", rc);
		return old;
	default:
		break;
	}
	return lpvm_err("pvm_setopt", PvmBadParam);
}

/* The current value of an option, or an error. */
int
pvm_getopt(int what)
{
	switch (what) {
	case PvmRoute:
		return lpvm.route;
	case PvmDebugMask:
		return lpvm.debugmask;
	case PvmAutoErr:
		return lpvm.autoerr;
	case PvmOutputTid:
		return lpvm.outtid;
	case PvmOutputCode:
		return lpvm.outtag;
	case PvmOutputContext:
		return lpvm.outctx;
	case PvmTraceTid:
		return lpvm.trctid;
	case PvmTraceCode:
		return lpvm.trctag;
	case PvmTraceContext:
		return lpvm.trcctx;
	case PvmTraceBuffer:
		return lpvm.trcbuf;
	case PvmTraceOptions:
		return lpvm.trcopt;
	case PvmFragSize:
		return opts_fragsize();
	case PvmResvTids:
		return lpvm.resvtids;
	case PvmSelfOutputTid:
		return lpvm.selfouttid;
	case PvmSelfOutputCode:
		return lpvm.selfouttag;
	case PvmSelfOutputContext:
		return lpvm.selfoutctx;
	case PvmSelfTraceTid:
		return lpvm.selftrctid;
	case PvmSelfTraceCode:
		return lpvm.selftrctag;
	case PvmSelfTraceContext:
		return lpvm.selftrcctx;
	case PvmSelfTraceBuffer:
		return lpvm.selftrcbuf;
	case PvmSelfTraceOptions:
		return lpvm.selftrcopt;
	case PvmShowTids:
		return lpvm.showtids;
	case PvmNoReset:
		return lpvm.noreset;
	default:
		break; /* PvmPollType/PvmPollTime too, as PVM does */
	}
	return lpvm_err("pvm_getopt", PvmBadParam);
}
