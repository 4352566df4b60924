/*
 * route.c: the routing decision.  Pure: the destination tid's host part
 * decides, so adding peer pvmds later only adds ROUTE_PEER users.
 */
#include "pvmd.h"

/* Where a frame from `src` to `dst` goes, seen from host `myhost`. */
enum route_kind
route_decide(int dst, int src, int myhost, int *hostp)
{
	uint32_t d = (uint32_t)dst;
	int host = tid_host(dst);

	*hostp = 0;
	if (dst == TID_LOCAL_PVMD)
		return ROUTE_PVMD;
	if (tid_is_pvmd(dst)) {
		if (host == myhost)
			return ROUTE_PVMD;
		*hostp = host;
		return ROUTE_PEER;
	}
	if (tid_is_mcast(dst)) {
		/* One-shot address of the sender itself, nobody else's. */
		if ((d & ~TID_MCAST_BIT) == (uint32_t)src && tid_is_task(src))
			return ROUTE_MCAST;
		return ROUTE_DROP;
	}
	if (tid_is_task(dst)) {
		if (host == myhost)
			return ROUTE_TASK;
		*hostp = host;
		return ROUTE_PEER;
	}
	return ROUTE_DROP;
}

/* Name of a route kind, for logs. */
const char *
route_kind_str(enum route_kind k)
{
	switch (k) {
	case ROUTE_DROP:
		return "drop";
	case ROUTE_TASK:
		return "task";
	case ROUTE_PVMD:
		return "pvmd";
	case ROUTE_PEER:
		return "peer";
	case ROUTE_MCAST:
		return "mcast";
	}
	return "?";
}
