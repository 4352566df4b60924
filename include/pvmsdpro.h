/*
 * pvmsdpro.h: message tags between a pvmd and the tasks that take over
 * part of its work: a resource manager (pvm_reg_rm), a hoster, which
 * starts slave pvmds (pvm_reg_hoster), and a tasker, which starts tasks
 * (pvm_reg_tasker).
 *
 * The names and values are PVM 3.4.6's, so that a resource manager,
 * hoster or tasker written for PVM builds unchanged and reads the same
 * tags.  The body of each message is described in the man page of the
 * registration call and in docs/compat.md.  Such a task must call
 * pvm_setopt(PvmResvTids, 1) before it may send these tags.
 */
#ifndef _PVMSDPRO_H_
#define _PVMSDPRO_H_

/* Version of this protocol. */
#ifndef SDPROTOCOL
#define SDPROTOCOL 4302
#endif

/* The tags are consecutive from SM_FIRST. */
#define SM_FIRST 0x80040001
#define SM_SPAWN (SM_FIRST + 0)    /* task <-> manager, a spawn request */
#define SM_EXEC (SM_FIRST + 1)     /* manager -> pvmd: start tasks */
#define SM_EXECACK (SM_FIRST + 2)  /* pvmd -> manager: tasks started */
#define SM_TASK (SM_FIRST + 3)     /* task <-> manager, pvm_tasks */
#define SM_CONFIG (SM_FIRST + 4)   /* task <-> manager, pvm_config */
#define SM_ADDHOST (SM_FIRST + 5)  /* task <-> manager, pvm_addhosts */
#define SM_DELHOST (SM_FIRST + 6)  /* task <-> manager, pvm_delhosts */
#define SM_ADD (SM_FIRST + 7)      /* manager -> pvmd: add hosts */
#define SM_ADDACK (SM_FIRST + 8)   /* pvmd -> manager: hosts added */
#define SM_NOTIFY (SM_FIRST + 9)   /* task -> manager, pvm_notify */
#define SM_TASKX (SM_FIRST + 10)   /* a task exited: to manager, from tasker */
#define SM_HOSTX (SM_FIRST + 11)   /* pvmd -> manager: a host is gone */
#define SM_HANDOFF (SM_FIRST + 12) /* manager -> pvmd: a new manager */
#define SM_SCHED (SM_FIRST + 13)   /* task <-> manager, pvm_reg_rm */
#define SM_STHOST (SM_FIRST + 14)  /* pvmd -> hoster: start slaves */
#define SM_STHOSTACK (SM_FIRST + 15) /* hoster -> pvmd: their answers */
#define SM_STTASK (SM_FIRST + 16)    /* pvmd -> tasker: start a task */
#define SM_LAST (SM_FIRST + 16)

#endif /* _PVMSDPRO_H_ */
