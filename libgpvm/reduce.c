/*
 * reduce.c: pvm_reduce, the driver.  It checks every argument on every
 * member before any message moves (so a bad call fails everywhere with
 * the same code instead of hanging the root, as PVM 3.4 could), finds the
 * group's view (cached: no server round trip in steady state), saves the
 * user's buffers, context and routing option, runs the algorithm
 * (reduce_binomial.c) in context SYSCTX_DG with the user's msgtag, and
 * puts everything back.
 *
 * Checks, in this order: func NULL, count <= 0 (as PVM 3.4), data NULL,
 * a datatype that is unknown or PVM_STR, a built-in function that does not
 * support the datatype, msgtag < 0: PvmBadParam.  Group NULL or "":
 * PvmNullGroup; no such group: PvmNoGroup; caller not a member:
 * PvmNotInGroup; no member with instance rootinst: PvmNoInst.
 *
 * Errors during the call (reduce_binomial.c): a user function's *info < 0
 * is returned as is; PvmNoTask if a member below died; PvmMismatch if
 * members disagree on count or on the group (one applied a join, leave or
 * death that another had not seen yet: PVM leaves a reduce during a
 * membership change undefined; a barrier after the change avoids it), or
 * if, while a member waits for a child, the group changes so that the
 * child would no longer send to it.
 * The root returns the first error; other members return the errors they
 * saw themselves (0 if none).  Errors are reported per PvmAutoErr like
 * libpvm3's ("pvm_reduce()").
 *
 * Differences from PVM 3.4: non-root members' data holds partial
 * results afterwards (PVM: "undefined"; its host coordinators' data was
 * overwritten too);
 * results are bit-identical run to run (fixed combining order).
 */
#include "gpvm.h"
#include "tid.h"

/* The argument checks that need no group: 0 or PvmBadParam. */
static int
reduce_check_args(gpvm_reduce_fn func, void *data, int count, int datatype,
    int msgtag)
{
	if (func == NULL || count <= 0 || data == NULL ||
	    gpvm_type_size(datatype) == 0 ||
	    !gpvm_op_supports(func, datatype) || msgtag < 0) {
		return PvmBadParam;
	}
	return 0;
}

/* Root and caller tids from the view: 0, PvmNotInGroup or PvmNoInst. */
static int
reduce_members(const struct gpvm_view *v, int rootinst, int *root, int *me)
{
	if (v->myinst < 0 || v->myinst >= v->ninst) {
		return PvmNotInGroup;
	}
	if (rootinst < 0 || rootinst >= v->ninst || v->tids[rootinst] <= 0) {
		return PvmNoInst;
	}
	*root = v->tids[rootinst];
	*me = v->tids[v->myinst];
	return 0;
}

/* Run the algorithm with the user's state saved and put back. */
static int
reduce_run(struct gpvm_reduce *r, const struct gpvm_view *v, int root)
{
	struct gpvm_tree tree;
	int sbuf, rbuf, ctx, route, cc;

	if ((cc = gpvm_tree_build(v->tids, v->ninst, root, r->me, &tree)) < 0) {
		return cc;
	}
	if (tree.parent == 0 && tree.nchildren == 0) {
		return 0; /* a group of one: data already is the result */
	}
	r->tree = &tree;
	r->one_host = gpvm_view_local(v);
	sbuf = pvm_setsbuf(0);
	rbuf = pvm_setrbuf(0);
	ctx = pvm_setcontext(SYSCTX_DG);
	route = gpvm_route_direct();
	cc = gpvm_reduce_binomial(r);
	gpvm_route_restore(route);
	pvm_setcontext(ctx);
	pvm_setrbuf(rbuf);
	pvm_setsbuf(sbuf);
	return cc;
}

/* Combine every member's data with func; the result lands at rootinst. */
int
pvm_reduce(void (*func)(int *, void *, void *, int *, int *), void *data,
    int count, int datatype, int msgtag, char *group, int rootinst)
{
	struct gpvm_reduce r;
	struct gpvm_view *v;
	int root, cc;

	if ((cc = reduce_check_args(func, data, count, datatype, msgtag)) < 0 ||
	    (cc = gpvm_name_check(group)) < 0 ||
	    (cc = gpvm_view_fast(group, &v)) < 0 ||
	    (cc = reduce_members(v, rootinst, &root, &r.me)) < 0) {
		return gpvm_err("pvm_reduce", cc);
	}
	r.fn = func;
	r.data = data;
	r.count = count;
	r.datatype = datatype;
	r.esize = gpvm_type_size(datatype);
	r.tag = msgtag;
	r.group = group;
	r.version = v->version;
	r.tree = NULL;
	if (v->nmembers > 1 &&
	    gpvm_shm_fits(v, GDATA_REDUCE, (size_t)count * r.esize)) {
		cc = gpvm_reduce_shm(&r, v, rootinst);
	} else {
		cc = reduce_run(&r, v, root);
	}
	if (cc < 0) {
		return gpvm_err("pvm_reduce", cc);
	}
	return 0;
}
