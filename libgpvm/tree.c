/*
 * tree.c: the topology of the collectives, as a pure function.
 *
 * Two levels of binomial trees.  Inside each host, the members on that
 * host form a binomial tree rooted at the host's leader: the root itself
 * on the root's host, else the member with the lowest instance there.
 * The leaders then form a binomial tree rooted at the root.  So data
 * crosses between hosts only once per host (h - 1 messages over the
 * network), and the depth is at most ceil(log2 m) + ceil(log2 h) for m
 * members on the largest host and h hosts.
 *
 * Binomial tree over ranks 0..k-1 (rank 0 = the tree's root): the parent
 * of rank r > 0 is r with its lowest set bit cleared; the children of r
 * are r + 1, r + 2, r + 4, ... below r's lowest set bit (any for r = 0).
 * Ranks inside a host: the leader first, then the other members in
 * instance order.  Ranks among leaders: the root first, then the other
 * hosts in the order of their leaders' instances.
 *
 * Children are listed in a fixed order: the host-local children by
 * increasing distance (the small subtrees, which are ready first), then
 * the leaders of other hosts by increasing distance.  Everything depends
 * only on the instance table, the root and the caller, so every member
 * computes a consistent tree and a reduce combines in the same order on
 * every run.
 */
#include "gpvm.h"
#include "tid.h"

#include <stdlib.h>
#include <string.h>

/* Lowest set bit of r > 0. */
static int
tree_lowbit(int r)
{
	return r & -r;
}

/* Append the binomial children of rank r among a[0..k) to out. */
static int
tree_add_children(const int *a, int k, int r, struct gpvm_tree *out)
{
	int m, lim;

	lim = r == 0 ? k : tree_lowbit(r);
	for (m = 1; m < lim && r + m < k; m <<= 1) {
		if (out->nchildren >= (int)(sizeof(out->children) /
		    sizeof(out->children[0]))) {
			return PvmNoMem;
		}
		out->children[out->nchildren++] = a[r + m];
	}
	return 0;
}

/* Position of tid in a[0..k), or -1. */
static int
tree_rank(const int *a, int k, int tid)
{
	int i;

	for (i = 0; i < k; i++) {
		if (a[i] == tid) {
			return i;
		}
	}
	return -1;
}

/*
 * Members on `host` into a[]: `lead` first, then the others in instance
 * order.  Returns how many.
 */
static int
tree_host_members(const int *tids, int n, int host, int lead, int *a)
{
	int i, k = 0;

	a[k++] = lead;
	for (i = 0; i < n; i++) {
		if (tids[i] > 0 && tids[i] != lead &&
		    tid_host(tids[i]) == host) {
			a[k++] = tids[i];
		}
	}
	return k;
}

/*
 * The host leaders into a[]: the root first, then the lowest-instance
 * member of every other host, in instance order.  Returns how many.
 */
static int
tree_leaders(const int *tids, int n, int root, int *a)
{
	uint64_t seen[(TID_HOST_MAX + 64) / 64];
	int i, h, k = 0;

	memset(seen, 0, sizeof(seen));
	h = tid_host(root);
	seen[h / 64] |= 1ull << (h % 64);
	a[k++] = root;
	for (i = 0; i < n; i++) {
		if (tids[i] <= 0) {
			continue;
		}
		h = tid_host(tids[i]);
		if ((seen[h / 64] & (1ull << (h % 64))) == 0) {
			seen[h / 64] |= 1ull << (h % 64);
			a[k++] = tids[i];
		}
	}
	return k;
}

/* The leader of `host`: the root on its host, else its lowest instance. */
static int
tree_leader_of(const int *tids, int n, int root, int host)
{
	int i;

	if (tid_host(root) == host) {
		return root;
	}
	for (i = 0; i < n; i++) {
		if (tids[i] > 0 && tid_host(tids[i]) == host) {
			return tids[i];
		}
	}
	return 0;
}

