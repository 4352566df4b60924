/*
 * bcast.c: pvm_bcast, the active send buffer to every other member.
 *
 * The member list comes from the caller's view of the group (no server
 * round trip when the view is current, and no poll of the pvmd socket
 * when the group's segment says so: gpvm_view_cached), the caller is
 * left out, and one pvm_mcast sends the message in the caller's own
 * context with the caller's tag, so members receive it with an ordinary
 * pvm_recv.  Anyone may call, member or not.  As in PVM 3.4, membership
 * changes that the caller has not yet seen are not reflected: a frozen
 * group's cached table serves even after a member left it (the group is
 * dead for the collectives); a dead group the caller holds no table of
 * is PvmNoGroup.
 *
 * Route: as pvm_reduce does (gpvm_route_direct), a caller on the default
 * PvmAllowDirect sends with PvmRouteDirect for the call, so each member's
 * copy goes over a direct route (shared-memory rings on one host) once
 * it is open, instead of through the pvmd, which added a hop and a third
 * process to wake: 1 double to 1 member took 9.7 us through the pvmd
 * against Open MPI's 0.3 (bench/run-reduce.sh -k bcast).  Only for
 * groups of up to BCAST_ROUTES others: the caller keeps a route (two
 * rings) per member, and a bigger group's pvmd multicast stays cheap in
 * memory.
 */
#include <stdlib.h>

#include "gpvm.h"

#define BCAST_ROUTES 64

/* pvm_mcast, with collective routing when the list is short enough (see
 * the head comment). */
static int
bcast_send(int *to, int n, int msgtag)
{
	int route, cc;

	if (n > BCAST_ROUTES) {
		return pvm_mcast(to, n, msgtag);
	}
	route = gpvm_route_direct();
	cc = pvm_mcast(to, n, msgtag);
	gpvm_route_restore(route);
	return cc;
}

/* Send the active send buffer to all members of group but the caller. */
int
pvm_bcast(char *group, int msgtag)
{
	/* Up to BCAST_ROUTES instances the list is on the stack. */
	int local[BCAST_ROUTES], *to = local;
	struct gpvm_view *v;
	int n = 0, me, i, cc;

	if ((cc = gpvm_view_cached(group, &v)) < 0) {
		return gpvm_err("pvm_bcast", cc);
	}
	if (v->frozen == GS_DEAD) {
		return gpvm_err("pvm_bcast", PvmNoGroup);
	}
	if (msgtag < 0) {
		return gpvm_err("pvm_bcast", PvmBadParam);
	}
	me = pvm_mytid();
	if (v->ninst > BCAST_ROUTES &&
	    (to = malloc((size_t)v->ninst * sizeof(*to))) == NULL) {
		return gpvm_err("pvm_bcast", PvmNoMem);
	}
	for (i = 0; i < v->ninst; i++) {
		if (v->tids[i] != -1 && v->tids[i] != me) {
			to[n++] = v->tids[i];
		}
	}
	/* PVM 3.4: nobody to send to (alone or empty) is PvmNoInst. */
	cc = n == 0 ? PvmNoInst : bcast_send(to, n, msgtag);
	if (to != local) {
		free(to);
	}
	return gpvm_err("pvm_bcast", cc < 0 ? cc : 0);
}
