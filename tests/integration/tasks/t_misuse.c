/*
 * t_misuse.c: API misuse returns the documented codes and harms nothing;
 * a message to a task that does not exist is dropped.
 *
 *   t_misuse
 */
#include "tcheck.h"

/* Send one int to ourselves and get it back: the task still works. */
static int
self_ping(int v)
{
	int me = pvm_mytid(), got = -1;

	if (tc_send_ints(me, 9, &v, 1) < 0) {
		return 0;
	}
	if (tc_recv_ints(me, 9, &got, 1, 10) != me) {
		return 0;
	}
	return got == v;
}

static void
buffers(void)
{
	int b, x = 1, bytes;

	tc_eq(pvm_initsend(99), PvmBadParam, "pvm_initsend(99)");
	tc_eq(pvm_mkbuf(-7), PvmBadParam, "pvm_mkbuf(-7)");
	tc_eq(pvm_freebuf(123456), PvmNoSuchBuf, "pvm_freebuf(unknown id)");
	tc_eq(pvm_freebuf(-1), PvmBadParam, "pvm_freebuf(-1)");
	tc_eq(pvm_freebuf(0), 0, "pvm_freebuf(0)");
	tc_eq(
	    pvm_bufinfo(0, &bytes, NULL, NULL), PvmBadParam, "pvm_bufinfo(0)");
	tc_eq(pvm_bufinfo(123456, &bytes, NULL, NULL), PvmNoSuchBuf,
	    "pvm_bufinfo(unknown id)");
	tc_eq(pvm_setsbuf(123456), PvmNoSuchBuf, "pvm_setsbuf(unknown id)");
	b = pvm_initsend(PvmDataDefault);
	tc_check(b > 0, "pvm_initsend(PvmDataDefault) = %d", b);
	tc_eq(pvm_pkint(&x, -1, 1), PvmBadParam, "pvm_pkint count -1");
	tc_eq(pvm_getsbuf(), b, "pvm_getsbuf");
	tc_eq(pvm_freebuf(b), 0, "pvm_freebuf of the send buffer");
	tc_eq(pvm_freebuf(b), PvmNoSuchBuf, "pvm_freebuf twice");
}

static void
unpacking(void)
{
	int me = pvm_mytid(), v[2] = {7, 8}, got[4] = {0, 0, 0, 0};

	tc_send_ints(me, 11, v, 1);
	if (tc_trecv(me, 11, 10) == 0) {
		tc_check(0, "message to self");
		return;
	}
	tc_eq(pvm_upkint(got, 1, 1), 0, "first upkint");
	tc_eq(got[0], 7, "its value");
	tc_eq(pvm_upkint(got + 1, 1, 1), PvmNoData, "upkint past the end");
	tc_send_ints(me, 12, v, 2);
	if (tc_trecv(me, 12, 10) == 0) {
		tc_check(0, "second message to self");
		return;
	}
	tc_eq(pvm_upkint(got, 3, 1), PvmNoData, "upkint of 3 from 2 ints");
}

static void
sending(void)
{
	int me = pvm_mytid(), v = 1, ghost = (me & 0x3ffc0000) | 0x3fff0;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	tc_eq(pvm_send(me, -1), PvmBadParam, "pvm_send tag -1");
	tc_eq(pvm_send(0, 1), PvmBadParam, "pvm_send to tid 0");
	tc_eq(pvm_send(-5, 1), PvmBadParam, "pvm_send to tid -5");
	tc_eq(pvm_mcast(&me, 1, -1), PvmBadParam, "pvm_mcast tag -1");
	tc_eq(pvm_send(ghost, 1), 0, "pvm_send to nonexistent t%x", ghost);
	tc_eq(pvm_send(ghost, 1), 0, "and again");
	tc_check(self_ping(4711), "task still works after sends to a ghost");
	tc_eq(pvm_pstat(ghost), PvmNoTask, "pvm_pstat(nonexistent t%x)", ghost);
}

static void
misc(void)
{
	int tids[2];

	tc_eq(pvm_spawn("pvmt_whatever", NULL, 0, NULL, 0, tids), PvmBadParam,
	    "pvm_spawn count 0");
	tc_eq(pvm_spawn("pvmt_whatever", NULL, 0, NULL, -3, tids), PvmBadParam,
	    "pvm_spawn count -3");
	tc_eq(pvm_delmhf(-1), PvmBadParam, "pvm_delmhf(-1)");
	tc_eq(pvm_delmhf(4242), PvmNotFound, "pvm_delmhf(unknown)");
	tc_eq(pvm_setopt(PvmFragSize, 10), PvmBadParam,
	    "pvm_setopt PvmFragSize 10");
	tc_eq(pvm_setopt(9999, 1), PvmBadParam, "pvm_setopt unknown option");
	tc_eq(pvm_recvinfo("pvmt no such entry", 0, 0), PvmNotFound,
	    "pvm_recvinfo of a missing name");
	tc_eq(pvm_parent(), PvmNoParent, "pvm_parent");
	tc_check(strcmp(pvm_version(), "3.4.6") == 0 ||
	             strncmp(pvm_version(), "3.4", 3) == 0,
	    "pvm_version '%s' starts with 3.4", pvm_version());
}

int
main(void)
{
	tc_init("t_misuse");
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	tc_eq(pvm_setopt(PvmAutoErr, 0), 1, "PvmAutoErr default (previous)");
	buffers();
	unpacking();
	sending();
	misc();
	tc_check(self_ping(99), "task still works at the end");
	return tc_done();
}
