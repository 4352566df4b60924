/*
 * fuzz_lpvm_stub.c: what libpvm's message buffers (msgbuf.c, pack.c,
 * packf.c) and its error table (errors.c) need from the rest of the
 * library, for the targets that build only those.  The rest would bring
 * the transport along, which could find and talk to a pvmd of this user.
 */
#include "lpvm.h"

#include <stdlib.h>

/* Never enrolled; PvmAutoErr 0, so errors are returned, not printed. */
struct lpvm_state lpvm;

int
pvm_exit(void)
{
	return 0;
}

/* Nothing is ever lent to a bulk offer here. */
void
lpvm_bulk_orphan(struct lpvm_msg *m)
{
	(void)m;
	abort();
}

/* There is no receive queue: no buffer is ever on it. */
void
lpvm_queue_unlink(struct lpvm_msg *m)
{
	(void)m;
}
