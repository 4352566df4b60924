/*
 * gpvm.h: libgpvm3 private interfaces (group library and collectives).
 *
 * Membership lives in the group server (pvmgs, an ordinary task found
 * through mailbox class "pvmgs").  Collective data never passes through
 * it: every member caches a view of the group (instance -> tid), so a
 * reduce, gather or scatter costs no server round trip in steady state.
 * All group traffic uses context SYSCTX_DG, so it never matches a user's
 * receive.
 */
#ifndef GPVM_H
#define GPVM_H

#include <stddef.h>
#include <stdint.h>

#include "pvm3.h"
#include "gsproto.h"
#include "gdata.h"
#include "optab.h"

struct gseg;

/* A member's picture of one group (owned by the cache in client.c). */
struct gpvm_view {
	char *name;       /* allocated, any length */
	uint32_t version; /* bumped by the server at every join/leave/freeze */
	int frozen;       /* static group: the view never changes */
	int ninst;        /* size of tids[]: highest instance + 1 */
	int *tids;        /* tids[inst], -1 for a hole */
	int nmembers;     /* members (non-hole entries) */
	int myinst;       /* caller's instance, or -1 if not a member */
	uint32_t segid;   /* barrier segment (gseg.h), 0: barriers via pvmgs */
	/* Shared-memory collectives made on this version (gdata.h): the
	 * call number of the next one.  Reset when the version changes. */
	uint32_t ncalls;
	/*
	 * A frozen group that a member left is dead.  As in PVM 3.4, the
	 * frozen table keeps answering pvm_getinst/gettid/gsize, while
	 * collectives on it fail with PvmNoGroup (gpvm_view_live).
	 */
	int dead;
};

/* ---- client.c ---- */

/* gpvm_view for a collective: PvmNoGroup for a dead frozen group. */
int gpvm_view_live(const char *group, struct gpvm_view **view);
/*
 * gpvm_view_live without its poll of the pvmd socket when the cached
 * view is a member's and the group's barrier segment (mapped) shows the
 * same version: pvmgs writes a new version there before it answers the
 * join, leave or freeze that made it, so no push that changes this view
 * can be pending.  Pushes for other groups and notifies wait for the
 * next call that polls.  Saves a system call per collective.
 */
int gpvm_view_fast(const char *group, struct gpvm_view **view);
/* The same fast path with gpvm_view as the fallback (a dead frozen
 * group's table still serves): pvm_bcast. */
int gpvm_view_cached(const char *group, struct gpvm_view **view);

/*
 * The current view of `group` for the caller: from the cache when it is
 * known to be current (frozen, or no change announced since), else from
 * the server.  Returns 0 or PvmNullGroup/PvmNoGroup/PvmSysErr...
 * The view stays valid until the next group call.
 */
int gpvm_view(const char *group, struct gpvm_view **view);

/*
 * Consistency of views (client.c): the server pushes the new view to
 * every member after each join, leave, death or freeze.  A message
 * handler (pvm_addmhf) applies a push as soon as libpvm reads it, inside
 * whatever libpvm call is running, and every group call first lets
 * libpvm read what the pvmd has sent (one poll(2) when nothing is there).
 * So a member's view may lag a concurrent change (a collective that runs
 * while membership changes is undefined in PVM 3.4; here it ends in an
 * error, see gpvm_coll), but once a barrier on the group has returned,
 * or the group is frozen, every member's view is the server's (a server
 * release leaves after the pushes on the same FIFO path; after a
 * shared-memory release a member fetches the view if the segment's
 * version is newer, barrier.c).
 * Non-members cache only frozen groups; otherwise each of their queries
 * asks the server.  Because pushes are applied at any time, a view (and
 * its tids[]) may change under a collective that waits: copy what is
 * needed before the first wait.
 */
/* Start of every public group call: enrol, notice a new tid (then drop
 * every cache), apply pushed views.  0 or a Pvm* error. */
int gpvm_enter(void);
/* PvmNullGroup for NULL or "", else 0 (names have no length limit). */
int gpvm_name_check(const char *group);
/* For the return of a public call: set pvm_errno, report a negative code
 * per PvmAutoErr as libpvm3 does ("libpvm [t..]: pvm_x(): text"), and
 * return code.  E.g. return gpvm_err("pvm_reduce", cc); */
