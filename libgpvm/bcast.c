/*
 * bcast.c: pvm_bcast, the active send buffer to every other member.
 *
 * The member list comes from the caller's view of the group (no server
 * round trip when the view is current), the caller is left out, and one
 * pvm_mcast sends the message in the caller's own context with the
 * caller's tag, so members receive it with an ordinary pvm_recv.  Anyone
 * may call, member or not.  As in PVM 3.4, membership changes that the
 * caller has not yet seen are not reflected: a frozen group's cached
 * table serves even after a member left it (the group is dead for the
 * collectives); a dead group the caller holds no table of is PvmNoGroup.
 */
#include <stdlib.h>

#include "gpvm.h"

/* Send the active send buffer to all members of group but the caller. */
int
pvm_bcast(char *group, int msgtag)
{
	struct gpvm_view *v;
	int *to, n = 0, me, i, cc;

	if ((cc = gpvm_view(group, &v)) < 0) {
		return gpvm_err("pvm_bcast", cc);
	}
	if (v->frozen == GS_DEAD) {
		return gpvm_err("pvm_bcast", PvmNoGroup);
	}
	if (msgtag < 0) {
		return gpvm_err("pvm_bcast", PvmBadParam);
	}
	me = pvm_mytid();
	if ((to = malloc((size_t)(v->ninst + 1) * sizeof(*to))) == NULL) {
		return gpvm_err("pvm_bcast", PvmNoMem);
	}
	for (i = 0; i < v->ninst; i++) {
		if (v->tids[i] != -1 && v->tids[i] != me) {
			to[n++] = v->tids[i];
		}
	}
	/* PVM 3.4: nobody to send to (alone or empty) is PvmNoInst. */
	cc = n == 0 ? PvmNoInst : pvm_mcast(to, n, msgtag);
	free(to);
	return gpvm_err("pvm_bcast", cc < 0 ? cc : 0);
}
