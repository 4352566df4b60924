/*
 * notimpl.c: PVM 3.4 calls this implementation does not provide.  They
 * exist so that programs link; each reports PvmNotImpl.
 *
 *  - pvm_reg_hoster, pvm_reg_tasker: PVM lets one task take over
 *    starting pvmds (hoster) or starting tasks (tasker) through extra
 *    pvmd protocols (SM_*, TM_HOSTER, TM_TASKER).  Our pvmd has no such
 *    hooks.  (pvm_reg_rm: rm.c; pvm_reg_tracer: tracer.c.)
 */
#include "ctl.h"

/* Become the hoster: not available. */
int
pvm_reg_hoster(void)
{
	return lpvm_err("pvm_reg_hoster", PvmNotImpl);
}

/* Become the tasker: not available. */
int
pvm_reg_tasker(void)
{
	return lpvm_err("pvm_reg_tasker", PvmNotImpl);
}