int gpvm_err(const char *call, int code);

/*
 * One request to the server.  gpvm_req_begin saves the user's send and
 * receive buffers and context and makes a private send buffer active,
 * holding the sequence number; the caller packs the rest of the body.
 * gpvm_req_call sends it with `tag` (finding or starting the server) and
 * waits for the reply: it returns the reply's status (>= 0 or a Pvm*
 * code from the server) with the reply as the active receive buffer
 * positioned after the status, or PvmSysErr if the server died or could
 * not be started.  gpvm_req_end frees both and restores the user's state;
 * it must follow every gpvm_req_begin that returned 0.
 */
struct gpvm_req {
	int sbuf, rbuf, ctx; /* the user's, restored by gpvm_req_end */
	int mysbuf, myrbuf;
	int seq;
};
int gpvm_req_begin(struct gpvm_req *rq);
int gpvm_req_call(struct gpvm_req *rq, int tag);
void gpvm_req_end(struct gpvm_req *rq);
/* Store a view unpacked from the active receive buffer (after a reply's
 * status, or a push) in the cache.  0 or PvmBadMsg/PvmNoMem. */
int gpvm_view_input(int from_push);
/* Forget the cached view of a group (after pvm_lvgroup). */
void gpvm_view_forget(const char *group);
/* The cached view of group, without asking anyone; NULL if none. */
const struct gpvm_view *gpvm_view_peek(const char *group);
/* Ask the server for group's view now (cache or not).  0 or an error. */
int gpvm_view_refresh(const char *group);
/*
 * The barrier segment of view v (from gpvm_view), mapped on first use and
 * kept with the cached view; NULL if it cannot be mapped.
 */
struct gseg *gpvm_view_seg(struct gpvm_view *v);
/* The data segment of the shared-memory collectives (gdata.h), likewise. */
struct gdata *gpvm_view_dseg(struct gpvm_view *v);
/*
 * Whether every member of v, and the server that keeps the group's
 * segments, is on our host: only then can the segments (files in this
 * host's private directory) serve the group.  Every member decides the
 * same from the same tids.
 */
int gpvm_view_local(const struct gpvm_view *v);
/* The group server's tid, 0 if not known yet. */
int gpvm_server_tid(void);
/*
 * PvmSysErr if the group server is known to have died (its TaskExit
 * notify has been read; then everything it told us is forgotten), else
 * 0.  Costs no message.
 */
int gpvm_server_check(void);

/* ---- wait.c: failure-aware receives for collectives ---- */

/*
 * Receive the next collective message from `tid` with `tag` in SYSCTX_DG
 * (tag < 0: a server reply, any other tag from tid is dropped), into a
 * new buffer (returned), without touching the user's active buffers,
 * context or matcher.  Every wait ends: on the message; PvmNoTask if
 * `tid` exits before it arrives (TaskExit notifies are requested once per
 * peer and recorded by a message handler); PvmMismatch if a collective
 * is registered (gpvm_coll_begin) and its group's view changes in a way
 * that means `tid` will not send (its `affected` test); PvmSysErr if our
 * pvmd is gone.  In both error cases the data our sockets already hold is
 * read first, so a message the peer sent before it died or moved is
 * still delivered.  Steady state: one targeted pvm_recv, no queue scan.
 */
int gpvm_recv_from(int tid, int tag);
/* Like gpvm_recv_from, but gives up after timeout_ms (>= 0) and returns 0
 * then; -1 waits forever. */
int gpvm_trecv_from(int tid, int tag, int timeout_ms);
/* Forget watched and dead tids (our own tid changed). */
void gpvm_wait_reset(void);
/* Whether tid's TaskExit notify has been read (tid was waited on). */
int gpvm_peer_dead(int tid);

/*
 * A collective in progress on `group`, built from the view with
 * `version`.  While it is registered, a newer view of the group (pushed
 * or already cached) ends a wait for peer p with PvmMismatch when
 * affected(view, p, arg) says p will no longer send us what we wait for.
 */
struct gpvm_coll {
	const char *group;
	uint32_t version;
	int (*affected)(const struct gpvm_view *v, int peer, void *arg);
	void *arg;
};
void gpvm_coll_begin(struct gpvm_coll *c);
void gpvm_coll_end(void);
/* client.c: a pushed view v was applied (called by the push handler). */
void gpvm_wait_view_changed(const struct gpvm_view *v);