int
gpvm_tree_build(const int *tids, int n, int root, int me,
    struct gpvm_tree *out)
{
	int *a, k, r, lead, rc = 0;

	if (tids == NULL || out == NULL || n <= 0 || root <= 0 || me <= 0 ||
	    tree_rank(tids, n, root) < 0 || tree_rank(tids, n, me) < 0) {
		return PvmBadParam;
	}
	if ((a = malloc((size_t)n * sizeof(*a))) == NULL) {
		return PvmNoMem;
	}
	out->parent = 0;
	out->nchildren = 0;

	/* Inside my host. */
	lead = tree_leader_of(tids, n, root, tid_host(me));
	k = tree_host_members(tids, n, tid_host(me), lead, a);
	r = tree_rank(a, k, me);
	if (r > 0) {
		out->parent = a[r & (r - 1)];
	}
	if ((rc = tree_add_children(a, k, r, out)) < 0 || r > 0) {
		goto out;
	}

	/* I lead my host: the tree across hosts. */
	k = tree_leaders(tids, n, root, a);
	r = tree_rank(a, k, me);
	if (r > 0) {
		out->parent = a[r & (r - 1)];
	}
	rc = tree_add_children(a, k, r, out);
out:
	free(a);
	return rc;
}

/*
 * The k-nomial tree of the shared-memory collectives (reduce_shm.c), over
 * instances.  Ranks: rootinst first, then the other members in instance
 * order.  Rank r > 0 hangs below r with its lowest non-zero base-radix
 * digit cleared; the children of r are r + j * m for m = 1, radix,
 * radix^2 ... below r's lowest non-zero digit (any for r = 0) and j = 1
 * .. radix - 1, in that order: the small subtrees first.  Radix 2 is the
 * binomial tree above (the same bracketing, so the same bits); a radix of
 * at least the group's size is flat, the root's children being everyone
 * in instance order.
 */

/* Rank of inst among a[0..k), or -1. */
static int
ktree_rank(const int *a, int k, int inst)
{
	int i;

	for (i = 0; i < k; i++) {
		if (a[i] == inst) {
			return i;
		}
	}
	return -1;
}

/* Children of rank r among a[0..k) into out; 0 or PvmNoMem. */
static int
ktree_children(const int *a, int k, int r, int radix, int lim,
    struct gpvm_ktree *out)
{
	long m;
	int j;

	for (m = 1; m < lim; m *= radix) {
		for (j = 1; j < radix && r + j * m < k; j++) {
			if (out->nchildren >= GPVM_KTREE_MAX) {
				return PvmNoMem;
			}
			out->children[out->nchildren++] = a[r + j * m];
		}
		if (r + m * radix >= k) {
			break;
		}
	}
	return 0;
}

int
gpvm_ktree_build(const int *tids, int ninst, int rootinst, int myinst,
    int radix, struct gpvm_ktree *out)
{
	int a[GPVM_KTREE_MAX + 1], i, k = 0, r, digit;
	long m;

	if (tids == NULL || out == NULL || ninst <= 0 ||
	    ninst > GPVM_KTREE_MAX + 1 || radix < 2 || rootinst < 0 ||
	    rootinst >= ninst || myinst < 0 || myinst >= ninst ||
	    tids[rootinst] <= 0 || tids[myinst] <= 0) {
		return PvmBadParam;
	}
	a[k++] = rootinst;
	for (i = 0; i < ninst; i++) {
		if (tids[i] > 0 && i != rootinst) {
			a[k++] = i;
		}
	}
	r = ktree_rank(a, k, myinst);
	out->parent = -1;
	out->nchildren = 0;
	if (r == 0) {
		return ktree_children(a, k, 0, radix, k, out);
	}
	for (m = 1; (digit = (int)((r / m) % radix)) == 0; m *= radix) {
	}
	out->parent = a[r - digit * m];
	return ktree_children(a, k, r, radix, (int)m, out);
}
