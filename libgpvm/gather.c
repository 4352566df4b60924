/*
 * gather.c: pvm_gather and pvm_scatter.
 *
 * A gather or scatter of at most 64 KiB a member in a group whose
 * members all live on this host takes the shared-memory path instead
 * (gather_shm.c; every member decides the same from its view).  The
 * rest of this comment is the message path.
 *
 * Gather: every member sends its `count` items to the root; the root puts
 * instance i's items at result[i * count] (its own copied locally),
 * receiving from each member by name in instance order.  Scatter is the
 * mirror: the root sends slice i to instance i, each member receives its
 * slice from the root.  Cost: n - 1 messages, all through the root, as in
 * PVM 3.4 -- the root's link is the bottleneck either way.
 *
 * Members come from the caller's cached view (no server round trip in
 * steady state); instances must be 0 .. n-1 without holes (PvmNoInst
 * otherwise, as PVM 3.4).  Data travels XDR-encoded in context SYSCTX_DG
 * with the caller's tag; the user's buffers and context are untouched.
 * Waits use gpvm_recv_from, so a member or root that dies turns into
 * PvmNoTask instead of PVM 3.4's hang; the root still collects from every
 * live member before returning the error, so nothing stale is left behind.
 * Non-roots do not wait in a gather (the send is asynchronous).
 *
 * The instance table is copied at the start (a push may change the
 * cached view while we wait), and the call is registered with wait.c
 * (gpvm_coll): a newer view in which the awaited member no longer holds
 * its instance, or the root no longer holds rootginst, ends the wait with
 * PvmMismatch instead of waiting for a message that will not come.
 */
#include <stdlib.h>
#include <string.h>

#include "gpvm.h"
#include "tid.h"

/* Send n elements at p to tid with tag in SYSCTX_DG; user state kept. */
static int
g_send(int tid, int tag, int type, void *p, int n)
{
	int mine, old, ctx, cc;

	if ((mine = pvm_mkbuf(PvmDataDefault)) < 0) {
		return mine;
	}
	old = pvm_setsbuf(mine);
	if ((cc = gpvm_pack(type, p, n)) >= 0) {
		ctx = pvm_setcontext(SYSCTX_DG);
		cc = pvm_send(tid, tag);
		pvm_setcontext(ctx);
	}
	pvm_setsbuf(old);
	pvm_freebuf(mine);
	return cc < 0 ? cc : 0;
}

/* Receive n elements from tid with tag into p; user state kept. */
static int
g_recv(int tid, int tag, int type, void *p, int n)
{
	int b, saved, cc;

	if ((b = gpvm_recv_from(tid, tag)) < 0) {
		return b;
	}
	saved = pvm_setrbuf(b);
	cc = gpvm_unpack(type, p, n);
	pvm_setrbuf(saved);
	pvm_freebuf(b);
	return cc < 0 ? cc : 0;
}

/* A gather or scatter in progress: the instance table it started from. */
struct g_call {
	struct gpvm_coll coll;
	int *tids;
	int ninst;
	int rootinst;
};

/* gpvm_coll test: in view v, does peer still hold its instance and the
 * root its own? */
static int
g_affected(const struct gpvm_view *v, int peer, void *arg)
{
	const struct g_call *c = arg;
	int i;

	if (v->ninst <= c->rootinst ||
	    v->tids[c->rootinst] != c->tids[c->rootinst]) {
		return 1;
	}
	for (i = 0; i < c->ninst; i++) {
		if (c->tids[i] == peer) {
			return i >= v->ninst || v->tids[i] != peer;
		}
	}
	return 1;
}

/* Copy v's table into c and register the call.  0 or PvmNoMem. */
static int
g_begin(struct g_call *c, const struct gpvm_view *v, const char *group,
    int rootinst)
{
	c->ninst = v->ninst;
	c->rootinst = rootinst;
	if ((c->tids = malloc((size_t)v->ninst * sizeof(int))) == NULL) {
		return PvmNoMem;
	}
	memcpy(c->tids, v->tids, (size_t)v->ninst * sizeof(int));
	c->coll.group = group;
	c->coll.version = v->version;
	c->coll.affected = g_affected;
	c->coll.arg = c;
	gpvm_coll_begin(&c->coll);
	return 0;
}

/* Unregister the call. */
static void
g_end(struct g_call *c)
{
	gpvm_coll_end();
	free(c->tids);
}

