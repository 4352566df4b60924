/*
 * gsproto.h: the protocol between libgpvm3 and the group server pvmgs.
 *
 * pvmgs is an ordinary task.  It registers its tid in mailbox class
 * "pvmgs" (PvmMboxDefault, index 0, body: int tid), so any task can find
 * it; a second server that loses the race gets PvmDenied and exits.
 *
 * Every group message travels in context SYSCTX_DG with a negative tag
 * (below), so it can match neither a user's receive nor the collective
 * data the members exchange (which uses tags >= 0 in SYSCTX_DG).  Bodies
 * are XDR (PvmDataDefault), packed with pvm_pk* and read with pvm_upk*.
 * A client has at most one request outstanding; the reply carries the
 * request's tag and sequence number.  Everything the server sends to a
 * member takes one path (through the pvmds), so per-pair order holds:
 * the pushes of a change reach a member before a later barrier release.
 *
 *   view  = str name, int version, int state, int segid, int ninst,
 *           ninst x int tid (instance order, -1 for a hole)
 *           segid: the group's barrier segment (gseg.h), 0 if none
 *           state: GS_DYNAMIC, GS_FROZEN or GS_DEAD (frozen, then a
 *           member left or died: collectives, barriers and freezes
 *           on it say PvmNoGroup, joins PvmNotInGroup; its view still
 *           tells the members left, as PVM 3.4's server does)
 *
 *   GS_JOIN     req: int seq, str group
 *               rep: int seq, int inst (or error), view if inst >= 0
 *   GS_LEAVE    req: int seq, str group
 *               rep: int seq, int status
 *   GS_VIEW     req: int seq, str group
 *               rep: int seq, int status, view if status >= 0
 *               (getinst, gettid, gsize, bcast, gather when the caller's
 *               cache cannot answer)
 *   GS_BARRIER  (only for groups with segid 0, or spread over hosts)
 *               req: int seq, str group, int count (-1: group size)
 *               rep: int seq, int status.  Sent when the barrier is
 *               released (one pvm_mcast to all waiters, seq 0) or fails
 *               (PvmNoTask: a member left or died so it can never
 *               complete), or at once for a caller's own error
 *               (PvmNoGroup, PvmNotInGroup, PvmMismatch; PvmBadParam
 *               for a count below 1 or a caller that waits there already).
 *   GS_FREEZE   req: int seq, str group, int size (-1: group size)
 *               rep: int seq, int size (or error), view if size >= 0;
 *               sent to every caller when `size` members have called.
 *   GS_PUSH     server -> every member (not the requester) after each
 *               change of a group: view.  A member applies it (in a
 *               message handler, as soon as it is read) if its version is
 *               newer than its cached one.
 *   GS_HELLO    server -> the task that spawned it, once registered:
 *               int tid.  (A server that lost the race just exits.)
 *   GS_DEADTID  pvmd -> server: TaskExit notify of a member, int tid.
 *   GS_PEERDEAD pvmd -> a client: TaskExit notify of a peer watched by
 *               gpvm_recv_from (wait.c), int tid; taken by a message
 *               handler registered for our pvmd's address only.
 *               (These two have positive tags, see below.)
 */
#ifndef GSPROTO_H
#define GSPROTO_H

#include <stdlib.h>

#include "pvm3.h"

#define GS_TAG(n) ((int)(0x80050000u | (unsigned)(n)))

#define GS_JOIN GS_TAG(1)
#define GS_LEAVE GS_TAG(2)
#define GS_VIEW GS_TAG(3)
#define GS_BARRIER GS_TAG(4)
#define GS_FREEZE GS_TAG(5)
#define GS_PUSH GS_TAG(6)
#define GS_HELLO GS_TAG(7)
/*
 * TaskExit notifies.  Our pvmd refuses negative notify tags, so these two
 * are positive; a notify is told apart from collective data that uses the
 * same tag by its source, which is a pvmd (TID_PVMD_BIT set), never a task.
 */
#define GS_DEADTID 0x3fff0008
#define GS_PEERDEAD 0x3fff0009

/* Group states in a view. */
#define GS_DYNAMIC 0
#define GS_FROZEN 1
#define GS_DEAD 2

/* The mailbox class the server registers in. */
#define GS_MBOX "pvmgs"

/*
 * Group names have no length limit (PVM 3.4 takes names of a megabyte):
 * both ends allocate them, with gs_upk_name below.
 */

/* Most instances a group can have (a barrier segment's slots, gseg.h). */
#define GS_MAXINST 65535

/*
 * Unpack a name (packed with pvm_pkstr) from the active receive buffer
 * into a malloc'd string; NULL if malformed or out of memory.
 * pvm_upkstr has no bound, so the length word is read first and checked
 * against the message, which a hostile one cannot make us exceed.
 */
static inline char *
gs_upk_name(void)
{
	int len = 0, bytes = 0;
	char *name;

	if (pvm_bufinfo(pvm_getrbuf(), &bytes, NULL, NULL) < 0 ||
	    pvm_upkint(&len, 1, 1) < 0 || len < 1 || len > bytes ||
	    (name = malloc((size_t)len)) == NULL) {
		return NULL;
	}
	if (pvm_upkbyte(name, len, 1) < 0 || name[len - 1] != '\0') {
		free(name);
		return NULL;
	}
	return name;
}

#endif /* GSPROTO_H */
