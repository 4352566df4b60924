/*
 * sm.c: SM_* messages (include/pvmsdpro.h) that a task of this host
 * sends to its pvmd.  They arrive like control requests (to the pvmd's
 * address, PvmResvTids), in the sender's context.  A registered hoster's
 * or tasker's get no reply (their protocols have none); a resource
 * manager's (SM_EXEC, SM_ADD, SM_HANDOFF) are sched.c's, which also takes
 * them from tasks of other hosts.
 */
#include "pvmd.h"
#include "pvmsdpro.h"

int
sm_is_tag(int32_t tag)
{
	return tag >= (int32_t)SM_FIRST && tag <= (int32_t)SM_LAST;
}

void
sm_dispatch(struct conn *c, struct task *t, const struct wire_hdr *h,
    const uint8_t *body, size_t len)
{
	if (h->tag != (int32_t)SM_TASKX && h->tag != (int32_t)SM_STHOSTACK) {
		sched_dispatch(c, t->tid, h, body, len);
		return;
	}
	if (h->enc != WIRE_ENC_XDR) {
		log_warn("t%x: SM tag 0x%x not packed with PvmDataDefault: "
		         "ignored",
		    (unsigned)t->tid, (unsigned)h->tag);
		return;
	}
	switch (h->tag) {
	case (int32_t)SM_TASKX:
		tasker_on_taskx(t->tid, body, len);
		break;
	case (int32_t)SM_STHOSTACK:
		hoster_on_ack(t->tid, h->wid, body, len);
		break;
	}
}