/*
 * Checks common to both calls; on success *vp is the view and *rootp the
 * root's tid.  `buf` is the array the caller must supply (data for a
 * gather, result for a scatter).
 */
static int
g_setup(const void *buf, int count, int type, int tag, char *group,
    int rootinst, struct gpvm_view **vp, int *rootp)
{
	struct gpvm_view *v;
	int cc;

	if (count <= 0 || buf == NULL || gpvm_type_size(type) == 0 || tag < 0) {
		return PvmBadParam;
	}
	if ((cc = gpvm_view_fast(group, &v)) < 0) {
		return cc;
	}
	if (v->myinst < 0) {
		return PvmNotInGroup;
	}
	if (rootinst < 0 || rootinst >= v->ninst || v->tids[rootinst] == -1 ||
	    v->nmembers != v->ninst) {
		return PvmNoInst;
	}
	*vp = v;
	*rootp = v->tids[rootinst];
	return 0;
}

/* Collect count items from every member into the root's result. */
int
pvm_gather(void *result, void *data, int count, int datatype, int msgtag,
    char *group, int rootginst)
{
	struct gpvm_view *v;
	struct g_call gc;
	size_t chunk;
	int root, i, me, cc, err = 0;

	cc = g_setup(data, count, datatype, msgtag, group, rootginst, &v,
	    &root);
	if (cc < 0) {
		return gpvm_err("pvm_gather", cc);
	}
	me = v->myinst;
	if (me == rootginst && result == NULL) {
		return gpvm_err("pvm_gather", PvmBadParam);
	}
	if (gpvm_shm_fits(v, GDATA_GATHER, (size_t)count * gpvm_type_size(datatype))) {
		return gpvm_err("pvm_gather", gpvm_gather_shm(result, data,
		    count, datatype, msgtag, v, rootginst));
	}
	if (me != rootginst) {
		return gpvm_err("pvm_gather",
		    g_send(root, msgtag, datatype, data, count));
	}
	if ((cc = g_begin(&gc, v, group, rootginst)) < 0) {
		return gpvm_err("pvm_gather", cc);
	}
	chunk = (size_t)count * gpvm_type_size(datatype);
	memmove((char *)result + (size_t)me * chunk, data, chunk);
	for (i = 0; i < gc.ninst; i++) {
		if (i == me) {
			continue;
		}
		cc = g_recv(gc.tids[i], msgtag, datatype,
		    (char *)result + (size_t)i * chunk, count);
		if (cc < 0 && err == 0) {
			err = cc;
		}
	}
	g_end(&gc);
	return gpvm_err("pvm_gather", err);
}

/* Send slice i of the root's data to instance i; each gets its slice. */
int
pvm_scatter(void *result, void *data, int count, int datatype, int msgtag,
    char *group, int rootginst)
{
	struct gpvm_view *v;
	struct g_call gc;
	size_t chunk;
	int root, i, me, cc, err = 0;

	cc = g_setup(result, count, datatype, msgtag, group, rootginst, &v,
	    &root);
	if (cc < 0) {
		return gpvm_err("pvm_scatter", cc);
	}
	me = v->myinst;
	if (me == rootginst && data == NULL) {
		return gpvm_err("pvm_scatter", PvmBadParam);
	}
	if (gpvm_shm_fits(v, GDATA_SCATTER, (size_t)count * gpvm_type_size(datatype))) {
		return gpvm_err(
		    "pvm_scatter", gpvm_scatter_shm(result, data, count,
		                       datatype, msgtag, v, rootginst));
	}
	if (me != rootginst) {
		if ((cc = g_begin(&gc, v, group, rootginst)) < 0) {
			return gpvm_err("pvm_scatter", cc);
		}
		cc = g_recv(root, msgtag, datatype, result, count);
		g_end(&gc);
		return gpvm_err("pvm_scatter", cc);
	}
	chunk = (size_t)count * gpvm_type_size(datatype);
	for (i = 0; i < v->ninst; i++) {
		if (i == me) {
			continue;
		}
		cc = g_send(v->tids[i], msgtag, datatype,
		    (char *)data + (size_t)i * chunk, count);
		if (cc < 0 && err == 0) {
			err = cc;
		}
	}
	memmove(result, (char *)data + (size_t)me * chunk, chunk);
	return gpvm_err("pvm_scatter", err);
}
