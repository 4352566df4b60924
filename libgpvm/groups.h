/*
 * groups.h: the group table of pvmgs (pure: no PVM calls, no I/O).
 *
 * A group maps instance numbers to tids.  Join takes the lowest free
 * instance; a group whose last member leaves is deleted, so numbering
 * restarts at 0.  Every change (join, leave, freeze, death) bumps the
 * group's version, which members use to keep their cached views current.
 *
 * Barrier and freeze are counting points ("syncs"): the first arrival
 * fixes the count (-1 = the group's size when that request is processed),
 * a later arrival with another count gets PvmMismatch, and when `count`
 * arrivals are in, all are released at once.  When a member leaves or
 * dies, its arrivals are withdrawn; if the remaining members can then no
 * longer reach the count, every waiter is failed (PvmNoTask) rather than
 * left hanging -- PVM 3.4 would wait forever.  A frozen group whose member
 * leaves or dies becomes dead (GS_DEAD): its waiters fail with PvmNoGroup
 * and later barriers and freezes say PvmNoGroup, joins PvmNotInGroup, as
 * in PVM 3.4.
 */
#ifndef GROUPS_H
#define GROUPS_H

#include <stdint.h>

#include "gsproto.h"

struct gseg;
struct gdata;

/* Tids waiting at a barrier or freeze. */
struct gt_sync {
	int count; /* 0: none in progress */
	/*
	 * The count of the last sync that failed because members died or
	 * left, or the group's size before a death while no sync was in
	 * progress (0: none).  Later arrivals with that count fail at once
	 * while the group is smaller: without it, the survivors that arrive
	 * after the failure would wait for members that are gone.
	 */
	int broken;
	int nwait;
	int cap;
	int *waiters;
};

struct gt_group {
	char *name; /* allocated, any length */
	uint32_t version;
	int state;    /* GS_DYNAMIC, GS_FROZEN, GS_DEAD */
	int ninst;    /* slots in tids[] in use: highest instance + 1 */
	int cap;
	int *tids;    /* by instance, -1 = free */
	int nmembers;
	struct gt_sync barrier; /* for groups without a segment */
	struct gt_sync freeze;
	uint32_t segid;   /* barrier segment (pvmgs.c), 0: none */
	struct gseg *seg;
	struct gdata *dseg; /* data segment of the collectives (gdata.h) */
	struct gt_group *next;
};

struct gt_table {
	struct gt_group *head;
};

/* Waiters released or failed by an operation (owned by the caller,
 * free with gt_list_free). */
struct gt_list {
	int n;
	int cap;
	int *tids;
	int code; /* for failures: the error to give them */
};

void gt_init(struct gt_table *t);
void gt_fini(struct gt_table *t);
void gt_list_free(struct gt_list *l);

struct gt_group *gt_find(struct gt_table *t, const char *name);
/* Instance of tid in g, or -1. */
int gt_inst(const struct gt_group *g, int tid);
/* First group that has tid as a member, or NULL. */
struct gt_group *gt_first_with(struct gt_table *t, int tid);

/* Join: the new instance, or PvmDupGroup, PvmNotInGroup (frozen group),
 * PvmNoMem (also: GS_MAXINST members already). */
int gt_join(struct gt_table *t, const char *name, int tid);

/*
 * Leave (or death, `died` set): 0, PvmNoGroup or PvmNotInGroup.  Waiters
 * whose barrier or freeze can no longer complete are appended to failb /
 * failf with their error code.  *deleted is set when the group is gone.
 */
int gt_leave(struct gt_table *t, const char *name, int tid, int died,
    struct gt_list *failb, struct gt_list *failf, int *deleted);

/*
 * Arrive at a barrier: PvmNoGroup, PvmNotInGroup, PvmMismatch (also for a
 * count below 1, as PVM 3.4), PvmBadParam (tid waits there already) or
 * PvmNoMem for this caller alone; 0 = wait; 1 = released: every waiter
 * (this caller included) is appended to `release`.
 */
int gt_barrier(struct gt_table *t, const char *name, int tid, int count,
    struct gt_list *release);

/* Arrive at a freeze: as gt_barrier, plus PvmDupGroup if already frozen
 * (before the membership check), PvmMismatch if dead.  On release the
 * group is frozen. */
int gt_freeze(struct gt_table *t, const char *name, int tid, int size,
    struct gt_list *release);

#endif /* GROUPS_H */