/* ---- ops.c ---- */

/*
 * The reduce datatypes are PVM's codes in common/optab.h's type list
 * (OPTAB_PVM_TYPES); optab's internal codes from GPVM_NTYPES on are not
 * reduce datatypes.  PVM_STR is none either.
 */
#define GPVM_NTYPES OPTAB_PVM_NTYPES

/* Built-in reduce functions have the user-function signature. */
typedef void (*gpvm_reduce_fn)(int *, void *, void *, int *, int *);
/* Size in bytes of one element of a reduce datatype, or 0 if unknown
 * (PVM_STR and anything outside OPTAB_PVM_TYPES). */
size_t gpvm_type_size(int datatype);
/*
 * Whether a built-in function supports a datatype (so every member can
 * refuse a bad pair before any message moves).  User functions: 1.
 */
int gpvm_op_supports(gpvm_reduce_fn fn, int datatype);

/* ---- tree.c (pure) ---- */

/*
 * Hierarchical binomial tree over the members of a view, rooted at `root`
 * (a tid): inside each host a binomial tree over that host's members rooted
 * at the host leader (the root on its own host, else the member with the
 * lowest instance), then a binomial tree over the leaders rooted at the
 * root.  Children come out in a fixed order, so combining is deterministic.
 */
struct gpvm_tree {
	int parent; /* tid, or 0 at the root */
	int nchildren;
	int children[64]; /* tids, in the order to combine */
};
int gpvm_tree_build(
    const int *tids, int n, int root, int me, struct gpvm_tree *out);

/*
 * The k-nomial tree of the shared-memory collectives, over the instances
 * of one host's view (tids[i] <= 0: a hole), rooted at rootinst, as seen
 * by myinst: parent instance (-1 at the root) and children instances in
 * the order to combine.  radix 2 gives gpvm_tree_build's one-host tree;
 * radix >= the group's size a flat one.  0, or PvmBadParam (an instance
 * that is no member, radix < 2, more than GPVM_KTREE_MAX + 1 instances).
 */
#define GPVM_KTREE_MAX 64
struct gpvm_ktree {
	int parent;
	int nchildren;
	int children[GPVM_KTREE_MAX];
};
int gpvm_ktree_build(const int *tids, int ninst, int rootinst, int myinst,
    int radix, struct gpvm_ktree *out);

/* ---- reduce_binomial.c ---- */

/*
 * Pack n elements of a reduce datatype from p into the active send
 * buffer, or unpack them from the active receive buffer into p (also
 * used by gather and scatter).  The pvm_pk* / pvm_upk* result, or
 * PvmBadParam for PVM_STR or an unknown type.
 */
int gpvm_pack(int datatype, void *p, int n);
int gpvm_unpack(int datatype, void *p, int n);

/* One validated reduce, as the driver (reduce.c) hands it over. */
struct gpvm_reduce {
	gpvm_reduce_fn fn;
	void *data;   /* count elements; the result at the root */
	int count;    /* > 0 */
	int datatype; /* one of OPTAB_PVM_TYPES */
	size_t esize; /* gpvm_type_size(datatype) */
	int tag;      /* the user's msgtag (>= 0) */
	int me;       /* my tid */
	const char *group;
	uint32_t version; /* of the view the tree was built from */
	int one_host;     /* every member on this host (message tree only) */
	const struct gpvm_tree *tree;
};
/*
 * Run the reduce along the tree.  The caller has switched to context
 * SYSCTX_DG and detached the user's active send and receive buffers (both
 * 0); this function leaves no buffer of its own behind.  Returns 0, or
 * the first error seen here or reported by a child (a user function's
 * *info < 0, PvmNoTask for a child that died, PvmMismatch for members
 * that disagree on the count or the group's view, PvmNoMem...).
 */
int gpvm_reduce_binomial(const struct gpvm_reduce *r);

/* ---- coll_shm.c: the moves of the shared-memory collectives ---- */

/*
 * Whether a collective of `bytes` per member on view v uses shared
 * memory: the group has segments, more than one member, at most
 * GDATA_SLOTS instances, every member (and pvmgs) is on our host, and
 * bytes is within op's limit (GDATA_REDUCE: GDATA_LONG, else one chunk;
 * $GPVM_SHM_MAX, for tests, sets both: 0 forces the message paths).
 * Every member decides the same from its view and the call's arguments.
 */
