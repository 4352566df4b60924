/*
 * sm.c: SM_* messages (include/pvmsdpro.h) that a registered hoster or
 * tasker sends to its pvmd.  They arrive like control requests (to the
 * pvmd's address, PvmResvTids), in the sender's context, and get no
 * reply: the protocols of pvm_reg_hoster and pvm_reg_tasker have none.
 */
#include "pvmd.h"
#include "pvmsdpro.h"

int
sm_is_tag(int32_t tag)
{
	return tag >= (int32_t)SM_FIRST && tag <= (int32_t)SM_LAST;
}

void
sm_dispatch(
    struct task *t, const struct wire_hdr *h, const uint8_t *body, size_t len)
{
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
	default:
		log_warn("t%x: SM tag 0x%x not handled here: ignored",
		    (unsigned)t->tid, (unsigned)h->tag);
		break;
	}
}
