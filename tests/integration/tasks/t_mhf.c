/*
 * t_mhf.c: message handlers.  A handler for tag 50 must run while the
 * task waits in pvm_recv for tag 60, consume the tag-50 message, and keep
 * the receive buffer of the interrupted receive intact.
 *
 *   t_mhf
 */
#include "tcheck.h"

#define TAG_H 50
#define TAG_R 60
#define TAG_GO 61

static int h_calls;
static int h_value = -1;
static int h_src;

/* The handler: unpack the int, remember it and where it came from. */
static int
handler(int bufid)
{
	h_calls++;
	pvm_bufinfo(bufid, NULL, NULL, &h_src);
	pvm_upkint(&h_value, 1, 1);
	return 0;
}

/* Child: on each "go" from the parent, send tag 50 then tag 60. */
static int
child(void)
{
	int parent = pvm_parent(), v, round;

	for (round = 0; round < 2; round++) {
		if (tc_recv_ints(parent, TAG_GO, &v, 1, 30) <= 0) {
			break;
		}
		v = 5 + 10 * round;
		tc_send_ints(parent, TAG_H, &v, 1);
		v = 6 + 10 * round;
		tc_send_ints(parent, TAG_R, &v, 1);
	}
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	char *args[] = {"child", NULL};
	int kid = 0, id, bufid, v = 0, ctx;

	tc_init("t_mhf");
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		tc_hello();
		return child();
	}
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	if (tc_spawn_self(args, 1, &kid) != 1 || !tc_wait_hello(kid)) {
		tc_fatal("spawn the child");
	}
	ctx = pvm_getcontext();
	id = pvm_addmhf(-1, TAG_H, ctx, handler);
	tc_check(id >= 0, "pvm_addmhf returns a handler id (%d)", id);
	tc_eq(pvm_addmhf(-1, TAG_H, ctx, handler), PvmExists,
	    "second handler for the same triple");

	tc_send_ints(kid, TAG_GO, &v, 1);
	bufid = tc_trecv(kid, TAG_R, 30);
	if (bufid > 0) {
		pvm_upkint(&v, 1, 1);
	}
	tc_eq(v, 6, "pvm_recv(tag 60) gets its message");
	tc_eq(h_calls, 1, "handler calls during that receive");
	tc_eq(h_value, 5, "value the handler unpacked");
	tc_eq(h_src, kid, "source the handler saw");
	tc_eq(pvm_getrbuf(), bufid, "receive buffer after the handler ran");
	tc_eq(pvm_nrecv(-1, TAG_H), 0, "handled message is not queued");

	tc_eq(pvm_delmhf(id), 0, "pvm_delmhf");
	tc_eq(pvm_delmhf(id), PvmNotFound, "pvm_delmhf twice");
	tc_eq(pvm_delmhf(-1), PvmBadParam, "pvm_delmhf(-1)");
	tc_send_ints(kid, TAG_GO, &v, 1);
	bufid = tc_trecv(kid, TAG_R, 30);
	v = 0;
	if (bufid > 0) {
		pvm_upkint(&v, 1, 1);
	}
	tc_eq(v, 16, "second round: tag 60 message");
	bufid = tc_trecv(kid, TAG_H, 5);
	v = 0;
	if (bufid > 0) {
		pvm_upkint(&v, 1, 1);
	}
	tc_eq(v, 15, "after delmhf the tag 50 message is queued");
	tc_eq(h_calls, 1, "handler not called after delmhf");
	return tc_done();
}
