/*
 * tickle.c: pvm_tickle, PVM's back door into the local pvmd for
 * debugging.  `how` (argp[0]) picks a request, the rest are its
 * arguments; the pvmd answers with up to WIRE_TICKLE_MAX ints.  Which
 * requests exist, and what they do here: daemon/tickle.c.
 */
#include "ctl.h"

#include <stdlib.h>

/* Read the reply: int status, int nres, nres ints into resp. */
static int
tickle_reply(struct xdr_reader *r, int *nresp, int *resp)
{
	int32_t st, n, v;
	int i;

	if (xdr_get_int(r, &st) != 0) {
		return PvmBadMsg;
	}
	if (st < 0) {
		return ctl_code(st);
	}
	if (xdr_get_int(r, &n) != 0 || n < 0 || n > WIRE_TICKLE_MAX) {
		return PvmBadMsg;
	}
	for (i = 0; i < n; i++) {
		if (xdr_get_int(r, &v) != 0) {
			return PvmBadMsg;
		}
		if (resp != NULL) {
			resp[i] = v;
		}
	}
	if (nresp != NULL) {
		*nresp = n;
	}
	return 0;
}

/*
 * narg ints from argp (1 to 10, as PVM 3.4.6 takes) to our pvmd; its
 * answer, up to 10 ints, into resp and their number into *nresp.
 */
int
pvm_tickle(int narg, int *argp, int *nresp, int *resp)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep;
	int cc, i;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_tickle", cc);
	}
	if (narg < 1 || narg > WIRE_TICKLE_MAX || argp == NULL) {
		return lpvm_err("pvm_tickle", PvmBadParam);
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, narg);
	for (i = 0; i < narg; i++) {
		xdr_put_int(&w, argp[i]);
	}
	if ((cc = ctl_rpc(CTL_LOCAL, TM_TICKLE, &w, &r, &rep)) < 0) {
		return lpvm_err("pvm_tickle", cc);
	}
	cc = tickle_reply(&r, nresp, resp);
	free(rep);
	return cc < 0 ? lpvm_err("pvm_tickle", cc) : 0;
}