int gpvm_shm_fits(const struct gpvm_view *v, int op, size_t bytes);

/* One shared-memory collective as this member runs it. */
struct gpvm_shm {
	struct gdata *d;
	struct gdata_want w; /* the call; tid and chunk set per wait; w.per
	                      * != 0: a reduce's part in the long place */
	int me;              /* my instance */
	int hot;             /* the group fits the CPUs (spin_hot_us) */
	size_t esize;        /* bytes of an element */
	int per;             /* elements a chunk holds */
	int nchunk;          /* chunks of count elements */
};
/* Start collective op (GDATA_REDUCE ...) of count elements per member
 * on view v, counting the call.  0 or PvmSysErr (no segment mapped). */
int gpvm_shm_begin(struct gpvm_shm *k, struct gpvm_view *v, int op, int tag,
    int datatype, int count);
/* The call is over for this member: readers and owners waiting on it
 * stop (gdata.h).  Must follow every gpvm_shm_begin of a reduce that
 * returned 0 (gather and scatter are not counted: a no-op). */
void gpvm_shm_end(struct gpvm_shm *k);
/* Elements in chunk `chunk` of the call's count. */
int gpvm_shm_chunk_len(const struct gpvm_shm *k, int chunk);
/*
 * Wait for chunk `chunk` from instance `from` (tid fromtid).  0: *data
 * is its elements, in place in the slot, until gpvm_shm_done.  Else the
 * error that ends from's part of the call (nothing to give back): its
 * status, PvmNoTask (died), PvmMismatch (left, another call...), or
 * PvmSysErr (pvmgs died).
 */
int gpvm_shm_wait(struct gpvm_shm *k, int from, int fromtid, int chunk,
    const void **data, struct gdata_seen *seen);
void gpvm_shm_done(struct gpvm_shm *k, int from, const struct gdata_seen *seen);
/* Deposit chunk `chunk` for instance `to` (tid totid): status 0 and n
 * elements at x, or an error status alone.  0 or PvmSysErr; in a
 * scatter (to's own place) also PvmNoTask or PvmMismatch when to's
 * holder died or left before it took its previous slice. */
int gpvm_shm_put(struct gpvm_shm *k, int to, int totid, int chunk, int status,
    const void *x, int n);

/* ---- reduce_shm.c ---- */

/*
 * Run the reduce through the group's data segment (gdata.h) along the
 * k-nomial tree rooted at rootinst; the same results and errors as
 * gpvm_reduce_binomial.  Needs no message and leaves the user's buffers
 * alone.
 */
int gpvm_reduce_shm(const struct gpvm_reduce *r, struct gpvm_view *v,
    int rootinst);

/* ---- gather_shm.c ---- */

/*
 * pvm_gather and pvm_scatter through the data segment, after gather.c's
 * checks (v without holes, gpvm_shm_fits).  0 or the first error.
 */
int gpvm_gather_shm(void *result, void *data, int count, int datatype,
    int tag, struct gpvm_view *v, int rootinst);
int gpvm_scatter_shm(void *result, void *data, int count, int datatype, int tag,
    struct gpvm_view *v, int rootinst);

/* ---- the route of collective messages ---- */

/*
 * Collective traffic goes between members directly (task to task)
 * rather than through the pvmd: measured with 8 tasks on one 2-core
 * host, a reduce of 1,048,576 doubles took 14 ms a call direct against
 * 49 ms through the pvmd (1 double: 12 against 15 us).  A user who chose
 * PvmDontRoute keeps it (no route is opened for them); the default
 * PvmAllowDirect is raised to PvmRouteDirect for the call.  Routes once
 * open stay open, as after any PvmRouteDirect send.  Returns the option
 * to give gpvm_route_restore.
 */
static inline int
gpvm_route_direct(void)
{
	int route = pvm_getopt(PvmRoute);

	if (route == PvmAllowDirect) {
		pvm_setopt(PvmRoute, PvmRouteDirect);
	}
	return route;
}

/* Put back the user's route option after gpvm_route_direct. */
static inline void
gpvm_route_restore(int route)
{
	if (route == PvmAllowDirect) {
		pvm_setopt(PvmRoute, route);
	}
}

#endif /* GPVM_H */
