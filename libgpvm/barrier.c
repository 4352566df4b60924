/*
 * barrier.c: pvm_barrier.
 *
 * The first arrival fixes the count (-1: the group's size) and a
 * different count is PvmMismatch, as in PVM 3.4.  Unlike PVM 3.4, a
 * barrier that can no longer complete because a member left or died
 * fails with PvmNoTask at every waiter, and a dead server is PvmSysErr:
 * never a hang.  A count of 0 or below -1 is PvmMismatch, after the
 * group and membership checks, as in PVM 3.4 (whose server then stayed
 * stuck: every later barrier of the group said PvmMismatch; not here); a
 * count above GS_MAXINST is PvmBadParam.
 *
 * Two paths, chosen from the view alone, so every member of a group
 * takes the same one:
 *
 * - Shared memory (every member and pvmgs on this host, the group has a
 *   segment):
 *   arrivals are counted in the group's segment (gseg.h) and the last
 *   one wakes the others with one futex call.  No message moves, so a
 *   16-member barrier on 2 cores costs a few context switches instead
 *   of 48 frames through the pvmd and pvmgs.  pvmgs stays the authority:
 *   it writes the group's size there and fails a barrier whose member
 *   left or died.  A waiter checks every GB_CHECK_MS that pvmgs lives.
 *   After the release a member whose view is older than the version in
 *   the segment fetches the view, so views are current after a barrier,
 *   as on the server path.
 * - Through pvmgs (a group without a segment, or spread over hosts):
 *   one request and one release per member (gsproto.h).
 */
#include <stdatomic.h>
#include <string.h>

#include "gpvm.h"
#include "gseg.h"
#include "spin.h"
#include "tid.h"

/* How often a waiter checks that pvmgs is still alive. */
#define GB_CHECK_MS 50

/* The server path: one request, released by the server's multicast. */
static int
gb_server(const char *group, int count)
{
	struct gpvm_req rq;
	int cc;

	if ((cc = gpvm_req_begin(&rq)) < 0) {
		return cc;
	}
	pvm_pkstr((char *)group);
	pvm_pkint(&count, 1, 1);
	cc = gpvm_req_call(&rq, GS_BARRIER);
	gpvm_req_end(&rq);
	return cc < 0 ? cc : 0;
}

/* What a spin on the end of a generation looks at. */
struct gb_look {
	struct gseg *s;
	int inst;
	uint32_t gen;
};

static int
gb_look_ended(void *arg)
{
	struct gb_look *l = arg;

	return gseg_ended(l->s, l->inst, l->gen);
}

/*
 * Wait for generation gen to end.  A memory-only spin first when the
 * members fit the CPUs (spin_hot_us), then a yielding spin (up to
 * SPIN_COLL_MAX_US) when spinning has paid lately (common/spin.h): with
 * few members per core the release often comes within microseconds.
 */
static int
gb_wait(struct gseg *s, int inst, uint32_t gen, int hot)
{
	static struct spin_budget hbudget = SPIN_BUDGET_INIT(SPIN_HOT_US);
	static struct spin_budget budget = SPIN_BUDGET_INIT(SPIN_COLL_MAX_US);
	struct gb_look look = {s, inst, gen};
	int r;

	spin_window_update(&hbudget, &budget);
	if ((r = spin_hot(&hbudget, gb_look_ended, &look, hot)) != 0 ||
	    (r = spin_wait(&budget, gb_look_ended, &look)) != 0) {
		return r;
	}
	while ((r = gseg_ended(s, inst, gen)) == 0) {
		gseg_sleep(s, gen, GB_CHECK_MS);
		if ((r = gseg_ended(s, inst, gen)) != 0) {
			break;
		}
		/* Read pending notifies; a dead server fails the wait. */
		if ((r = gpvm_enter()) < 0 || (r = gpvm_server_check()) < 0) {
			return r;
		}
	}
	return r;
}

/* The shared-memory path for a member on view v. */
static int
gb_shared(const char *group, struct gpvm_view *v, int count)
{
	uint32_t gen, version;
	struct gseg *s;
	const struct gpvm_view *now;
	int inst = v->myinst, cc;

	if ((s = gpvm_view_seg(v)) == NULL) {
		return PvmSysErr;
	}
	if ((cc = gseg_arrive(s, inst, count, &gen)) == 0) {
		cc = gb_wait(s, inst, gen, spin_hot_us(v->nmembers) != 0);
	}
	if (cc < 0) {
		return cc;
	}
	/*
	 * Views are current after a barrier: catch up with the server's.
	 * The version may also count changes made after the release (a
	 * member that left at once): the fetch then brings those too, or
	 * fails for a group that is gone -- which the next call reports;
	 * this barrier did complete.
	 */
	version = atomic_load(&s->version);
	now = gpvm_view_peek(group);
	if (now == NULL || (int32_t)(now->version - version) < 0) {
		gpvm_view_refresh(group);
	}
	return 0;
}

/* Block until count members of group (-1: all) have called. */
int
pvm_barrier(char *group, int count)
{
	struct gpvm_view *v;
	int cc;

	/*
	 * The cached view, when the group's segment says it is current,
	 * without looking for pushes (a poll(2) of the pvmd socket, about a
	 * third of a 2-member barrier's time); else as gpvm_view_live, which
	 * reads them and checks the name first.
	 */
	if ((cc = gpvm_view_fast(group, &v)) < 0 ||
	    (cc = gpvm_server_check()) < 0) {
		return gpvm_err("pvm_barrier", cc);
	}
	if (v->myinst < 0) {
		return gpvm_err("pvm_barrier", PvmNotInGroup);
	}
	/* PVM 3.4's server checks the count last, with this answer. */
	if (count == 0 || count < -1) {
		return gpvm_err("pvm_barrier", PvmMismatch);
	}
	if (count > GS_MAXINST) {
		return gpvm_err("pvm_barrier", PvmBadParam);
	}
	if (v->segid != 0 && gpvm_view_local(v)) {
		cc = gb_shared(group, v, count);
	} else {
		cc = gb_server(group, count);
	}
	return gpvm_err("pvm_barrier", cc);
}
